// client-node's KubeConfig (with undici, which it brings) is 2.4 of the bundle's 3 MiB. Compiling
// it is most of what start-up costs, and --version, --help, --from and completion never use it. So
// the single executable carries it as a separate script (src/chunk.ts) compiled only when a verb
// reaches a cluster. From source (tsx, the tests) it is an ordinary import.
import { runChunk } from '../chunk.ts';

type ClientNode = typeof import('@kubernetes/client-node/dist/config.js');

// Set by build.mjs (esbuild define) to the chunk's file name; undefined when run from source.
declare const __EVTIMELINE_CLIENT_NODE_CHUNK__: string | undefined;

let loaded: Promise<ClientNode> | undefined;

export function loadClientNode(): Promise<ClientNode> {
  loaded ??=
    typeof __EVTIMELINE_CLIENT_NODE_CHUNK__ === 'string'
      ? Promise.resolve(runChunk(__EVTIMELINE_CLIENT_NODE_CHUNK__) as ClientNode)
      : import('@kubernetes/client-node/dist/config.js');
  return loaded;
}

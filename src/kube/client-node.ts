// client-node's KubeConfig is a chunk (src/chunk.ts): only a verb that reaches a cluster compiles it.
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

// client-node's KubeConfig (with undici, which it brings) is 2.4 of the bundle's 3 MiB. Compiling
// it is most of what start-up costs, and --version, --help, --from and completion never use it. So
// the single executable carries it as a separate script (an asset of the executable; a file beside
// dist/kubectl-evtimeline.cjs) compiled only when a verb reaches a cluster. From source (tsx, the
// tests) it is an ordinary import.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

type ClientNode = typeof import('@kubernetes/client-node/dist/config.js');

// Set by build.mjs (esbuild define) to the chunk's file name; undefined when run from source.
declare const __EVTIMELINE_CLIENT_NODE_CHUNK__: string | undefined;

/** The chunk's source: the executable's asset, else the file beside the bundle. */
function chunkSource(name: string): string {
  const sea = process.getBuiltinModule('node:sea');
  if (sea?.isSea()) return sea.getAsset(name, 'utf8');
  return readFileSync(join(__dirname, name), 'utf8');
}

/** Runs a CommonJS chunk (it requires built-in modules only, as the bundle does) and returns its exports. */
function runChunk(name: string): unknown {
  const vm = process.getBuiltinModule('node:vm');
  const run = vm.compileFunction(chunkSource(name), ['exports', 'require', 'module'], { filename: name });
  const module = { exports: {} };
  run(module.exports, require, module);
  return module.exports;
}

let loaded: Promise<ClientNode> | undefined;

export function loadClientNode(): Promise<ClientNode> {
  loaded ??=
    typeof __EVTIMELINE_CLIENT_NODE_CHUNK__ === 'string'
      ? Promise.resolve(runChunk(__EVTIMELINE_CLIENT_NODE_CHUNK__) as ClientNode)
      : import('@kubernetes/client-node/dist/config.js');
  return loaded;
}

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

/** The chunk and V8's code cache for it (absent when not built): the executable's assets, else files beside the bundle. */
function chunkFiles(name: string): { source: string; cache: Buffer | undefined } {
  const sea = process.getBuiltinModule('node:sea');
  const cacheOf = (read: () => ArrayBuffer | Buffer): Buffer | undefined => {
    try {
      const data = read();
      return Buffer.isBuffer(data) ? data : Buffer.from(data);
    } catch {
      return undefined;
    }
  };
  if (sea?.isSea()) return { source: sea.getAsset(name, 'utf8'), cache: cacheOf(() => sea.getAsset(`${name}.cache`)) };
  const path = join(__dirname, name);
  return { source: readFileSync(path, 'utf8'), cache: cacheOf(() => readFileSync(`${path}.cache`)) };
}

/**
 * Runs a chunk: a CommonJS module wrapped in `(function (exports, require, module) {...})` that
 * requires built-in modules only, as the bundle does. A code cache made by the same Node binary
 * spares compiling it; V8 ignores one from another (cachedDataRejected) and compiles.
 */
function runChunk(name: string): unknown {
  const vm = process.getBuiltinModule('node:vm');
  const { source, cache } = chunkFiles(name);
  const script = new vm.Script(source, { filename: name, ...(cache ? { cachedData: cache } : {}) });
  const module = { exports: {} };
  (script.runInThisContext() as (exports: unknown, req: NodeJS.Require, module: unknown) => void)(module.exports, require, module);
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

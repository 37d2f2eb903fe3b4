// Libraries that only some runs need are not part of the bundle's main script: compiling them is
// most of what start-up costs, and --version, --help, --from and completion use none of them. The
// single executable carries each as a separate script (an asset; files beside
// dist/kubectl-evtimeline.cjs otherwise), compiled on first use, with a V8 code cache made at build.
// From source (tsx, the tests) each is an ordinary module. build.mjs makes them (CHUNKS).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

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

const loaded = new Map<string, unknown>();

/**
 * Runs a chunk once: a CommonJS module wrapped in `(function (exports, require, module) {...})` that
 * requires built-in modules only, as the bundle does. A code cache made by the same Node binary
 * spares compiling it; V8 ignores one from another (cachedDataRejected) and compiles.
 */
export function runChunk(name: string, shared?: Record<string, unknown>): unknown {
  if (loaded.has(name)) return loaded.get(name);
  const vm = process.getBuiltinModule('node:vm');
  const { source, cache } = chunkFiles(name);
  const script = new vm.Script(source, { filename: name, ...(cache ? { cachedData: cache } : {}) });
  const module = { exports: {} };
  // A chunk that uses the main script's own modules asks them by name (build.mjs sharedModules):
  // one copy of each, so an error class it throws is the one src/main.ts tests with instanceof.
  const load = shared === undefined ? require : (id: string): unknown => (Object.hasOwn(shared, id) ? shared[id] : require(id));
  (script.runInThisContext() as (exports: unknown, req: (id: string) => unknown, module: unknown) => void)(module.exports, load, module);
  loaded.set(name, module.exports);
  return module.exports;
}

/** A CommonJS package as the source tree loads it (tsx, the tests): what a chunk holds when bundled. */
function requireFromSource(pkg: string): unknown {
  return createRequire(import.meta.url)(pkg);
}

type Yaml = typeof import('yaml');

// Set by build.mjs (esbuild define) to the yaml chunk's file name; undefined when run from source.
declare const __EVTIMELINE_YAML_CHUNK__: string | undefined;

/** The yaml package (-o yaml, kubeconfig files): half of the main script were it part of it. */
export function yamlLibrary(): Yaml {
  return (typeof __EVTIMELINE_YAML_CHUNK__ === 'string' ? runChunk(__EVTIMELINE_YAML_CHUNK__) : requireFromSource('yaml')) as Yaml;
}

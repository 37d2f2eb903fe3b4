// Libraries that only some verbs use are carried as separate CommonJS scripts (chunks) and
// compiled on first use, so start-up (--version, --help, completion, --from) does not pay for
// them: in the single executable as assets, beside the bundle as files (build.mjs writes both).
// From source (tsx, the tests) callers import the library directly instead.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The chunk's source: the executable's asset, else the file beside the bundle. */
function chunkSource(name: string): string {
  const sea = process.getBuiltinModule('node:sea');
  if (sea?.isSea()) return sea.getAsset(name, 'utf8');
  return readFileSync(join(__dirname, name), 'utf8');
}

/** Runs a CommonJS chunk (it requires built-in modules only, as the bundle does) and returns its exports. */
export function runChunk(name: string): unknown {
  const vm = process.getBuiltinModule('node:vm');
  const run = vm.compileFunction(chunkSource(name), ['exports', 'require', 'module'], { filename: name });
  const module = { exports: {} };
  run(module.exports, require, module);
  return module.exports;
}

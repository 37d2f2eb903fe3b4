// How the verbs chunk (src/verbs.ts, see src/chunk.ts verbsModule) uses the main script's own
// modules without a second copy of them. esbuild splits code only for ESM output, which a single
// executable cannot run (its code cache rules out import()), so the chunk is a bundle of its own:
// every import it makes of a module the main script also holds becomes `require("evtimeline:PATH")`,
// and the main script hands the chunk those modules by name (runChunk's `shared`, an esbuild inject
// of __EVTIMELINE_SHARED_MODULES__). One copy each: an error class the chunk throws is the one
// src/main.ts tests with instanceof, and a chunk compiled once (src/chunk.ts's map) stays once.
import { writeFile } from 'node:fs/promises';
import { relative, resolve } from 'node:path';

export const SHARED_PREFIX = 'evtimeline:';

/** The source files a bundle holds code of (esbuild may have left all of a file out), relative to the working folder. */
export function bundledFiles(metafile) {
  const [output] = Object.values(metafile.outputs);
  return new Set(Object.entries(output.inputs).filter(([path, { bytesInOutput }]) => bytesInOutput > 0 && !/^[a-z-]+:/.test(path)).map(([path]) => path));
}

/**
 * An esbuild plugin for the chunk's build: an import that resolves to one of `mainFiles` is left to
 * run time as `require("evtimeline:PATH")`; `used` collects those paths.
 */
export function shareModules(mainFiles, used) {
  return {
    name: 'share-main-modules',
    setup(b) {
      b.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData?.sharing || args.kind === 'entry-point') return undefined;
        const found = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: { sharing: true } });
        if (found.errors.length > 0 || found.namespace !== 'file' || found.external) return undefined;
        const path = relative(process.cwd(), found.path);
        if (!mainFiles.has(path)) return undefined;
        used.add(path);
        return { path: `${SHARED_PREFIX}${path}`, external: true };
      });
    },
  };
}

/**
 * Writes the module the main script injects as __EVTIMELINE_SHARED_MODULES__: each path in `used`
 * -> that module's namespace (its exports, read when used).
 */
export async function writeSharedModules(file, used) {
  const paths = [...used].sort();
  const lines = paths.map((path, i) => `import * as m${i} from ${JSON.stringify(resolve(path))};`);
  const entries = paths.map((path, i) => `  ${JSON.stringify(`${SHARED_PREFIX}${path}`)}: m${i},`);
  await writeFile(file, `${lines.join('\n')}\nconst modules = {\n${entries.join('\n')}\n};\nexport { modules as __EVTIMELINE_SHARED_MODULES__ };\n`);
}

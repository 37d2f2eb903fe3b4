// The verbs chunk (src/verbs.ts), loaded when a verb runs: src/cli.ts declares the verbs and their
// flags, and src/process-deps.ts the adapters, without compiling either (src/chunk.ts).
import { runChunk } from './chunk.ts';

type Verbs = typeof import('./verbs.ts');

// Set by build.mjs: the verbs chunk's file name, and the main script's modules the chunk uses
// (esbuild inject); undefined when run from source.
declare const __EVTIMELINE_VERBS_CHUNK__: string | undefined;
declare const __EVTIMELINE_SHARED_MODULES__: Record<string, unknown>;

/**
 * The verbs, their adapters and completion's lookups (src/verbs.ts): most of the program,
 * compiled when a verb runs rather than before --help's first line. From source, the module itself.
 */
export async function verbsModule(): Promise<Verbs> {
  if (typeof __EVTIMELINE_VERBS_CHUNK__ === 'string') return runChunk(__EVTIMELINE_VERBS_CHUNK__, __EVTIMELINE_SHARED_MODULES__) as Verbs;
  // Named by a URL, not a literal, so that esbuild does not bundle the verbs into the main script.
  return (await import(new URL('./verbs.ts', import.meta.url).href)) as Verbs;
}

// How the page's script is made: esbuild bundles src/render/page/script/main.ts and what it imports
// (the page's modules and the escaper it shares with the terminal, src/render/escape.ts) into one
// script. build.mjs does it once and puts the text in the executable (esbuild define); run from
// source (tsx, the tests) src/render/page/script.ts does it on first use. One set of options for both.
// Plain, erasable TypeScript with no imports: build.mjs loads it through Node's type stripping.

/** What the bundle needs of esbuild: its buildSync. */
interface Esbuild {
  buildSync(options: Record<string, unknown>): { outputFiles?: { text: string }[] };
}

/** The page's script, bundled from the repository at `root` (an absolute path): the same text wherever it is run from. */
export function bundlePageScript(esbuild: Esbuild, root: string): string {
  const result = esbuild.buildSync({
    absWorkingDir: root,
    entryPoints: ['src/render/page/script/main.ts'],
    bundle: true,
    write: false,
    // One function scope: nothing the page declares becomes a global another script could reach.
    format: 'iife',
    // Browsers of the last few years; the page uses nothing newer than ES2022.
    target: 'es2022',
    platform: 'browser',
    // Non-ASCII as \u escapes: the page is read as UTF-8, but the hash in its CSP is of these bytes.
    charset: 'ascii',
    legalComments: 'none',
    logLevel: 'silent',
  });
  const text = result.outputFiles?.[0]?.text;
  if (text === undefined) throw new Error('esbuild wrote no page script');
  return text;
}

// The timeline page's inline script, bundled from src/render/page/script/ by esbuild
// (script-bundle.ts). In the executable build.mjs has put the bundle's text here (esbuild define):
// nothing is read at run time. From source (tsx, the tests) it is bundled on first use.
import { bundlePageScript } from './script-bundle.ts';

// Set by build.mjs to the bundled script's text; undefined when run from source.
declare const __EVTIMELINE_PAGE_SCRIPT__: string | undefined;

let script: string | undefined;

/** The page's script, checked once: an inline script ends at the first `</script` whatever JavaScript means there, and `<!--` changes how the HTML parser reads it. */
export function pageScript(): string {
  if (script !== undefined) return script;
  const text = typeof __EVTIMELINE_PAGE_SCRIPT__ === 'string' ? __EVTIMELINE_PAGE_SCRIPT__ : fromSource();
  if (/<\/script|<!--/i.test(text)) throw new Error('the timeline page script holds </script or <!--');
  script = text;
  return text;
}

/** Run from source: esbuild (a development dependency) bundles the page's modules now. */
function fromSource(): string {
  const { createRequire } = process.getBuiltinModule('node:module');
  const { fileURLToPath } = process.getBuiltinModule('node:url');
  const esbuild = createRequire(import.meta.url)('esbuild');
  return bundlePageScript(esbuild, fileURLToPath(new URL('../../../', import.meta.url)));
}

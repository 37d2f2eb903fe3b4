// The timeline page's inline script: the source text of timelinePage, called once.
// Function.prototype.toString gives the code as it runs here: bundled by esbuild in the executable,
// transformed by tsx in tests. tsx (esbuild's keepNames) wraps nested functions in a `__name(fn,
// "name")` helper that lives outside the function, so the page defines a harmless one of its own.
import { timelinePage } from './timeline-page.ts';

export const PAGE_SCRIPT = `"use strict";\nvar __name = function (fn) { return fn; };\n(${timelinePage.toString()})();\n`;

// An inline script ends at the first `</script` whatever JavaScript means there; `<!--` changes how
// the HTML parser reads it. The page's own code must hold neither (event text never reaches it).
if (/<\/script|<!--/i.test(PAGE_SCRIPT)) throw new Error('the timeline page script holds </script or <!--');

// The page's inline script as the renderer embeds it: esbuild's bundle of src/render/page/script/,
// one self-contained function that needs nothing at run time and cannot end its script element early.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageScript } from '../../../../src/render/page/script.ts';

test('the page script is one bundled function: no import, no require, no module left to load', () => {
  const script = pageScript();
  assert.match(script, /^"use strict";\n\(\(\) => \{\n/);
  assert.match(script, /\}\)\(\);\n$/);
  assert.doesNotMatch(script, /\bimport\s*[({'"]|\brequire\(|\bexport\s/);
  // Its modules are all in it, the escaper it shares with the terminal included.
  for (const module of ['script/main.ts', 'script/model.ts', 'script/header.ts', 'script/controls.ts', 'script/canvas.ts', 'script/selection.ts', 'script/text.ts', 'script/lanes.ts', 'script/layout.ts', 'render/escape.ts']) assert.ok(script.includes(`// src/render/${module.startsWith('render/') ? module.slice(7) : `page/${module}`}`), module);
});

test('the page script holds neither </script nor <!--, and is plain ASCII (non-ASCII as \\u escapes)', () => {
  const script = pageScript();
  assert.doesNotMatch(script, /<\/script|<!--/i);
  assert.match(script, /^[\x00-\x7f]*$/);
  assert.ok(script.includes('\\u2514\\u2500'), 'the tree connector is written as escapes');
});

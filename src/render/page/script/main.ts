/// <reference lib="dom" />
// The timeline page's script: runs in the browser, never in Node. build.mjs bundles this file and
// what it imports into one script (esbuild, src/render/page/script-bundle.ts) that the page inlines.
// Event text is untrusted. It is read from a JSON script element with JSON.parse and only ever put
// into the page as text nodes (textContent, createTextNode) or painted on a canvas; never innerHTML,
// never an attribute that loads or runs anything. Controls and bidi overrides are shown as \uXXXX.
//
// This file only wires the modules together: model.ts (the data, filters, view and selection),
// header.ts (the words above the lanes), controls.ts (toolbar, filters, pointer and keys),
// canvas.ts (the rows, the axis and the marks; layout.ts says where each row lies, lanes.ts puts
// the rows near the screen in the document) and selection.ts (the tooltip and the selected mark).

import type { PageData } from '../../html-data.ts';
import { plot } from './canvas.ts';
import { filterBar, hint, toolbar, wireInput } from './controls.ts';
import { header, legend } from './header.ts';
import { pageModel } from './model.ts';
import { selecting } from './selection.ts';

function timelinePage(): void {
  const doc = document;
  const data = JSON.parse(doc.getElementById('timeline-data')?.textContent ?? 'null') as PageData;
  const app = doc.getElementById('app') as HTMLElement;
  const model = pageModel(data);

  // The page top to bottom. The hooks call modules made further down: none runs before the end of this function.
  header(app, model, (i) => selection.showEvent(i));
  const range = toolbar(app, model, () => {
    chart.readColours();
    chart.scheduleDraw(false);
  });
  const filters = filterBar(app, model, { filter: applyFilter, setAll });
  legend(app);
  const chart = plot(app, model, {
    toggle: (lane) => setCollapsed(lane, !model.collapsed.has(lane)),
    keydown: (row, e) => selection.stepSelection(row, e),
    focus: (row) => selection.selectFirstOnFocus(row),
    blur: (row) => selection.blurred(row),
  });
  hint(app);
  const selection = selecting(model, chart);
  wireInput(model, chart, selection);

  model.onView(() => {
    range.showRange();
    chart.scheduleDraw(true);
  });
  function applyFilter(): void {
    filters.showCount(model.applyFilter());
    chart.relayout();
  }
  function setCollapsed(lane: number, value: boolean): void {
    if (value) model.collapsed.add(lane);
    else model.collapsed.delete(lane);
    chart.relayout();
  }
  function setAll(value: boolean): void {
    data.lanes.forEach((_, lane) => (value ? model.collapsed.add(lane) : model.collapsed.delete(lane)));
    chart.relayout();
  }

  chart.readColours();
  range.showRange();
  applyFilter();
  chart.scheduleDraw(true);
}

timelinePage();

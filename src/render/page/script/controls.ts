/// <reference lib="dom" />
// The page's controls: the toolbar (zoom, pan, fit, the TTL horizon, the theme), the filters (types,
// reason, collapse), and what the pointer and the keyboard do on the plot and the window's events
// (scroll, resize, print, the system's colour scheme). Each changes the model (model.ts) and asks the
// plot (canvas.ts) to draw it.

import type { Plot } from './canvas.ts';
import type { Model } from './model.ts';
import type { Selecting } from './selection.ts';
import { shapeSwatch } from './shapes.ts';
import { el, iso, length, plural, thousands } from './text.ts';

/** The toolbar, appended to `app`; `recolour` after a change of theme. Returns what says the range shown. */
export function toolbar(app: HTMLElement, model: Model, recolour: () => void): { showRange(): void } {
  const doc = document;
  const { data, fitted } = model;
  const controls = el('div', 'controls');
  controls.setAttribute('role', 'toolbar');
  controls.setAttribute('aria-label', 'Time axis');
  const button = (text: string, title: string, action: () => void, cls = ''): HTMLButtonElement => {
    const b = el('button', cls, text);
    b.type = 'button';
    b.title = title;
    b.addEventListener('click', action);
    controls.append(b);
    return b;
  };
  button('Zoom in', 'Zoom in (+ or W; Ctrl+wheel)', () => model.zoom(0.5));
  button('Zoom out', 'Zoom out (- or S; Ctrl+wheel)', () => model.zoom(2));
  button('\u25C0 Pan', 'Pan back in time (Shift+Left or A; drag)', () => model.pan(-0.25));
  button('Pan \u25B6', 'Pan forward in time (Shift+Right or D; drag)', () => model.pan(0.25));
  button('Fit events', 'Show every event (0)', () => model.setView(fitted[0], fitted[1]));
  button('Show TTL horizon', 'Widen the view to the time before which the API server had deleted events', () =>
    model.setView(Math.min(fitted[0], data.ttlHorizon - (fitted[1] - fitted[0]) * 0.05), fitted[1]),
  );
  const rangeText = el('span', 'range');
  rangeText.id = 'range';
  rangeText.setAttribute('aria-live', 'polite');
  controls.append(rangeText);
  const themes = ['auto', 'light', 'dark'];
  const themeButton = button('Theme: auto', 'Light, dark, or as the system says', () => {
    const next = themes[(themes.indexOf(doc.documentElement.dataset.theme ?? 'auto') + 1) % themes.length] ?? 'auto';
    if (next === 'auto') delete doc.documentElement.dataset.theme;
    else doc.documentElement.dataset.theme = next;
    themeButton.textContent = `Theme: ${next}`;
    recolour();
  }, 'theme');
  app.append(controls);

  /** Said at once, not at the next frame: the range is what a screen reader announces. */
  function showRange(): void {
    const { view } = model.state;
    rangeText.textContent = `Showing ${iso(Math.round(view.start))} to ${iso(Math.round(view.end))} (${length(view.end - view.start)})`;
    rangeText.dataset.start = String(Math.round(view.start));
    rangeText.dataset.end = String(Math.round(view.end));
  }
  return { showRange };
}

/** What the filters change: `filter` after a type or the reason changed, `setAll` to collapse or expand every lane. */
interface FilterHooks {
  filter(): void;
  setAll(collapsed: boolean): void;
}

/** The filters, appended to `app`. Returns what says how many events they show. */
export function filterBar(app: HTMLElement, model: Model, hooks: FilterHooks): { showCount(events: number): void } {
  const { data } = model;
  const filters = el('div', 'controls');
  const typeSet = el('fieldset', 'types');
  typeSet.append(el('legend', '', 'Types (untick to hide)'));
  data.types.forEach((type, i) => {
    const label = el('label', `type-choice ${type.kind === 'unconventional' ? 'odd' : ''}`);
    const box = el('input');
    box.type = 'checkbox';
    box.checked = true;
    box.dataset.type = String(i);
    box.addEventListener('change', () => {
      if (box.checked) model.hiddenTypes.delete(i);
      else model.hiddenTypes.add(i);
      hooks.filter();
    });
    label.append(box, shapeSwatch(type), el('span', 'type-name', model.typeName(type)));
    if (type.note !== '') label.append(el('span', 'note', `(${type.note})`));
    label.append(el('span', 'note', `${model.typeCount[i] ?? 0}`));
    typeSet.append(label);
  });
  const reasonLabel = el('label', '', 'Reason contains ');
  const reasonInput = el('input');
  reasonInput.type = 'search';
  reasonInput.id = 'reason-filter';
  reasonInput.placeholder = 'e.g. Failed';
  reasonInput.addEventListener('input', () => {
    model.state.reasonQuery = reasonInput.value.trim().toLowerCase();
    hooks.filter();
  });
  reasonLabel.append(reasonInput);
  const shownText = el('span', 'shown');
  shownText.id = 'shown';
  const collapseAll = el('button', '', 'Collapse all');
  collapseAll.type = 'button';
  const expandAll = el('button', '', 'Expand all');
  expandAll.type = 'button';
  collapseAll.addEventListener('click', () => hooks.setAll(true));
  expandAll.addEventListener('click', () => hooks.setAll(false));
  filters.append(typeSet, reasonLabel, shownText, collapseAll, expandAll);
  app.append(filters);
  return {
    showCount(events: number): void {
      shownText.textContent = `${plural(events, 'event')} of ${thousands(model.events.length)} shown`;
    },
  };
}

/** The line under the lanes that says what the pointer and the keys do. */
export function hint(app: HTMLElement): void {
  app.append(el('p', 'hint', 'Hover a mark, or focus a reason row (Tab) for its first event and press Left/Right for the others. Zoom: + / - or Ctrl+wheel; pan: Shift+Left/Right or drag; 0 fits.'));
}

/** The pointer on the plot (hover, drag, double click, wheel), the keys, and the window's events. */
export function wireInput(model: Model, plot: Plot, selection: Selecting): void {
  const doc = document;
  const { at, drawnAt, fitted, state } = model;
  const { rowsEl, layer } = plot;
  function plotPoint(e: MouseEvent): { x: number; y: number } | null {
    const lr = layer.getBoundingClientRect();
    const rr = rowsEl.getBoundingClientRect();
    const x = e.clientX - lr.left;
    if (x < 0 || x > lr.width) return null;
    return { x, y: e.clientY - rr.top };
  }
  let drag: { x: number; start: number; end: number } | null = null;
  rowsEl.addEventListener('mousemove', (e) => {
    if (drag !== null) {
      const d = ((e.clientX - drag.x) / plot.width()) * (drag.end - drag.start);
      model.setView(drag.start - d, drag.end - d);
      return;
    }
    const p = plotPoint(e);
    const row = p === null ? null : selection.rowAt(p.y);
    const i = row === null || p === null ? null : selection.eventNear(row, p.x);
    if (i === null) selection.hideTooltip();
    else selection.showTooltip(i, e.clientX, e.clientY);
  });
  rowsEl.addEventListener('mouseleave', selection.hideTooltip);
  rowsEl.addEventListener('mousedown', (e) => {
    if (e.button !== 0 || plotPoint(e) === null) return;
    drag = { x: e.clientX, start: state.view.start, end: state.view.end };
    e.preventDefault();
  });
  window.addEventListener('mouseup', () => {
    drag = null;
  });
  rowsEl.addEventListener('dblclick', (e) => {
    const p = plotPoint(e);
    if (p !== null) model.zoom(0.5, plot.timeAt(p.x));
  });
  plot.chart.addEventListener(
    'wheel',
    (e) => {
      const lr = layer.getBoundingClientRect();
      const x = e.clientX - lr.left;
      if (x < 0 || x > lr.width) return;
      if (e.ctrlKey || e.metaKey) {
        e.preventDefault();
        model.zoom(e.deltaY < 0 ? 0.8 : 1.25, plot.timeAt(x));
      } else if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
        e.preventDefault();
        model.pan(((e.shiftKey ? e.deltaY : e.deltaX) / lr.width) || 0);
      }
    },
    { passive: false },
  );
  doc.addEventListener('keydown', (e) => {
    const target = e.target as HTMLElement | null;
    if (target !== null && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA')) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const selectedAt = state.selected === null ? null : at(model.events[state.selected.event]?.[4] ?? null);
    const around = selectedAt === null ? undefined : drawnAt(selectedAt);
    const keys: Record<string, () => void> = {
      '+': () => model.zoom(0.5, around),
      '=': () => model.zoom(0.5, around),
      w: () => model.zoom(0.5, around),
      '-': () => model.zoom(2, around),
      s: () => model.zoom(2, around),
      '0': () => model.setView(fitted[0], fitted[1]),
      a: () => model.pan(-0.25),
      d: () => model.pan(0.25),
    };
    let action = keys[e.key.length === 1 ? e.key.toLowerCase() : e.key];
    if (e.shiftKey && e.key === 'ArrowLeft') action = () => model.pan(-0.25);
    if (e.shiftKey && e.key === 'ArrowRight') action = () => model.pan(0.25);
    if (e.key === 'Escape') action = () => selection.select(null);
    if (action === undefined) return;
    e.preventDefault();
    action();
  });
  window.addEventListener('scroll', () => plot.scheduleDraw(false), { passive: true });
  window.addEventListener('resize', () => {
    plot.relayout();
    plot.scheduleDraw(true);
  });
  window.addEventListener('beforeprint', () => plot.setPrinting(true));
  window.addEventListener('afterprint', () => plot.setPrinting(false));
  window.matchMedia('print').addEventListener('change', (e) => plot.setPrinting(e.matches));
  window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
    plot.readColours();
    plot.scheduleDraw(false);
  });
}

/// <reference lib="dom" />
// The timeline page's script: runs in the browser, never in Node. build.mjs bundles this file and
// what it imports into one script (esbuild, src/render/page/script-bundle.ts) that the page inlines.
// Event text is untrusted. It is read from a JSON script element with JSON.parse and only ever put
// into the page as text nodes (textContent, createTextNode) or painted on a canvas; never innerHTML,
// never an attribute that loads or runs anything. Controls and bidi overrides are shown as \uXXXX.

import type { PageData, PageEvent, PageType } from '../../html-data.ts';
import { shape, shapeSwatch, spanSwatch } from './shapes.ts';
import { el, iso, length, plural, thousands, visible } from './text.ts';
import { laneRenderer } from './lanes.ts';
import type { Row } from './lanes.ts';
import { itemsBetween, layOut } from './layout.ts';
import type { Item, Layout } from './layout.ts';
import { axisTicks } from './ticks.ts';

function timelinePage(): void {
  const doc = document;
  const data = JSON.parse(doc.getElementById('timeline-data')?.textContent ?? 'null') as PageData;
  const app = doc.getElementById('app') as HTMLElement;

  const str = (i: number): string => data.strings[i] ?? '';
  const typeName = (type: PageType): string => (type.name === '' ? '(empty)' : visible(type.name));
  function relative(ms: number): string {
    const d = ms - data.capturedAt;
    if (d === 0) return 'at capture time';
    return d < 0 ? `${length(d)} before capture` : `${length(d)} after capture`;
  }
  const at = (rel: number | null): number | null => (rel === null ? null : data.t0 + rel);

  // ---- model --------------------------------------------------------------------------------------
  const rowsOf = data.events as PageEvent[];
  const trackEvents: number[][] = data.tracks.map(() => []);
  rowsOf.forEach((ev, i) => trackEvents[ev[0]]?.push(i));
  const byFirst = (a: number, b: number): number => (rowsOf[a]?.[4] ?? -Infinity) - (rowsOf[b]?.[4] ?? -Infinity);
  trackEvents.forEach((list) => list.sort(byFirst));
  const laneTracks: number[][] = data.lanes.map(() => []);
  data.tracks.forEach((tr, i) => laneTracks[tr[0]]?.push(i));
  const typeCount = data.types.map(() => 0);
  rowsOf.forEach((ev) => {
    const type = data.tracks[ev[0]]?.[2] ?? 0;
    typeCount[type] = (typeCount[type] ?? 0) + 1;
  });
  const untimed = rowsOf.filter((ev) => ev[4] === null).length;

  const hiddenTypes = new Set<number>();
  let reasonQuery = '';
  const collapsed = new Set<number>();
  function trackShown(track: number): boolean {
    const tr = data.tracks[track];
    if (tr === undefined || hiddenTypes.has(tr[2])) return false;
    return reasonQuery === '' || str(tr[1]).toLowerCase().includes(reasonQuery);
  }

  // ---- scale: which times are drawn to scale ---------------------------------------------------------
  // The API server accepts any time (anyone who may create events can date one 3000-01-01); drawn to
  // scale it would squeeze every other event into a pixel. A time more than a day after the capture, or
  // more than ten years before its TTL horizon, is told in the facts and drawn at the fitted view's edge.
  const DAY = 86_400_000;
  const scaleFrom = Math.min(data.ttlHorizon, data.capturedAt) - 3653 * DAY;
  const scaleTo = data.capturedAt + DAY;
  const inScale = (ms: number): boolean => ms >= scaleFrom && ms <= scaleTo;
  /** The events' times, first and last seen, as epoch ms. */
  function eventTimes(): number[] {
    const times: number[] = [];
    for (const ev of rowsOf) {
      const first = at(ev[4]);
      const last = at(ev[5]);
      if (first !== null) times.push(first);
      if (last !== null && last !== first) times.push(last);
    }
    return times;
  }
  /** The window of the times drawn to scale; null when there are none. */
  function scaledWindow(times: number[]): [number, number] | null {
    let start = Infinity;
    let end = -Infinity;
    for (const t of times) {
      if (!inScale(t)) continue;
      start = Math.min(start, t);
      end = Math.max(end, t);
    }
    return Number.isFinite(start) ? [start, end] : null;
  }
  /** The events dated out of scale: how many, and their distinct times, oldest first. */
  function farDated(): { count: number; times: number[] } {
    let count = 0;
    const times = new Set<number>();
    for (const ev of rowsOf) {
      const far = [at(ev[4]), at(ev[5])].filter((t): t is number => t !== null && !inScale(t));
      if (far.length > 0) count += 1;
      for (const t of far) times.add(t);
    }
    return { count, times: [...times].sort((a, b) => a - b) };
  }

  // The view: what part of time the plot shows. Fit: the window of the times drawn to scale, and the capture time.
  const MIN_SPAN = 10;
  function fitRange(): [number, number] {
    const scaled = scaledWindow(eventTimes());
    const start = scaled?.[0] ?? data.capturedAt - 60_000;
    const end = Math.max(scaled?.[1] ?? data.capturedAt, data.capturedAt);
    const pad = Math.max((end - start) * 0.04, 500);
    return [start - pad, end + pad];
  }
  const fitted = fitRange();
  /** Where a time is drawn: itself, or (out of scale) just inside the fitted view's nearer edge. */
  function drawnAt(ms: number): number {
    const inset = (fitted[1] - fitted[0]) * 0.015;
    if (ms > scaleTo) return fitted[1] - inset;
    if (ms < scaleFrom) return fitted[0] + inset;
    return ms;
  }
  let view = { start: fitted[0], end: fitted[1] };
  const outer: [number, number] = [
    Math.min(fitted[0], data.ttlHorizon) - (fitted[1] - Math.min(fitted[0], data.ttlHorizon)),
    fitted[1] + (fitted[1] - fitted[0]) * 4,
  ];
  function setView(start: number, end: number): void {
    let span = Math.max(MIN_SPAN, Math.min(end - start, outer[1] - outer[0]));
    let s = (start + end) / 2 - span / 2;
    s = Math.max(outer[0], Math.min(s, outer[1] - span));
    span = Math.min(span, outer[1] - s);
    view = { start: s, end: s + span };
    showRange();
    scheduleDraw(true);
  }
  /** Said at once, not at the next frame: the range is what a screen reader announces. */
  function showRange(): void {
    rangeText.textContent = `Showing ${iso(Math.round(view.start))} to ${iso(Math.round(view.end))} (${length(view.end - view.start)})`;
    rangeText.dataset.start = String(Math.round(view.start));
    rangeText.dataset.end = String(Math.round(view.end));
  }
  function zoom(factor: number, around?: number): void {
    const c = around ?? (view.start + view.end) / 2;
    setView(c - (c - view.start) * factor, c + (view.end - c) * factor);
  }
  function pan(fraction: number): void {
    const d = (view.end - view.start) * fraction;
    setView(view.start + d, view.end + d);
  }

  function farFact({ count, times }: { count: number; times: number[] }): string {
    const shown = times.slice(0, 3).map(iso).join(', ') + (times.length > 3 ? ` and ${plural(times.length - 3, 'other time')}` : '');
    const edges = [times.some((t) => t < scaleFrom) ? 'left' : '', times.some((t) => t > scaleTo) ? 'right' : ''].filter((e) => e !== '');
    const one = count === 1;
    return `${plural(count, 'event')} ${one ? 'is' : 'are'} dated far from the capture (${shown}): ${one ? 'it is' : 'they are'} drawn at the ${edges.join(' and ')} edge${edges.length > 1 ? 's' : ''}, not to scale, marked with an arrow and the date; hover for the exact time.`;
  }

  // ---- header, controls, legend ------------------------------------------------------------------
  const header = el('header');
  header.append(el('h1', '', `Event timeline: ${visible(data.scope)}`));
  const headline = el('ul', 'headline');
  for (const line of data.headline) headline.append(el('li', '', line.trim()));
  header.append(headline);
  // The causes above the lanes, each linked to the events it explains: a click selects the event's mark.
  if (data.causes.length > 0) {
    const why = el('section', 'why');
    why.setAttribute('aria-label', 'Why');
    why.append(el('h2', '', 'Why'));
    const list = el('ul', 'causes');
    for (const cause of data.causes) {
      const item = el('li', 'cause', visible(cause.line));
      if (cause.evidence.length > 0) item.title = visible(cause.evidence.join('\n'));
      for (const i of cause.events.slice(0, 5)) {
        const link = el('button', 'cause-event', visible(data.strings[rowsOf[i]?.[1] ?? -1] ?? ''));
        link.type = 'button';
        link.title = 'Show this event on the timeline';
        link.addEventListener('click', () => showEvent(i));
        item.append(' ', link);
      }
      if (cause.events.length > 5) item.append(` and ${plural(cause.events.length - 5, 'more event')}`);
      list.append(item);
    }
    why.append(list);
    header.append(why);
  }
  const facts: string[] = [];
  if (data.window !== null) {
    facts.push(`The events cover ${iso(data.window[0])} to ${iso(data.window[1])} (${length(data.window[1] - data.window[0])}).`);
  }
  if (data.observed !== null) facts.push(`The record observed from ${iso(data.observed[0])} to ${iso(data.observed[1])}.`);
  facts.push(`Read at ${iso(data.capturedAt)}.`);
  facts.push(
    `The API server deletes an event ${length(data.eventTTLms)} after its last write (--event-ttl): whatever was not written since ${iso(data.ttlHorizon)} was gone before it was read, so the story may begin earlier than it seems.`,
  );
  const far = farDated();
  if (far.count > 0) facts.push(farFact(far));
  if (untimed > 0) facts.push(`${plural(untimed, 'event')} carry no time and are listed without marks.`);
  for (const fact of facts) header.append(el('p', 'facts', fact));
  app.append(header);

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
  button('Zoom in', 'Zoom in (+ or W; Ctrl+wheel)', () => zoom(0.5));
  button('Zoom out', 'Zoom out (- or S; Ctrl+wheel)', () => zoom(2));
  button('\u25C0 Pan', 'Pan back in time (Shift+Left or A; drag)', () => pan(-0.25));
  button('Pan \u25B6', 'Pan forward in time (Shift+Right or D; drag)', () => pan(0.25));
  button('Fit events', 'Show every event (0)', () => setView(fitted[0], fitted[1]));
  button('Show TTL horizon', 'Widen the view to the time before which the API server had deleted events', () =>
    setView(Math.min(fitted[0], data.ttlHorizon - (fitted[1] - fitted[0]) * 0.05), fitted[1]),
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
    readColours();
    scheduleDraw(false);
  }, 'theme');
  app.append(controls);

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
      if (box.checked) hiddenTypes.delete(i);
      else hiddenTypes.add(i);
      applyFilter();
    });
    label.append(box, shapeSwatch(type), el('span', 'type-name', typeName(type)));
    if (type.note !== '') label.append(el('span', 'note', `(${type.note})`));
    label.append(el('span', 'note', `${typeCount[i] ?? 0}`));
    typeSet.append(label);
  });
  const reasonLabel = el('label', '', 'Reason contains ');
  const reasonInput = el('input');
  reasonInput.type = 'search';
  reasonInput.id = 'reason-filter';
  reasonInput.placeholder = 'e.g. Failed';
  reasonInput.addEventListener('input', () => {
    reasonQuery = reasonInput.value.trim().toLowerCase();
    applyFilter();
  });
  reasonLabel.append(reasonInput);
  const shownText = el('span', 'shown');
  shownText.id = 'shown';
  const collapseAll = el('button', '', 'Collapse all');
  collapseAll.type = 'button';
  const expandAll = el('button', '', 'Expand all');
  expandAll.type = 'button';
  filters.append(typeSet, reasonLabel, shownText, collapseAll, expandAll);
  app.append(filters);

  const legend = el('div', 'legend');
  const legendItem = (swatch: Element, text: string): void => {
    const item = el('span');
    item.append(swatch, doc.createTextNode(text));
    legend.append(item);
  };
  legendItem(spanSwatch(), 'repeated event: first to last seen, \u00D7count');
  legendItem(el('span', 'swatch-shade window'), 'the window the events cover');
  legendItem(el('span', 'swatch-shade ttl'), 'before the TTL horizon: events last written then were already deleted');
  legendItem(el('span', 'swatch-line'), 'capture time');
  app.append(legend);

  // ---- lanes ----------------------------------------------------------------------------------------
  const chart = el('div', 'chart');
  const axisRow = el('div', 'axis-row');
  axisRow.append(el('div', 'label', 'Object / reason (UTC)'));
  const axis = el('div', 'axis');
  axisRow.append(axis);
  chart.append(axisRow);
  const rowsEl = el('div', 'rows');
  chart.append(rowsEl);
  const layer = el('div', 'plot-layer');
  const ttlShade = el('div', 'shade ttl');
  const windowShade = el('div', 'shade window');
  const captureLine = el('div', 'vline capture');
  const canvas = el('canvas', 'marks');
  layer.append(windowShade, ttlShade, captureLine, canvas);
  rowsEl.append(layer);
  app.append(chart);
  const hint = el('p', 'hint', 'Hover a mark, or focus a reason row (Tab) for its first event and press Left/Right for the others. Zoom: + / - or Ctrl+wheel; pan: Shift+Left/Right or drag; 0 fits.');
  app.append(hint);
  const tooltip = el('div', 'tooltip');
  tooltip.id = 'tooltip';
  tooltip.setAttribute('role', 'tooltip');
  tooltip.hidden = true;
  doc.body.append(tooltip);

  // Every row of the lanes as a value; only those near the screen have an element (lanes.ts).
  const laneRows: Row[] = data.lanes.map((_, lane) => ({
    lane,
    track: null,
    events: (laneTracks[lane] ?? []).flatMap((t) => trackEvents[t] ?? []).sort(byFirst),
    y: 0,
    h: 0,
    el: null,
  }));
  const trackRows: Row[] = data.tracks.map((tr, track) => ({ lane: tr[0], track, events: trackEvents[track] ?? [], y: 0, h: 0, el: null }));
  const lanes = laneRenderer(
    {
      data,
      typeName,
      laneTracks,
      trackEvents,
      laneRows,
      trackRows,
      collapsed: (lane) => collapsed.has(lane),
      toggle: (lane) => setCollapsed(lane, !collapsed.has(lane)),
      keydown: stepSelection,
      focus: selectFirstOnFocus,
      blur: (row) => {
        if (selected?.row === row) select(null);
      },
    },
    rowsEl,
  );
  if (data.lanes.length === 0) rowsEl.append(el('p', 'empty', 'No events.'));

  function setCollapsed(lane: number, value: boolean): void {
    if (value) collapsed.add(lane);
    else collapsed.delete(lane);
    relayout();
  }
  const setAll = (value: boolean): void => {
    data.lanes.forEach((_, lane) => (value ? collapsed.add(lane) : collapsed.delete(lane)));
    relayout();
  };
  collapseAll.addEventListener('click', () => setAll(true));
  expandAll.addEventListener('click', () => setAll(false));

  // Every row has a fixed height (the stylesheet's), so where each lies is known without laying one out.
  const px = (name: string): number => parseFloat(getComputedStyle(doc.documentElement).getPropertyValue(name)) || 0;
  const sizes = { group: px('--group-h'), lane: px('--lane-h'), row: px('--row-h') };

  /** Which tracks and lanes the filter shows, worked out once per change of the filter. */
  let trackVisible: boolean[] = [];
  let laneVisible: boolean[] = [];
  function applyFilter(): void {
    let events = 0;
    trackVisible = data.tracks.map((_, t) => trackShown(t));
    trackVisible.forEach((shown, t) => {
      if (shown) events += trackEvents[t]?.length ?? 0;
    });
    // A lane shows while any of its tracks does, or (an owner) while anything it owns shows. Owned
    // lanes come after their owner's, so walking back settles every member before its owner.
    laneVisible = data.lanes.map((_, l) => (laneTracks[l] ?? []).some((t) => trackVisible[t] === true));
    for (let l = data.lanes.length - 1; l >= 0; l -= 1) {
      const owner = data.lanes[l]?.owner ?? null;
      if (laneVisible[l] && owner !== null) laneVisible[owner] = true;
    }
    shownText.textContent = `${plural(events, 'event')} of ${thousands(rowsOf.length)} shown`;
    relayout();
  }

  // ---- drawing ------------------------------------------------------------------------------------
  let colours: Record<string, string> = {};
  function readColours(): void {
    const css = getComputedStyle(doc.documentElement);
    colours = {};
    for (const name of ['fg', 'muted', 'grid', 'normal', 'warning', 'odd', 'bg', 'focus']) colours[name] = css.getPropertyValue(`--${name}`).trim();
  }
  const colourOf = (type: PageType): string => colours[type.kind === 'unconventional' ? 'odd' : type.kind] ?? '#888';

  /** Where every shown row lies (layout.ts): set by the first filter below. */
  let layout: Layout = { items: [], height: 0, groupItem: new Map(), laneItem: new Map(), trackItem: new Map() };
  /** The rows that draw marks in the part of .rows last drawn, top to bottom. */
  let visibleRows: Row[] = [];
  /** Where every shown row lies: after a filter, a collapse or a resize. */
  function relayout(): void {
    layout = layOut(
      {
        groups: data.groups,
        laneTracks,
        laneShown: (lane) => laneVisible[lane] === true,
        trackShown: (track) => trackVisible[track] === true,
        collapsed: (lane) => collapsed.has(lane),
      },
      sizes,
    );
    for (const it of layout.items) {
      const row = it.kind === 'lane' ? laneRows[it.lane] : it.kind === 'track' ? trackRows[it.track] : undefined;
      if (row === undefined) continue;
      row.y = it.y;
      row.h = it.h;
    }
    rowsEl.style.height = layout.height > 0 ? `${layout.height}px` : '';
    // The rows in the document at once, as a filter or a collapse is made; their marks at the next frame.
    renderRows(rowsEl.getBoundingClientRect());
    scheduleDraw(false);
  }
  /** The rows on screen and a screen either side into the document (r: where .rows is on screen); on paper, every row. */
  function renderRows(r: DOMRect): void {
    if (printing) lanes.render(layout, 0, layout.height);
    else lanes.render(layout, -r.top - innerHeight, 2 * innerHeight - r.top);
  }
  /** The rows that draw marks between top and bottom: a collapsed lane's own row, else its shown reason rows. */
  function rowsBetween(top: number, bottom: number): Row[] {
    const [from, to] = itemsBetween(layout, top, bottom);
    const rows: Row[] = [];
    for (let i = from; i < to; i += 1) {
      const it = layout.items[i] as Item;
      const row = it.kind === 'track' ? trackRows[it.track] : it.kind === 'lane' && collapsed.has(it.lane) ? laneRows[it.lane] : undefined;
      if (row !== undefined) rows.push(row);
    }
    return rows;
  }
  /** Whether a row is in the layout now (its lane and, unless collapsed, its track shown). */
  const inLayout = (row: Row): boolean => (row.track === null ? layout.laneItem.has(row.lane) && collapsed.has(row.lane) : layout.trackItem.has(row.track));

  // The plot's width, read once per frame (measurePlot in draw): a read after the axis changed forces
  // a layout, and one per tick made thousands of them.
  let plotW = 0;
  function measurePlot(): number {
    plotW = layer.clientWidth;
    return plotW;
  }
  const xOf = (ms: number): number => ((ms - view.start) / (view.end - view.start)) * plotW;
  const timeAt = (x: number): number => view.start + (x / plotW) * (view.end - view.start);

  let frame = 0;
  let axisDirty = true;
  let printing = false;
  const MAX_CANVAS = 30_000;
  function scheduleDraw(viewChanged: boolean): void {
    if (viewChanged) axisDirty = true;
    if (frame !== 0) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      draw();
    });
  }

  function place(node: HTMLElement, from: number, to: number): void {
    const w = plotW;
    const x1 = Math.max(-2, Math.min(w + 2, xOf(from)));
    const x2 = Math.max(-2, Math.min(w + 2, xOf(to)));
    node.hidden = x2 - x1 <= 0.5;
    node.style.left = `${x1}px`;
    node.style.width = `${x2 - x1}px`;
  }

  function drawAxis(): void {
    axisDirty = false;
    axis.replaceChildren();
    const w = plotW;
    const span = view.end - view.start;
    for (const { ms, label } of axisTicks(view.start, view.end, w)) {
      const x = xOf(ms);
      // A label half cut off at either edge reads as another time.
      if (x < 24 || x > w - 24) continue;
      const tick = el('span', 'tick', label);
      tick.style.left = `${x}px`;
      axis.append(tick);
    }
    const note = (cls: string, text: string, ms: number): void => {
      const x = xOf(ms);
      if (x < 0 || x > w) return;
      const n = el('span', `axis-note ${cls}`, text);
      n.style.left = `${x}px`;
      // Written towards the middle, so that a note near either edge stays whole.
      if (x > w / 2) n.style.transform = 'translateX(-100%)';
      axis.append(n);
    };
    note('ttl', `TTL horizon ${iso(data.ttlHorizon)}`, data.ttlHorizon);
    note('capture', 'captured', data.capturedAt);
    if (xOf(data.ttlHorizon) < 0) {
      const n = el('span', 'axis-note', `\u2190 TTL horizon ${length(view.start - data.ttlHorizon)} earlier`);
      n.style.left = '0px';
      axis.append(n);
    }
    place(ttlShade, outer[0] - span, data.ttlHorizon);
    if (data.window !== null) place(windowShade, data.window[0], Math.max(data.window[1], data.window[0] + 1));
    else windowShade.hidden = true;
    const cx = xOf(data.capturedAt);
    captureLine.hidden = cx < 0 || cx > w;
    captureLine.style.left = `${cx}px`;
  }

  function draw(): void {
    // Everything read from the layout first, then written: a read after a write lays the page out again.
    const w = measurePlot();
    const r = rowsEl.getBoundingClientRect();
    const stickyBottom = printing ? r.top : axisRow.getBoundingClientRect().bottom;
    if (axisDirty) drawAxis();
    renderRows(r);
    const top = Math.max(0, stickyBottom - r.top);
    // On paper every row is drawn, up to the largest canvas a browser keeps.
    const bottom = printing ? Math.min(r.height, MAX_CANVAS) : Math.min(r.height, innerHeight - r.top);
    const h = Math.max(0, Math.ceil(bottom - top));
    const dpr = window.devicePixelRatio || 1;
    if (canvas.width !== Math.round(w * dpr) || canvas.height !== Math.round(h * dpr)) {
      canvas.width = Math.round(w * dpr);
      canvas.height = Math.round(h * dpr);
      canvas.style.width = `${w}px`;
      canvas.style.height = `${h}px`;
    }
    canvas.style.top = `${top}px`;
    const ctx = canvas.getContext('2d');
    if (ctx === null) return;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, w, h);
    ctx.font = '11px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    visibleRows = rowsBetween(top, top + h);
    for (const row of visibleRows) {
      const y = row.y - top;
      if (y + row.h < 0 || y > h) continue;
      const marks = String(drawRow(ctx, row, y + row.h / 2, w));
      if (row.el !== null && row.el.dataset.marks !== marks) row.el.dataset.marks = marks;
    }
    if (selected !== null && visibleRows.includes(selected.row)) {
      const m = markBox(selected.row, selected.event);
      if (m !== null) {
        ctx.strokeStyle = colours.focus ?? '#06f';
        ctx.lineWidth = 2;
        ctx.strokeRect(m.x1 - 6, selected.row.y - top + 2, m.x2 - m.x1 + 12, selected.row.h - 4);
      }
    }
    doc.body.dataset.drawn = String(Math.round(performance.now()));
  }

  function markBox(row: Row, i: number): { x1: number; x2: number } | null {
    const ev = rowsOf[i];
    const first = at(ev?.[4] ?? null);
    if (ev === undefined || first === null) return null;
    return { x1: xOf(drawnAt(first)), x2: xOf(drawnAt(at(ev[5]) ?? first)) };
  }

  /** Draws one row's marks; returns how many marks a reader sees (marks in one pixel column count once). */
  function drawRow(ctx: CanvasRenderingContext2D, row: Row, cy: number, w: number): number {
    let marks = 0;
    let lastPixel = -1;
    let lastKind = '';
    let labelEnd = -Infinity;
    for (const i of row.events) {
      const ev = rowsOf[i];
      if (ev === undefined) continue;
      const tr = data.tracks[ev[0]];
      if (tr === undefined || (row.track === null && trackVisible[ev[0]] !== true)) continue;
      const type = data.types[tr[2]] as PageType;
      const first = at(ev[4]);
      if (first === null) continue;
      const last = at(ev[5]) ?? first;
      const x1 = xOf(drawnAt(first));
      const x2 = xOf(drawnAt(last));
      if (x2 < -8 || x1 > w + 8) continue;
      const colour = colourOf(type);
      ctx.fillStyle = colour;
      ctx.strokeStyle = colours.fg ?? '#000';
      ctx.lineWidth = 1;
      const pixel = Math.round(x1);
      const spanned = ev[6] > 1 && x2 - x1 >= 2;
      if (spanned) {
        ctx.globalAlpha = 0.45;
        ctx.fillRect(x1, cy - 3, x2 - x1, 6);
        ctx.globalAlpha = 1;
        shape(ctx, type.kind, x1, cy);
        shape(ctx, type.kind, x2, cy);
      } else if (pixel !== lastPixel || type.kind !== lastKind) {
        shape(ctx, type.kind, x1, cy);
      } else {
        continue;
      }
      marks += 1;
      lastPixel = pixel;
      lastKind = type.kind;
      drawFarDates(ctx, first, last, x1, x2, cy);
      // Repeats and unconventional types are named beside the mark whenever there is room.
      const words = [ev[6] > 1 ? `\u00D7${thousands(ev[6])}` : '', type.kind === 'unconventional' ? typeName(type) : ''].filter((s) => s !== '').join(' ');
      const x = Math.max(x1, x2) + 9;
      if (words !== '' && x > labelEnd) {
        ctx.fillStyle = type.kind === 'unconventional' ? colour : (colours.fg ?? '#000');
        ctx.font = type.kind === 'unconventional' ? 'bold 11px system-ui, sans-serif' : '11px system-ui, sans-serif';
        ctx.fillText(words, x, cy);
        labelEnd = x + ctx.measureText(words).width + 6;
      }
    }
    return marks;
  }

  /** An arrow and the date beside a time drawn out of scale, written towards the middle of the plot. */
  function drawFarDates(ctx: CanvasRenderingContext2D, first: number, last: number, x1: number, x2: number, cy: number): void {
    ctx.fillStyle = colours.fg ?? '#000';
    ctx.font = '11px system-ui, sans-serif';
    const date = (ms: number): string => iso(ms).slice(0, iso(ms).indexOf('T'));
    if (first < scaleFrom) {
      ctx.textAlign = 'left';
      ctx.fillText(`\u2190 ${date(first)}`, x1 + 9, cy - 9);
    }
    if (last > scaleTo) {
      ctx.textAlign = 'right';
      ctx.fillText(`${date(last)} \u2192`, x2 - 9, cy - 9);
    }
    ctx.textAlign = 'left';
  }

  // ---- tooltip and selection ------------------------------------------------------------------------
  let selected: { row: Row; event: number } | null = null;
  function fillTooltip(i: number): void {
    const ev = rowsOf[i] as PageEvent;
    const tr = data.tracks[ev[0]] as [number, number, number];
    const type = data.types[tr[2]] as PageType;
    const lane = data.lanes[tr[0]];
    const first = at(ev[4]);
    const last = at(ev[5]);
    const head = el('div', `tt-type ${type.kind === 'unconventional' ? 'odd' : type.kind}`, type.note === '' ? typeName(type) : `${typeName(type)} \u2014 ${type.note}`);
    const list = el('dl');
    const add = (term: string, value: string): void => {
      list.append(el('dt', '', term), el('dd', '', value));
    };
    add('Reason', visible(str(tr[1])) || '(none)');
    const standing =
      lane?.incarnation === 'previous'
        ? ' (a previous incarnation: the name now belongs to a newer object)'
        : lane?.incarnation === 'gone'
          ? ' (gone: no such object now)'
          : '';
    add('Object', `${visible(lane?.kind || '<none>')}/${visible(lane?.name || '<none>')}${lane?.namespace ? ` in ${visible(lane.namespace)}` : ''}${standing}`);
    add('Message', visible(str(ev[2])) || '(none)');
    add('Reporter', visible(str(ev[3])) || '(none)');
    add('Count', thousands(ev[6]));
    add('First seen', first === null ? 'unknown' : `${iso(first)} (${relative(first)})`);
    add('Last seen', last === null ? 'unknown' : `${iso(last)} (${relative(last)})`);
    if (ev[6] > 1 && first !== null && last !== null) add('Repeated over', length(last - first));
    add('Event', visible(str(ev[1])) || '(unnamed)');
    tooltip.replaceChildren(head, list);
  }
  function showTooltip(i: number, x: number, y: number): void {
    fillTooltip(i);
    tooltip.hidden = false;
    const box = tooltip.getBoundingClientRect();
    tooltip.style.left = `${Math.max(4, Math.min(x + 14, innerWidth - box.width - 4))}px`;
    tooltip.style.top = `${y + 16 + box.height > innerHeight ? Math.max(4, y - box.height - 10) : y + 16}px`;
  }
  function hideTooltip(): void {
    tooltip.hidden = true;
  }

  function rowAt(y: number): Row | null {
    let lo = 0;
    let hi = visibleRows.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const row = visibleRows[mid] as Row;
      if (y < row.y) hi = mid - 1;
      else if (y >= row.y + row.h) lo = mid + 1;
      else return row;
    }
    return null;
  }
  function eventNear(row: Row, x: number): number | null {
    let best: number | null = null;
    let bestD = 7;
    for (const i of row.events) {
      const ev = rowsOf[i];
      if (ev === undefined || (row.track === null && trackVisible[ev[0]] !== true)) continue;
      const m = markBox(row, i);
      if (m === null) continue;
      const d = x < m.x1 ? m.x1 - x : x > m.x2 ? x - m.x2 : 0;
      if (d <= bestD) {
        bestD = d;
        best = i;
      }
    }
    return best;
  }
  /** The row's events that have a mark: timed, and (in a collapsed lane) of a type and reason the filter shows. */
  function shownEvents(row: Row): number[] {
    return row.events.filter((i) => markBox(row, i) !== null && (row.track !== null || trackVisible[rowsOf[i]?.[0] ?? -1] === true));
  }
  /** A cause's event: its lane opened, its row scrolled into view, its mark selected. */
  function showEvent(i: number): void {
    const track = rowsOf[i]?.[0] ?? -1;
    const lane = data.tracks[track]?.[0] ?? -1;
    const row = collapsed.has(lane) ? laneRows[lane] : trackRows[track];
    if (row === undefined || !inLayout(row)) return;
    window.scrollTo({ top: scrollY + rowsEl.getBoundingClientRect().top + row.y + row.h / 2 - innerHeight / 2 });
    // Its row into the document now, not at the next frame.
    draw();
    select({ row, event: i });
  }
  function select(next: { row: Row; event: number } | null): void {
    selected = next;
    if (next === null) {
      hideTooltip();
    } else {
      const m = markBox(next.row, next.event);
      if (m !== null) {
        // Bring the mark into view before pointing at it.
        if (m.x1 < 0 || m.x1 > plotW) {
          const t = drawnAt(at(rowsOf[next.event]?.[4] ?? null) ?? view.start);
          const span = view.end - view.start;
          setView(t - span / 2, t + span / 2);
        }
        const rowTop = rowsEl.getBoundingClientRect().top + next.row.y;
        const lr = layer.getBoundingClientRect();
        showTooltip(next.event, lr.left + xOf(drawnAt(at(rowsOf[next.event]?.[4] ?? null) ?? view.start)), rowTop + next.row.h / 2);
      }
      next.row.el?.setAttribute('aria-describedby', 'tooltip');
    }
    scheduleDraw(false);
  }
  // Focus from the keyboard (Tab) shows the row's first event at once, as hover would; a click on a
  // label focuses the row too, but there the pointer shows what it points at.
  let pointerFocus = false;
  doc.addEventListener('mousedown', () => (pointerFocus = true), true);
  doc.addEventListener('keydown', () => (pointerFocus = false), true);
  function selectFirstOnFocus(row: Row): void {
    const first = pointerFocus ? undefined : shownEvents(row)[0];
    if (first !== undefined) select({ row, event: first });
  }
  function stepSelection(row: Row, e: KeyboardEvent): void {
    if (e.shiftKey || e.ctrlKey || e.metaKey || e.altKey) return;
    const list = shownEvents(row);
    if (list.length === 0) return;
    const pos = selected?.row === row ? list.indexOf(selected.event) : -1;
    let next: number | undefined;
    if (e.key === 'ArrowRight') next = list[Math.min(list.length - 1, pos + 1)];
    else if (e.key === 'ArrowLeft') next = list[pos <= 0 ? 0 : pos - 1];
    else if (e.key === 'Home') next = list[0];
    else if (e.key === 'End') next = list[list.length - 1];
    else if (e.key === 'Escape') {
      select(null);
      return;
    } else return;
    e.preventDefault();
    e.stopPropagation();
    if (next !== undefined) select({ row, event: next });
  }

  // ---- pointer and keyboard -------------------------------------------------------------------------
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
      const d = ((e.clientX - drag.x) / plotW) * (drag.end - drag.start);
      setView(drag.start - d, drag.end - d);
      return;
    }
    const p = plotPoint(e);
    const row = p === null ? null : rowAt(p.y);
    const i = row === null || p === null ? null : eventNear(row, p.x);
    if (i === null) hideTooltip();
    else showTooltip(i, e.clientX, e.clientY);
  });
  rowsEl.addEventListener('mouseleave', hideTooltip);
  rowsEl.addEventListener('mousedown', (e) => {
    if (e.button !== 0 || plotPoint(e) === null) return;
    drag = { x: e.clientX, start: view.start, end: view.end };
    e.preventDefault();
  });
  window.addEventListener('mouseup', () => {
    drag = null;
  });
  rowsEl.addEventListener('dblclick', (e) => {
    const p = plotPoint(e);
    if (p !== null) zoom(0.5, timeAt(p.x));
  });
  chart.addEventListener(
    'wheel',
    (e) => {
      const lr = layer.getBoundingClientRect();
      const x = e.clientX - lr.left;
      if (x < 0 || x > lr.width) return;
      if (e.ctrlKey || e.metaKey) {
        e.preventDefault();
        zoom(e.deltaY < 0 ? 0.8 : 1.25, timeAt(x));
      } else if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
        e.preventDefault();
        pan(((e.shiftKey ? e.deltaY : e.deltaX) / lr.width) || 0);
      }
    },
    { passive: false },
  );
  doc.addEventListener('keydown', (e) => {
    const target = e.target as HTMLElement | null;
    if (target !== null && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA')) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const selectedAt = selected === null ? null : at(rowsOf[selected.event]?.[4] ?? null);
    const around = selectedAt === null ? undefined : drawnAt(selectedAt);
    const keys: Record<string, () => void> = {
      '+': () => zoom(0.5, around),
      '=': () => zoom(0.5, around),
      w: () => zoom(0.5, around),
      '-': () => zoom(2, around),
      s: () => zoom(2, around),
      '0': () => setView(fitted[0], fitted[1]),
      a: () => pan(-0.25),
      d: () => pan(0.25),
    };
    let action = keys[e.key.length === 1 ? e.key.toLowerCase() : e.key];
    if (e.shiftKey && e.key === 'ArrowLeft') action = () => pan(-0.25);
    if (e.shiftKey && e.key === 'ArrowRight') action = () => pan(0.25);
    if (e.key === 'Escape') action = () => select(null);
    if (action === undefined) return;
    e.preventDefault();
    action();
  });
  window.addEventListener('scroll', () => scheduleDraw(false), { passive: true });
  window.addEventListener('resize', () => {
    relayout();
    scheduleDraw(true);
  });
  // Printing lays the page out again (no sticky axis, paper width): draw at once, every row.
  function setPrinting(value: boolean): void {
    if (printing === value) return;
    printing = value;
    relayout();
    axisDirty = true;
    draw();
  }
  window.addEventListener('beforeprint', () => setPrinting(true));
  window.addEventListener('afterprint', () => setPrinting(false));
  window.matchMedia('print').addEventListener('change', (e) => setPrinting(e.matches));
  window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
    readColours();
    scheduleDraw(false);
  });

  readColours();
  showRange();
  applyFilter();
  scheduleDraw(true);
}

timelinePage();

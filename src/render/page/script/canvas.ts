/// <reference lib="dom" />
// The plot: the lanes' rows in the document where layout.ts puts them (lanes.ts), the time axis with
// its shades and the capture line, and every mark painted on one canvas, once a frame. It draws the
// model (model.ts) and changes nothing in it but where each row lies.

import type { PageType } from '../../html-data.ts';
import { laneRenderer } from './lanes.ts';
import type { LaneParts, Row } from './lanes.ts';
import { itemsBetween, layOut } from './layout.ts';
import type { Item, Layout } from './layout.ts';
import type { Model } from './model.ts';
import { shape } from './shapes.ts';
import { el, iso, length, thousands } from './text.ts';
import { axisTicks } from './ticks.ts';

/** The tallest canvas drawn on paper: browsers keep no larger one. */
const MAX_CANVAS = 30_000;

/** What a row of the lanes does on a click of its name, a key, focus and blur (main.ts wires them). */
type RowHooks = Pick<LaneParts, 'toggle' | 'keydown' | 'focus' | 'blur'>;

export type Plot = ReturnType<typeof plot>;

/** The chart, appended to `app`: its rows, axis and canvas, and what draws them. */
export function plot(app: HTMLElement, model: Model, hooks: RowHooks) {
  const doc = document;
  const { data, at, drawnAt, state, laneRows, trackRows, collapsed } = model;
  const rowsOf = model.events;

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

  const lanes = laneRenderer(
    {
      data,
      typeName: model.typeName,
      laneTracks: model.laneTracks,
      trackEvents: model.trackEvents,
      laneRows,
      trackRows,
      collapsed: (lane) => collapsed.has(lane),
      toggle: hooks.toggle,
      keydown: hooks.keydown,
      focus: hooks.focus,
      blur: hooks.blur,
    },
    rowsEl,
  );
  if (data.lanes.length === 0) rowsEl.append(el('p', 'empty', 'No events.'));

  // Every row has a fixed height (the stylesheet's), so where each lies is known without laying one out.
  const px = (name: string): number => parseFloat(getComputedStyle(doc.documentElement).getPropertyValue(name)) || 0;
  const sizes = { group: px('--group-h'), lane: px('--lane-h'), row: px('--row-h') };

  let colours: Record<string, string> = {};
  function readColours(): void {
    const css = getComputedStyle(doc.documentElement);
    colours = {};
    for (const name of ['fg', 'muted', 'grid', 'normal', 'warning', 'odd', 'bg', 'focus']) colours[name] = css.getPropertyValue(`--${name}`).trim();
  }
  const colourOf = (type: PageType): string => colours[type.kind === 'unconventional' ? 'odd' : type.kind] ?? '#888';

  /** Where every shown row lies (layout.ts): set by the first filter. */
  let layout: Layout = { items: [], height: 0, groupItem: new Map(), laneItem: new Map(), trackItem: new Map() };
  /** The rows that draw marks in the part of .rows last drawn, top to bottom. */
  let visibleRows: Row[] = [];
  /** Where every shown row lies: after a filter, a collapse or a resize. */
  function relayout(): void {
    layout = layOut(
      {
        groups: data.groups,
        laneTracks: model.laneTracks,
        laneShown: (lane) => state.laneVisible[lane] === true,
        trackShown: (track) => state.trackVisible[track] === true,
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
  const xOf = (ms: number): number => ((ms - state.view.start) / (state.view.end - state.view.start)) * plotW;
  const timeAt = (x: number): number => state.view.start + (x / plotW) * (state.view.end - state.view.start);

  let frame = 0;
  let axisDirty = true;
  let printing = false;
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
    const { view } = state;
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
    place(ttlShade, model.outer[0] - span, data.ttlHorizon);
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
    const { selected } = state;
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

  /** Where an event's mark is drawn across the plot; null for an event with no time. */
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
      if (tr === undefined || (row.track === null && state.trackVisible[ev[0]] !== true)) continue;
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
      const words = [ev[6] > 1 ? `\u00D7${thousands(ev[6])}` : '', type.kind === 'unconventional' ? model.typeName(type) : ''].filter((s) => s !== '').join(' ');
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
    if (first < model.scaleFrom) {
      ctx.textAlign = 'left';
      ctx.fillText(`\u2190 ${date(first)}`, x1 + 9, cy - 9);
    }
    if (last > model.scaleTo) {
      ctx.textAlign = 'right';
      ctx.fillText(`${date(last)} \u2192`, x2 - 9, cy - 9);
    }
    ctx.textAlign = 'left';
  }

  // Printing lays the page out again (no sticky axis, paper width): draw at once, every row.
  function setPrinting(value: boolean): void {
    if (printing === value) return;
    printing = value;
    relayout();
    axisDirty = true;
    draw();
  }

  return {
    chart,
    rowsEl,
    layer,
    readColours,
    relayout,
    inLayout,
    xOf,
    timeAt,
    // the plot's width in px, as last measured
    width: (): number => plotW,
    // the rows drawn in the last frame, top to bottom
    drawnRows: (): Row[] => visibleRows,
    scheduleDraw,
    draw,
    markBox,
    setPrinting,
  };
}

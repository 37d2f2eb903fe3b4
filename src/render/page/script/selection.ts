/// <reference lib="dom" />
// The tooltip and the selected mark: what hover shows, and its keyboard twin (a reason row's focus
// selects its first event, Left/Right/Home/End step through the others, Escape lets go). Event text
// reaches the tooltip as text nodes only (text.ts el, visible).

import type { PageEvent, PageType } from '../../html-data.ts';
import type { Plot } from './canvas.ts';
import type { Row } from './lanes.ts';
import type { Model, Selection } from './model.ts';
import { el, iso, length, thousands, visible } from './text.ts';

export type Selecting = ReturnType<typeof selecting>;

/** The tooltip (appended to the body) and what selects a mark. */
export function selecting(model: Model, plot: Plot) {
  const doc = document;
  const { data, at, drawnAt, state, str } = model;
  const rowsOf = model.events;

  const tooltip = el('div', 'tooltip');
  tooltip.id = 'tooltip';
  tooltip.setAttribute('role', 'tooltip');
  tooltip.hidden = true;
  doc.body.append(tooltip);

  function fillTooltip(i: number): void {
    const ev = rowsOf[i] as PageEvent;
    const tr = data.tracks[ev[0]] as [number, number, number];
    const type = data.types[tr[2]] as PageType;
    const lane = data.lanes[tr[0]];
    const first = at(ev[4]);
    const last = at(ev[5]);
    const typeName = model.typeName(type);
    const head = el('div', `tt-type ${type.kind === 'unconventional' ? 'odd' : type.kind}`, type.note === '' ? typeName : `${typeName} \u2014 ${type.note}`);
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
    add('First seen', first === null ? 'unknown' : `${iso(first)} (${model.relative(first)})`);
    add('Last seen', last === null ? 'unknown' : `${iso(last)} (${model.relative(last)})`);
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

  /** The row drawn at y (px from the top of the rows), found among the rows of the last frame. */
  function rowAt(y: number): Row | null {
    const visibleRows = plot.drawnRows();
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
  /** The row's event whose mark is nearest x, within 7 px. */
  function eventNear(row: Row, x: number): number | null {
    let best: number | null = null;
    let bestD = 7;
    for (const i of row.events) {
      const ev = rowsOf[i];
      if (ev === undefined || (row.track === null && state.trackVisible[ev[0]] !== true)) continue;
      const m = plot.markBox(row, i);
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
    return row.events.filter((i) => plot.markBox(row, i) !== null && (row.track !== null || state.trackVisible[rowsOf[i]?.[0] ?? -1] === true));
  }
  /** A cause's event: its lane opened, its row scrolled into view, its mark selected. */
  function showEvent(i: number): void {
    const track = rowsOf[i]?.[0] ?? -1;
    const lane = data.tracks[track]?.[0] ?? -1;
    const row = model.collapsed.has(lane) ? model.laneRows[lane] : model.trackRows[track];
    if (row === undefined || !plot.inLayout(row)) return;
    window.scrollTo({ top: scrollY + plot.rowsEl.getBoundingClientRect().top + row.y + row.h / 2 - innerHeight / 2 });
    // Its row into the document now, not at the next frame.
    plot.draw();
    select({ row, event: i });
  }
  function select(next: Selection | null): void {
    state.selected = next;
    if (next === null) {
      hideTooltip();
    } else {
      const m = plot.markBox(next.row, next.event);
      if (m !== null) {
        // Bring the mark into view before pointing at it.
        if (m.x1 < 0 || m.x1 > plot.width()) {
          const t = drawnAt(at(rowsOf[next.event]?.[4] ?? null) ?? state.view.start);
          const span = state.view.end - state.view.start;
          model.setView(t - span / 2, t + span / 2);
        }
        const rowTop = plot.rowsEl.getBoundingClientRect().top + next.row.y;
        const lr = plot.layer.getBoundingClientRect();
        showTooltip(next.event, lr.left + plot.xOf(drawnAt(at(rowsOf[next.event]?.[4] ?? null) ?? state.view.start)), rowTop + next.row.h / 2);
      }
      next.row.el?.setAttribute('aria-describedby', 'tooltip');
    }
    plot.scheduleDraw(false);
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
    const { selected } = state;
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
  /** A row lost focus: its selection goes with it. */
  function blurred(row: Row): void {
    if (state.selected?.row === row) select(null);
  }

  return { showTooltip, hideTooltip, rowAt, eventNear, showEvent, select, selectFirstOnFocus, stepSelection, blurred };
}

// The page's model: the data as the script reads it, the filters, the view (what part of time the
// plot shows) and the selected mark. No DOM here: unit-tested in Node
// (test/unit/render/page/script/model.test.ts); the other modules draw it (canvas.ts) and change it
// (controls.ts, selection.ts).

import type { PageData, PageEvent, PageType } from '../../html-data.ts';
import type { Row } from './lanes.ts';
import { length, visible } from './text.ts';

const DAY = 86_400_000;
const MIN_SPAN = 10;

/** A mark chosen by hover's keyboard twin: the row it is drawn in and the event (index into data.events). */
export interface Selection {
  row: Row;
  event: number;
}

export type Model = ReturnType<typeof pageModel>;

export function pageModel(data: PageData) {
  const str = (i: number): string => data.strings[i] ?? '';
  const typeName = (type: PageType): string => (type.name === '' ? '(empty)' : visible(type.name));
  function relative(ms: number): string {
    const d = ms - data.capturedAt;
    if (d === 0) return 'at capture time';
    return d < 0 ? `${length(d)} before capture` : `${length(d)} after capture`;
  }
  const at = (rel: number | null): number | null => (rel === null ? null : data.t0 + rel);

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
  const collapsed = new Set<number>();
  /** What changes as the reader works the page. */
  const state = {
    // the reason filter, lower case; '' shows every reason
    reasonQuery: '',
    // which tracks and lanes the filter shows, worked out once per change of the filter (applyFilter)
    trackVisible: [] as boolean[],
    laneVisible: [] as boolean[],
    selected: null as Selection | null,
    view: { start: 0, end: 0 },
  };
  function trackShown(track: number): boolean {
    const tr = data.tracks[track];
    if (tr === undefined || hiddenTypes.has(tr[2])) return false;
    return state.reasonQuery === '' || str(tr[1]).toLowerCase().includes(state.reasonQuery);
  }
  /** Works out which tracks and lanes the filter shows; returns how many events they hold. */
  function applyFilter(): number {
    let events = 0;
    state.trackVisible = data.tracks.map((_, t) => trackShown(t));
    state.trackVisible.forEach((shown, t) => {
      if (shown) events += trackEvents[t]?.length ?? 0;
    });
    // A lane shows while any of its tracks does, or (an owner) while anything it owns shows. Owned
    // lanes come after their owner's, so walking back settles every member before its owner.
    state.laneVisible = data.lanes.map((_, l) => (laneTracks[l] ?? []).some((t) => state.trackVisible[t] === true));
    for (let l = data.lanes.length - 1; l >= 0; l -= 1) {
      const owner = data.lanes[l]?.owner ?? null;
      if (state.laneVisible[l] && owner !== null) state.laneVisible[owner] = true;
    }
    return events;
  }

  // ---- scale: which times are drawn to scale ---------------------------------------------------------
  // The API server accepts any time (anyone who may create events can date one 3000-01-01); drawn to
  // scale it would squeeze every other event into a pixel. A time more than a day after the capture, or
  // more than ten years before its TTL horizon, is told in the facts and drawn at the fitted view's edge.
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
  state.view = { start: fitted[0], end: fitted[1] };
  /** How far the view may go: back past the TTL horizon by the fitted span, forward four spans. */
  const outer: [number, number] = [
    Math.min(fitted[0], data.ttlHorizon) - (fitted[1] - Math.min(fitted[0], data.ttlHorizon)),
    fitted[1] + (fitted[1] - fitted[0]) * 4,
  ];
  let viewChanged = (): void => {};
  /** Calls `then` after each change of the view (the page draws it). */
  function onView(then: () => void): void {
    viewChanged = then;
  }
  function setView(start: number, end: number): void {
    let span = Math.max(MIN_SPAN, Math.min(end - start, outer[1] - outer[0]));
    let s = (start + end) / 2 - span / 2;
    s = Math.max(outer[0], Math.min(s, outer[1] - span));
    span = Math.min(span, outer[1] - s);
    state.view = { start: s, end: s + span };
    viewChanged();
  }
  function zoom(factor: number, around?: number): void {
    const { view } = state;
    const c = around ?? (view.start + view.end) / 2;
    setView(c - (c - view.start) * factor, c + (view.end - c) * factor);
  }
  function pan(fraction: number): void {
    const { view } = state;
    const d = (view.end - view.start) * fraction;
    setView(view.start + d, view.end + d);
  }

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

  return {
    data,
    str,
    typeName,
    relative,
    at,
    // data.events: one array per event (html-data.ts PageEvent)
    events: rowsOf,
    trackEvents,
    laneTracks,
    typeCount,
    untimed,
    hiddenTypes,
    collapsed,
    state,
    applyFilter,
    scaleFrom,
    scaleTo,
    farDated,
    fitted,
    outer,
    drawnAt,
    onView,
    setView,
    zoom,
    pan,
    laneRows,
    trackRows,
  };
}

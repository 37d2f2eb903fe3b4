// The data a timeline page draws, as the wire shape embedded in the page (JSON in a script element).
// Compact on purpose: a page of 20,000 events must stay a few megabytes, so every event is one array
// of numbers (strings by index into one table, times in ms after t0) and each string is stored once.
// Values are exact, never escaped here: the page shows untrusted text through text nodes only.

import type { Event } from '../core/event.ts';
import type { EventStanding, Incarnation } from '../core/incarnation.ts';
import { buildLanes } from '../core/lanes.ts';
import type { Tree } from '../core/ownership.ts';

type TypeKind = 'normal' | 'warning' | 'unconventional';

export interface PageType {
  name: string;
  kind: TypeKind;
  /** why an unconventional type stands out, in words; '' for Normal and Warning */
  note: string;
}

interface PageLane {
  namespace: string;
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  /** with --tree: the owner's lane index (lanes come owner first, each after its owner); null for the root, outside the tree or without one */
  owner: number | null;
  /** with --tree: the tree marks the object gone (named by its owner's events, no longer there) */
  gone: boolean;
  /** which incarnation of Kind/name the lane's uid is, when the live object was looked up; else null */
  incarnation: Incarnation | null;
}

/** Field order of each row of PageData.events. */
const EVENT_FIELDS = ['track', 'event', 'message', 'reporter', 'first', 'last', 'count'] as const;

export type PageEvent = [track: number, event: number, message: number, reporter: number, first: number | null, last: number | null, count: number];

export interface PageData {
  version: 1;
  /** `namespace op-events` or `all namespaces` */
  scope: string;
  /** the incident account's headline, one line each */
  headline: string[];
  /** epoch ms the events were read at: now for a live read, the capture time of a saved file */
  capturedAt: number;
  /** epoch ms: an event not written since then had been deleted by the API server before it was read */
  ttlHorizon: number;
  eventTTLms: number;
  /** epoch ms a record's observations began and ended; null for anything else */
  observed: [number, number] | null;
  /** epoch ms every time in `events` counts from (the window's start, or capturedAt when no event has a time) */
  t0: number;
  /** first seen of the oldest event .. last seen of the newest, epoch ms; null when no event has a time */
  window: [number, number] | null;
  types: PageType[];
  strings: string[];
  lanes: PageLane[];
  /** namespace groups, each with its lanes' indices; several contexts read together: a group per context and namespace */
  groups: { context?: string; namespace: string; lanes: number[] }[];
  /** [lane, reason (string index), type (index into types)] */
  tracks: [number, number, number][];
  fields: typeof EVENT_FIELDS;
  /** in timeline order within each track */
  events: PageEvent[];
  /** the incident's causes, most decisive first, shown above the lanes: the sentence, where it was read, and indices into `events` of the events it explains */
  causes: PageCause[];
}

interface PageCause {
  line: string;
  evidence: string[];
  events: number[];
}

interface PageContext {
  scope: string;
  headline: string[];
  capturedAt: number;
  eventTTLms: number;
  /** a record's observation window (first and last observation), epoch ms */
  observed?: [number, number];
  /** what the live cluster says about each event (absent: nothing was looked up) */
  standing?: (ev: Event) => EventStanding;
  /** --for X --tree: lanes owner first, each naming its owner's */
  tree?: Tree;
  /** the causes as text (unescaped: the page shows text nodes only), each naming its events */
  causes?: { line: string; evidence: string[]; events: string[] }[];
}

/** kubectl events --types compares with strings.EqualFold: `warning` passes there, nowhere else. */
export function describeType(name: string): PageType {
  if (name === 'Normal') return { name, kind: 'normal', note: '' };
  if (name === 'Warning') return { name, kind: 'warning', note: '' };
  if (name === '') return { name, kind: 'unconventional', note: 'empty type: most tools show nothing' };
  const lower = name.toLowerCase();
  if (lower === 'warning' || lower === 'normal') {
    return { name, kind: 'unconventional', note: `wrong case: not ${lower === 'warning' ? 'Warning' : 'Normal'}, so exact filters miss it` };
  }
  return { name, kind: 'unconventional', note: 'unconventional type: neither Normal nor Warning' };
}

class StringTable {
  readonly strings: string[] = [];
  private readonly index = new Map<string, number>();
  add(text: string): number {
    let i = this.index.get(text);
    if (i === undefined) {
      i = this.strings.length;
      this.strings.push(text);
      this.index.set(text, i);
    }
    return i;
  }
}

function timeWindow(events: Event[]): [number, number] | null {
  let start = Infinity;
  let end = -Infinity;
  for (const ev of events) {
    if (ev.firstSeen !== null) start = Math.min(start, ev.firstSeen);
    if (ev.lastSeen !== null) end = Math.max(end, ev.lastSeen);
  }
  return Number.isFinite(start) ? [start, Math.max(start, end)] : null;
}

/** Expects events each once, in timeline order. */
export function buildPageData(events: Event[], ctx: PageContext): PageData {
  const window = timeWindow(events);
  const t0 = window?.[0] ?? ctx.capturedAt;
  const strings = new StringTable();
  const types: PageType[] = [];
  const typeIndex = new Map<string, number>();
  const typeOf = (name: string): number => {
    let i = typeIndex.get(name);
    if (i === undefined) {
      i = types.push(describeType(name)) - 1;
      typeIndex.set(name, i);
    }
    return i;
  };
  const lanes: PageLane[] = [];
  const groups: PageData['groups'] = [];
  const tracks: PageData['tracks'] = [];
  const rows: PageEvent[] = [];
  const offset = (ms: number | null): number | null => (ms === null ? null : ms - t0);
  const rowOfName = new Map<string, number>();
  for (const group of buildLanes(events, ctx.tree)) {
    const first = lanes.length;
    groups.push({ ...(group.context === undefined ? {} : { context: group.context }), namespace: group.namespace, lanes: group.lanes.map((_, i) => first + i) });
    for (const lane of group.lanes) {
      const { apiVersion, kind, name, uid } = lane.object;
      // Every event of a lane names the same object (uid), so its first event speaks for the lane.
      const firstEvent = lane.tracks[0]?.events[0];
      const incarnation = (firstEvent === undefined ? undefined : ctx.standing?.(firstEvent).incarnation) ?? null;
      const owner = lane.owner === null ? null : first + lane.owner;
      const laneIndex = lanes.push({ namespace: group.namespace, apiVersion, kind, name, uid, owner, gone: lane.gone, incarnation }) - 1;
      for (const track of lane.tracks) {
        const trackIndex = tracks.push([laneIndex, strings.add(track.reason), typeOf(track.type)]) - 1;
        for (const ev of track.events) {
          rowOfName.set(ev.name, rows.length);
          rows.push([trackIndex, strings.add(ev.name), strings.add(ev.message), strings.add(ev.reporter), offset(ev.firstSeen), offset(ev.lastSeen), ev.count]);
        }
      }
    }
  }
  const observedFrom = ctx.observed?.[0] ?? ctx.capturedAt;
  return {
    version: 1,
    scope: ctx.scope,
    headline: ctx.headline,
    capturedAt: ctx.capturedAt,
    ttlHorizon: observedFrom - ctx.eventTTLms,
    eventTTLms: ctx.eventTTLms,
    observed: ctx.observed ?? null,
    t0,
    window,
    types,
    strings: strings.strings,
    lanes,
    groups,
    tracks,
    fields: EVENT_FIELDS,
    events: rows,
    causes: (ctx.causes ?? []).map((c) => ({ line: c.line, evidence: c.evidence, events: c.events.flatMap((name) => (rowOfName.has(name) ? [rowOfName.get(name) as number] : [])) })),
  };
}

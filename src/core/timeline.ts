// The story of a namespace: each event once, in the order things happened.

import type { Event, ObjectRef } from './event.ts';
import { groupOf } from './identity.ts';
import { compareVersions } from './versions.ts';
import { eventIdentity } from './identity.ts';

/** What every renderer prints for an empty value, like `kubectl get` does. */
export const NONE = '<none>';

export function orNone(value: string): string {
  return value === '' ? NONE : value;
}

/** `Kind/name` with the Kind's case kept, as `kubectl events` prints OBJECT; `<none>` for a missing part. */
export function formatObjectRef(ref: Pick<ObjectRef, 'kind' | 'name'>): string {
  return `${orNone(ref.kind)}/${orNone(ref.name)}`;
}

/**
 * The Kinds that objects of two or more groups share among these events (two CRDs' `Pipeline`, the
 * core and events.k8s.io `Event`): `Kind/name` alone would make two objects look like one.
 */
export function kindsInSeveralGroups(events: Event[]): Set<string> {
  const groups = new Map<string, Set<string>>();
  for (const ev of events) {
    const seen = groups.get(ev.object.kind) ?? new Set<string>();
    seen.add(groupOf(ev.object.apiVersion));
    groups.set(ev.object.kind, seen);
  }
  return new Set([...groups].filter(([, seen]) => seen.size > 1).map(([kind]) => kind));
}

/**
 * `Kind.group/name` (kubectl's own spelling of a group-qualified type) for a Kind in `shared`,
 * else `Kind/name`; the core group has no name, so its objects keep `Kind/name`.
 */
export function formatQualifiedObjectRef(ref: Pick<ObjectRef, 'apiVersion' | 'kind' | 'name'>, shared: ReadonlySet<string>): string {
  const group = groupOf(ref.apiVersion);
  if (group === '' || !shared.has(ref.kind)) return formatObjectRef(ref);
  return `${orNone(ref.kind)}.${group}/${orNone(ref.name)}`;
}

/** Code point order, which is byte order for UTF-8 (what `LC_ALL=C sort` does), unlike localeCompare. */
export function compareBytes(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i += 1) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    // UTF-16 puts the surrogates (U+10000 and up) before U+E000..U+FFFF; code point (UTF-8 byte)
    // order puts them after: move both ranges to where UTF-8 has them (ICU's code point order fix-up).
    if (x >= 0xd800 && y >= 0xd800) {
      x += x >= 0xe000 ? -0x800 : 0x2000;
      y += y >= 0xe000 ? -0x800 : 0x2000;
    }
    return x - y;
  }
  return a.length - b.length;
}

/** Sorted byte-wise and unique: `sort -u` under LC_ALL=C. */
export function sortUnique(lines: string[]): string[] {
  return [...new Set(lines)].sort(compareBytes);
}

/**
 * Each event once. Listing core/v1 and events.k8s.io/v1 returns every event twice (one store), and a
 * watch or a re-list returns later versions of the same object; metadata.uid is the identity. Of two
 * versions the newer wins (higher resourceVersion, else later lastSeen, else higher count; on a full
 * tie the first seen). Output keeps the order in which each identity first appeared.
 */
export function dedupeByUid(events: Event[]): Event[] {
  // Keyed by the uid itself where there is one: no key string per event (200,000 of them for a
  // big record). Order: each event where it first appeared.
  const kept: Event[] = [];
  const byUid = new Map<string, number>();
  const byOther = new Map<string, number>();
  // An index loop and no [map, key] pair per event: the pair and a forEach's iteration were most
  // of what this allocated (20,000 events: 6 MB, promoted as the account grew).
  for (let index = 0; index < events.length; index += 1) {
    const ev = events[index] as Event;
    const withUid = ev.uid !== '';
    const map = withUid ? byUid : byOther;
    // An event with nothing to tell it apart by is kept.
    const key = withUid ? ev.uid : eventIdentity(ev) || `index:${index}`;
    const at = map.get(key);
    if (at === undefined) {
      map.set(key, kept.length);
      kept.push(ev);
    } else if (compareVersions(ev, kept[at] as Event) > 0) kept[at] = ev;
  }
  return kept;
}

function compareTime(a: number | null, b: number | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return a - b;
}

/**
 * Two events by everything they say, the times last: a total order on what any output prints of
 * an event, for the ties that arrival order decided before. A store answers its rows in no set
 * order (VictoriaLogs' query workers each write the blocks they scan: app/vlselect/logsql/logsql.go
 * ProcessQueryRequest, v1.52.2), so "the first seen" differs between two reads of the same rows:
 * an Event name reused after deletion (same name and times, another uid), or two copies of one
 * version that compareVersions cannot tell apart yet say different things.
 */
export function compareContent(a: Event, b: Event): number {
  return (
    compareBytes(a.uid, b.uid) ||
    compareBytes(a.resourceVersion, b.resourceVersion) ||
    compareBytes(a.message, b.message) ||
    compareBytes(a.reason, b.reason) ||
    compareBytes(a.type, b.type) ||
    compareBytes(a.action, b.action) ||
    compareBytes(a.reporter, b.reporter) ||
    compareBytes(a.instance, b.instance) ||
    compareRefs(a.object, b.object) ||
    a.count - b.count ||
    Number(a.seriesStyle) - Number(b.seriesStyle) ||
    compareBytes(a.namespace, b.namespace) ||
    compareBytes(a.name, b.name) ||
    compareTime(a.firstSeen, b.firstSeen) ||
    compareTime(a.lastSeen, b.lastSeen) ||
    compareBytes(a.cluster?.context ?? '', b.cluster?.context ?? '') ||
    compareBytes(a.cluster?.server ?? '', b.cluster?.server ?? '')
  );
}

function compareRefs(a: ObjectRef, b: ObjectRef): number {
  if (a === b) return 0;
  return compareBytes(a.kind, b.kind) || compareBytes(a.name, b.name) || compareBytes(a.uid, b.uid) || compareBytes(a.apiVersion, b.apiVersion) || compareBytes(a.namespace, b.namespace) || compareBytes(a.fieldPath, b.fieldPath);
}

/**
 * Oldest first by firstSeen, then lastSeen, then namespace and name; events with no time first;
 * then by what they say (compareContent), so the order never depends on the order they were read
 * (but for events with no time at all, which keep theirs).
 * kubectl events sorts by last time only and unstably; a timeline reads by when things began, and
 * the tie-breakers make the order the same on every run.
 */
export function sortTimeline(events: Event[]): Event[] {
  // Each event's times read once into columns (null as NaN), its namespace once more as a rank, its
  // name only on a tie: a big read's events keep their times and names in columns behind getters
  // (core/keep.ts), and a comparison reading them anew made two numbers and, on every tie, two name
  // strings each time.
  const n = events.length;
  const first = new Float64Array(n);
  const last = new Float64Array(n);
  for (let i = 0; i < n; i += 1) {
    const ev = events[i] as Event;
    first[i] = ev.firstSeen ?? Number.NaN;
    last[i] = ev.lastSeen ?? Number.NaN;
  }
  // Events with no time at all keep their order: a stable table's lines (no times, names or uids)
  // are in the order it was written, the only order its story has (incident.ts).
  const timeless = (i: number): boolean => Number.isNaN(first[i] as number) && Number.isNaN(last[i] as number);
  const content = (a: number, b: number): number => (timeless(a) && timeless(b) ? 0 : compareContent(events[a] as Event, events[b] as Event));
  const byName = (a: number, b: number): number => compareBytes((events[a] as Event).name, (events[b] as Event).name) || content(a, b) || a - b;
  const tie = (a: number, b: number): number => compareBytes((events[a] as Event).namespace, (events[b] as Event).namespace) || byName(a, b);
  // Most callers sort what is in order already (a read's events, filtered and sorted, sorted again
  // by the account): one pass says so, where the sort would call its comparator from the builtin,
  // which cannot inline it, for the same n - 1 pairs.
  if (inOrder(n, first, last, tie)) return events.slice();
  // A tie on both times is common (times in whole seconds: 200,000 events of an hour share them
  // about 55 at a time, 690,000 ties in one sort): there the namespaces compare as ranks, not as text.
  const rank = namespaceRanks(events);
  const compare = (a: number, b: number): number =>
    orderOfTimes(first[a] as number, first[b] as number) || orderOfTimes(last[a] as number, last[b] as number) || (rank[a] as number) - (rank[b] as number) || byName(a, b);
  let order = byFirstTime(first);
  if (order === null) order = new Uint32Array(n).map((_, i) => i).sort(compare);
  else sortRuns(order, first, compare);
  const sorted = new Array<Event>(n);
  for (let i = 0; i < n; i += 1) sorted[i] = events[order[i] as number] as Event;
  return sorted;
}

/** Each event's namespace as its place among the namespaces present (compareBytes order). */
function namespaceRanks(events: Event[]): Uint32Array {
  const places = new Map<string, number>();
  const rank = new Uint32Array(events.length);
  for (const ev of events) places.set(ev.namespace, 0);
  [...places.keys()].sort(compareBytes).forEach((namespace, i) => places.set(namespace, i));
  events.forEach((ev, i) => (rank[i] = places.get(ev.namespace) as number));
  return rank;
}

/**
 * The slots ordered by their first time alone (no time first, then oldest) by the engine's own
 * numeric sort, each time packed with its slot into one double (the time's offset from the earliest
 * above the slot's bits): the comparator sort called a closure from the builtin about n log n times
 * (2.8 million for 200,000 events read from a store in no set order). Slots of one time stay in
 * slot order for sortRuns. Null where a time is not a whole number of milliseconds, or where the
 * times span too long to share a double with the slot (about a year apart at 200,000 events).
 */
function byFirstTime(first: Float64Array): Uint32Array | null {
  const n = first.length;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < n; i += 1) {
    const t = first[i] as number;
    if (Number.isNaN(t)) continue;
    if (!Number.isInteger(t)) return null;
    if (t < min) min = t;
    if (t > max) max = t;
  }
  const slots = 2 ** Math.ceil(Math.log2(n + 1));
  // Offsets from 1 for times, 0 for none: the largest packed value must still be a whole double.
  const offsets = max >= min ? max - min + 2 : 1;
  if (offsets * slots > Number.MAX_SAFE_INTEGER) return null;
  const packed = new Float64Array(n);
  for (let i = 0; i < n; i += 1) {
    const t = first[i] as number;
    packed[i] = (Number.isNaN(t) ? 0 : t - min + 1) * slots + i;
  }
  packed.sort();
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i += 1) order[i] = (packed[i] as number) % slots;
  return order;
}

/** Sorts by `compare` each run of slots in `order` (ordered by first time) that share one first time. */
function sortRuns(order: Uint32Array, first: Float64Array, compare: (a: number, b: number) => number): void {
  let start = 0;
  for (let i = 1; i <= order.length; i += 1) {
    if (i < order.length && orderOfTimes(first[order[start] as number] as number, first[order[i] as number] as number) === 0) continue;
    if (i - start > 1) order.subarray(start, i).sort(compare);
    start = i;
  }
}

/** Whether each event sorts before the next: times first (NaN, no time, before any), then `tie` where both times are the same. */
function inOrder(n: number, first: Float64Array, last: Float64Array, tie: (a: number, b: number) => number): boolean {
  for (let i = 1; i < n; i += 1) {
    const byFirst = orderOfTimes(first[i - 1] as number, first[i] as number);
    if (byFirst < 0) continue;
    if (byFirst > 0) return false;
    const byLast = orderOfTimes(last[i - 1] as number, last[i] as number);
    if (byLast < 0) continue;
    if (byLast > 0 || tie(i - 1, i) > 0) return false;
  }
  return true;
}

/** compareTime's sign on the columns' values, NaN standing for null. */
function orderOfTimes(a: number, b: number): number {
  if (a === b) return 0;
  const noA = Number.isNaN(a);
  const noB = Number.isNaN(b);
  if (noA || noB) return noA && noB ? 0 : noA ? -1 : 1;
  return a < b ? -1 : 1;
}

/**
 * The lab's timeline.sh: `<type> <reason> <Kind>/<name>` per event, nothing that changes between
 * looks (no age, time or count), sorted byte-wise and unique. Raw text: renderers escape it. Only
 * where two groups share a Kind among the events is it `<Kind>.<group>/<name>`: `sort -u` would
 * otherwise fold two objects into one line (the lab's own table never has such a pair).
 */
export function stableLines(events: Event[]): string[] {
  const shared = kindsInSeveralGroups(events);
  // Into a set as they are made: 200,000 events say a few hundred distinct lines.
  const lines = new Set<string>();
  for (const ev of events) lines.add(stableLine(ev, shared));
  return [...lines].sort(compareBytes);
}

/** One event's stable line; `shared`: the Kinds that several groups share among the events read with it. */
export function stableLine(ev: Event, shared: ReadonlySet<string>): string {
  // Several contexts read together: each line begins with its context (one context: the lab's form).
  return `${ev.cluster === undefined ? '' : `${ev.cluster.context} `}${orNone(ev.type)} ${orNone(ev.reason)} ${formatQualifiedObjectRef(ev.object, shared)}`;
}

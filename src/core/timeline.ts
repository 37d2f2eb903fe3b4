// The story of a namespace: each event once, in the order things happened.

import type { Event, ObjectRef } from './event.ts';
import { compareResourceVersions } from './json.ts';

/** What every renderer prints for an empty value, like `kubectl get` does. */
export const NONE = '<none>';

export function orNone(value: string): string {
  return value === '' ? NONE : value;
}

/** `Kind/name` with the Kind's case kept, as `kubectl events` prints OBJECT; `<none>` for a missing part. */
export function formatObjectRef(ref: ObjectRef): string {
  return `${orNone(ref.kind)}/${orNone(ref.name)}`;
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

function isNewer(candidate: Event, kept: Event): boolean {
  // Versions that cannot be compared fall through to the times.
  const rv = compareResourceVersions(candidate.resourceVersion, kept.resourceVersion) ?? 0;
  if (rv !== 0) return rv > 0;
  const last = (candidate.lastSeen ?? -Infinity) - (kept.lastSeen ?? -Infinity);
  if (last !== 0 && !Number.isNaN(last)) return last > 0;
  return candidate.count > kept.count;
}

function identity(ev: Event, index: number): string {
  if (ev.uid !== '') return `uid:${ev.uid}`;
  if (ev.name !== '') return `name:${ev.namespace}/${ev.name}`;
  return `index:${index}`; // nothing to tell it apart by: keep it
}

/**
 * Each event once. Listing core/v1 and events.k8s.io/v1 returns every event twice (one store), and a
 * watch or a re-list returns later versions of the same object; metadata.uid is the identity. Of two
 * versions the newer wins (higher resourceVersion, else later lastSeen, else higher count; on a full
 * tie the first seen). Output keeps the order in which each identity first appeared.
 */
export function dedupeByUid(events: Event[]): Event[] {
  const kept = new Map<string, Event>();
  events.forEach((ev, index) => {
    const key = identity(ev, index);
    const previous = kept.get(key);
    if (previous === undefined || isNewer(ev, previous)) kept.set(key, ev);
  });
  return [...kept.values()];
}

function compareTime(a: number | null, b: number | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return a - b;
}

/**
 * Oldest first by firstSeen, then lastSeen, then namespace and name; events with no time first.
 * kubectl events sorts by last time only and unstably; a timeline reads by when things began, and
 * the tie-breakers make the order the same on every run.
 */
export function sortTimeline(events: Event[]): Event[] {
  return [...events].sort(
    (a, b) =>
      compareTime(a.firstSeen, b.firstSeen) ||
      compareTime(a.lastSeen, b.lastSeen) ||
      compareBytes(a.namespace, b.namespace) ||
      compareBytes(a.name, b.name),
  );
}

/**
 * The lab's timeline.sh: `<type> <reason> <Kind>/<name>` per event, nothing that changes between
 * looks (no age, time or count), sorted byte-wise and unique. Raw text: renderers escape it.
 */
export function stableLines(events: Event[]): string[] {
  return sortUnique(events.map((ev) => `${orNone(ev.type)} ${orNone(ev.reason)} ${formatObjectRef(ev.object)}`));
}

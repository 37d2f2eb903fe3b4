// What an output needs kept of each event, so that a source holding the newest version of events
// by the hundred thousand (a record: 200,000 events, 250 MB of JSON Lines) keeps no more.
//
// -o stable prints one `<type> <reason> <Kind>/<name>` line per distinct triple, and its notice
// the span of the events' times. When no criterion looks at a single event's time or uid (no
// --since, no --compare), the events of one triple can stand as one: the line is the same, and so
// is the span. A source asked to keep 'stable' may hand back that one event per triple, its times
// the earliest first seen and the latest last seen of the events it stands for, and nothing else
// (no uid, name, message, count). While reading, it keeps per event only the identity, what tells
// versions apart and its triple: a third of what a whole Event costs.
import { ChunkedList } from './chunked-list.ts';
import { eventCompactor } from './compact.ts';
import type { Event, ObjectRef } from './event.ts';
import { stableLineEvent } from './stable-table.ts';
import { compareVersions } from './versions.ts';
import { compareBytes, compareContent } from './timeline.ts';
import { TextColumn } from './text-column.ts';
import { UidColumn } from './uid-column.ts';

export type Keep = 'all' | 'table' | 'stable';

/** The newest version of each event, in slots a reader numbers (0, 1, 2, ... as each event first appears). */
export interface KeptVersions {
  /** positive when `event` is newer than the version kept in `slot` (core/versions.ts), 0 when they cannot be told apart */
  compare(event: Event, slot: number): number;
  /**
   * Where `compare` is 0: positive when `event` sorts after the kept version by what is kept of it
   * (core/timeline.ts compareContent), so that which copy stays never depends on which came first.
   */
  tie(event: Event, slot: number): number;
  /** keeps `event` in `slot`: a new slot is the next number */
  keep(slot: number, event: Event): void;
  /** what was kept, as `keep` promises */
  events(): Event[];
  /** whether the version kept in `slot` has this uid (a reader's index of uids keeps no copy of them: io/slot-index.ts) */
  uidIs(slot: number, uid: string): boolean;
}

export function keptVersions(keep: Keep): KeptVersions {
  if (keep === 'table') return columnEvents();
  return keep === 'all' ? wholeEvents() : stableTriples();
}

/** Every field, repeated strings shared (core/compact.ts). */
function wholeEvents(): KeptVersions {
  // In chunks, made one array at the end (core/chunked-list.ts says why).
  const events = new ChunkedList<Event>();
  const compact = eventCompactor();
  return {
    compare: (event, slot) => compareVersions(event, events.get(slot)),
    tie: (event, slot) => compareContent(event, events.get(slot)),
    keep: (slot, event) => (slot < events.length ? overwrite(events.get(slot), compact(event)) : events.set(slot, compact(event))),
    events: () => events.toArray(),
    uidIs: (slot, uid) => events.get(slot).uid === uid,
  };
}

/**
 * A newer version written over the one kept, which nothing outside the fold has seen yet. A kept
 * event has usually outlived V8's young generation: a new object in its place would be promoted
 * too, and garbage promoted after a read's last full collection is part of its peak. The kept
 * values equal to the new ones (uid, name, most fields) stay; the new copies die young.
 */
function overwrite(kept: Event, next: Event): void {
  const target = kept as unknown as Record<string, unknown>;
  for (const [key, value] of Object.entries(next)) if (target[key] !== value) target[key] = value;
}

/**
 * Every field, but the numbers in columns (Float64Array chunks, off V8's heap) read through getters
 * on one prototype. For the table from a record (200,000 events): V8 here has no pointer compression
 * nor unboxed double fields, so a plain Event's firstSeen and lastSeen are each a 16-byte HeapNumber
 * besides its 144 bytes; this object is 72 and no HeapNumber: the fields the events about one object
 * say alike (namespace, type, reason, reporter...) are one shared object per distinct set. The getters are on the prototype:
 * a spread or Object.entries of it sees no times, which is why only the table and the documents ask for it
 * (commands/timeline.ts keepFor), whose paths read each field by name (toJsonEvent for the documents).
 */
function columnEvents(): KeptVersions {
  const events = new ChunkedList<ColumnEvent>();
  const compact = eventCompactor();
  // Per slot: firstSeen, lastSeen (null as NaN), count, flags (1: seriesStyle, NAME_TAIL: the name kept as its tail).
  const WIDTH = 4;
  const chunks: Float64Array[] = [];
  const cell = (slot: number, field: number): number => (chunks[Math.floor(slot / COLUMN_CHUNK)] as Float64Array)[(slot % COLUMN_CHUNK) * WIDTH + field] as number;
  const time = (value: number): number | null => (Number.isNaN(value) ? null : value);
  // The fields events about one object repeat (its reason, who reports it...), one Said per
  // distinct set, found by the object (compact shares one ObjectRef per object) and ===.
  const saids = new Map<ObjectRef, Said[]>();
  const saidOf = (ev: Event): Said => {
    const known = saids.get(ev.object) ?? [];
    saids.set(ev.object, known);
    const same = known.find((said) => SAID_FIELDS.every((key) => said[key] === ev[key]));
    if (same !== undefined) return same;
    const said: Said = { namespace: ev.namespace, type: ev.type, reason: ev.reason, action: ev.action, object: ev.object, reporter: ev.reporter, instance: ev.instance };
    known.push(said);
    return said;
  };
  // The uid and resourceVersion, read once per event by the documents and never by the table, as bytes.
  const uids = new UidColumn();
  const resourceVersions = new TextColumn();
  // The name too: one per event (client-go names each new Event <object>.<hex nanoseconds>,
  // tools/record/event.go:501, tools/events/event_recorder.go:111), a string that outlives the young
  // generation: 200,000 of them were 12 MiB of heap at the peak of a read (a heap snapshot), as bytes 6,
  // and only the part after `<object>.` when it has that form (the object's name is kept once in it).
  const names = new TextColumn();
  const NAME_TAIL = 2;
  class ColumnEvent {
    constructor(
      public message: string,
      public said: Said,
      readonly slot: number,
    ) {}
    get uid(): string {
      return uids.get(this.slot);
    }
    get name(): string {
      const kept = names.get(this.slot);
      return (cell(this.slot, 3) & NAME_TAIL) === 0 ? kept : `${this.said.object.name}.${kept}`;
    }
    get resourceVersion(): string {
      return resourceVersions.get(this.slot);
    }
    get namespace(): string {
      return this.said.namespace;
    }
    get type(): string {
      return this.said.type;
    }
    get reason(): string {
      return this.said.reason;
    }
    get action(): string {
      return this.said.action;
    }
    get object(): ObjectRef {
      return this.said.object;
    }
    get reporter(): string {
      return this.said.reporter;
    }
    get instance(): string {
      return this.said.instance;
    }
    get firstSeen(): number | null {
      return time(cell(this.slot, 0));
    }
    get lastSeen(): number | null {
      return time(cell(this.slot, 1));
    }
    get count(): number {
      return cell(this.slot, 2);
    }
    get seriesStyle(): boolean {
      return (cell(this.slot, 3) & 1) === 1;
    }
  }
  const keep = (slot: number, event: Event): void => {
    const ev = compact(event);
    const chunk = (chunks[Math.floor(slot / COLUMN_CHUNK)] ??= new Float64Array(COLUMN_CHUNK * WIDTH));
    const at = (slot % COLUMN_CHUNK) * WIDTH;
    chunk[at] = ev.firstSeen ?? Number.NaN;
    chunk[at + 1] = ev.lastSeen ?? Number.NaN;
    chunk[at + 2] = ev.count;
    const said = saidOf(ev);
    const prefix = said.object.name;
    const tail = prefix !== '' && ev.name.length > prefix.length + 1 && ev.name.startsWith(prefix) && ev.name.charCodeAt(prefix.length) === 46 ? ev.name.slice(prefix.length + 1) : null;
    chunk[at + 3] = (ev.seriesStyle ? 1 : 0) | (tail === null ? 0 : NAME_TAIL);
    if (slot === events.length || !uids.equals(slot, ev.uid)) uids.set(slot, ev.uid);
    if (slot === events.length || !resourceVersions.equals(slot, ev.resourceVersion)) resourceVersions.set(slot, ev.resourceVersion);
    const name = tail ?? ev.name;
    if (slot === events.length || !names.equals(slot, name)) names.set(slot, name);
    if (slot === events.length) {
      events.set(slot, new ColumnEvent(ev.message, said, slot));
      return;
    }
    // Written over, as wholeEvents' overwrite says why; a value equal to the kept one stays.
    const kept = events.get(slot);
    if (kept.message !== ev.message) kept.message = ev.message;
    if (kept.said !== said) kept.said = said;
  };
  return {
    compare: (event, slot) => compareVersions(event, events.get(slot)),
    tie: (event, slot) => compareContent(event, events.get(slot)),
    keep,
    // Typed as Event: every field is there to read, through the getters for the shared and the numbers.
    events: () => events.toArray() as unknown as Event[],
    uidIs: (slot, uid) => uids.equals(slot, uid),
  };
}

/** What the events about one object mostly say alike. */
type Said = Pick<Event, (typeof SAID_FIELDS)[number] | 'object'>;

const SAID_FIELDS = ['namespace', 'type', 'reason', 'action', 'reporter', 'instance'] as const;

/** Slots per column chunk: 4 numbers of 8 bytes each, 128 KiB a chunk (off V8's heap). */
const COLUMN_CHUNK = 4096;

/** One type, reason and object: what a stable line says. */
interface Triple {
  type: string;
  reason: string;
  object: ObjectRef;
}

/** Per slot: its triple and what compareVersions reads, in columns (no object, no boxed number per event). */
function stableTriples(): KeptVersions {
  // What a line shows of the object: its group (kindsInSeveralGroups), Kind and name.
  const triples = new Map<string, Triple>();
  const tripleOf = ({ type, reason, object }: Event): Triple => {
    const key = `${type}\u0000${reason}\u0000${object.apiVersion}\u0000${object.kind}\u0000${object.name}`;
    const known = triples.get(key);
    if (known !== undefined) return known;
    const triple = { type, reason, object };
    triples.set(key, triple);
    return triple;
  };
  const of: Triple[] = [];
  const resourceVersions: string[] = [];
  const uids = new UidColumn();
  let columns = new Float64Array(3 * 1024);
  // null times as NaN
  const FIRST = 0;
  const LAST = 1;
  const COUNT = 2;
  const time = (value: number): number | null => (Number.isNaN(value) ? null : value);
  return {
    compare: (event, slot) =>
      compareVersions(event, { resourceVersion: resourceVersions[slot] as string, lastSeen: time(columns[3 * slot + LAST] as number), count: columns[3 * slot + COUNT] as number }),
    // What a line and its span say, and the resourceVersion later versions are compared with.
    tie: (event, slot) => {
      const kept = of[slot] as Triple;
      const first = time(columns[3 * slot + FIRST] as number);
      return (
        compareBytes(event.type, kept.type) ||
        compareBytes(event.reason, kept.reason) ||
        compareBytes(event.object.apiVersion, kept.object.apiVersion) ||
        compareBytes(event.object.kind, kept.object.kind) ||
        compareBytes(event.object.name, kept.object.name) ||
        (event.firstSeen ?? -Infinity) - (first ?? -Infinity) ||
        compareBytes(event.resourceVersion, resourceVersions[slot] as string)
      );
    },
    keep: (slot, event) => {
      if (3 * slot + 3 > columns.length) {
        const grown = new Float64Array(columns.length * 2);
        grown.set(columns);
        columns = grown;
      }
      if (slot === of.length || !uids.equals(slot, event.uid)) uids.set(slot, event.uid);
      of[slot] = tripleOf(event);
      resourceVersions[slot] = event.resourceVersion;
      columns[3 * slot + FIRST] = event.firstSeen ?? Number.NaN;
      columns[3 * slot + LAST] = event.lastSeen ?? Number.NaN;
      columns[3 * slot + COUNT] = event.count;
    },
    events: () => {
      // Each triple once, in the order it first appears; its span over the events it stands for.
      const spans = new Map<Triple, { first: number | null; last: number | null }>();
      of.forEach((triple, slot) => {
        const span = spans.get(triple) ?? { first: null, last: null };
        spans.set(triple, span);
        const first = time(columns[3 * slot + FIRST] as number);
        const last = time(columns[3 * slot + LAST] as number);
        if (first !== null && (span.first === null || first < span.first)) span.first = first;
        if (last !== null && (span.last === null || last > span.last)) span.last = last;
      });
      return [...spans].map(([{ type, reason, object }, span]) => stableLineEvent(type, reason, object, span.first, span.last));
    },
    uidIs: (slot, uid) => uids.equals(slot, uid),
  };
}

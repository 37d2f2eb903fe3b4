// A record's domain: what one observation and one session header are, which observations a record
// already holds, and which lines a step of a list-then-watch adds. The file format is in
// src/io/record-line.ts, the list and watch in src/kube/watch.ts; this module reads neither.
// Nothing is written twice: an event version is its uid + resourceVersion, and a uid is DELETED once.
import { compareResourceVersions, inNamespace, resourceVersionOf } from './json.ts';
import { rawIdentity } from './versions.ts';
import type { Json } from './json.ts';
import type { FleetMember, ObservedStep } from './source.ts';

export const RECORD_KIND = 'EvtimelineRecord';

export interface Observation {
  /** epoch ms; null when a line's time does not parse */
  observedAt: number | null;
  type: string;
  event: Json;
  /** a DELETED the recorder concluded from a re-list, not one the server sent */
  inferred?: boolean;
  /** several contexts recorded together: the one the event came from (its header's `clusters` names its server) */
  context?: string;
  /** `event` as JSON text, when the index already made it (RecordIndex.admit): the line is written with it */
  text?: string;
}

/**
 * A resourceVersion the recorder had seen everything up to: a list's (written once its events are).
 * A list's version is newer than any event in it, and everything created and deleted before it is
 * in no list: resuming from the newest event's version instead would have a watch replay those as
 * new (the apiserver's watch cache serves every change after the version asked, staging/src/k8s.io/
 * apiserver/pkg/storage/cacher/watch_cache.go getAllEventsSinceLocked), stamped with the next session's time.
 */
export interface Seen {
  /** several contexts recorded together: whose version it is */
  context?: string;
  resourceVersion: string;
}

/** Where and how a recorder session ran; one per session, before its observations. */
export interface RecordHeader {
  kind: typeof RECORD_KIND;
  version: 1;
  context: string;
  server: string;
  /** null: all namespaces */
  namespace: string | null;
  /**
   * Several contexts recorded together (--context a,b, --contexts, --all-contexts): each context, its
   * server and namespace, in the order asked; `context` and `server` then join theirs with commas.
   */
  clusters?: FleetMember[];
  /** the filters that chose which events were written, as given */
  filter: Json;
  /** epoch ms; null when the line's time does not parse */
  startedAt: number | null;
}

// -- What a recorder needs to know to continue a record -----------------------------------------

/** How many deletions a recorder remembers past the events it holds (see RecordIndex). */
export const RECENT_DELETIONS = 10_000;

/**
 * Which observations a record already holds, so nothing is written twice: an event version is
 * identified by its identity (core/versions.ts: uid, else namespace/name) + resourceVersion, and an
 * event is DELETED at most once. Also tracks the newest resourceVersion written or seen (where a watch can
 * resume) and the events believed to still exist on the server (a re-list that lacks one of them
 * means it is gone).
 *
 * A recorder runs for days, so it remembers what can still come, not all it ever wrote: per event
 * the version written last (a watch delivers an event's versions in resourceVersion order and a
 * list hands back the current one, so an older version never comes again), and an event deleted is
 * let go but for the last RECENT_DELETIONS deletions, a guard against a second DELETED (after one,
 * a watch resumes past it and a list no longer holds the event). Memory follows the events the
 * server holds, not the length of the record.
 */
export class RecordIndex {
  /** identity -> the resourceVersion written last, for events not DELETED */
  private readonly latest = new Map<string, string>();
  /** the identities of the last RECENT_DELETIONS DELETED, oldest first */
  private readonly deleted = new Set<string>();
  /**
   * identity -> the version written last of each event not DELETED, as JSON text (an object only
   * while from() reads a record through): only a DELETED a relist infers reads it back, and as
   * text an event the server holds costs the recorder about 1,190 bytes of heap instead of 1,760
   * as the parsed object (test/unit/commands/long-runs.test.ts).
   */
  private readonly alive = new Map<string, string | Json>();
  private newest = '';

  static from(observations: Observation[]): RecordIndex {
    const index = new RecordIndex();
    for (const observation of observations) index.add(observation.type, observation.event);
    // Only the versions still live at the end are turned into text, not every version of a long record.
    for (const [id, event] of index.alive) index.alive.set(id, typeof event === 'string' ? event : JSON.stringify(event));
    return index;
  }

  /** True (and remembered) when this observation is not in the record yet. */
  admit(type: string, event: Json): boolean {
    const id = rawIdentity(event);
    if (this.deleted.has(id)) return false;
    if (type !== 'DELETED' && this.latest.get(id) === resourceVersionOf(event)) return false;
    this.add(type, event);
    if (this.alive.has(id)) this.alive.set(id, JSON.stringify(event));
    return true;
  }

  /** The JSON text of the version of this event held (made when it was admitted), if one is held. */
  heldText(event: Json): string | undefined {
    const text = this.alive.get(rawIdentity(event));
    return typeof text === 'string' ? text : undefined;
  }

  /** The resourceVersion to resume a watch from: the newest one written or seen, or '' when none. */
  get resourceVersion(): string {
    return this.newest;
  }

  /** A version the recorder had seen everything up to (a list's): a watch resumes from it if it is the newest. */
  saw(resourceVersion: string): void {
    if (resourceVersion !== '' && (compareResourceVersions(resourceVersion, this.newest) ?? 1) > 0) this.newest = resourceVersion;
  }

  /** The record holds some version of the event of this identity (or a recent DELETED of it). */
  knows(id: string): boolean {
    return this.latest.has(id) || this.deleted.has(id);
  }

  /** The record holds this event and no DELETED for it. */
  holds(id: string): boolean {
    return this.alive.has(id);
  }

  /** Events the record holds that were not DELETED, by identity. */
  liveEvents(): Map<string, Json> {
    const live = new Map<string, Json>();
    for (const [id, text] of this.alive) live.set(id, typeof text === 'string' ? (JSON.parse(text) as Json) : text);
    return live;
  }

  /** The record's events came from another server: none of them can be judged by this one's lists. */
  forgetLive(): void {
    this.alive.clear();
  }

  /** How many events it remembers (held, and recently deleted). */
  get size(): number {
    return this.latest.size + this.deleted.size;
  }

  private add(type: string, event: Json): void {
    const id = rawIdentity(event);
    if (type === 'DELETED') {
      this.latest.delete(id);
      this.alive.delete(id);
      this.deleted.add(id);
      // A Set iterates in insertion order: the first is the oldest deletion.
      if (this.deleted.size > RECENT_DELETIONS) this.deleted.delete(this.deleted.values().next().value as string);
    } else if (!this.deleted.has(id)) {
      this.latest.set(id, resourceVersionOf(event));
      this.alive.set(id, event);
    }
    // Not revisions (not etcd): the line written last is the newest the record can name.
    this.saw(resourceVersionOf(event));
  }
}

// -- Several contexts recorded into one file ------------------------------------------------------

/**
 * Where a session of several contexts continues a record: each context's own index and version to
 * resume from (a list of one cluster says nothing of another's events, and resourceVersions of two
 * servers do not compare). Call only once sameClusters() has said the record is of these contexts.
 */
export function continueFleetRecord(record: { headers: RecordHeader[]; observations: Observation[]; seen?: Seen[] }, header: RecordHeader): { indexes: Map<string, RecordIndex>; resumeFrom: Map<string, string>; held: number } {
  const byContext = new Map<string, Observation[]>();
  for (const observation of record.observations) {
    const own = byContext.get(observation.context ?? '') ?? [];
    own.push(observation);
    byContext.set(observation.context ?? '', own);
  }
  const previous = record.headers.at(-1);
  const indexes = new Map<string, RecordIndex>();
  const resumeFrom = new Map<string, string>();
  for (const member of header.clusters ?? []) {
    const index = RecordIndex.from(byContext.get(member.context) ?? []);
    for (const seen of record.seen ?? []) if (seen.context === member.context) index.saw(seen.resourceVersion);
    indexes.set(member.context, index);
    const before = previous?.clusters?.find((c) => c.context === member.context);
    const same = before !== undefined && before.server === member.server && before.namespace === member.namespace && JSON.stringify(previous?.filter) === JSON.stringify(header.filter);
    resumeFrom.set(member.context, same ? index.resourceVersion : '');
  }
  return { indexes, resumeFrom, held: record.observations.length };
}

/**
 * Whether a record's last session read the same clusters as this one: the same contexts, each on
 * the same server (a server not known on either side, a context that could not be opened, is not
 * held against it). One context and several are never the same: a record is of one or of a fleet.
 */
export function sameClusters(previous: RecordHeader, current: RecordHeader, same: (a: string, b: string) => boolean): boolean {
  const before = previous.clusters;
  const now = current.clusters;
  if (before === undefined || now === undefined) return before === now;
  if (before.length !== now.length) return false;
  return now.every((m) => {
    const was = before.find((b) => b.context === m.context);
    return was !== undefined && (was.server === '' || m.server === '' || same(was.server, m.server));
  });
}

// -- Which lines a step adds to the record ------------------------------------------------------

/** What a recorder session continues from: what the record holds, and the version a watch may resume from ('' lists first). */
interface Continuation {
  index: RecordIndex;
  resumeFrom: string;
  /** observations already in the record */
  held: number;
}

/**
 * Where a session with `header` continues a record of these headers and observations. Events
 * recorded from another server cannot be judged gone by this one's lists, so their liveness is forgotten.
 */
export function continueRecord(record: { headers: RecordHeader[]; observations: Observation[]; seen?: Seen[] }, header: RecordHeader): Continuation {
  const index = RecordIndex.from(record.observations);
  for (const seen of record.seen ?? []) if (seen.context === undefined) index.saw(seen.resourceVersion);
  const previous = record.headers.at(-1);
  if (previous !== undefined && previous.server !== header.server) index.forgetLive();
  const resumeFrom = canResume(previous, header) ? index.resourceVersion : '';
  return { index, resumeFrom, held: record.observations.length };
}

/**
 * A watch may resume from the record's newest resourceVersion only when the record was made of
 * the same server, namespace and filters: otherwise the events before that version were never
 * looked at, and only a list finds them.
 */
export function canResume(previous: RecordHeader | undefined, current: RecordHeader): boolean {
  return (
    previous !== undefined &&
    previous.server === current.server &&
    previous.namespace === current.namespace &&
    JSON.stringify(previous.filter) === JSON.stringify(current.filter)
  );
}

/** List items oldest version first: a recorder killed half-way through leaves every version up to its last line. */
export function byResourceVersion(items: Json[]): Json[] {
  return [...items].sort((a, b) => compareResourceVersions(resourceVersionOf(a), resourceVersionOf(b)) ?? 0);
}

export interface PlanContext {
  index: RecordIndex;
  namespace: string | null;
  /** the filters: which events are written */
  keep(event: Json): boolean;
  /** epoch ms */
  observedAt: number;
}

/**
 * The observations one step adds, in the order to write them; `index` learns them. A list writes
 * each event version the record lacks, as ADDED or, when the record holds an earlier version of
 * that event, as MODIFIED (what a watch would have said); then a DELETED (inferred) for each event
 * the record holds in this namespace that the list no longer has. A watch change is written when
 * the filters keep it; a DELETED also when the record holds the event.
 */
export function planStep(step: ObservedStep, ctx: PlanContext): Observation[] {
  const { index, observedAt } = ctx;
  const planned: Observation[] = [];
  // The text the index made of a version it admitted is the line's: JSON.stringify once per event, not twice.
  const admitted = (type: string, event: Json): void => {
    const text = type === 'DELETED' ? undefined : index.heldText(event);
    planned.push(text === undefined ? { observedAt, type, event } : { observedAt, type, event, text });
  };
  if (step.kind === 'change') {
    const { type, object } = step;
    const wanted = ctx.keep(object) || (type === 'DELETED' && index.holds(rawIdentity(object)));
    if (wanted && index.admit(type, object)) admitted(type, object);
    return planned;
  }
  const listed = new Set<string>();
  for (const item of byResourceVersion(step.items)) {
    const uid = rawIdentity(item);
    listed.add(uid);
    const type = index.knows(uid) ? 'MODIFIED' : 'ADDED';
    if (ctx.keep(item) && index.admit(type, item)) admitted(type, item);
  }
  for (const [uid, event] of index.liveEvents()) {
    if (listed.has(uid) || !inNamespace(event, ctx.namespace)) continue;
    if (index.admit('DELETED', event)) planned.push({ observedAt, type: 'DELETED', event, inferred: true });
  }
  return planned;
}

export interface RecordCounts {
  added: number;
  modified: number;
  deleted: number;
}

export function countObservation(counts: RecordCounts, observation: Observation): void {
  if (observation.type === 'ADDED') counts.added += 1;
  else if (observation.type === 'MODIFIED') counts.modified += 1;
  else counts.deleted += 1;
}

// Replaying a record without holding it: a record grows for as long as its recorder runs (200,000
// events are 250 MB of JSON Lines), so --from reads it line by line and keeps only the newest
// version of each event, normalised and compacted: memory follows what is kept, not what was read.
// The lines are read by RecordLineReader, as the whole-text reader reads them, and the versions
// kept as latestVersions keeps them (src/io/record-replay.ts): of two versions of an event the newer
// wins, else the later line.
import { closeSync, openSync, readSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { normaliseEvent } from '../core/event.ts';
import type { Event, EventCluster } from '../core/event.ts';
import { inNamespace } from '../core/json.ts';
import type { Json } from '../core/json.ts';
import { ChunkedList } from '../core/chunked-list.ts';
import { keptVersions } from '../core/keep.ts';
import type { Keep, KeptVersions } from '../core/keep.ts';
import type { RecordHeader } from '../core/record.ts';
import { EVENT_OBJECTS_TELL } from '../core/source.ts';
import type { EventSource, EventVersion, RecordProvenance } from '../core/source.ts';
import { eventIdentity } from '../core/identity.ts';
import { notAnEventError } from './saved-events.ts';
import { inNamespaceFacts } from './event-file.ts';
import { factSetOf } from './facts-file.ts';
import type { SavedStatus } from '../core/facts.ts';
import { firstNonEvent } from './event-shape.ts';
import { ownershipOf, vetSavedObjects } from './objects-file.ts';
import type { SavedObject } from '../core/object-meta.ts';
import { RecordLineReader, couldBeOurs } from './record-line.ts';
import { recordedClusters, recordedNamespace } from './record-replay.ts';
import { SlotIndex } from './slot-index.ts';
import { distinctServers } from '../core/server.ts';

interface Line {
  line: string;
  /** false for the text after the last newline */
  complete: boolean;
}

/**
 * Lines of a text stream as they arrive. A line longer than a chunk (a collector's line holds a
 * whole export request: 1.5 MB for 1,000 log records) is gathered in parts and joined once: joined
 * chunk by chunk, each join copied the line so far, and 22,000 versions peaked 60 MiB higher.
 */
export async function* readLines(chunks: AsyncIterable<string> | Iterable<string>): AsyncGenerator<Line> {
  let parts: string[] = [];
  for await (const chunk of chunks) {
    let end = chunk.indexOf('\n');
    if (end < 0) {
      parts.push(chunk);
      continue;
    }
    parts.push(chunk.slice(0, end));
    yield { line: parts.length === 1 ? (parts[0] as string) : parts.join(''), complete: true };
    parts = [];
    let start = end + 1;
    for (end = chunk.indexOf('\n', start); end >= 0; end = chunk.indexOf('\n', start)) {
      yield { line: chunk.slice(start, end), complete: true };
      start = end + 1;
    }
    if (start < chunk.length) parts.push(chunk.slice(start));
  }
  const rest = parts.join('');
  if (rest !== '') yield { line: rest, complete: false };
}

interface FoldedRecord {
  headers: RecordHeader[];
  /** the newest version of each event in scope, normalised, in the order each first appeared; as `keep` promises (core/keep.ts) */
  events: Event[];
  /** keep 'all': the line (0-based) each kept version was read from, for a second pass that wants the raw objects */
  lines: ChunkedList<number>;
  /** epoch ms of the first and last observation (in scope or not); null when there is none or it does not parse */
  firstObserved: number | null;
  lastObserved: number | null;
  /** the first kept version that is not an Event (1-based among those kept), as event-shape.ts says it */
  notAnEvent: { position: number; what: string } | null;
  /** torn fragments skipped before the last line (see parseRecordText) */
  tornLines: number;
  /** the object lines' objects (few: one per object, not per event); undefined when the record has none */
  objects?: SavedObject[];
  /** the status lines (one per object and change of fact); undefined when the record has none */
  status?: SavedStatus[];
}

/**
 * The newest version of each event in `namespace` (null: all), as `keep` needs it (core/keep.ts).
 * Null when the lines are not a record.
 */
export async function foldRecord(lines: AsyncIterable<Line>, namespace: string | null, keep: Keep = 'all'): Promise<FoldedRecord | null> {
  const headers: RecordHeader[] = [];
  // The newest version of each event in the order each first appeared. Keyed by the uid itself
  // (no "uid:" key string per event: a 200,000-event record would keep 200,000 more), and by
  // eventIdentity for the few without one; in SlotIndexes, not Maps (slot-index.ts says why).
  // Several contexts recorded together: each event keeps the context it came from, which the 'table'
  // and 'stable' columns do not hold, so such a record keeps whole events (known by its first header).
  let kept: KeptVersions | undefined;
  let slots = 0;
  // Each context's label, one object shared by its events (as a live read of several labels them), by its latest header.
  const clusterOf = new Map<string, EventCluster>();
  const lineOf = new ChunkedList<number>();
  // What a kept version is instead of an Event, by slot, for the few that are not one
  // (event-shape.ts), as the whole-file reader checks the versions it keeps.
  const notEvent = new Map<number, string>();
  // A uid read without a context is the kept version's own (keep.ts uidIs): the index keeps no second copy.
  const byUid = new SlotIndex((slot, uid) => (kept as KeptVersions).uidIs(slot, uid));
  const byOther = new SlotIndex();
  const keepVersion = (slot: number, event: Event, raw: Json, index: number): void => {
    (kept as KeptVersions).keep(slot, event);
    lineOf.set(slot, index);
    const what = firstNonEvent([raw])?.what;
    if (what === undefined) notEvent.delete(slot);
    else notEvent.set(slot, what);
  };
  let observations = 0;
  let firstObserved: number | null = null;
  let lastObserved: number | null = null;
  let objects: SavedObject[] | undefined;
  let status: SavedStatus[] | undefined;
  const reader = new RecordLineReader();
  let index = -1;
  for await (const { line, complete } of lines) {
    index += 1;
    const read = reader.take(line, complete);
    if (read === null) return null;
    if (read === 'end') break;
    if (read === 'skip') continue;
    if ('header' in read) {
      headers.push(read.header);
      for (const { context, server } of read.header.clusters ?? []) if (clusterOf.get(context)?.server !== server) clusterOf.set(context, { context, server });
      continue;
    }
    if ('object' in read) {
      (objects ??= []).push(...(read.object === null ? [] : [read.object]));
      continue;
    }
    if ('status' in read) {
      (status ??= []).push(...(read.status === null ? [] : [read.status]));
      continue;
    }
    // Where a recorder may resume: nothing a reader shows.
    if ('seen' in read) continue;
    const { observedAt, event: raw } = read.observation;
    observations += 1;
    if (observations === 1) firstObserved = observedAt;
    lastObserved = observedAt;
    if (!inNamespace(raw, namespace)) continue;
    kept ??= keptVersions(clusterOf.size > 0 ? 'all' : keep);
    const event = normaliseEvent(raw);
    const { context } = read.observation;
    // One event is one per cluster: a uid (or a name) in two contexts is two events.
    if (context !== undefined) event.cluster = clusterOf.get(context) ?? { context, server: '' };
    const own = event.uid !== '' ? event.uid : eventIdentity(event);
    const [map, key] = [event.uid !== '' ? byUid : byOther, context === undefined ? own : `${context}\u0000${own}`];
    const at = map.get(key);
    if (at === undefined) {
      map.set(key, slots, map === byUid && context === undefined);
      keepVersion(slots, event, raw, index);
      slots += 1;
    } else if (kept.compare(event, at) >= 0) keepVersion(at, event, raw, index);
  }
  if (!reader.isRecord) return null;
  let bad = -1;
  for (const at of notEvent.keys()) if (bad < 0 || at < bad) bad = at;
  const notAnEvent = bad < 0 ? null : { position: bad + 1, what: notEvent.get(bad) as string };
  return { headers, events: kept?.events() ?? [], lines: lineOf, firstObserved, lastObserved, notAnEvent, tornLines: reader.tornLines, ...(objects === undefined ? {} : { objects }), ...(status === undefined ? {} : { status }) };
}

// 64 KiB at a time: with 1 MiB chunks, each chunk's string (and its joins with the carried line)
// went to V8's large-object space, and a 200,000-event record peaked 100 MiB higher. Read with
// readSync into one buffer: a read stream allocates a buffer per chunk and reads on libuv's thread
// pool, which costs a 200,000-event record several MiB of memory outside the heap and a tenth of
// a second of CPU, and --from has nothing to do while it waits.
const CHUNK_BYTES = 64 * 1024;

/**
 * A file's text in chunks, read as it is iterated; `limit`: no further than that many bytes (what a
 * file being appended to held when looked at); `read`: told the bytes read so far before each chunk.
 */
export function* chunksOf(path: string, limit = Number.POSITIVE_INFINITY, read?: (bytes: number) => void): Generator<string> {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    const decoder = new StringDecoder('utf8');
    let left = limit;
    let total = 0;
    for (let bytes = readSync(fd, buffer, 0, Math.min(CHUNK_BYTES, left), null); bytes > 0; bytes = readSync(fd, buffer, 0, Math.min(CHUNK_BYTES, left), null)) {
      left -= bytes;
      total += bytes;
      read?.(total);
      yield decoder.write(buffer.subarray(0, bytes));
    }
    const rest = decoder.end();
    if (rest !== '') yield rest;
  } finally {
    closeSync(fd);
  }
}

/** The raw objects on the given lines of a record file, in the order given. */
async function rawAt(path: string, wanted: readonly number[]): Promise<Json[]> {
  const position = new Map(wanted.map((line, i) => [line, i]));
  const raw: Json[] = new Array(wanted.length);
  const reader = new RecordLineReader();
  let index = -1;
  for await (const { line, complete } of readLines(chunksOf(path))) {
    index += 1;
    const at = position.get(index);
    if (at === undefined) continue;
    const read = reader.take(line, complete);
    if (read !== null && typeof read === 'object' && 'observation' in read) raw[at] = read.observation.event;
  }
  return raw;
}

/** Every version the record observed in `namespace` (null: all), read line by line as foldRecord reads them. */
async function observedVersions(path: string, namespace: string | null): Promise<EventVersion[]> {
  const versions: EventVersion[] = [];
  const reader = new RecordLineReader();
  const clusterOf = new Map<string, EventCluster>();
  for await (const { line, complete } of readLines(chunksOf(path))) {
    const read = reader.take(line, complete);
    if (read === null || read === 'end') break;
    if (read === 'skip') continue;
    if ('header' in read) for (const { context, server } of read.header.clusters ?? []) clusterOf.set(context, { context, server });
    if (!('observation' in read)) continue;
    const { observedAt, type, event, context } = read.observation;
    const cluster = context === undefined ? {} : { cluster: clusterOf.get(context) ?? { context, server: '' } };
    // A DELETED line repeats a version already written: the server no longer has it, nothing new happened.
    if (type !== 'DELETED' && inNamespace(event, namespace)) versions.push({ event, observedAt, ...cluster });
  }
  return versions;
}

/** A record of several contexts: the context of each kept event, for who keeps the raw objects (capture). */
function contextsOf(events: Event[]): { coreContexts?: string[] } {
  return events.some((ev) => ev.cluster !== undefined) ? { coreContexts: events.map((ev) => ev.cluster?.context ?? '') } : {};
}

/**
 * Whether a path is a regular file whose first line starts as the recorder writes one. Anything
 * else (a FIFO, which a look would consume; a folder; a missing file) is left to the whole-file
 * reader, which also says what is wrong with it.
 */
async function startsLikeRecord(path: string): Promise<boolean> {
  try {
    // stat before open: opening a FIFO waits for its writer, and closing it unread loses its data.
    if (!(await stat(path)).isFile()) return false;
    const handle = await open(path, 'r');
    try {
      const { buffer, bytesRead } = await handle.read({ buffer: Buffer.alloc(256), position: 0 });
      const start = buffer.subarray(0, bytesRead).toString('utf8').trimStart();
      return start !== '' && couldBeOurs(start.slice(0, 64));
    } finally {
      await handle.close();
    }
  } catch {
    return false;
  }
}

/**
 * A record file as an EventSource, read line by line; null when the file does not start like a
 * record, or turns out not to be one (the caller then reads it whole, as any other saved file).
 * -n narrows it to one namespace as it is read; each event is kept as `keep` needs it. `name`: the
 * path as the user gave it (`-` for stdin copied to a file, src/io/stdin-spool.ts).
 */
export async function recordFileSource(path: string, namespace: string | null, keep: Keep = 'all', name = path): Promise<EventSource | null> {
  if (!(await startsLikeRecord(path))) return null;
  const folded = await foldRecord(readLines(chunksOf(path)), namespace, keep);
  if (folded === null) return null;
  if (folded.notAnEvent !== null) throw notAnEventError(name, folded.notAnEvent);
  const first = folded.headers[0];
  const vetted = folded.objects === undefined ? undefined : vetSavedObjects(folded.objects);
  const clusters = recordedClusters(folded.headers);
  // Sessions of single contexts on other servers are a record that spans clusters by accident: warned.
  const servers = distinctServers(folded.headers.filter((h) => h.clusters === undefined).map((h) => h.server));
  const provenance: RecordProvenance = {
    kind: 'record',
    ...(servers.length > 1 ? { servers } : {}),
    ...(clusters === undefined ? {} : { clusters }),
    ...(folded.tornLines > 0 ? { tornLines: folded.tornLines } : {}),
    ...(vetted !== undefined && vetted.refused.length > 0 ? { refusedObjects: vetted.refused } : {}),
    context: first?.context ?? '',
    server: first?.server ?? '',
    namespace: namespace ?? recordedNamespace(folded.headers),
    firstObserved: folded.firstObserved,
    lastObserved: folded.lastObserved,
    // A record tells ownership when its recorder wrote object lines (a recorder that predates them did not).
    tells: { ...EVENT_OBJECTS_TELL, ownership: folded.objects !== undefined },
  };
  const { events } = folded;
  return {
    provenance,
    objects: null,
    ...(vetted === undefined ? {} : { ownership: ownershipOf(vetted.kept) }),
    // Who keeps the raw objects (capture) gets them from a second pass over the kept lines.
    // One version of each event already (the fold's, by the identity dedupeByUid uses).
    read: async (opts = {}) => ({ events, distinct: true, ...(opts.raw ? { raw: { core: await rawAt(path, folded.lines.toArray()), eventsK8sIo: null, ...contextsOf(events) } } : {}) }),
    // A second pass, as rawAt's: the versions are not kept while folding (most verbs want only the latest).
    versions: () => observedVersions(path, namespace),
    facts: async () => inNamespaceFacts(factSetOf(folded.status), namespace),
  };
}

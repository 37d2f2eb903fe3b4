// A collector's file read as a stream: the file exporter's lines (src/otlp/collector-file.ts reads
// each) folded into the newest version of each event as they are read, so memory follows the
// events kept, not the file (read whole, 22,000 versions took 187 MiB). As the whole-file reader
// does: a torn last line is ignored; where our export or the k8sobjects receiver and the
// k8s_events receiver wrote the same version, the copy with every field stays. A file that turns
// out not to be one is handed back (null) to the whole-file reader, which says what it is.
import { open, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { isObject, inNamespace, stringOnly } from '../core/json.ts';
import type { Json } from '../core/json.ts';
import type { Keep } from '../core/keep.ts';
import { EVENT_OBJECTS_TELL } from '../core/source.ts';
import type { EventSource, EventVersion, OtlpProvenance } from '../core/source.ts';
import { LatestFold } from '../io/latest-fold.ts';
import { chunksOf } from '../io/record-stream.ts';
import { requestPieces } from './request-pieces.ts';
import { NamedClusters, OtlpLineReader } from './collector-file.ts';
import type { OtlpVersion } from './collector-file.ts';

/** A collector file's size when looked at, and where its last line starts if no newline ends it (it may be torn); Infinity if one does. */
interface Sniffed {
  size: number;
  openLineFrom: number;
}

/** Where the last line of a file of `size` bytes starts, read backwards a block at a time: only that line is read. */
async function lastLineStart(handle: FileHandle, size: number): Promise<number> {
  const block = Buffer.alloc(64 * 1024);
  for (let end = size; end > 0; ) {
    const start = Math.max(0, end - block.length);
    const { bytesRead } = await handle.read({ buffer: block, length: end - start, position: start });
    const newline = block.subarray(0, bytesRead).lastIndexOf(0x0a);
    if (newline >= 0) return start + newline + 1;
    end = start;
  }
  return 0;
}

/** A regular file whose first line starts as the file exporter writes one; null if it is not one. */
async function sniffCollectorFile(path: string): Promise<Sniffed | null> {
  try {
    // stat before open: opening a FIFO waits for its writer, and closing it unread loses its data.
    const info = await stat(path);
    if (!info.isFile()) return null;
    const size = info.size;
    const handle = await open(path, 'r');
    try {
      const { buffer, bytesRead } = await handle.read({ buffer: Buffer.alloc(64), position: 0 });
      if (!/^\s*\{\s*"resource(Logs|Spans|Metrics)"\s*:/.test(buffer.subarray(0, bytesRead).toString('utf8'))) return null;
      const last = await handle.read({ buffer: Buffer.alloc(1), position: size - 1 });
      const endsLine = last.bytesRead === 1 && last.buffer[0] === 0x0a;
      return { size, openLineFrom: endsLine ? Number.POSITIVE_INFINITY : await lastLineStart(handle, size) };
    } finally {
      await handle.close();
    }
  } catch {
    return null;
  }
}

/** How a pass over the file ended: not a collector file, or read (`torn`: the line from which on a torn last line was ignored). */
type Outcome = { ok: false } | { ok: true; torn: number | null };

interface Bounds {
  /** the bytes to read: what the file held when sniffed */
  size: number;
  /** the lines to read (a torn last line left out) */
  upTo: number;
  /**
   * from this byte on (the start of a last line no newline ends), each line's versions wait for its
   * end, and so does what the reader counted of it: a torn last line is then dropped whole, also
   * the elements of it that were whole before the tear, without a second read. Before it (and with
   * Infinity, everywhere) versions go on as they come.
   */
  holdFrom: number;
}

/**
 * Every version in the file, element by element (src/otlp/request-pieces.ts), within `bounds`.
 * A line (other than a torn last one) that is not an export request makes it not a collector file.
 */
function* versionsOf(path: string, reader: OtlpLineReader, bounds: Bounds): Generator<OtlpVersion, Outcome> {
  let bad: { line: number; complete: boolean } | null = null;
  let held: OtlpVersion[] = [];
  let line = -1;
  let undo = (): void => {};
  // Set once a chunk holding a byte of the open last line has been read: its pieces come after.
  let hold = false;
  const reached = (bytes: number): void => {
    if (bytes > bounds.holdFrom) hold = true;
  };
  for (const piece of requestPieces(chunksOf(path, bounds.size, reached))) {
    if (piece.line >= bounds.upTo) break;
    if (bad !== null) {
      // The rest of a line already refused only says whether a newline ended it.
      if (piece.line !== bad.line) return { ok: false };
      if (piece.kind === 'end') bad.complete = piece.complete;
      continue;
    }
    if (hold && piece.line !== line) {
      yield* held;
      held = [];
      line = piece.line;
      undo = reader.mark();
    }
    let versions: OtlpVersion[] | null = [];
    if (piece.kind === 'element') {
      versions = reader.takeElement(piece.text, piece.line);
      if (versions === null) bad = { line: piece.line, complete: true };
    } else if (piece.kind === 'end') {
      if (piece.ok) reader.endRequest();
      else bad = { line: piece.line, complete: piece.complete };
    } else {
      versions = reader.take(piece.text, piece.line);
      if (versions === null) bad = { line: piece.line, complete: piece.complete };
    }
    if (versions === null) continue;
    if (!hold) yield* versions;
    // One by one: a line read whole may hold more versions than a call takes arguments.
    else for (const version of versions) held.push(version);
  }
  if (bad === null) {
    yield* held;
    return reader.seen > 0 ? { ok: true, torn: null } : { ok: false };
  }
  if (bad.complete || reader.seen === 0) return { ok: false };
  undo();
  return { ok: true, torn: bad.line };
}

interface Folded {
  reader: OtlpLineReader;
  fold: LatestFold;
  namespaces: Set<string>;
  first: number | null;
  last: number | null;
  /** what was read: the bytes sniffed, all lines or those before a torn last line */
  bounds: Bounds;
  named: NamedClusters;
}

/** One pass: the newest version of each event in `namespace`, within `bounds`; null when the file is not a collector's. */
function foldFile(path: string, namespace: string | null, keep: Keep, bounds: Bounds): Folded | null {
  const reader = new OtlpLineReader();
  const fold = new LatestFold(keep);
  const namespaces = new Set<string>();
  const named = new NamedClusters();
  let first: number | null = null;
  let last: number | null = null;
  const versions = versionsOf(path, reader, bounds);
  for (;;) {
    const next = versions.next();
    if (next.done === true) {
      if (!next.value.ok) return null;
      const torn = next.value.torn;
      return { reader, fold, namespaces, first, last, bounds: torn === null ? bounds : { ...bounds, upTo: torn }, named };
    }
    const { event, observedAt, writer } = next.value;
    if (observedAt !== null) {
      if (first === null || observedAt < first) first = observedAt;
      if (last === null || observedAt > last) last = observedAt;
    }
    const own = isObject(event.metadata) ? stringOnly(event.metadata.namespace) : '';
    namespaces.add(own);
    if (!inNamespace(event, namespace)) continue;
    // The receiver keeps the least: on a tie with another writer's copy, the other stays.
    fold.add(event, writer === 'k8s_events' ? 0 : 1, named.label(next.value.cluster, own));
  }
}

/**
 * A collector's file as an EventSource, read line by line; null when it does not start like one
 * or turns out not to be one (the caller then reads it whole). -n narrows it as it is read.
 */
export async function collectorFileSource(path: string, namespace: string | null, keep: Keep = 'all'): Promise<EventSource | null> {
  const sniffed = await sniffCollectorFile(path);
  if (sniffed === null) return null;
  const bounds: Bounds = { size: sniffed.size, upTo: Number.POSITIVE_INFINITY, holdFrom: sniffed.openLineFrom };
  let read = foldFile(path, namespace, keep, bounds);
  // Torn though its last byte ended a line (the file was cut short as it was read): its whole
  // elements went into the fold before the tear showed, so read again without it.
  if (read !== null && bounds.holdFrom === Number.POSITIVE_INFINITY && read.bounds.upTo !== bounds.upTo) read = foldFile(path, namespace, keep, read.bounds);
  if (read === null) return null;
  const { reader, fold, namespaces, first, last, named } = read;
  const again = { ...read.bounds, holdFrom: Number.POSITIVE_INFINITY };
  const clusters = named.members();
  const writers = reader.writerList();
  const [only] = namespaces;
  const provenance: OtlpProvenance = {
    kind: 'otlp',
    context: '',
    server: '',
    namespace: namespace ?? (namespaces.size === 1 && only !== undefined && only !== '' ? only : null),
    firstObserved: first,
    lastObserved: last,
    // The k8s_events receiver keeps no reporter: an account must not name one as missing from the event.
    tells: writers.includes('k8s_events') ? { ...EVENT_OBJECTS_TELL, reporters: false } : EVENT_OBJECTS_TELL,
    writers,
    skipped: reader.skipped,
    unreadable: reader.unreadable,
    ...(clusters === undefined ? {} : { clusters }),
  };
  const events = fold.events();
  // The same label objects the fold gave each cluster's events.
  const labelOf = (v: OtlpVersion) => (v.cluster === undefined ? undefined : named.label(v.cluster));
  /** A second pass, for who wants every version (export) or the raw objects (capture). */
  const pass = async (each: (v: OtlpVersion) => void): Promise<void> => {
    const versions = versionsOf(path, new OtlpLineReader(), again);
    for (let next = versions.next(); next.done !== true; next = versions.next()) if (inNamespace(next.value.event, namespace)) each(next.value);
  };
  return {
    provenance,
    objects: null,
    read: async (opts = {}) => {
      if (!opts.raw) return { events, distinct: true };
      const rawFold = new LatestFold('all', true);
      await pass((v) => rawFold.add(v.event, v.writer === 'k8s_events' ? 0 : 1, labelOf(v)));
      const contexts = clusters === undefined ? {} : { coreContexts: rawFold.rawContexts() };
      return { events, distinct: true, raw: { core: rawFold.rawEvents() as Json[], eventsK8sIo: null, ...contexts } };
    },
    versions: async () => {
      const all: EventVersion[] = [];
      await pass((v) => {
        const cluster = labelOf(v);
        all.push({ event: v.event, observedAt: v.observedAt, ...(cluster === undefined ? {} : { cluster }) });
      });
      return all;
    },
  };
}

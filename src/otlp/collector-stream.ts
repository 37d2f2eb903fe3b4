// A collector's file read as a stream: the file exporter's lines (src/otlp/collector-file.ts reads
// each) folded into the newest version of each event as they are read, so memory follows the
// events kept, not the file (read whole, 22,000 versions took 187 MiB). As the whole-file reader
// does: a torn last line is ignored; where our export or the k8sobjects receiver and the
// k8s_events receiver wrote the same version, the copy with every field stays. A file that turns
// out not to be one is handed back (null) to the whole-file reader, which says what it is.
import { open, stat } from 'node:fs/promises';
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

/** Whether a path is a regular file whose first line starts as the file exporter writes one. */
async function startsLikeCollectorFile(path: string): Promise<boolean> {
  try {
    // stat before open: opening a FIFO waits for its writer, and closing it unread loses its data.
    if (!(await stat(path)).isFile()) return false;
    const handle = await open(path, 'r');
    try {
      const { buffer, bytesRead } = await handle.read({ buffer: Buffer.alloc(64), position: 0 });
      return /^\s*\{\s*"resource(Logs|Spans|Metrics)"\s*:/.test(buffer.subarray(0, bytesRead).toString('utf8'));
    } finally {
      await handle.close();
    }
  } catch {
    return false;
  }
}

/** How a pass over the file ended: not a collector file, or read (`torn`: the line from which on a torn last line was ignored). */
type Outcome = { ok: false } | { ok: true; torn: number | null };

/**
 * Every version in the file, element by element (src/otlp/request-pieces.ts), before line `upTo`.
 * A line (other than a torn last one) that is not an export request makes it not a collector file.
 * A torn last line's whole elements are yielded before its tear is seen: the caller reads again up to it.
 */
function* versionsOf(path: string, reader: OtlpLineReader, upTo = Number.POSITIVE_INFINITY): Generator<OtlpVersion, Outcome> {
  let bad: { line: number; complete: boolean } | null = null;
  for (const piece of requestPieces(chunksOf(path))) {
    if (piece.line >= upTo) break;
    if (bad !== null) {
      // The rest of a line already refused only says whether a newline ended it.
      if (piece.line !== bad.line) return { ok: false };
      if (piece.kind === 'end') bad.complete = piece.complete;
      continue;
    }
    if (piece.kind === 'element') {
      const versions = reader.takeElement(piece.text, piece.line);
      if (versions === null) bad = { line: piece.line, complete: true };
      else yield* versions;
    } else if (piece.kind === 'end') {
      if (piece.ok) reader.endRequest();
      else bad = { line: piece.line, complete: piece.complete };
    } else {
      const versions = reader.take(piece.text, piece.line);
      if (versions === null) bad = { line: piece.line, complete: piece.complete };
      else yield* versions;
    }
  }
  if (bad === null) return reader.seen > 0 ? { ok: true, torn: null } : { ok: false };
  return !bad.complete && reader.seen > 0 ? { ok: true, torn: bad.line } : { ok: false };
}

interface Folded {
  reader: OtlpLineReader;
  fold: LatestFold;
  namespaces: Set<string>;
  first: number | null;
  last: number | null;
  /** the lines read: all, or those before a torn last line */
  upTo: number;
  named: NamedClusters;
}

/** One pass: the newest version of each event in `namespace`, before line `upTo`; null when the file is not a collector's. */
function foldFile(path: string, namespace: string | null, keep: Keep, upTo: number): Folded | null {
  const reader = new OtlpLineReader();
  const fold = new LatestFold(keep);
  const namespaces = new Set<string>();
  const named = new NamedClusters();
  let first: number | null = null;
  let last: number | null = null;
  const versions = versionsOf(path, reader, upTo);
  for (;;) {
    const next = versions.next();
    if (next.done === true) {
      if (!next.value.ok) return null;
      return { reader, fold, namespaces, first, last, upTo: next.value.torn ?? upTo, named };
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
  if (!(await startsLikeCollectorFile(path))) return null;
  let read = foldFile(path, namespace, keep, Number.POSITIVE_INFINITY);
  if (read === null) return null;
  // A torn last line: read again without it (its whole elements were folded before the tear showed).
  if (read.upTo !== Number.POSITIVE_INFINITY) read = foldFile(path, namespace, keep, read.upTo);
  if (read === null) return null;
  const { reader, fold, namespaces, first, last, upTo, named } = read;
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
    const again = versionsOf(path, new OtlpLineReader(), upTo);
    for (let next = again.next(); next.done !== true; next = again.next()) if (inNamespace(next.value.event, namespace)) each(next.value);
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

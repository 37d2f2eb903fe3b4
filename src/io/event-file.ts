// --from: events saved earlier, as an EventSource. Accepts a capture's events.json, a `kubectl get
// events -o json` list, a bare JSON array, one Event, a record's JSON Lines (one observation per
// line), a collector's OTLP logs (src/otlp/collector-file.ts), other log stores' output
// (src/stores/files.ts) and a saved `-o stable` table.
import type { Readable } from 'node:stream';
import { normaliseEvent } from '../core/event.ts';
import type { EventCluster } from '../core/event.ts';
import type { Json } from '../core/json.ts';
import { clustersOf } from './record-line.ts';
import { inNamespace, isObject } from '../core/json.ts';
import { errnoText } from './errno.ts';
import { NotAFileError, TooBigError, countedChunks, inputChunks, kindOf } from './path-kind.ts';
import { spoolIfLines } from './stdin-spool.ts';
import { firstNonEvent } from './event-shape.ts';
import { RECORD_KIND } from '../core/record.ts';
import { EVENT_OBJECTS_TELL, STABLE_TABLE_TELLS, fleetOf } from '../core/source.ts';
import type { EventSource, FleetMember, StableTableProvenance } from '../core/source.ts';
import { isStableLine, parseStableTable } from '../core/stable-table.ts';
import { ownershipOf, vetSavedObjects } from './objects-file.ts';
import { notAnEventError, SavedFileError } from './saved-events.ts';
import type { SavedEvents } from './saved-events.ts';
import { parseRecordSaved } from './record-replay.ts';
import { factSetOf } from './facts-file.ts';
import type { FactSet } from '../core/facts.ts';

/** The events.json a capture writes: both API views plus where and when they came from. */
export interface CaptureFile {
  kind: 'EvtimelineCapture';
  version: 1;
  context: string;
  server: string;
  namespace: string | null;
  capturedAt: string;
  core: unknown[];
  eventsK8sIo: unknown[];
  /** why the events.k8s.io/v1 view was not read (forbidden, not served): eventsK8sIo is then empty, not the view */
  eventsK8sIoUnread?: string;
  /** several contexts captured together: each, with its server and namespace */
  clusters?: FleetMember[];
  /** with clusters: the context each item of core (and of eventsK8sIo) came from, in the same order */
  coreContexts?: string[];
  eventsK8sIoContexts?: string[];
}

/** A capture's contexts of its items: one string per item, or none at all (then it reads as one context). */
function contextsFor(items: unknown, contexts: unknown): string[] | undefined {
  return Array.isArray(items) && Array.isArray(contexts) && contexts.length === items.length && contexts.every((c) => typeof c === 'string') ? (contexts as string[]) : undefined;
}

/** Date.parse, null for '' or what does not parse: a file's own times are taken as written. */
function timeOrNull(text: string): number | null {
  const ms = Date.parse(text);
  return text === '' || Number.isNaN(ms) ? null : ms;
}

function listOf(core: unknown[], eventsK8sIo: unknown[] | null = null): SavedEvents {
  return { provenance: { kind: 'list', namespace: null, context: '', server: '', tells: EVENT_OBJECTS_TELL }, raw: { core, eventsK8sIo } };
}

function fromDocument(doc: unknown, path: string): SavedEvents {
  if (Array.isArray(doc)) return listOf(doc);
  if (isObject(doc) && doc.kind === 'EvtimelineCapture') {
    const capture = doc as unknown as CaptureFile;
    // Several contexts: each item's context, when the capture names them all; else it reads as one.
    const clusters = clustersOf(capture.clusters);
    const coreContexts = clusters === undefined ? undefined : contextsFor(capture.core, capture.coreContexts);
    const newContexts = coreContexts === undefined ? undefined : contextsFor(capture.eventsK8sIo, capture.eventsK8sIoContexts);
    return {
      provenance: {
        kind: 'capture',
        context: String(capture.context ?? ''),
        server: String(capture.server ?? ''),
        namespace: typeof capture.namespace === 'string' ? capture.namespace : null,
        capturedAt: timeOrNull(String(capture.capturedAt ?? '')),
        tells: EVENT_OBJECTS_TELL,
        ...(coreContexts === undefined ? {} : { clusters }),
      },
      raw: {
        core: Array.isArray(capture.core) ? capture.core : [],
        // A view the capture could not read is no view: a capture of this capture says so again.
        eventsK8sIo: typeof capture.eventsK8sIoUnread === 'string' ? null : Array.isArray(capture.eventsK8sIo) ? capture.eventsK8sIo : [],
        ...(typeof capture.eventsK8sIoUnread === 'string' ? { eventsK8sIoUnread: capture.eventsK8sIoUnread } : {}),
        ...(coreContexts === undefined ? {} : { coreContexts }),
        ...(newContexts === undefined ? {} : { eventsK8sIoContexts: newContexts }),
      },
    };
  }
  if (isObject(doc) && Array.isArray(doc.items)) {
    const newApi = String(doc.apiVersion ?? '').startsWith('events.k8s.io/');
    return listOf(doc.items, newApi ? doc.items : null);
  }
  if (isObject(doc) && (doc.kind === 'Event' || isObject(doc.metadata))) return listOf([doc]);
  // A record of a quiet namespace holds its header line alone: a record with no events yet.
  if (isObject(doc) && doc.kind === RECORD_KIND) {
    const record = parseRecordSaved(JSON.stringify(doc));
    if (record !== null) return record;
  }
  throw new SavedFileError(path, 'not-saved-events');
}

// `<type> <reason> <Kind>/<name>`: the lab's timeline.txt, as `-o stable` prints it.
function looksLikeStableTable(text: string): boolean {
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  return lines.length > 0 && lines.every(isStableLine);
}

/** The saved file, once every item it holds has the shape of an Event (see event-shape.ts). */
function eventsOnly(saved: SavedEvents, path: string): SavedEvents {
  if (!('raw' in saved)) return saved;
  for (const items of [saved.raw.core, saved.raw.eventsK8sIo ?? []]) {
    const bad = firstNonEvent(items);
    if (bad !== null) throw notAnEventError(path, bad);
  }
  return saved;
}

/** A reader of a collector's OTLP JSON lines (src/otlp/collector-file.ts), handed in: io imports no other adapter. */
type OtlpLinesReader = (text: string) => SavedEvents | null;

/**
 * Parses the text of a saved file: JSON (capture, list, array, one event), a record's JSON Lines, a
 * collector's OTLP JSON lines (read by `otlpLines`), or a stable table.
 */
/** Readers of what other log stores wrote (src/stores/files.ts): whole documents, and JSON lines. */
export interface StoreFileReaders {
  document(doc: unknown, path: string): SavedEvents | null;
  lines(text: string): SavedEvents | null;
}

export function parseEventsText(text: string, path: string, otlpLines: OtlpLinesReader, stores?: StoreFileReaders): SavedEvents {
  const trimmed = text.trim();
  if (trimmed === '') throw new SavedFileError(path, 'empty');
  try {
    const doc: unknown = JSON.parse(trimmed);
    // A collector's file of one export request is one JSON document: read as the lines it is.
    const oneLine = isObject(doc) && Array.isArray(doc.resourceLogs) ? otlpLines(text) : null;
    // Another store's answer (a Cloud Logging array, a search response) before the plain list it could pass for.
    return eventsOnly(oneLine ?? stores?.document(doc, path) ?? fromDocument(doc, path), path);
  } catch (error) {
    if (error instanceof SavedFileError) throw error;
    const lines = parseRecordSaved(text) ?? otlpLines(text) ?? stores?.lines(text) ?? null;
    if (lines) return eventsOnly(lines, path);
    if (looksLikeStableTable(text)) {
      const provenance: StableTableProvenance = { kind: 'stable-table', namespace: null, context: '', server: '', tells: STABLE_TABLE_TELLS };
      return { provenance, events: parseStableTable(text) };
    }
    // JSON.parse's own message quotes the file, which is not ours to print.
    throw new SavedFileError(path, 'unrecognised');
  }
}

/**
 * V8 holds a string of at most 2^29-24 characters (about 512 MiB): a bigger file would fail inside
 * readFile with "Invalid string length". Counted as the bytes arrive (a device's or a pipe's size
 * is 0 to stat: /dev/zero passed a size check and filled the machine's memory).
 */
export const MAX_FROM_BYTES = 512 * 1024 * 1024;

function tooBig(path: string, bytes: number): SavedFileError {
  return new SavedFileError(path, 'too-big', String(bytes));
}

/** What --from reads is text: JSON, JSON Lines or a table. A NUL byte (/dev/zero, /dev/urandom, a binary) ends the read at once. */
function binary(path: string, offset: number): SavedFileError {
  return new SavedFileError(path, 'binary', String(offset + 1));
}

async function readAll(chunks: AsyncIterable<Buffer>, path: string): Promise<string> {
  const read: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of chunks) {
    const nul = chunk.indexOf(0);
    if (nul >= 0) throw binary(path, bytes + nul);
    bytes += chunk.length;
    read.push(chunk);
  }
  return Buffer.concat(read).toString('utf8');
}

/** The text of --from: a file, or stdin (`-`), a pipe, a FIFO or a device read as a stream; counted either way. */
export async function readEventsFile(path: string, stdin: Readable): Promise<string> {
  const input = await readEventsInput(path, stdin, false);
  if (!('text' in input)) throw new Error('unreachable: not spooled');
  return input.text;
}

/**
 * The input of --from: its text, or (stdin, a pipe, a FIFO, `spool`) the path of a private copy
 * when it starts like a record or a collector's file (src/io/stdin-spool.ts says why).
 */
export async function readEventsInput(path: string, stdin: Readable, spool = true): Promise<{ text: string } | { spooled: string }> {
  try {
    const streamed = path === '-' || !['file', 'missing', 'folder'].includes(await kindOf(path));
    const chunks = path === '-' ? countedChunks(stdin, path, MAX_FROM_BYTES) : inputChunks(path, MAX_FROM_BYTES);
    if (!spool || !streamed) return { text: await readAll(chunks, path) };
    const input = await spoolIfLines(chunks, (chunk, before) => {
      const nul = chunk.indexOf(0);
      if (nul >= 0) throw binary(path, before + nul);
    });
    return input.kind === 'spooled' ? { spooled: input.path } : { text: await readAll(input.chunks, path) };
  } catch (error) {
    if (error instanceof SavedFileError) throw error;
    if (error instanceof TooBigError) throw tooBig(path, error.bytes);
    if (error instanceof NotAFileError) throw new SavedFileError(path, 'not-a-file', error.kind);
    const code = (error as NodeJS.ErrnoException).code;
    throw code === 'ENOENT' ? new SavedFileError(path, 'no-such-file') : new SavedFileError(path, 'unreadable', errnoText(error));
  }
}

/**
 * A saved file as an EventSource; -n narrows it to one namespace, otherwise everything in it is
 * read. A stable table's lines name no namespace: -n only names the scope.
 */
export function fileSource(saved: SavedEvents, namespace: string | null): EventSource {
  const provenance = { ...saved.provenance, namespace: namespace ?? saved.provenance.namespace };
  if (!('raw' in saved)) {
    const events = saved.events;
    return { provenance, objects: null, read: async (opts = {}) => (opts.raw ? { events, raw: null } : { events }), versions: async () => null };
  }
  const keep = (raw: unknown): boolean => inNamespace(raw, namespace);
  // A capture of several contexts: each item labelled with the context it came from, as the live read labels it.
  const clusterOf = new Map((fleetOf(saved.provenance) ?? []).map(({ context, server }): [string, EventCluster] => [context, { context, server }]));
  const { coreContexts, eventsK8sIoContexts } = saved.raw;
  const kept = saved.raw.core.flatMap((raw, i) => (keep(raw) ? [{ raw, context: coreContexts?.[i] }] : []));
  const core = kept.map((k) => k.raw);
  const keptNew = saved.raw.eventsK8sIo?.flatMap((raw, i) => (keep(raw) ? [{ raw, context: eventsK8sIoContexts?.[i] }] : [])) ?? null;
  const eventsK8sIo = keptNew?.map((k) => k.raw) ?? null;
  const contexts = coreContexts === undefined ? {} : { coreContexts: kept.map((k) => k.context ?? ''), ...(keptNew === null || eventsK8sIoContexts === undefined ? {} : { eventsK8sIoContexts: keptNew.map((k) => k.context ?? '') }) };
  const unread = saved.raw.eventsK8sIoUnread === undefined ? {} : { eventsK8sIoUnread: saved.raw.eventsK8sIoUnread };
  const labelOf = (context: string | undefined): { cluster?: EventCluster } => (context === undefined ? {} : { cluster: clusterOf.get(context) ?? { context, server: '' } });
  const events = kept.map(({ raw, context }) => Object.assign(normaliseEvent(raw), labelOf(context)));
  const versions = saved.versions?.filter(({ event }) => keep(event)) ?? kept.filter((k) => isObject(k.raw)).map(({ raw, context }) => ({ event: raw as Json, observedAt: null, ...labelOf(context) }));
  const vetted = saved.objects === undefined ? undefined : vetSavedObjects(saved.objects);
  const refused = vetted === undefined || vetted.refused.length === 0 ? {} : { refusedObjects: vetted.refused };
  return {
    provenance: { ...provenance, ...refused, tells: { ...provenance.tells, ownership: vetted !== undefined } },
    objects: null,
    ...(vetted === undefined ? {} : { ownership: ownershipOf(vetted.kept) }),
    read: async (opts = {}) => (opts.raw ? { events, raw: { core, eventsK8sIo, ...unread, ...contexts } } : { events }),
    versions: async () => versions,
    // A record or capture says what status it holds, or that it holds none; a list or collector's file holds none and says nothing.
    ...(saved.provenance.kind === 'record' || saved.provenance.kind === 'capture' ? { facts: async () => inNamespaceFacts(factSetOf(saved.status), namespace) } : {}),
  };
}

/** -n narrows a saved file's facts as it narrows its events (a Node, cluster-scoped, stays). */
export function inNamespaceFacts(facts: FactSet, namespace: string | null): FactSet {
  if (namespace === null) return facts;
  return { ...facts, objects: facts.objects.filter((o) => o.namespace === '' || o.namespace === namespace), gaps: facts.gaps.filter((g) => g.namespace === '' || g.namespace === namespace) };
}

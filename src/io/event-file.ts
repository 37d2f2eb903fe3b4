// --from: events saved earlier. Accepts a capture's events.json, a `kubectl get events -o json`
// list, a bare JSON array, and a record's JSON Lines (one observation per line).
import { readFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { RuntimeError, UsageError } from '../errors.ts';
import type { EventSource, SourceInfo } from '../core/source.ts';
import { isObject } from '../core/json.ts';
import type { Json } from '../core/json.ts';
import { isStableLine } from '../core/stable-table.ts';
import { firstNonEvent } from './event-shape.ts';
import { RECORD_KIND } from '../core/record.ts';
import type { OtlpWriter } from '../render/otlp-logs.ts';

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
}

export type FileFormat = 'capture' | 'list' | 'record' | 'stable-table' | 'otlp';

export interface ParsedEvents {
  format: FileFormat;
  core: unknown[];
  /** the events.k8s.io/v1 view, where the file has it (a capture, an events.k8s.io list); else null */
  eventsK8sIo: unknown[] | null;
  context: string;
  server: string;
  namespace: string | null;
  capturedAt: string;
  /** a record's first observation (its last is capturedAt) */
  firstObservedAt?: string;
  /** the text of a saved `-o stable` table, which holds no event objects */
  stableText?: string;
  /** a collector's file: who wrote its events, and how many log records were not events */
  otlp?: { writers: OtlpWriter[]; skipped: number };
}

function fromDocument(doc: unknown, path: string): ParsedEvents {
  const empty = { format: 'list' as const, context: '', server: '', namespace: null, capturedAt: '', eventsK8sIo: null };
  if (Array.isArray(doc)) return { ...empty, core: doc };
  if (isObject(doc) && doc.kind === 'EvtimelineCapture') {
    const capture = doc as unknown as CaptureFile;
    return {
      format: 'capture',
      core: Array.isArray(capture.core) ? capture.core : [],
      eventsK8sIo: Array.isArray(capture.eventsK8sIo) ? capture.eventsK8sIo : [],
      context: String(capture.context ?? ''),
      server: String(capture.server ?? ''),
      namespace: typeof capture.namespace === 'string' ? capture.namespace : null,
      capturedAt: String(capture.capturedAt ?? ''),
    };
  }
  if (isObject(doc) && Array.isArray(doc.items)) {
    const list = String(doc.apiVersion ?? '').startsWith('events.k8s.io/');
    return list ? { ...empty, core: doc.items, eventsK8sIo: doc.items } : { ...empty, core: doc.items };
  }
  if (isObject(doc) && (doc.kind === 'Event' || isObject(doc.metadata))) return { ...empty, core: [doc] };
  // A record of a quiet namespace holds its header line alone: a record with no events yet.
  if (isObject(doc) && doc.kind === RECORD_KIND) {
    const namespace = typeof doc.namespace === 'string' ? doc.namespace : null;
    return { ...empty, format: 'record', core: [], namespace, context: String(doc.context ?? ''), server: String(doc.server ?? ''), capturedAt: '', firstObservedAt: '' };
  }
  throw new UsageError(`--from ${path}: not a capture, an event list, or a record`);
}

// `<type> <reason> <Kind>/<name>`: the lab's timeline.txt, as `-o stable` prints it.
function looksLikeStableTable(text: string): boolean {
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  return lines.length > 0 && lines.every(isStableLine);
}

/** The parsed file, once every item it holds has the shape of an Event (see event-shape.ts). */
function eventsOnly(parsed: ParsedEvents, path: string): ParsedEvents {
  for (const items of [parsed.core, parsed.eventsK8sIo ?? []]) {
    const bad = firstNonEvent(items);
    if (bad !== null) throw new UsageError(`--from ${path}: item ${bad.position} is not an Event: ${bad.what}`);
  }
  return parsed;
}

/** Parses the text of a saved file: JSON (capture, list, array, one event), a record's JSON Lines, or a stable table. */
export function parseEventsText(text: string, path: string, parseLines?: (text: string) => ParsedEvents | null): ParsedEvents {
  const trimmed = text.trim();
  if (trimmed === '') throw new UsageError(`--from ${path}: the file is empty`);
  try {
    const doc: unknown = JSON.parse(trimmed);
    // A collector's file of one export request is one JSON document: read as the lines it is.
    const oneLine = isObject(doc) && Array.isArray(doc.resourceLogs) ? parseLines?.(text) : null;
    return eventsOnly(oneLine ?? fromDocument(doc, path), path);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const lines = parseLines?.(text);
    if (lines) return eventsOnly(lines, path);
    if (looksLikeStableTable(text)) {
      return { format: 'stable-table', core: [], eventsK8sIo: null, context: '', server: '', namespace: null, capturedAt: '', stableText: text };
    }
    // JSON.parse's own message quotes the file, which is not ours to print.
    throw new UsageError(`--from ${path}: neither JSON, a record, nor a stable table`);
  }
}

async function readAll(stream: Readable): Promise<string> {
  let text = '';
  stream.setEncoding('utf8');
  for await (const chunk of stream) text += chunk as string;
  return text;
}

export async function readEventsFile(path: string, stdin: Readable): Promise<string> {
  if (path === '-') return readAll(stdin);
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new RuntimeError(`--from ${path}: ${code === 'ENOENT' ? 'no such file' : String(code ?? error)}`);
  }
}

function inNamespace(namespace: string | null) {
  return (raw: unknown) => {
    if (namespace === null) return true;
    const meta = isObject(raw) && isObject(raw.metadata) ? raw.metadata : {};
    return meta.namespace === namespace;
  };
}

/** A saved file as an EventSource; -n narrows it to one namespace, otherwise everything in it is read. */
export function fileSource(parsed: ParsedEvents, path: string, namespace: string | null): EventSource {
  const info: SourceInfo = {
    kind: 'file',
    format: parsed.format,
    context: parsed.context,
    server: parsed.server,
    namespace: namespace ?? parsed.namespace,
  };
  const keep = inNamespace(namespace);
  return {
    info,
    listEvents: async () => parsed.core.filter(keep),
    listNewApiEvents: async () => parsed.eventsK8sIo?.filter(keep) ?? null,
  };
}

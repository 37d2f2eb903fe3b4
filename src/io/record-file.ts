// A record: the JSON Lines file the record verb appends to, and how every read verb reads it back.
//
// One line per observation, in the order observed:
//   {"observedAt":"2026-11-30T12:00:00.000Z","type":"ADDED","event":{...as the server sent it...}}
// type is the watch event type: ADDED, MODIFIED or DELETED (a re-list writes a new version of an
// event the record holds as MODIFIED, as a watch would have). Each recorder session begins with a
// header line, {"kind":"EvtimelineRecord","version":1,"context",...}, written once the server has
// answered, so a quiet namespace leaves a record with no events rather than an empty file. Readers
// skip headers for events and use them for where the record came from; a restarted recorder
// compares the last one with its own scope.
//
// The first time a recorder sees an event's object, it looks the object up with its owners, up to
// the top, and writes one line per object (src/io/objects-file.ts has the item's shape):
//   {"observedAt":"...","kind":"EvtimelineObject","object":{"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{...}}}
// An object that could not be read is written once all the same, its item saying "unknown" and why.
// The line begins as an observation does, so a reader that predates object lines skips it as a
// torn fragment instead of refusing the record; readers that know them take the ownership from them.
//
// Status lines (src/io/facts-file.ts) hold what the objects' status and spec said, written the first
// time the recorder reads an object and each time one of its facts changes; they too begin with
// observedAt, so an older reader skips them as it skips object lines.
//
// Replay keeps the latest version of each event by uid, including events the server has since
// expired or deleted: outliving the TTL is the point of a record. A DELETED line never removes
// anything; it says the server no longer has the event. A DELETED line with "inferred": true was
// not sent by the server: a re-list no longer held an event the record knew, so the recorder wrote
// the last version it had seen.
import { distinctServers } from '../core/server.ts';
import { errnoText, namingPath } from './errno.ts';
import { NotAFileError, handleSink, openRegularFile, openSink, writeTarget } from './path-kind.ts';
import type { PathKind, Sink, WriteTarget } from './path-kind.ts';
import { open, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { SavedEvents } from './saved-events.ts';
import { formatSavedObject, parseSavedObject } from './objects-file.ts';
import { STATUS_KIND, formatStatusLine, parseStatusLine } from './facts-file.ts';
import type { SavedStatus } from './facts-file.ts';
import type { FactGap, ObjectFacts } from '../core/facts.ts';
import type { SavedObject } from '../core/object-meta.ts';
import { isObject } from '../core/json.ts';
import type { Json } from '../core/json.ts';
import { RECORD_KIND } from '../core/record.ts';
import { normaliseEvent } from '../core/event.ts';
import type { Event } from '../core/event.ts';
import { compareVersions, rawIdentity } from '../core/versions.ts';
import type { Observation, RecordHeader } from '../core/record.ts';
import type { EventFilter } from '../core/filter.ts';
import { EVENT_OBJECTS_TELL } from '../core/source.ts';
import type { EventVersion } from '../core/source.ts';

/**
 * A record file that cannot be read or appended to. The user can fix: not-a-file (a folder),
 * no-folder (its folder is missing), not-a-record (another file's content). The system said no:
 * unreadable, unwritable, changed (another writer), no-reader (a FIFO nobody read before the stop). The message is complete but names no flag.
 */
export class RecordFileError extends Error {
  constructor(
    readonly path: string,
    readonly problem: 'not-a-file' | 'no-folder' | 'not-a-record' | 'unreadable' | 'unwritable' | 'changed' | 'no-reader',
    message: string,
    /** not-a-file: what the path is instead; no-reader: 'pipe' */
    readonly kind: PathKind | null = null,
  ) {
    super(message || `${path}: ${problem}`);
  }
}

/** An object line; `object` null when its item cannot be read (skipped, as a line of a later format would be). */
type RecordLine = { header: RecordHeader } | { observation: Observation } | { object: SavedObject | null } | { status: SavedStatus | null };

const OBJECT_LINE_KIND = 'EvtimelineObject';

// -- Writing ------------------------------------------------------------------------------------

/** One observation as one line; the key order is fixed so a torn line can still be recognised. */
export function formatObservation(observation: Observation): string {
  const { type, event, inferred } = observation;
  const observedAt = isoOrEmpty(observation.observedAt);
  return `${JSON.stringify(inferred ? { observedAt, type, event, inferred } : { observedAt, type, event })}\n`;
}

/** One object as one line, observedAt first (see the top of this file). */
export function formatObjectLine(observedAt: number, object: SavedObject): string {
  return `${JSON.stringify({ observedAt: isoOrEmpty(observedAt), kind: OBJECT_LINE_KIND, object: formatSavedObject(object) })}\n`;
}

export function formatHeader(header: RecordHeader): string {
  return `${JSON.stringify({ ...header, startedAt: isoOrEmpty(header.startedAt) })}\n`;
}

/** A record's times are ISO 8601 with milliseconds, as the recorder writes them. */
function isoOrEmpty(ms: number | null): string {
  return ms === null ? '' : new Date(ms).toISOString();
}

/** A time as a record line holds it; null for '' or text that does not parse. */
function timeOf(value: unknown): number | null {
  const ms = Date.parse(String(value ?? ''));
  return Number.isNaN(ms) ? null : ms;
}

/** The filters as the header records them; undefined ones are left out so equal filters compare equal. */
export function describeFilter(filter: EventFilter): Json {
  const described: Json = {};
  if (filter.object) described.for = `${filter.object.kind}/${filter.object.name}`;
  if (filter.types && filter.types.length > 0) described.types = filter.types;
  if (filter.reasons && filter.reasons.length > 0) described.reasons = filter.reasons;
  if (filter.sinceMs !== undefined) described.sinceMs = filter.sinceMs;
  return described;
}


// -- Reading ------------------------------------------------------------------------------------

/** One complete line as a header or an observation; null when it is neither. */
export function parseRecordLine(line: string): RecordLine | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (!isObject(value)) return null;
  if (value.kind === RECORD_KIND) {
    return {
      header: {
        kind: RECORD_KIND,
        version: 1,
        context: String(value.context ?? ''),
        server: String(value.server ?? ''),
        namespace: typeof value.namespace === 'string' ? value.namespace : null,
        filter: isObject(value.filter) ? value.filter : {},
        startedAt: timeOf(value.startedAt),
      },
    };
  }
  if (value.kind === OBJECT_LINE_KIND) return { object: parseSavedObject(value.object) };
  if (value.kind === STATUS_KIND) return { status: parseStatusLine(value, timeOf(value.observedAt)) };
  if (!isObject(value.event) || typeof value.type !== 'string') return null;
  const observation: Observation = { observedAt: timeOf(value.observedAt), type: value.type, event: value.event };
  if (value.inferred === true) observation.inferred = true;
  return { observation };
}

// What every line this module writes begins with: a torn first line can be recognised as ours.
const LINE_STARTS = [`{"kind":"${RECORD_KIND}"`, '{"observedAt":'];

/** Whether text could be the start of a line the recorder writes (a torn line, or a file's first bytes). */
export function couldBeOurs(fragment: string): boolean {
  return LINE_STARTS.some((start) => start.startsWith(fragment) || fragment.startsWith(start));
}

interface RecordText {
  headers: RecordHeader[];
  observations: Observation[];
  /** the object lines' objects, in the order written; undefined: the record has no object lines (a recorder that predates them) */
  objects?: SavedObject[];
  /** the status lines, in the order written; undefined: the record has none (a recorder that predates them) */
  status?: SavedStatus[];
  /**
   * The text after the last newline, when it is not a complete line: a recorder killed in the
   * middle of a write. Readers ignore it; a recorder cuts it off before appending.
   */
  tornTail: string;
  /**
   * Torn lines before the last one: a fragment of ours followed by a whole line on the same line
   * (a writer stopped mid-line, then another appended without cutting it), or a fragment alone.
   * The whole line after a fragment is kept; the fragments are skipped and counted here.
   */
  tornLines: number;
}

/**
 * One line as every record reader takes it: its header or observation (`torn` when a fragment of a
 * stopped writer came before it on the line; `line` null when the fragment was all there was);
 * 'tail' for the text after the last newline that is not a whole line; null when not a record line.
 */
function readRecordLine(text: string, complete: boolean): { line: RecordLine | null; torn: boolean } | 'tail' | null {
  const line = parseRecordLine(text);
  if (line !== null) return { line, torn: false };
  if (!complete) return 'tail';
  const rest = salvageTornLine(text);
  return rest === undefined ? null : { line: rest, torn: true };
}

/**
 * A record read line by line, with the rules both readers (the whole text here, the stream in
 * record-stream.ts) share: every line but the last must be a header, an observation or an object line, blank lines
 * are allowed, a torn fragment before a whole line is skipped and counted, and the text after the
 * last newline may be torn. One per read.
 */
export class RecordLineReader {
  /** torn fragments skipped before the last line (see RecordText.tornLines) */
  tornLines = 0;
  /** the text after the last newline when it is not a whole line (see RecordText.tornTail) */
  tornTail = '';
  private ours = 0;

  /**
   * One line (`complete`: a newline ended it): its header, observation or object; 'skip' for a blank line
   * or a fragment alone; 'end' for a torn last line (nothing follows); null when it is not a
   * record line, so the text is not a record.
   */
  take(text: string, complete: boolean): RecordLine | 'skip' | 'end' | null {
    if (text.trim() === '') return 'skip';
    const read = readRecordLine(text, complete);
    if (read === null) return null;
    if (read === 'tail') {
      this.tornTail = text;
      return 'end';
    }
    if (read.torn) this.tornLines += 1;
    if (read.line === null) return 'skip';
    this.ours += 1;
    return read.line;
  }

  /** Whether the lines taken were a record: at least one line of ours, or a torn last line that could be. */
  get isRecord(): boolean {
    return this.ours > 0 || (this.tornTail !== '' && couldBeOurs(this.tornTail));
  }
}

/**
 * A line that is not a record line but begins as ours: the whole line that follows a torn
 * fragment on it, null when there is none (the fragment alone). Undefined when the line is not ours.
 */
function salvageTornLine(line: string): RecordLine | null | undefined {
  if (!couldBeOurs(line.slice(0, 40))) return undefined;
  let best: RecordLine | null = null;
  for (const start of LINE_STARTS) {
    const at = line.lastIndexOf(start);
    if (at > 0) best ??= parseRecordLine(line.slice(at));
  }
  return best;
}

/**
 * Splits a record into its lines. Every line but the last must be a header or an observation
 * (blank lines are allowed); the last may be torn. Null when the text is not a record: no line of
 * ours at all, or a line in the middle that is not one.
 */
export function parseRecordText(text: string): RecordText | null {
  const headers: RecordHeader[] = [];
  const observations: Observation[] = [];
  let objects: SavedObject[] | undefined;
  let status: SavedStatus[] | undefined;
  const reader = new RecordLineReader();
  const lines = text.split('\n');
  const last = lines.length - 1;
  for (const [index, line] of lines.entries()) {
    const read = reader.take(line, index !== last);
    if (read === null) return null;
    if (read === 'end') break;
    if (read === 'skip') continue;
    if ('header' in read) headers.push(read.header);
    else if ('observation' in read) observations.push(read.observation);
    else if ('status' in read) (status ??= []).push(...(read.status === null ? [] : [read.status]));
    else (objects ??= []).push(...(read.object === null ? [] : [read.object]));
  }
  if (!reader.isRecord) return null;
  return { headers, observations, tornTail: reader.tornTail, tornLines: reader.tornLines, ...(objects === undefined ? {} : { objects }), ...(status === undefined ? {} : { status }) };
}

/** The observations of a record; a torn last line is ignored. Null when not a record. */
export function parseObservations(text: string): Observation[] | null {
  return parseRecordText(text)?.observations ?? null;
}

/**
 * The latest observed version of every event in the record, DELETED ones included, in the order
 * each event first appeared. Of two versions the newer wins (core/versions.ts), else the later line.
 */
export function latestVersions(observations: Observation[]): Json[] {
  const latest = new Map<string, { raw: Json; event: Event }>();
  for (const { event: raw } of observations) {
    const event = normaliseEvent(raw);
    const key = rawIdentity(raw);
    const kept = latest.get(key);
    if (kept === undefined || compareVersions(event, kept.event) >= 0) latest.set(key, { raw, event });
  }
  return [...latest.values()].map((v) => v.raw);
}

/** Every version a record observed, for export: a DELETED line repeats a version already written, nothing new happened. */
export function observedVersions(observations: Observation[]): EventVersion[] {
  return observations.filter((o) => o.type !== 'DELETED').map(({ event, observedAt }) => ({ event, observedAt }));
}

/** The namespace every session recorded, when they agree; otherwise null (several or all). */
export function recordedNamespace(headers: RecordHeader[]): string | null {
  const namespaces = new Set(headers.map((h) => h.namespace));
  const [only] = namespaces;
  return namespaces.size === 1 && only !== undefined ? only : null;
}

/** A record's text as a saved input: the latest version of each event, and where and when it was observed. Null when not a record. */
export function parseRecordSaved(text: string): SavedEvents | null {
  const record = parseRecordText(text);
  if (record === null) return null;
  const { headers, observations } = record;
  const first = headers[0];
  const servers = distinctServers(headers.map((h) => h.server));
  return {
    provenance: {
      kind: 'record',
      ...(servers.length > 1 ? { servers } : {}),
      ...(record.tornLines > 0 ? { tornLines: record.tornLines } : {}),
      context: first?.context ?? '',
      server: first?.server ?? '',
      namespace: recordedNamespace(headers),
      // A record of headers alone (a quiet namespace) covers no observed time.
      firstObserved: observations[0]?.observedAt ?? null,
      lastObserved: observations.at(-1)?.observedAt ?? null,
      tells: EVENT_OBJECTS_TELL,
    },
    raw: { core: latestVersions(observations), eventsK8sIo: null },
    versions: observedVersions(observations),
    ...(record.objects === undefined ? {} : { objects: record.objects }),
    status: record.status,
  };
}

// -- The file on disk ----------------------------------------------------------------------------

/** A record as found on disk before appending (an absent or empty file is an empty record). */
interface ExistingRecord {
  path: string;
  exists: boolean;
  /** a pipe, FIFO, device or descriptor of ours (`record >(gzip > r.gz)`): written to, never read (it holds no record) */
  stream: WriteTarget | null;
  record: RecordText;
  /** bytes on disk when read */
  size: number;
  /** bytes up to and including the last newline */
  completeBytes: number;
  /** the last line is complete but has no newline (a writer stopped between the two) */
  needsNewline: boolean;
}

function firstBadLine(text: string): number {
  const lines = text.split('\n');
  const bad = lines.findIndex((line, index) => index < lines.length - 1 && line.trim() !== '' && parseRecordLine(line) === null);
  return bad < 0 ? 1 : bad + 1;
}

/**
 * Reads FILE before a recorder appends to it. Refuses (RecordFileError, nothing written) a folder, a
 * file in a folder that does not exist, and a file that is not a record. A pipe, a FIFO or a device
 * is not read (a FIFO would wait for a writer, /dev/stdout is our own pipe): it starts empty.
 */
export async function readRecordFile(path: string): Promise<ExistingRecord> {
  const empty: RecordText = { headers: [], observations: [], tornTail: '', tornLines: 0 };
  const none = { path, exists: false, stream: null, record: empty, size: 0, completeBytes: 0, needsNewline: false };
  let buffer: Buffer;
  try {
    const target = await writeTarget(path);
    if (target.kind === 'folder' || target.kind === 'socket' || target.kind === 'disk') throw new RecordFileError(path, 'not-a-file', '', target.kind);
    if (target.stream) return { ...none, stream: target };
    if (target.kind === 'missing') {
      const folder = dirname(target.path);
      const isFolder = await stat(folder).then((s) => s.isDirectory(), () => false);
      if (!isFolder) throw new RecordFileError(path, 'no-folder', `cannot create ${path}: ${folder} is not a folder`);
      return none;
    }
    // Opened as a regular file only: what stat said cannot have become a FIFO since.
    const handle = await openRegularFile(path);
    try {
      buffer = await handle.readFile();
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (error instanceof RecordFileError) throw error;
    // Replaced by something else between the look and the open: said as what it is now.
    if (error instanceof NotAFileError) throw new RecordFileError(path, 'not-a-file', '', error.kind);
    throw new RecordFileError(path, 'unreadable', `cannot read ${path}: ${errnoText(error)}`);
  }
  const text = buffer.toString('utf8');
  const completeBytes = buffer.lastIndexOf(0x0a) + 1;
  const record = text.trim() === '' ? empty : parseRecordText(text);
  if (record === null) {
    throw new RecordFileError(path, 'not-a-record', `${path} is not an evtimeline record (line ${firstBadLine(text)} is not a record line): nothing written`);
  }
  const needsNewline = record.tornTail === '' && completeBytes < buffer.length;
  return { path, exists: true, stream: null, record, size: buffer.length, completeBytes, needsNewline };
}

/** How a recorder waits to open a FIFO: until a reader comes (told once), or the stop. */
export interface OpenWait {
  signal?: AbortSignal;
  waiting?: () => void;
}

/**
 * Appends lines to a record, each with its own write(2) on an O_APPEND descriptor, so a killed
 * recorder leaves only complete lines plus at most one torn last line. On opening, a torn last
 * line is cut off (it is not an observation; the recorder sees that version again) and a complete
 * last line without its newline gets one.
 */
export class RecordAppender {
  private lastSync = 0;

  private constructor(
    private readonly path: string,
    private readonly sink: Sink,
    private pending: string,
    /** the record's file, synced now and then; null for a pipe or a device (fdatasync is EINVAL there) */
    private readonly file: FileHandle | null,
  ) {}

  static async open(existing: ExistingRecord, wait: OpenWait = {}): Promise<RecordAppender> {
    if (existing.stream !== null) return RecordAppender.openStream(existing.path, existing.stream, wait);
    const handle = await open(existing.path, 'a').catch((error: NodeJS.ErrnoException) => {
      throw new RecordFileError(existing.path, 'unwritable', `cannot write ${existing.path}: ${errnoText(error)}`);
    });
    try {
      const { size } = await handle.stat();
      if (size !== existing.size) {
        throw new RecordFileError(existing.path, 'changed', `${existing.path} changed while it was being read: is another recorder writing to it?`);
      }
      if (existing.record.tornTail !== '') await handle.truncate(existing.completeBytes);
    } catch (error) {
      await handle.close();
      throw error;
    }
    return new RecordAppender(existing.path, handleSink(handle), existing.needsNewline ? '\n' : '', handle);
  }

  private static async openStream(path: string, target: WriteTarget, wait: OpenWait): Promise<RecordAppender> {
    const sink = await openSink(target, wait).catch((error: unknown) => {
      if (wait.signal?.aborted) throw new RecordFileError(path, 'no-reader', '', target.kind);
      throw new RecordFileError(path, 'unwritable', `cannot write ${path}: ${errnoText(error)}`);
    });
    return new RecordAppender(path, sink, '', null);
  }

  append(text: string): Promise<void> {
    return namingPath(this.path, async () => {
      const buffer = Buffer.from(this.pending + text, 'utf8');
      this.pending = '';
      await this.sink.write(buffer);
      // Each line is in the kernel once write returns, which is what survives a killed process;
      // a sync now and then bounds what a crash of the whole machine could take.
      const now = Date.now();
      if (this.file !== null && now - this.lastSync >= 1000) {
        this.lastSync = now;
        await this.file.datasync();
      }
    });
  }

  async close(): Promise<void> {
    await this.file?.datasync().catch(() => {});
    await this.sink.close();
  }
}

/**
 * One recorder session's writes: an existing record is opened at once (a torn last line cut off), a
 * new file only once the server has answered (begin); the session's header goes before its first
 * observation, so a quiet namespace still leaves a record, of no events, that --from reads.
 */
export class SessionWriter {
  private appender: RecordAppender | undefined;
  private headerWritten = false;

  constructor(
    private readonly existing: ExistingRecord,
    private readonly header: RecordHeader,
    private readonly wait: OpenWait = {},
  ) {}

  /** The server answered: the session's header is written. */
  get started(): boolean {
    return this.headerWritten;
  }

  async openExisting(): Promise<void> {
    if (this.existing.exists) this.appender = await RecordAppender.open(this.existing);
  }

  async begin(): Promise<void> {
    this.appender ??= await RecordAppender.open(this.existing, this.wait);
    if (this.headerWritten) return;
    await this.appender.append(formatHeader(this.header));
    this.headerWritten = true;
  }

  /** One write per observation: a killed recorder leaves whole lines. */
  async write(observations: Observation[]): Promise<void> {
    await this.begin();
    await this.serially(async () => {
      for (const observation of observations) await (this.appender as RecordAppender).append(formatObservation(observation));
    });
  }

  /** Object lines, written between the observations (the owner lookups run beside them), never inside one. */
  async writeObjects(observedAt: number, objects: SavedObject[]): Promise<void> {
    await this.begin();
    await this.serially(async () => {
      for (const object of objects) await (this.appender as RecordAppender).append(formatObjectLine(observedAt, object));
    });
  }

  /** Status lines (src/io/facts-file.ts), written between the observations, never inside one. */
  async writeStatus(observedAt: number, statuses: ({ facts: ObjectFacts } | { missing: FactGap })[]): Promise<void> {
    await this.begin();
    await this.serially(async () => {
      for (const status of statuses) await (this.appender as RecordAppender).append(formatStatusLine(observedAt, status));
    });
  }

  async close(): Promise<void> {
    await this.queue;
    await this.appender?.close();
  }

  private queue: Promise<void> = Promise.resolve();

  private serially(work: () => Promise<void>): Promise<void> {
    const run = this.queue.then(work);
    this.queue = run.catch(() => {});
    return run;
  }
}

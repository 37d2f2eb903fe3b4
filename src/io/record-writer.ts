// A record on disk as the record verb appends to it: read (and refused: a folder, another file,
// a missing folder) before the first line, then each session's lines appended with fsync, the
// torn tail a stopped recorder left cut off first (src/io/record-line.ts has the line format).
import { open, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { errnoText, namingPath } from './errno.ts';
import { NotAFileError, handleSink, openRegularFile, openSink, writeTarget } from './path-kind.ts';
import type { PathKind, Sink, WriteTarget } from './path-kind.ts';
import type { Observation, RecordHeader, Seen } from '../core/record.ts';
import type { SavedObject } from '../core/object-meta.ts';
import { formatHeader, formatObjectLine, formatObservation, formatSeenLine, parseRecordLine } from './record-line.ts';
import { formatStatusLine } from './facts-file.ts';
import type { FactGap, ObjectFacts } from '../core/facts.ts';
import { parseRecordText } from './record-replay.ts';
import type { RecordText } from './record-replay.ts';

/**
 * A record file that cannot be read or appended to. The user can fix: not-a-file (a folder),
 * no-folder (its folder is missing), not-a-record (another file's content). The system said no:
 * unreadable, unwritable, changed (another writer), no-reader (a FIFO nobody read before the stop).
 * src/options/user-errors.ts words it.
 */
export class RecordFileError extends Error {
  constructor(
    readonly path: string,
    readonly problem: 'not-a-file' | 'no-folder' | 'not-a-record' | 'unreadable' | 'unwritable' | 'changed' | 'no-reader',
    /** no-folder: the folder that is not one; not-a-record: the first line that is not a record line; unreadable, unwritable: the file system's words */
    readonly detail = '',
    /** not-a-file: what the path is instead; no-reader: 'pipe' */
    readonly kind: PathKind | null = null,
  ) {
    super(`${path}: ${problem}`);
  }
}

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
      if (!isFolder) throw new RecordFileError(path, 'no-folder', folder);
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
    throw new RecordFileError(path, 'unreadable', errnoText(error));
  }
  const text = buffer.toString('utf8');
  const completeBytes = buffer.lastIndexOf(0x0a) + 1;
  const record = text.trim() === '' ? empty : parseRecordText(text);
  if (record === null) {
    throw new RecordFileError(path, 'not-a-record', String(firstBadLine(text)));
  }
  const needsNewline = record.tornTail === '' && completeBytes < buffer.length;
  return { path, exists: true, stream: null, record, size: buffer.length, completeBytes, needsNewline };
}

/** How a recorder waits to open a FIFO: until a reader comes (told once), or the stop. */
export interface OpenWait {
  signal?: AbortSignal;
  waiting?: () => void;
}

/** Lines waiting for the write after the one under way, and who waits for them. */
interface Batch {
  lines: string[];
  chars: number;
  written: Promise<void>;
  settle: (error?: unknown) => void;
}

function newBatch(): Batch {
  let settle: (error?: unknown) => void = () => {};
  const written = new Promise<void>((resolve, reject) => (settle = (error) => (error === undefined ? resolve() : reject(error))));
  // Whoever queued the lines may not wait for them: the failure is kept and thrown by the next append or close.
  written.catch(() => {});
  return { lines: [], chars: 0, written, settle };
}

/** Lines queued beyond this wait for the write under way before more are formatted (memory stays bounded). */
const QUEUED_CHARS = 256 * 1024;

/**
 * Appends whole lines to a record on an O_APPEND descriptor. The lines queued while a write(2) is
 * under way go out together in the next one (one write per line cost a fifth of record's busy CPU
 * at 50 events/s, npm run bench:follow), in the order they were queued. A write holds whole lines
 * only, so a killed recorder leaves complete lines plus at most one torn last line, as before. On
 * opening, a torn last line is cut off (it is not an observation; the recorder sees that version
 * again) and a complete last line without its newline gets one.
 */
export class RecordAppender {
  private lastSync = 0;
  /** the fdatasync under way, if any: lines keep being appended meanwhile */
  private syncing: Promise<void> | undefined;
  /** the first write or sync that failed: every later append and the close throw it */
  private failure: unknown;
  private queued: Batch = newBatch();
  /** the write loop, while lines are queued or a write is under way */
  private writing: Promise<void> | undefined;
  /** the batch being written: a full queue waits for it */
  private inFlight: Batch | undefined;

  private constructor(
    private readonly path: string,
    private readonly sink: Sink,
    pending: string,
    /** the record's file, synced now and then; null for a pipe or a device (fdatasync is EINVAL there) */
    private readonly file: FileHandle | null,
  ) {
    if (pending !== '') this.queue(pending);
  }

  static async open(existing: ExistingRecord, wait: OpenWait = {}): Promise<RecordAppender> {
    if (existing.stream !== null) return RecordAppender.openStream(existing.path, existing.stream, wait);
    const handle = await open(existing.path, 'a').catch((error: NodeJS.ErrnoException) => {
      throw new RecordFileError(existing.path, 'unwritable', errnoText(error));
    });
    try {
      const { size } = await handle.stat();
      if (size !== existing.size) {
        throw new RecordFileError(existing.path, 'changed');
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
      throw new RecordFileError(path, 'unwritable', errnoText(error));
    });
    return new RecordAppender(path, sink, '', null);
  }

  /** Appends TEXT (whole lines) and resolves once it is written. */
  append(text: string): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    return this.queue(text);
  }

  /**
   * Queues TEXT (whole lines) for the next write and resolves at once, or once the write under
   * way ends when much is queued already; rejects with an earlier write's failure.
   */
  async push(text: string): Promise<void> {
    if (this.failure !== undefined) throw this.failure;
    void this.queue(text);
    if (this.queued.chars >= QUEUED_CHARS && this.inFlight !== undefined) await this.inFlight.written.catch(() => {});
    if (this.failure !== undefined) throw this.failure;
  }

  /** Resolves once every line queued so far is written; rejects with the failure if one was not. */
  written(): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    return this.queued.lines.length > 0 ? this.queued.written : (this.inFlight?.written ?? Promise.resolve());
  }

  private queue(text: string): Promise<void> {
    const batch = this.queued;
    batch.lines.push(text);
    batch.chars += text.length;
    if (this.writing === undefined) this.writing = this.writeQueued();
    return batch.written;
  }

  private async writeQueued(): Promise<void> {
    for (;;) {
      // Cleared in the same step that finds the queue empty: a line queued after it starts a new loop.
      if (this.queued.lines.length === 0) {
        this.writing = undefined;
        return;
      }
      const batch = this.queued;
      this.queued = newBatch();
      this.inFlight = batch;
      try {
        await namingPath(this.path, () => this.sink.write(Buffer.from(batch.lines.join(''), 'utf8')));
        batch.settle();
      } catch (error) {
        this.failure ??= error;
        batch.settle(this.failure);
        this.queued.settle(this.failure);
        this.queued = newBatch();
        this.writing = undefined;
        return;
      } finally {
        this.inFlight = undefined;
      }
      this.syncNowAndThen();
    }
  }

  // Each line is in the kernel once write returns, which is what survives a killed process; a
  // sync now and then bounds what a crash of the whole machine could take. It runs beside the
  // appends, never before the next: on a busy disk (etcd's own fsyncs, a build) one fdatasync can
  // take many seconds, and a recorder waiting for it stops reading its watch and falls behind the
  // server (npm run bench:follow saw lags of 20 s at 50 events/s).
  private syncNowAndThen(): void {
    const now = Date.now();
    if (this.file === null || this.syncing !== undefined || now - this.lastSync < 1000) return;
    this.lastSync = now;
    this.syncing = namingPath(this.path, () => (this.file as FileHandle).datasync()).then(
      () => (this.syncing = undefined),
      (error: unknown) => {
        this.syncing = undefined;
        this.failure ??= error;
      },
    );
  }

  /** Writes what is queued, syncs and closes; throws the failure if a write or a sync failed. */
  async close(): Promise<void> {
    await this.writing;
    await this.syncing;
    await this.file?.datasync().catch(() => {});
    await this.sink.close();
    if (this.failure !== undefined) throw this.failure;
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

  /**
   * Queues the observations' lines: they are written with whatever else queues meanwhile, in this
   * order, and a killed recorder leaves whole lines. Resolves once queued (written() waits for the
   * disk); throws an earlier write's failure.
   */
  async write(observations: Observation[]): Promise<void> {
    await this.begin();
    await this.serially(async () => {
      for (const observation of observations) await (this.appender as RecordAppender).push(formatObservation(observation));
    });
  }

  /**
   * The version this session has seen everything up to: queued after the observations it covers, as
   * they are (so a kill before its write leaves the older one), and its failure thrown as theirs is.
   */
  async writeSeen(observedAt: number, seen: Seen): Promise<void> {
    await this.begin();
    await this.serially(() => (this.appender as RecordAppender).push(formatSeenLine(observedAt, seen)));
  }

  /** Object lines, written between the observations (the owner lookups run beside them), never inside one. */
  async writeObjects(observedAt: number, objects: SavedObject[]): Promise<void> {
    await this.begin();
    await this.serially(async () => {
      for (const object of objects) await (this.appender as RecordAppender).push(formatObjectLine(observedAt, object));
    });
  }

  /** Status lines (src/io/facts-file.ts), written between the observations, never inside one. */
  async writeStatus(observedAt: number, statuses: ({ facts: ObjectFacts } | { missing: FactGap })[]): Promise<void> {
    await this.begin();
    await this.serially(async () => {
      for (const status of statuses) await (this.appender as RecordAppender).push(formatStatusLine(observedAt, status));
    });
  }

  /** Resolves once every line queued so far is in the file (a reader of the file finds them). */
  async written(): Promise<void> {
    await this.queue;
    await this.appender?.written();
  }

  /** Writes what is queued and closes; throws a write's failure (the record is not whole). */
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

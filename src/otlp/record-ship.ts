// record FILE --otlp URL: ships the record as it grows. The file is the source of truth and the
// queue: this reads complete lines from the offset the endpoint last confirmed (the ledger,
// src/otlp/ledger.ts), turns each ADDED/MODIFIED observation into a log record, and sends
// batches through a Shipper, a few batches ahead at most, so memory stays flat however far the
// collector falls behind; the recorder never waits for the network. After each confirmed batch the
// ledger moves on, atomically: a recorder killed at any point resumes from there.
import { open, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { parseRecordLine } from '../io/record-line.ts';
import { readLedger, recordHead, writeLedger } from './ledger.ts';
import type { Ledger } from './ledger.ts';
import { eventToLog, hrTimeFromMs } from './logs.ts';
import type { OtlpLog } from './logs.ts';
import type { Encoding } from './encode.ts';
import type { OtlpEndpoint } from './http.ts';
import { Shipper } from './ship.ts';
import type { ShipperOptions } from './ship.ts';
import type { ShipNotice, ShipTotals } from '../core/notices.ts';
import type { RetryPolicy } from '../core/retry.ts';

interface RecordShipperOptions {
  path: string;
  endpoint: OtlpEndpoint;
  encoding: Encoding;
  batchSize: number;
  retry: RetryPolicy;
  notice(notice: ShipNotice): void;
  now(): number;
  /** the transport (tests inject one; default: postOtlp) */
  post?: ShipperOptions<unknown>['post'];
}

interface RecordShipResult {
  totals: ShipTotals;
  /** observations in the record after the last confirmed one */
  unconfirmed: number;
}

const CHUNK = 1 << 20;

/** The first line of a file (up to its newline), or '' when it has no complete line yet. */
async function firstLine(path: string): Promise<string> {
  const handle = await open(path, 'r').catch(() => null);
  if (handle === null) return '';
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const end = buffer.subarray(0, bytesRead).indexOf(0x0a);
    return end < 0 ? '' : buffer.toString('utf8', 0, end);
  } finally {
    await handle.close();
  }
}

export class RecordShipper {
  private readonly shipper: Shipper<{ bytes: number; logs: number }>;
  /** where the next read starts: past the last line handed to the shipper */
  private offset: number;
  private wakeReader: (() => void) | undefined;
  private stopping = false;
  private loop: Promise<void> | undefined;
  /** a time OTLP cannot hold is said once a run, at the first */
  private toldOutOfRange = false;

  private constructor(
    private readonly opts: RecordShipperOptions,
    private ledger: Ledger,
    private readonly onFatal: (error: Error) => void,
  ) {
    const key = opts.endpoint.url.href;
    this.offset = ledger.endpoints[key]?.bytes ?? 0;
    this.shipper = new Shipper({
      endpoint: opts.endpoint,
      encoding: opts.encoding,
      retry: opts.retry,
      notice: opts.notice,
      skipBadData: true,
      ...(opts.post ? { post: opts.post } : {}),
      confirmed: async (mark) => {
        const before = this.ledger.endpoints[key];
        this.ledger.endpoints[key] = { bytes: mark.bytes, logRecords: (before?.logRecords ?? 0) + mark.logs, at: new Date(opts.now()).toISOString() };
        await writeLedger(opts.path, this.ledger);
      },
    });
  }

  /**
   * Reads the ledger beside the record. A ledger of another record (its first line differs) or
   * one past the record's end is not trusted: shipping starts from the record's beginning.
   */
  static async open(opts: RecordShipperOptions, onFatal: (error: Error) => void): Promise<RecordShipper> {
    const head = await firstLine(opts.path);
    const size = await stat(opts.path).then((s) => s.size, () => 0);
    const found = await readLedger(opts.path);
    const key = opts.endpoint.url.href;
    let ledger: Ledger = { kind: 'EvtimelineOtlpLedger', version: 1, recordHead: head === '' ? '' : recordHead(head), endpoints: {} };
    if (found !== null && head !== '' && found.recordHead === recordHead(head)) {
      const progress = found.endpoints[key];
      if (progress === undefined || progress.bytes <= size) ledger = found;
      else opts.notice({ kind: 'ledger-ahead', record: opts.path });
    } else if (found !== null && head !== '') {
      opts.notice({ kind: 'ledger-of-another-record', record: opts.path });
    }
    return new RecordShipper(opts, ledger, onFatal);
  }

  /** Bytes of the record the endpoint has confirmed before this run. */
  get confirmedBytes(): number {
    return this.ledger.endpoints[this.opts.endpoint.url.href]?.bytes ?? 0;
  }

  /** Starts following the record in the background. */
  start(): void {
    this.loop = this.follow().catch((error: unknown) => {
      this.onFatal(error instanceof Error ? error : new Error(String(error)));
    });
  }

  /** The recorder appended lines. */
  wake(): void {
    this.wakeReader?.();
  }

  /**
   * Ships what is left, for up to `graceMs` (the endpoint may be down), then stops; what is not
   * confirmed by then is sent on the next run.
   */
  async stop(graceMs: number): Promise<RecordShipResult> {
    this.stopping = true;
    this.wake();
    const timer = setTimeout(() => void this.shipper.abort(), graceMs);
    try {
      await this.loop;
      // A permanent failure met while draining (a 401 on the last batch) is the run's failure too.
      await this.shipper.finish().catch((error: unknown) => this.onFatal(error instanceof Error ? error : new Error(String(error))));
    } finally {
      clearTimeout(timer);
    }
    await this.shipper.abort();
    return { totals: this.shipper.totals, unconfirmed: await this.countAfter(this.confirmedBytes) };
  }

  private async follow(): Promise<void> {
    const handle = await this.waitForFile();
    if (handle === null) return;
    try {
      let carry = Buffer.alloc(0);
      let batch: OtlpLog[] = [];
      /** the end of the last batch handed over */
      let handed = this.offset;
      const flush = async (end: number) => {
        const logs = batch;
        batch = [];
        handed = end;
        await this.shipper.push({ logs, mark: { bytes: end, logs: logs.length } });
      };
      for (;;) {
        const buffer = Buffer.alloc(CHUNK);
        const { bytesRead } = await handle.read(buffer, 0, CHUNK, this.offset + carry.length);
        if (bytesRead === 0) {
          // Lines that ship nothing after the last batch (object lines, DELETED) still move the
          // ledger on, as an empty batch: the ledger then covers the whole record.
          if (batch.length > 0 || this.offset > handed) await flush(this.offset);
          if (this.stopping || this.shipper.stopped) return;
          await new Promise<void>((resolve) => {
            this.wakeReader = resolve;
            // A recorder that appends without waking (or a wake lost between read and wait) is caught up with soon.
            setTimeout(resolve, 1000).unref();
          });
          continue;
        }
        const data = carry.length === 0 ? buffer.subarray(0, bytesRead) : Buffer.concat([carry, buffer.subarray(0, bytesRead)]);
        let start = 0;
        for (let nl = data.indexOf(0x0a); nl >= 0; nl = data.indexOf(0x0a, start)) {
          const line = data.toString('utf8', start, nl);
          start = nl + 1;
          const parsed = line.trim() === '' ? null : parseRecordLine(line);
          if (parsed !== null && 'observation' in parsed && parsed.observation.type !== 'DELETED') {
            const observed = parsed.observation.observedAt ?? Number.NaN;
            const log = eventToLog(parsed.observation.event, hrTimeFromMs(Number.isNaN(observed) ? this.opts.now() : observed), parsed.observation.context);
            if (log.timeOutOfRange && !this.toldOutOfRange) {
              this.toldOutOfRange = true;
              this.opts.notice({ kind: 'time-out-of-range' });
            }
            batch.push(log);
          }
          if (batch.length >= this.opts.batchSize) {
            await flush(this.offset + start);
            if (this.shipper.stopped) return;
          }
        }
        // The offset moves past every complete line read; an open batch's mark is taken when it is pushed.
        this.offset += start;
        carry = Buffer.from(data.subarray(start));
        if (this.shipper.stopped) return;
      }
    } finally {
      await handle.close();
    }
  }

  /** The record once it exists (a new record appears with the server's first answer). */
  private async waitForFile(): Promise<FileHandle | null> {
    for (;;) {
      const handle = await open(this.opts.path, 'r').catch(() => null);
      if (handle !== null) {
        if (this.ledger.recordHead === '') {
          const head = await firstLine(this.opts.path);
          if (head !== '') this.ledger.recordHead = recordHead(head);
        }
        return handle;
      }
      if (this.stopping) return null;
      await new Promise<void>((resolve) => {
        this.wakeReader = resolve;
        setTimeout(resolve, 1000).unref();
      });
    }
  }

  /** Observations after `bytes` (what is not yet confirmed). */
  private async countAfter(bytes: number): Promise<number> {
    const handle = await open(this.opts.path, 'r').catch(() => null);
    if (handle === null) return 0;
    try {
      const size = (await handle.stat()).size;
      const buffer = Buffer.alloc(Math.max(0, size - bytes));
      await handle.read(buffer, 0, buffer.length, bytes);
      let count = 0;
      for (const line of buffer.toString('utf8').split('\n')) {
        const parsed = line.trim() === '' ? null : parseRecordLine(line);
        if (parsed !== null && 'observation' in parsed && parsed.observation.type !== 'DELETED') count += 1;
      }
      return count;
    } finally {
      await handle.close();
    }
  }
}

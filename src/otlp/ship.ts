// Ships batches of log records to one OTLP/HTTP endpoint, in order, one request at a time:
// a bounded queue between whoever produces batches (a list, a record being written) and the
// network, so memory stays flat whatever the collector's speed; a retry with backoff for what
// the OTLP specification calls retryable (429, 502-504, a lost connection), honouring
// Retry-After; and a confirmation per batch once the endpoint has answered 2xx, which is what a
// caller may persist (record --otlp's ledger). A confirmed batch is never sent again.
import { RuntimeError } from '../errors.ts';
import { backoffDelay } from '../core/retry.ts';
import type { ShipNotice, ShipTotals } from '../core/notices.ts';
import type { RetryPolicy } from '../core/retry.ts';
import type { OtlpLog } from './logs.ts';
import { CONTENT_TYPE, encodeLogs, rejectedLogs } from './encode.ts';
import type { Encoding } from './encode.ts';
import { postOtlp } from './http.ts';
import type { OtlpEndpoint, SendOutcome } from './http.ts';

/**
 * An export the endpoint would not take: refused (`why`: its answer), JSON refused by an endpoint
 * that takes protobuf only, or still failing after `attempts` tries; src/options/user-errors.ts words it.
 */
export class ShipError extends RuntimeError {
  constructor(
    readonly url: string,
    readonly problem: 'failed' | 'json-refused' | 'gave-up',
    readonly why: string,
    readonly attempts: number,
  ) {
    super(`${url}: ${problem}: ${why}`);
  }
}


/** 0.5 s doubling to 30 s; the twelfth failure in a row (about four minutes of waits) gives up. */
export const DEFAULT_OTLP_RETRY: RetryPolicy = { firstDelayMs: 500, maxDelayMs: 30_000, maxAttempts: 12 };

/** Log records per request: the Collector's OTLP receiver takes 20 MiB by default; 1,000 events stay far below. */
export const DEFAULT_BATCH = 1000;

interface Batch<M> {
  logs: OtlpLog[];
  /** what confirming this batch means to the producer (e.g. a ledger position) */
  mark: M;
}

export interface ShipperOptions<M> {
  endpoint: OtlpEndpoint;
  encoding: Encoding;
  retry: RetryPolicy;
  /** batches waiting to be sent, at most (the producer waits beyond that) */
  queueLimit?: number;
  notice(notice: ShipNotice): void;
  /** after the endpoint accepted a batch; the next is sent once this resolves */
  confirmed?(mark: M, totals: ShipTotals): Promise<void> | void;
  sleep?(ms: number): Promise<void>;
  /** the transport (tests inject a failing one; default: postOtlp) */
  post?(endpoint: OtlpEndpoint, contentType: string, body: Uint8Array, signal?: AbortSignal): Promise<SendOutcome>;
  /**
   * export: an endpoint that has never answered and where nothing listens (connection refused, no
   * such host) is a wrong URL, said at once, as kubectl says `connection refused` at once; without
   * it (record --otlp) a collector that is down is waited for.
   */
  failUnreachable?: boolean;
  /**
   * record --otlp: a batch the endpoint refuses as bad data (400) is counted as rejected and passed
   * over, and the next batches are sent: one event a collector will not take (anyone who may create
   * events can write one) must not stop a recorder. Without it (export) a 400 ends the run.
   */
  skipBadData?: boolean;
}

/** A collector's message is untrusted and may be long: its first line, at most this long. */
const MESSAGE_CHARS = 300;
const shortMessage = (text: string): string => (text.split('\n')[0] ?? '').slice(0, MESSAGE_CHARS);

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class Shipper<M> {
  readonly totals: ShipTotals = { accepted: 0, rejected: 0, requests: 0, retries: 0 };
  private readonly queue: Batch<M>[] = [];
  private readonly limit: number;
  private failure: Error | undefined;
  private wakeConsumer: (() => void) | undefined;
  private wakeProducer: (() => void) | undefined;
  private closed = false;
  private aborted = false;
  private wakeSleeper: (() => void) | undefined;
  /** ends a request in flight when abort() is called */
  private readonly inFlight = new AbortController();
  /** a connection to the endpoint was made at least once (an answer, or a timeout on one) */
  private reached = false;
  private readonly done: Promise<void>;

  constructor(private readonly opts: ShipperOptions<M>) {
    this.limit = Math.max(1, opts.queueLimit ?? 4);
    this.done = this.consume();
  }

  /** Queues a batch; waits while the queue is full. Throws once shipping has given up. */
  async push(batch: Batch<M>): Promise<void> {
    while (this.queue.length >= this.limit && this.failure === undefined && !this.aborted) {
      await new Promise<void>((resolve) => (this.wakeProducer = resolve));
    }
    if (this.failure) throw this.failure;
    if (this.aborted) return;
    if (batch.logs.length === 0) {
      // Nothing to send, but the producer's position still moves on (a record's DELETED lines).
      if (this.queue.length === 0) await this.opts.confirmed?.(batch.mark, this.totals);
      else this.queue.push(batch);
    } else {
      this.queue.push(batch);
    }
    this.wakeConsumer?.();
  }

  /** Waits until every queued batch is confirmed; throws if shipping gave up. */
  async finish(): Promise<ShipTotals> {
    this.closed = true;
    this.wakeConsumer?.();
    await this.done;
    if (this.failure) throw this.failure;
    return this.totals;
  }

  /**
   * Stops at once: a retry wait ends, no further request is made, queued batches stay
   * unconfirmed (a record's are sent on its next run). Waits until the consumer has stopped.
   */
  async abort(): Promise<ShipTotals> {
    this.aborted = true;
    this.closed = true;
    this.inFlight.abort();
    this.wakeSleeper?.();
    this.wakeConsumer?.();
    this.wakeProducer?.();
    await this.done;
    return this.totals;
  }

  /** abort() was called: nothing more is sent. */
  get stopped(): boolean {
    return this.aborted;
  }

  /** Batches queued and not yet confirmed. */
  get pending(): number {
    return this.queue.length;
  }

  private async consume(): Promise<void> {
    for (;;) {
      const batch = this.queue[0];
      if (this.aborted) return;
      if (batch === undefined) {
        if (this.closed) return;
        await new Promise<void>((resolve) => (this.wakeConsumer = resolve));
        this.wakeConsumer = undefined;
        continue;
      }
      try {
        if (batch.logs.length > 0 && !(await this.send(batch.logs))) return;
        await this.opts.confirmed?.(batch.mark, this.totals);
      } catch (error) {
        this.failure = error instanceof Error ? error : new Error(String(error));
        this.wakeProducer?.();
        return;
      }
      this.queue.shift();
      this.wakeProducer?.();
    }
  }

  /** Sends one batch until the endpoint accepts it (true), or abort() is called (false). */
  private async send(logs: OtlpLog[]): Promise<boolean> {
    const { endpoint, encoding, retry, notice } = this.opts;
    const body = await encodeLogs(logs, encoding);
    const post = this.opts.post ?? postOtlp;
    const sleep = this.opts.sleep ?? realSleep;
    for (let attempt = 1; ; attempt++) {
      if (this.aborted) return false;
      this.totals.requests += 1;
      const outcome = await post(endpoint, CONTENT_TYPE[encoding], body, this.inFlight.signal);
      if (this.aborted) return false;
      if (outcome.kind === 'ok') {
        this.reached = true;
        const said = await rejectedLogs(outcome.body, encoding);
        // The count is the endpoint's word: a negative one, or more than were sent (`rejected 999999
        // of 2`), is not believed past what was sent.
        const rejected = Number.isFinite(said.rejected) ? Math.min(Math.max(0, Math.trunc(said.rejected)), logs.length) : 0;
        const message = shortMessage(said.message);
        const believed = rejected === said.rejected;
        if (rejected > 0 || !believed) {
          notice({ kind: 'rejected', origin: endpoint.url.origin, rejected, sent: logs.length, message, ...(believed ? {} : { claimed: said.rejected }) });
        }
        this.totals.rejected += rejected;
        this.totals.accepted += logs.length - rejected;
        return true;
      }
      if (outcome.kind === 'fail' && outcome.badData === true && this.opts.skipBadData === true) {
        this.reached = true;
        notice({ kind: 'bad-data', origin: endpoint.url.origin, refused: logs.length, why: outcome.why });
        this.totals.rejected += logs.length;
        return true;
      }
      if (outcome.kind === 'fail') {
        // VictoriaLogs answers OTLP JSON with a 400 (app/vlinsert/opentelemetry/opentelemetry.go:
        // "json encoding isn't supported ... Use protobuf encoding"); others with 415. Say what to do.
        if (encoding === 'json' && /^HTTP (400|415)\b/.test(outcome.why) && (/^HTTP 415/.test(outcome.why) || /protobuf/i.test(outcome.why))) {
          throw new ShipError(endpoint.url.href, 'json-refused', outcome.why, attempt);
        }
        throw new ShipError(endpoint.url.href, 'failed', outcome.why, attempt);
      }
      if (outcome.unreachable === true && !this.reached && this.opts.failUnreachable === true) {
        throw new ShipError(endpoint.url.href, 'failed', outcome.why, attempt);
      }
      if (outcome.unreachable !== true) this.reached = true;
      if (attempt >= retry.maxAttempts) {
        throw new ShipError(endpoint.url.href, 'gave-up', outcome.why, attempt);
      }
      const backoff = backoffDelay(attempt, retry);
      const delay = Math.min(retry.maxDelayMs, outcome.retryAfterMs ?? backoff);
      notice({ kind: 'retrying', origin: endpoint.url.origin, why: outcome.why, delayMs: delay });
      this.totals.retries += 1;
      await Promise.race([sleep(delay), new Promise<void>((resolve) => (this.wakeSleeper = resolve))]);
    }
  }
}

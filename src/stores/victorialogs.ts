// --from victorialogs+http(s)://HOST:PORT[?query=LogsQL][&page-rows=N]: the events a VictoriaLogs server (or a
// cluster's select front) keeps, read through its /select/logsql/query endpoint
// (docs/victorialogs/querying/README.md, "Querying logs", v1.52.2), which answers JSON lines.
//
// The window's start (--since, --since-time) and -n go into the query, so the server selects;
// --until is applied after reading (each version is stamped with its own last time: an end in the
// request would cut the later versions of an event first seen before it); the answer is read line by line and folded into the
// newest version of each event as it arrives, never held whole. A big answer is paged by time
// (storedRows): consecutive [start, end) windows, each streamed whole, so none is cut, lost or
// read twice, and no request runs long enough for the server's -search.maxQueryDuration (30 s).
//
// Failures are one line: a server that cannot be reached, an HTTP error status with the first
// line of its answer (a cluster front answers 502 when a storage node is down, cluster.md "High
// availability"), and an error written into an answer already under way (httpserver.Errorf
// writes it as a last line and aborts the connection): never a silently partial timeline.
import type { Agent, IncomingMessage } from 'node:http';
import { finished } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { RuntimeError } from '../errors.ts';
import { stringOnly } from '../core/json.ts';
import type { Json } from '../core/json.ts';
import type { TimeWindow } from '../core/source.ts';
import { parseRow } from './victorialogs-rows.ts';
import { isTlsFailure, tlsFailureText } from '../otlp/http.ts';

/** The flags a TLS failure's words point to (src/options/store.ts). */
const STORE_TLS_FLAGS = { ca: '--from-ca', clientCert: '--from-client-cert' };

export interface StoreEndpoint {
  /** http(s)://HOST:PORT[/prefix], without the victorialogs+ scheme prefix or a query */
  base: URL;
  /** the LogsQL filter of ?query= ('*': every row) */
  query: string;
  headers: Record<string, string>;
  /** PEM of the CAs to trust for https; default: the system's */
  ca?: string;
  clientCert?: { cert: string; key: string };
  /** per request (0: none) */
  timeoutMs: number;
  /** -v=6: one line per request on stderr */
  log?: (line: string) => void;
}

/**
 * Rows per time window unless ?page-rows= says otherwise. Each request costs the server a query of
 * its own: 220,000 rows read in 22 windows of 10,000 took VictoriaLogs 1.5-1.8 s of CPU against
 * 1.0-1.1 s in one, on the two cores the reader needs too. A window of 100,000 rows streams in 1-2 s
 * here, far inside the server's -search.maxQueryDuration (30 s) even on a much slower machine.
 */
const DEFAULT_PAGE_ROWS = 100_000;

/** A namespace as a LogsQL exact-match filter on either writer's field for it (docs/victorialogs/logsql.md, "Exact filter"). */
function namespaceFilter(namespace: string): string {
  const quoted = JSON.stringify(namespace);
  return `(evtimeline.event.namespace:=${quoted} OR k8s.namespace.name:=${quoted})`;
}

/**
 * Rows that can hold an event last seen at or after `start`: those stamped then or later, and our
 * export's series whose last observation is (a series is stamped with its first eventTime, which
 * a window on _time alone would miss). The series time compares as text from the second before.
 */
function sinceFilter(start: number): string {
  const at = new Date(start).toISOString();
  const second = JSON.stringify(new Date(Math.floor(start / 1000) * 1000).toISOString().slice(0, 19));
  return `(_time:>=${at} OR evtimeline.event.series.last_observed_time:string_range(${second}, "9999"))`;
}

/** The LogsQL sent: the user's filter, narrowed to a namespace and to what can be last seen at or after `start`. */
export function composeQuery(userQuery: string, namespace: string | null, start: number | null = null): string {
  const base = userQuery.trim() === '' ? '*' : userQuery.trim();
  const narrowing = [...(namespace === null ? [] : [namespaceFilter(namespace)]), ...(start === null ? [] : [sinceFilter(start)])];
  return narrowing.length === 0 ? base : [`(${base})`, ...narrowing].join(' AND ');
}

/** Nanoseconds as VictoriaLogs takes start/end: RFC 3339 with nine fractional digits. */
export function nanosToRfc3339(ns: bigint): string {
  const ms = ns / 1_000_000n;
  const fraction = String(ns % 1_000_000_000n).padStart(9, '0');
  return `${new Date(Number(ms)).toISOString().slice(0, 19)}.${fraction}Z`;
}

/** One request's URL: the query, an optional limit, and the window in nanoseconds. */
export function queryUrl(endpoint: StoreEndpoint, query: string, window: { start: bigint | null; end: bigint | null }, limit: number | null): URL {
  const url = new URL(endpoint.base.href.replace(/\/*$/, '/select/logsql/query'));
  url.searchParams.set('query', query);
  if (limit !== null) url.searchParams.set('limit', String(limit));
  if (window.start !== null) url.searchParams.set('start', nanosToRfc3339(window.start));
  if (window.end !== null) url.searchParams.set('end', nanosToRfc3339(window.end));
  return url;
}

/**
 * A store's answer that cannot be read: it broke off before its end, or an error line came where
 * rows were due (`detail`: that line); src/options/user-errors.ts words it.
 */
export class StoreAnswerError extends RuntimeError {
  constructor(
    readonly store: string,
    readonly problem: 'broke-off' | 'query-failed',
    readonly detail = '',
  ) {
    super(`${store}: ${problem}`);
  }
}

function where(endpoint: StoreEndpoint): string {
  return `victorialogs+${endpoint.base.origin}`;
}

/** kubectl -v=6's line shape (src/kube/http.ts logResponse), for a store's request. */
function logResponse(endpoint: StoreEndpoint, url: URL, code: number, status: string, ms: number): void {
  endpoint.log?.(`I ${String(process.pid).padStart(7)} victorialogs] "Response" verb="GET" url="${url.href}" status="${code} ${status}" milliseconds=${ms}\n`);
}

// Node's global agents close a socket idle for 5 s: a server sorting a page's rows says nothing
// for longer than that. Our own agents, loaded on first use, keep the connection across pages.
const agents = new Map<string, Agent>();

/** GETs a URL and hands back the response once its status is 200; a one-line RuntimeError otherwise. */
function get(endpoint: StoreEndpoint, url: URL): Promise<IncomingMessage> {
  const secure = url.protocol === 'https:';
  const transport = process.getBuiltinModule(secure ? 'node:https' : 'node:http');
  let agent = agents.get(url.protocol);
  if (agent === undefined) {
    agent = new transport.Agent({ keepAlive: true });
    agents.set(url.protocol, agent);
  }
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const req = transport.request(
      url,
      {
        method: 'GET',
        agent,
        headers: { Accept: 'application/stream+json', ...endpoint.headers },
        ...(secure && endpoint.ca !== undefined ? { ca: endpoint.ca } : {}),
        ...(secure && endpoint.clientCert !== undefined ? endpoint.clientCert : {}),
        ...(endpoint.timeoutMs > 0 ? { timeout: endpoint.timeoutMs } : {}),
      },
      (res) => {
        const code = res.statusCode ?? 0;
        logResponse(endpoint, url, code, res.statusMessage ?? '', Date.now() - started);
        if (code === 200) return resolve(res);
        const chunks: Buffer[] = [];
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          if (bytes < 4096) chunks.push(chunk);
          bytes += chunk.length;
        });
        res.on('error', () => {});
        res.on('close', () => {
          const first = Buffer.concat(chunks).toString('utf8').split('\n').find((line) => line.trim() !== '') ?? '';
          reject(new RuntimeError(`${where(endpoint)}: HTTP ${code}${first === '' ? '' : `: ${first.trim().slice(0, 300)}`}`));
        });
      },
    );
    if (endpoint.timeoutMs > 0) req.on('timeout', () => req.destroy(new Error(`no answer within ${endpoint.timeoutMs / 1000} s`)));
    req.on('error', (error: NodeJS.ErrnoException) =>
      reject(new RuntimeError(isTlsFailure(error) ? `${where(endpoint)}: TLS: ${tlsFailureText(error, STORE_TLS_FLAGS)}` : `cannot reach ${where(endpoint)}: ${error.code ?? error.message}`)),
    );
    req.end();
  });
}

/** Rows parsed and not yet taken past which the answer is paused (a reader that awaits something else meanwhile). */
const PAUSE_ROWS = 5_000;

/**
 * The rows of one request, as they arrive: all those parsed since the reader last took them,
 * together. A 'data' listener, not `for await`: the server writes its answer in pieces of up to
 * 16 KiB (some 18,000 for 220,000 rows), and the async iterator's promise per piece, then the
 * generators' above it, cost more than the piece's own scan (src/kube/http.ts says the same of lists).
 * An error line the server wrote mid-answer throws; an answer that breaks off throws.
 */
async function* rowsOf(endpoint: StoreEndpoint, url: URL): AsyncGenerator<Json[]> {
  const res = await get(endpoint, url);
  const decoder = new StringDecoder('utf8');
  let rows: Json[] = [];
  let failure: Error | null = null;
  let ended = false;
  let wake: (() => void) | null = null;
  const rowOf = (line: string): void => {
    if (line.trim() === '') return;
    const row = parseRow(line);
    if (row === null) throw new StoreAnswerError(where(endpoint), 'query-failed', line.trim().slice(0, 300));
    rows.push(row);
  };
  // A row longer than a piece is gathered in parts and joined once (src/io/record-stream.ts readLines says why).
  let parts: string[] = [];
  const take = (text: string): void => {
    let end = text.indexOf('\n');
    if (end < 0) {
      parts.push(text);
      return;
    }
    parts.push(text.slice(0, end));
    rowOf(parts.length === 1 ? (parts[0] as string) : parts.join(''));
    parts = [];
    let start = end + 1;
    for (end = text.indexOf('\n', start); end >= 0; end = text.indexOf('\n', start)) {
      rowOf(text.slice(start, end));
      start = end + 1;
    }
    if (start < text.length) parts.push(text.slice(start));
  };
  res.on('data', (chunk: Buffer) => {
    if (failure !== null) return;
    try {
      take(decoder.write(chunk));
    } catch (error) {
      failure = error as Error;
      res.destroy();
    }
    if (rows.length >= PAUSE_ROWS) res.pause();
    wake?.();
  });
  finished(res, (error) => {
    ended = true;
    if (failure === null && (error !== undefined || !res.complete)) failure = new StoreAnswerError(where(endpoint), 'broke-off');
    if (failure === null) {
      try {
        take(decoder.end());
        rowOf(parts.join(''));
      } catch (error) {
        failure = error as Error;
      }
    }
    wake?.();
  });
  try {
    for (;;) {
      if (failure !== null) throw failure;
      if (rows.length > 0) {
        const taken = rows;
        rows = [];
        if (res.isPaused()) res.resume();
        yield taken;
      } else if (ended) {
        return;
      } else {
        await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
      }
    }
  } finally {
    // A reader that stops early (an error above it, -n met) lets go of the connection.
    if (!ended) res.destroy();
  }
}

function timeNanos(row: Json): bigint | null {
  const text = stringOnly(row._time);
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)$/.exec(text);
  if (!m) return null;
  const ms = Date.parse(`${m[1]}${m[3]}`);
  return Number.isNaN(ms) ? null : BigInt(ms) * 1_000_000n + BigInt((m[2] ?? '').padEnd(9, '0'));
}

/** The selected rows' count and first and last time, from one stats query (`| stats ...`); null when none. */
async function span(endpoint: StoreEndpoint, query: string, window: { start: bigint | null; end: bigint | null }): Promise<{ rows: number; first: bigint; last: bigint } | null> {
  const stats = `${query} | stats count() as rows, min(_time) as first, max(_time) as last`;
  for await (const [row] of rowsOf(endpoint, queryUrl(endpoint, stats, window, null))) {
    if (row === undefined) continue;
    const rows = Number(row.rows);
    const first = timeNanos({ _time: row.first });
    const last = timeNanos({ _time: row.last });
    if (!(rows > 0) || first === null || last === null) return null;
    return { rows, first, last };
  }
  return null;
}

/**
 * Every row the query selects in the window, page by page (see the header), as they arrive, a chunk's rows together: one stats request
 * learns how many rows there are and from when to when, then that span is read in consecutive
 * time windows, [start, end) each, sized to hold about `pageRows` rows if they were spread evenly.
 * A window is streamed whole however many it holds (no limit, so nothing is cut), and the server
 * scans only its time range: the cost stays linear in the rows, where `limit` pages re-sort all
 * older rows each time.
 */
export async function* storedRows(
  endpoint: StoreEndpoint,
  query: string,
  window: TimeWindow,
  opts: { pageRows?: number | undefined; fields?: readonly string[]; renames?: readonly (readonly [string, string])[] | undefined } = {},
): AsyncGenerator<Json[]> {
  const pageRows = opts.pageRows ?? DEFAULT_PAGE_ROWS;
  // Only the rows' fields read are asked for (the count and span are of the rows, whatever their fields), under the names asked.
  const fields = opts.fields === undefined ? '' : ` | fields ${opts.fields.join(', ')}`;
  const renames = opts.renames === undefined || opts.renames.length === 0 ? '' : ` | rename ${opts.renames.map(([from, to]) => `${from} as ${to}`).join(', ')}`;
  const rowsQuery = `${query}${fields}${renames}`;
  const start = window.start === null ? null : BigInt(window.start) * 1_000_000n;
  const end = window.end === null ? null : BigInt(window.end) * 1_000_000n;
  const selected = await span(endpoint, query, { start, end });
  if (selected === null) return;
  const pages = BigInt(Math.max(1, Math.ceil(selected.rows / pageRows)));
  // Windows from the first row's nanosecond to just past the last's.
  const from = selected.first;
  const to = selected.last + 1n;
  const width = (to - from + pages - 1n) / pages;
  for (let at = from; at < to; at += width) {
    const next = at + width < to ? at + width : to;
    yield* rowsOf(endpoint, queryUrl(endpoint, rowsQuery, { start: at, end: next }, null));
  }
}

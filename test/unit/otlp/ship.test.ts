import { describe, test } from 'node:test';
import { inUserWords } from '../../../src/options/user-errors.ts';
import { shipNoticeText } from '../../../src/render/adapter-notices.ts';
import assert from 'node:assert/strict';
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RuntimeError, UsageError } from '../../../src/errors.ts';
import { parseOtlpHeaders, parseOtlpOptions, parseOtlpUrl } from '../../../src/options/otlp.ts';
import { Shipper } from '../../../src/otlp/ship.ts';
import type { RetryPolicy } from '../../../src/core/retry.ts';
import type { OtlpEndpoint, SendOutcome } from '../../../src/otlp/http.ts';
import { openEndpoint, retryAfterMs } from '../../../src/otlp/http.ts';
import { RecordShipper } from '../../../src/otlp/record-ship.ts';
import { RECORD_KIND } from '../../../src/core/record.ts';
import type { RecordHeader } from '../../../src/core/record.ts';
import { formatHeader, formatObjectLine, formatObservation } from '../../../src/io/record-line.ts';
import { eventToLog, hrTimeFromMs } from '../../../src/otlp/logs.ts';
import { NOW, ev } from '../../support/builders.ts';
import { scratchDir } from '../../support/tmp.ts';

/** A failed export as the user reads it (the shipper raises a ShipError; src/options/user-errors.ts words it). */
const said = (p: Promise<unknown>): Promise<unknown> => p.catch((error: unknown) => Promise.reject(inUserWords(error)));

const endpoint: OtlpEndpoint = { url: new URL('http://collector.test:4318/v1/logs'), headers: {}, timeoutMs: 1000 };
const retry: RetryPolicy = { firstDelayMs: 500, maxDelayMs: 4000, maxAttempts: 4 };
const log = (n: number) => eventToLog(ev({ name: `e-${n}` }), hrTimeFromMs(NOW));

/** A transport answering from a script, one outcome per request (then ok), and what it was sent. */
function scripted(outcomes: SendOutcome[]) {
  const bodies: Uint8Array[] = [];
  return {
    bodies,
    post: async (_e: OtlpEndpoint, _type: string, body: Uint8Array): Promise<SendOutcome> => {
      bodies.push(body);
      return outcomes.shift() ?? { kind: 'ok', body: new Uint8Array() };
    },
  };
}

describe('--otlp flags', () => {
  const urls: [string, string][] = [
    ['http://localhost:4318', 'http://localhost:4318/v1/logs'],
    ['https://otel.example.com/', 'https://otel.example.com/v1/logs'],
    ['http://127.0.0.1:4318/v1/logs', 'http://127.0.0.1:4318/v1/logs'],
    ['https://gw.example.com/otlp/v1/logs?tenant=a', 'https://gw.example.com/otlp/v1/logs?tenant=a'],
  ];
  for (const [given, used] of urls) {
    test(`${given} sends to ${used}`, () => assert.equal(parseOtlpUrl(given).href, used));
  }
  const badUrls = ['localhost:4318', 'grpc://localhost:4317', 'http://user:pw@localhost:4318', ''];
  for (const bad of badUrls) {
    test(`${JSON.stringify(bad)} is a usage error`, () => assert.throws(() => parseOtlpUrl(bad), UsageError));
  }

  test('headers: NAME=VALUE, the value kept exactly, = and spaces included', () => {
    assert.deepEqual(parseOtlpHeaders(['Authorization=Bearer a=b', 'X-Scope-OrgID=team a']), { Authorization: 'Bearer a=b', 'X-Scope-OrgID': 'team a' });
  });
  const badHeaders = ['NoValue', '=x', 'Bad Name=x', 'Content-Type=text/plain', 'X=a\r\nInjected: 1'];
  for (const bad of badHeaders) {
    test(`header ${JSON.stringify(bad)} is a usage error`, () => assert.throws(() => parseOtlpHeaders([bad]), UsageError));
  }

  test('no --otlp: null; an --otlp-* flag without it is a usage error naming the flag', () => {
    assert.equal(parseOtlpOptions({}), null);
    assert.throws(() => parseOtlpOptions({ otlpHeader: ['A=b'] }), /--otlp-header needs --otlp URL/);
  });

  test('defaults: protobuf, batches of 1000, 30 s per request; --otlp-json and --otlp-batch change them', () => {
    const o = parseOtlpOptions({ otlp: 'http://c:4318' });
    assert.equal(o?.encoding, 'protobuf');
    assert.equal(o?.batchSize, 1000);
    assert.equal(o?.timeoutMs, 30_000);
    assert.equal(parseOtlpOptions({ otlp: 'http://c:4318', otlpJson: true, otlpBatch: '50' })?.batchSize, 50);
    assert.throws(() => parseOtlpOptions({ otlp: 'http://c:4318', otlpBatch: '0' }), UsageError);
    assert.throws(() => parseOtlpOptions({ otlp: 'http://c:4318', otlpCa: 'ca.pem' }), /applies to an https URL/);
  });

  test('mutual TLS: --otlp-client-cert and --otlp-client-key together, for https only', () => {
    const https = { otlp: 'https://c:4318' };
    assert.deepEqual(parseOtlpOptions({ ...https, otlpClientCert: 'me.pem', otlpClientKey: 'me.key' })?.clientCert, { certFile: 'me.pem', keyFile: 'me.key' });
    assert.equal(parseOtlpOptions(https)?.clientCert, undefined);
    assert.throws(() => parseOtlpOptions({ ...https, otlpClientCert: 'me.pem' }), /^UsageError: --otlp-client-cert needs --otlp-client-key$/);
    assert.throws(() => parseOtlpOptions({ ...https, otlpClientKey: 'me.key' }), /^UsageError: --otlp-client-key needs --otlp-client-cert$/);
    assert.throws(() => parseOtlpOptions({ otlp: 'http://c:4318', otlpClientCert: 'me.pem', otlpClientKey: 'me.key' }), /applies to an https URL/);
    assert.throws(() => parseOtlpOptions({ otlpClientCert: 'me.pem' }), /--otlp-client-cert needs --otlp URL/);
  });

  test('PEM files: a missing one is a runtime error, one without the PEM block a usage error, each naming its flag', async () => {
    const dir = scratchDir('otlp-pem');
    const cert = join(dir, 'cert.pem');
    const key = join(dir, 'key.pem');
    await writeFile(cert, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
    await writeFile(key, '-----BEGIN EC PRIVATE KEY-----\nMHc\n-----END EC PRIVATE KEY-----\n');
    const url = new URL('https://c:4318/v1/logs');
    const opened = await openEndpoint({ url, headers: {}, timeoutMs: 1000, caFile: cert, clientCert: { certFile: cert, keyFile: key } });
    assert.match(opened.clientCert?.key ?? '', /BEGIN EC PRIVATE KEY/);
    assert.match(opened.ca ?? '', /BEGIN CERTIFICATE/);
    await assert.rejects(openEndpoint({ url, headers: {}, timeoutMs: 1000, clientCert: { certFile: cert, keyFile: cert } }).catch((e: unknown) => { throw inUserWords(e); }), (e: Error) => e instanceof UsageError && e.message === `--otlp-client-key ${cert}: not a PEM private key file`);
    await assert.rejects(openEndpoint({ url, headers: {}, timeoutMs: 1000, clientCert: { certFile: key, keyFile: key } }).catch((e: unknown) => { throw inUserWords(e); }), (e: Error) => e instanceof UsageError && e.message === `--otlp-client-cert ${key}: not a PEM certificate file`);
    await assert.rejects(openEndpoint({ url, headers: {}, timeoutMs: 1000, clientCert: { certFile: join(dir, 'gone.pem'), keyFile: key } }).catch((e: unknown) => { throw inUserWords(e); }), (e: Error) => e instanceof RuntimeError && /^--otlp-client-cert .*gone\.pem: no such file$/.test(e.message));
  });

  test('Retry-After in seconds or as an HTTP date', () => {
    assert.equal(retryAfterMs('3', NOW), 3000);
    assert.equal(retryAfterMs(new Date(NOW + 5000).toUTCString(), NOW), 5000);
    assert.equal(retryAfterMs('soon', NOW), undefined);
    assert.equal(retryAfterMs(undefined, NOW), undefined);
  });
});

describe('the shipper', () => {
  test('retryable answers are retried with doubling waits, Retry-After honoured, capped; then sent once', async () => {
    const waits: number[] = [];
    const t = scripted([
      { kind: 'retry', why: 'HTTP 503' },
      { kind: 'retry', why: 'ECONNREFUSED' },
      { kind: 'retry', why: 'HTTP 429', retryAfterMs: 60_000 },
    ]);
    const notices: string[] = [];
    const shipper = new Shipper<number>({ endpoint, encoding: 'protobuf', retry, notice: (n) => notices.push(shipNoticeText(n)), post: t.post, sleep: async (ms) => void waits.push(ms) });
    await shipper.push({ logs: [log(1)], mark: 1 });
    const totals = await shipper.finish();
    assert.deepEqual(waits, [500, 1000, 4000]);
    assert.deepEqual(totals, { accepted: 1, rejected: 0, requests: 4, retries: 3 });
    assert.equal(notices[0], 'http://collector.test:4318: HTTP 503; retrying in 0.5 s');
    assert.ok(t.bodies.every((b) => Buffer.from(b).equals(Buffer.from(t.bodies[0]!))), 'the same request each time');
  });

  test('a permanent answer fails at once with one line naming the endpoint', async () => {
    const t = scripted([{ kind: 'fail', why: 'HTTP 401: unauthorized' }]);
    const shipper = new Shipper<number>({ endpoint, encoding: 'protobuf', retry, notice: () => {}, post: t.post });
    await shipper.push({ logs: [log(1)], mark: 1 });
    await assert.rejects(said(shipper.finish()), /^RuntimeError: OTLP export to http:\/\/collector\.test:4318\/v1\/logs failed: HTTP 401: unauthorized$/);
  });

  test('OTLP JSON refused by an endpoint that takes protobuf only (VictoriaLogs: a 400) says to drop --otlp-json', async () => {
    const why = "HTTP 400: json encoding isn't supported for opentelemetry format. Use protobuf encoding";
    const t = scripted([{ kind: 'fail', why }]);
    const shipper = new Shipper<number>({ endpoint, encoding: 'json', retry, notice: () => {}, post: t.post });
    await shipper.push({ logs: [log(1)], mark: 1 });
    await assert.rejects(said(shipper.finish()), /^RuntimeError: OTLP export to http:\/\/collector\.test:4318\/v1\/logs failed: the endpoint takes OTLP protobuf, not JSON: drop --otlp-json$/);
    // The same 400 to protobuf is the server's own words.
    const p = scripted([{ kind: 'fail', why }]);
    const proto = new Shipper<number>({ endpoint, encoding: 'protobuf', retry, notice: () => {}, post: p.post });
    await proto.push({ logs: [log(1)], mark: 1 });
    await assert.rejects(said(proto.finish()), /failed: HTTP 400: json encoding/);
  });

  test('gives up after maxAttempts failures in a row', async () => {
    const t = scripted(Array.from({ length: 10 }, () => ({ kind: 'retry' as const, why: 'ECONNRESET' })));
    const shipper = new Shipper<number>({ endpoint, encoding: 'protobuf', retry, notice: () => {}, post: t.post, sleep: async () => {} });
    await shipper.push({ logs: [log(1)], mark: 1 });
    await assert.rejects(said(shipper.finish()), /failed 4 times in a row, giving up: ECONNRESET/);
    assert.equal(t.bodies.length, 4);
  });

  test('batches are confirmed in order, each once; the producer waits while the queue is full', async () => {
    const confirmed: number[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    let requests = 0;
    const shipper = new Shipper<number>({
      endpoint,
      encoding: 'json',
      retry,
      queueLimit: 2,
      notice: () => {},
      confirmed: (mark) => void confirmed.push(mark),
      post: async () => {
        requests += 1;
        await gate;
        return { kind: 'ok', body: new Uint8Array() };
      },
    });
    await shipper.push({ logs: [log(1)], mark: 1 });
    await shipper.push({ logs: [log(2)], mark: 2 });
    let third = false;
    const pushing = shipper.push({ logs: [log(3)], mark: 3 }).then(() => (third = true));
    await new Promise((r) => setTimeout(r, 10));
    assert.equal(third, false, 'the third batch waits for room');
    release();
    await pushing;
    await shipper.finish();
    assert.deepEqual(confirmed, [1, 2, 3]);
    assert.equal(requests, 3);
  });

  test('abort ends a retry wait at once; the batch stays unconfirmed', async () => {
    const confirmed: number[] = [];
    const t = scripted(Array.from({ length: 10 }, () => ({ kind: 'retry' as const, why: 'ECONNREFUSED' })));
    const shipper = new Shipper<number>({ endpoint, encoding: 'protobuf', retry: { ...retry, maxAttempts: Infinity, firstDelayMs: 3_600_000 }, notice: () => {}, post: t.post, confirmed: (m) => void confirmed.push(m) });
    await shipper.push({ logs: [log(1)], mark: 1 });
    await new Promise((r) => setTimeout(r, 10));
    await shipper.abort();
    assert.deepEqual(confirmed, []);
    assert.equal(t.bodies.length, 1);
  });
});

describe('the shipper and what an endpoint says', () => {
  const partial = (rejectedLogRecords: string | number, errorMessage = '') =>
    ({ kind: 'ok', body: new TextEncoder().encode(JSON.stringify({ partialSuccess: { rejectedLogRecords, errorMessage } })) }) as const;

  const claims: [string, string | number, number, string | undefined][] = [
    ['a count past what was sent is not believed (`rejected 999999 of 2`)', '999999', 2, 'http://collector.test:4318: rejected 2 of 2 log records (it said 999999: counted as 2): too old'],
    ['a negative count is none', '-5', 0, 'http://collector.test:4318: rejected 0 of 2 log records (it said -5: counted as 0): too old'],
    ['a count within what was sent is taken', '1', 1, 'http://collector.test:4318: rejected 1 of 2 log records: too old'],
    ['none rejected: nothing said', '0', 0, undefined],
  ];
  for (const [name, said, counted, notice] of claims) {
    test(`partial success: ${name}`, async () => {
      const notices: string[] = [];
      const t = scripted([partial(said, 'too old')]);
      const shipper = new Shipper<number>({ endpoint, encoding: 'json', retry, notice: (n) => notices.push(shipNoticeText(n)), post: t.post });
      await shipper.push({ logs: [log(1), log(2)], mark: 1 });
      const totals = await shipper.finish();
      assert.deepEqual({ rejected: totals.rejected, accepted: totals.accepted }, { rejected: counted, accepted: 2 - counted });
      assert.deepEqual(notices, notice === undefined ? [] : [notice]);
    });
  }

  test("a collector's long message is cut to its first line, at most 300 characters", async () => {
    const notices: string[] = [];
    const t = scripted([partial('1', `${'m'.repeat(1000)}\nsecond line`)]);
    const shipper = new Shipper<number>({ endpoint, encoding: 'json', retry, notice: (n) => notices.push(shipNoticeText(n)), post: t.post });
    await shipper.push({ logs: [log(1)], mark: 1 });
    await shipper.finish();
    assert.equal(notices[0], `http://collector.test:4318: rejected 1 of 1 log records: ${'m'.repeat(300)}`);
  });

  test('record --otlp (skipBadData): a batch refused with 400 is counted as rejected and passed over; the next is sent', async () => {
    const notices: string[] = [];
    const confirmed: number[] = [];
    const t = scripted([{ kind: 'fail', why: 'HTTP 400: invalid timestamp', badData: true }]);
    const shipper = new Shipper<number>({ endpoint, encoding: 'protobuf', retry, skipBadData: true, notice: (n) => notices.push(shipNoticeText(n)), post: t.post, confirmed: (m) => void confirmed.push(m) });
    await shipper.push({ logs: [log(1), log(2)], mark: 1 });
    await shipper.push({ logs: [log(3)], mark: 2 });
    const totals = await shipper.finish();
    assert.deepEqual(confirmed, [1, 2]);
    assert.deepEqual(totals, { accepted: 1, rejected: 2, requests: 2, retries: 0 });
    assert.deepEqual(notices, ['http://collector.test:4318: refused 2 log records as bad data (HTTP 400: invalid timestamp): not sent again; recording goes on']);
  });

  test('export (no skipBadData): a 400 ends the run with one line', async () => {
    const t = scripted([{ kind: 'fail', why: 'HTTP 400: invalid timestamp', badData: true }]);
    const shipper = new Shipper<number>({ endpoint, encoding: 'protobuf', retry, notice: () => {}, post: t.post });
    await shipper.push({ logs: [log(1)], mark: 1 });
    await assert.rejects(said(shipper.finish()), /^RuntimeError: OTLP export to http:\/\/collector\.test:4318\/v1\/logs failed: HTTP 400: invalid timestamp$/);
  });

  test('export (failUnreachable): nothing listening before any answer is said at once, not retried for minutes', async () => {
    const refused = { kind: 'retry', why: 'connect collector.test:4318: connection refused (nothing listens there)', unreachable: true } as const;
    const t = scripted([refused, refused]);
    const shipper = new Shipper<number>({ endpoint, encoding: 'protobuf', retry, failUnreachable: true, notice: () => {}, post: t.post, sleep: async () => {} });
    await shipper.push({ logs: [log(1)], mark: 1 });
    await assert.rejects(shipper.finish(), /failed: connect collector\.test:4318: connection refused \(nothing listens there\)$/);
    assert.equal(t.bodies.length, 1);
  });

  test('export (failUnreachable): once the endpoint has answered, a refused connection (a collector restarting) is retried', async () => {
    const refused = { kind: 'retry', why: 'connect collector.test:4318: connection refused (nothing listens there)', unreachable: true } as const;
    const t = scripted([{ kind: 'ok', body: new Uint8Array() }, refused, refused]);
    const shipper = new Shipper<number>({ endpoint, encoding: 'protobuf', retry, failUnreachable: true, notice: () => {}, post: t.post, sleep: async () => {} });
    await shipper.push({ logs: [log(1)], mark: 1 });
    await shipper.push({ logs: [log(2)], mark: 2 });
    const totals = await shipper.finish();
    assert.deepEqual(totals, { accepted: 2, rejected: 0, requests: 4, retries: 2 });
  });

  test('record --otlp (no failUnreachable): a collector that is down is waited for', async () => {
    const refused = { kind: 'retry', why: 'connect collector.test:4318: connection refused (nothing listens there)', unreachable: true } as const;
    const t = scripted([refused, refused]);
    const shipper = new Shipper<number>({ endpoint, encoding: 'protobuf', retry, notice: () => {}, post: t.post, sleep: async () => {} });
    await shipper.push({ logs: [log(1)], mark: 1 });
    assert.equal((await shipper.finish()).accepted, 1);
  });

  test('abort ends a request in flight (a collector that never answers): the transport is told', async () => {
    let told: AbortSignal | undefined;
    const shipper = new Shipper<number>({
      endpoint,
      encoding: 'protobuf',
      retry,
      notice: () => {},
      post: (_e, _t, _b, signal) =>
        new Promise((resolve) => {
          told = signal;
          signal?.addEventListener('abort', () => resolve({ kind: 'retry', why: 'stopped' }));
        }),
    });
    await shipper.push({ logs: [log(1)], mark: 1 });
    await new Promise((r) => setTimeout(r, 10));
    const totals = await shipper.abort();
    assert.equal(told?.aborted, true);
    assert.equal(totals.accepted, 0);
  });
});

describe('record --otlp: the ledger beside the record', () => {
  const dir = scratchDir('otlp-ledger');
  const header: RecordHeader = { kind: RECORD_KIND, version: 1, context: 'lab', server: 'https://127.0.0.1:6443', namespace: 'op-events', filter: {}, startedAt: Date.parse('2026-11-30T11:00:00.000Z') };
  const line = (n: number, type = 'ADDED') => formatObservation({ observedAt: Date.parse('2026-11-30T11:00:00.000Z'), type, event: ev({ name: `e-${n}`, uid: `uid-${n}` }) });

  /** Ships the record once to the end (a stop with no grace needed), counting what was sent. */
  async function shipOnce(path: string, post = scripted([]).post) {
    let sent = 0;
    const counting = async (e: OtlpEndpoint, type: string, body: Uint8Array) => {
      sent += 1;
      return post(e, type, body);
    };
    const shipper = await RecordShipper.open({ path, endpoint, encoding: 'json', batchSize: 2, retry, notice: () => {}, now: () => NOW, post: counting }, (e) => {
      throw e;
    });
    shipper.start();
    const result = await shipper.stop(5000);
    return { ...result, requests: sent };
  }

  test('a resumed run sends only what the ledger has not confirmed; DELETED lines are not versions', async () => {
    const path = join(dir, 'r1.jsonl');
    await writeFile(path, formatHeader(header) + line(1) + line(2) + line(3) + line(3, 'DELETED'));
    const first = await shipOnce(path);
    assert.equal(first.totals.accepted, 3);
    assert.equal(first.unconfirmed, 0);
    const ledger = JSON.parse(await readFile(`${path}.otlp.json`, 'utf8'));
    assert.equal(ledger.endpoints[endpoint.url.href].bytes, (await readFile(path)).length);
    assert.equal(ledger.endpoints[endpoint.url.href].logRecords, 3);

    await appendFile(path, line(4));
    const second = await shipOnce(path);
    assert.equal(second.totals.accepted, 1, 'only the new line');
    assert.equal((JSON.parse(await readFile(`${path}.otlp.json`, 'utf8'))).endpoints[endpoint.url.href].logRecords, 4);
  });

  test('object lines (who owns what) are not events: never shipped, never counted as unconfirmed, and the ledger moves past them', async () => {
    const path = join(dir, 'owners.jsonl');
    const pod = { apiVersion: 'v1', kind: 'Pod', namespace: 'op-events', name: 'p', uid: 'u-p', owners: [], created: null, deleting: null };
    const object = formatObjectLine(NOW, { meta: pod });
    await writeFile(path, formatHeader(header) + line(1) + object + line(2) + object);
    const shipped = await shipOnce(path);
    assert.equal(shipped.totals.accepted, 2);
    assert.equal(shipped.unconfirmed, 0);
    assert.equal(JSON.parse(await readFile(`${path}.otlp.json`, 'utf8')).endpoints[endpoint.url.href].bytes, (await readFile(path)).length, 'the ledger covers the whole record, its last line an object line');
    const again = await shipOnce(path);
    assert.deepEqual([again.totals.accepted, again.unconfirmed, again.requests], [0, 0, 0]);
    // The same after a full batch: a DELETED line last.
    const deleted = join(dir, 'deleted-last.jsonl');
    await writeFile(deleted, formatHeader(header) + line(1) + line(2) + line(2, 'DELETED'));
    await shipOnce(deleted);
    assert.equal(JSON.parse(await readFile(`${deleted}.otlp.json`, 'utf8')).endpoints[endpoint.url.href].bytes, (await readFile(deleted)).length);
  });

  test('a ledger of another record (the file was replaced) is not trusted', async () => {
    const path = join(dir, 'r2.jsonl');
    await writeFile(path, formatHeader(header) + line(1));
    await shipOnce(path);
    await writeFile(path, formatHeader({ ...header, startedAt: Date.parse('2026-11-30T11:30:00.000Z') }) + line(5) + line(6));
    const again = await shipOnce(path);
    assert.equal(again.totals.accepted, 2);
  });

  test('an event dated 3000-01-01 (past what timeUnixNano holds) is shipped with time 0 among the others, said once a run', async () => {
    const path = join(dir, 'far.jsonl');
    const far = (n: number) => formatObservation({ observedAt: Date.parse('2026-11-30T11:00:00.000Z'), type: 'ADDED', event: { ...ev({ name: `far-${n}`, uid: `far-${n}` }), lastTimestamp: '3000-01-01T00:00:00Z' } });
    await writeFile(path, formatHeader(header) + line(1) + far(2) + far(3));
    const bodies: string[] = [];
    const notices: string[] = [];
    const keep = async (e: OtlpEndpoint, type: string, body: Uint8Array): Promise<SendOutcome> => {
      bodies.push(new TextDecoder().decode(body));
      return scripted([]).post(e, type, body);
    };
    const shipper = await RecordShipper.open({ path, endpoint, encoding: 'json', batchSize: 10, retry, notice: (n) => notices.push(shipNoticeText(n)), now: () => NOW, post: keep }, (e) => {
      throw e;
    });
    shipper.start();
    const result = await shipper.stop(5000);
    assert.equal(result.totals.accepted, 3);
    assert.deepEqual(bodies.join().match(/"timeUnixNano":"\d+"/g)?.map((t) => t.slice(15)), [`"${BigInt(Date.parse(ev().lastTimestamp as string)) * 1_000_000n}"`, '"0"', '"0"']);
    assert.deepEqual(notices, [
      "record: 1 event version is dated outside what OTLP's timeUnixNano can hold (1970-01-01T00:00:00Z to 2554-07-21T23:34:33Z): it goes out with timeUnixNano 0 (unknown), its own times in the evtimeline.event.* attributes (said once a run)",
    ]);
  });

  test('what the endpoint never confirmed is counted and left for the next run', async () => {
    const path = join(dir, 'r3.jsonl');
    await writeFile(path, formatHeader(header) + line(1) + line(2) + line(3));
    const down = async (): Promise<SendOutcome> => ({ kind: 'retry', why: 'ECONNREFUSED' });
    const shipper = await RecordShipper.open({ path, endpoint, encoding: 'json', batchSize: 2, retry: { ...retry, maxAttempts: Infinity }, notice: () => {}, now: () => NOW, post: down }, () => {});
    shipper.start();
    const result = await shipper.stop(50);
    assert.equal(result.unconfirmed, 3);
    const next = await shipOnce(path);
    assert.equal(next.totals.accepted, 3);
  });
});

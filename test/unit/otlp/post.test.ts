// postOtlp against deliberately misbehaving endpoints on 127.0.0.1 (a real collector never does
// these; test/integration/otlp.test.ts has the real one): an endless answer is not read whole, a
// dripping one is cut at --otlp-timeout for the whole exchange, a refused connection says so, and
// TLS failures are one line of words.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import https from 'node:https';
import { createServer } from 'node:net';
import type { AddressInfo, Server } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_ANSWER_BYTES, postOtlp } from '../../../src/otlp/http.ts';
import type { OtlpEndpoint } from '../../../src/otlp/http.ts';
import { scratchDir } from '../../support/tmp.ts';

const dir = scratchDir('otlp-post');
const servers: Server[] = [];
after(() => {
  for (const server of servers) {
    (server as http.Server).closeAllConnections?.();
    server.close();
  }
});

async function listen<S extends Server>(server: S): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Answers `status`, then writes 64 KiB chunks for as long as the client reads. */
function endless(status: number): http.Server {
  return http.createServer((req, res) => {
    req.resume();
    res.writeHead(status, { 'Content-Type': 'text/plain' });
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const pump = (): void => {
      while (!res.destroyed && res.write(chunk));
      if (!res.destroyed) res.once('drain', pump);
    };
    pump();
  });
}

const endpoint = (url: string, timeoutMs = 5000, extra: Partial<OtlpEndpoint> = {}): OtlpEndpoint => ({ url: new URL(url), headers: {}, timeoutMs, ...extra });
const body = new Uint8Array([1, 2, 3]);

describe('postOtlp: an answer is read up to a few MiB', () => {
  test('a 200 with an endless body: a failed send (not retried: the batch may have been taken), said in one line', async () => {
    const host = await listen(endless(200));
    const outcome = await postOtlp(endpoint(`http://${host}/v1/logs`), 'application/x-protobuf', body);
    assert.deepEqual(outcome, { kind: 'fail', why: `HTTP 200 with an answer larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB (an ExportLogsServiceResponse is a few bytes): not read` });
  });

  test('a 400 with an endless body: the status decides at once, its first line kept', async () => {
    const host = await listen(endless(400));
    const outcome = await postOtlp(endpoint(`http://${host}/v1/logs`), 'application/x-protobuf', body);
    assert.equal(outcome.kind, 'fail');
    assert.match(outcome.kind === 'fail' ? outcome.why : '', /^HTTP 400: x{200}/);
    assert.equal(outcome.kind === 'fail' && outcome.badData, true);
  });

  test('a 503 with an endless body: retryable', async () => {
    const host = await listen(endless(503));
    const outcome = await postOtlp(endpoint(`http://${host}/v1/logs`), 'application/x-protobuf', body);
    assert.equal(outcome.kind, 'retry');
  });
});

describe('postOtlp: --otlp-timeout bounds the whole exchange', () => {
  test('an answer dripping a byte every 100 ms is cut off at the deadline, retryable', async () => {
    const host = await listen(
      http.createServer((req, res) => {
        req.resume();
        res.writeHead(200);
        const timer = setInterval(() => res.write('x'), 100);
        res.on('close', () => clearInterval(timer));
      }),
    );
    const outcome = await postOtlp(endpoint(`http://${host}/v1/logs`, 1000), 'application/x-protobuf', body);
    assert.deepEqual(outcome, { kind: 'retry', why: 'no whole answer within 1 s (--otlp-timeout)' });
  });

  test('a request in flight ends when its signal is aborted', async () => {
    const host = await listen(http.createServer((req) => req.resume()));
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 100);
    const outcome = await postOtlp(endpoint(`http://${host}/v1/logs`, 60_000), 'application/x-protobuf', body, stop.signal);
    assert.deepEqual(outcome, { kind: 'retry', why: 'stopped' });
  });
});

describe('postOtlp: what cannot connect, in words', () => {
  test('nothing listening: connection refused, marked unreachable', async () => {
    const server = createServer();
    const host = await listen(server);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const outcome = await postOtlp(endpoint(`http://${host}/v1/logs`), 'application/x-protobuf', body);
    assert.deepEqual(outcome, { kind: 'retry', why: `connect ${host}: connection refused (nothing listens there)`, unreachable: true });
  });

  const cert = (() => {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
    return { cert: readFileSync(join(dir, 'cert.pem'), 'utf8'), key: readFileSync(join(dir, 'key.pem'), 'utf8') };
  })();

  test('a self-signed endpoint: one line naming --otlp-ca, no OpenSSL internals, no --use-system-ca', async () => {
    const host = await listen(https.createServer(cert, (req, res) => res.end()));
    const outcome = await postOtlp(endpoint(`https://${host}/v1/logs`), 'application/x-protobuf', body);
    assert.deepEqual(outcome, { kind: 'fail', why: 'TLS: certificate signed by unknown authority: give the CA that signed it with --otlp-ca FILE' });
  });

  test('https:// to a plain-http endpoint: one line, no OpenSSL internals or newline', async () => {
    const host = await listen(http.createServer((req, res) => res.end()));
    const outcome = await postOtlp(endpoint(`https://${host}/v1/logs`), 'application/x-protobuf', body);
    assert.deepEqual(outcome, { kind: 'fail', why: 'TLS: the endpoint does not speak TLS (is it http://?)' });
  });

  test('the CA given, a name the certificate is not for: said with the name', async () => {
    const host = await listen(https.createServer(cert, (req, res) => res.end()));
    const port = host.split(':')[1] ?? '';
    const outcome = await postOtlp(endpoint(`https://localhost:${port}/v1/logs`, 5000, { ca: cert.cert }), 'application/x-protobuf', body);
    assert.deepEqual(outcome, { kind: 'fail', why: "TLS: the endpoint's certificate is not valid for localhost" });
  });
});

// An error answer is read only as far as its start (src/kube/http.ts ERROR_BYTES): a server or
// proxy that answers 500 with a body of 64 MiB (or one that never ends) is not read whole into
// memory, and the error still says the status and the server's words. A local server streams the
// body and counts what it could hand over before the plugin closed the connection.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { apiRequest, ApiError } from '../../../src/kube/http.ts';
import { loadKubeTarget } from '../../../src/kube/kubeconfig.ts';
import { scratchDir } from '../../support/tmp.ts';
import { listenWithKubeconfig } from '../../support/local-server.ts';

const HUGE = 64 * 1024 * 1024;
/** What loopback's socket buffers take before a reader that stopped: a few MiB, far below HUGE. */
const TAKEN_WITHOUT_READING = 24 * 1024 * 1024;

const status = (code: number, message: string) => JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'InternalError', code });

/** How the next answer goes: its start, then `fill` repeated up to HUGE bytes; gzip: 16 MiB of it compressed (some 16 KiB). */
let answer: { start: string; fill: string; gzip?: boolean } = { start: '', fill: ' ' };
/** bytes the last answer handed to the socket before it closed (or all of them) */
let handedOver = 0;

/** Streams the body in 64 KiB pieces, as fast as the reader takes them, until HUGE or the reader leaves. */
function stream(res: ServerResponse): void {
  const { start, fill, gzip } = answer;
  handedOver = 0;
  if (gzip === true) {
    const body = gzipSync(Buffer.concat([Buffer.from(start), Buffer.alloc(16 * 1024 * 1024, fill)]));
    res.writeHead(500, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
    return void res.end(body);
  }
  res.writeHead(500, { 'Content-Type': start.startsWith('{') ? 'application/json' : 'text/html' });
  const piece = Buffer.alloc(64 * 1024, fill);
  res.write(start);
  handedOver = start.length;
  const pump = (): void => {
    while (handedOver < HUGE && !res.destroyed) {
      handedOver += piece.length;
      if (!res.write(piece)) return void res.once('drain', pump);
    }
    res.end();
  };
  pump();
}

const server = createServer((req, res) => {
  res.on('error', () => {}); // the plugin leaving mid-answer is the point
  req.resume();
  stream(res);
});
const kubeconfig = join(scratchDir('error-answers'), 'config');
before(() => listenWithKubeconfig(server, kubeconfig));
after(() => {
  server.closeAllConnections();
  server.close();
});

/** The error a GET of the events gets. */
async function failure(): Promise<ApiError> {
  const target = await loadKubeTarget({ env: { KUBECONFIG: kubeconfig } });
  const error = await apiRequest(target, { method: 'GET', path: '/api/v1/namespaces/shop/events', timeoutMs: 60_000 }).then(
    () => assert.fail('a 500 was taken for an answer'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof ApiError, String(error));
  return error;
}

test('500 with a Status and 64 MiB after it: the Status is told, and the body is not read on', async () => {
  answer = { start: status(500, 'etcdserver: request timed out'), fill: ' ' };
  const error = await failure();
  assert.deepEqual([error.code, error.reason, error.message], [500, 'InternalError', 'etcdserver: request timed out']);
  assert.ok(handedOver < TAKEN_WITHOUT_READING, `the server handed over ${(handedOver / 1024 / 1024).toFixed(1)} MiB of ${HUGE / 1024 / 1024}`);
});

test("500 with 64 MiB of a proxy's text: the status and the text's first line, and the body is not read on", async () => {
  answer = { start: '<html><head><title>500 Internal Server Error</title></head>\n', fill: 'x' };
  const error = await failure();
  assert.deepEqual([error.code, error.message], [500, '500: <html><head><title>500 Internal Server Error</title></head>']);
  assert.ok(handedOver < TAKEN_WITHOUT_READING, `the server handed over ${(handedOver / 1024 / 1024).toFixed(1)} MiB of ${HUGE / 1024 / 1024}`);
});

test('500 with one line that never ends within 4 KiB: one line of at most 4 KiB, not the 64 MiB', async () => {
  answer = { start: '', fill: 'x' };
  const error = await failure();
  // Compared without printing it: a failure would otherwise print the 64 MiB line.
  assert.ok(error.message === `500: ${'x'.repeat(4096)}`, `a line of ${error.message.length} characters`);
  assert.ok(handedOver < TAKEN_WITHOUT_READING, `the server handed over ${(handedOver / 1024 / 1024).toFixed(1)} MiB of ${HUGE / 1024 / 1024}`);
});

test('500 compressed, a Status and 16 MiB after it: the start read is inflated as far as it goes and the Status told', async () => {
  answer = { start: status(500, 'etcdserver: leader changed'), fill: ' ', gzip: true };
  const error = await failure();
  assert.deepEqual([error.code, error.message], [500, 'etcdserver: leader changed']);
});

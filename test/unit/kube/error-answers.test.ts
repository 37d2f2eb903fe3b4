// An error answer is read only as far as its start (src/kube/http.ts ERROR_BYTES, 64 KiB): a server or
// proxy that answers 500 with a body of 64 MiB (or one that never ends) is not read whole into
// memory, and the error still says the status and the server's words. The misbehaving server
// (test/harness) streams the body and counts what it could hand over before the plugin closed the connection.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { apiRequest, ApiError } from '../../../src/kube/http.ts';
import { loadKubeTarget } from '../../../src/kube/kubeconfig.ts';
import { scratchDir } from '../../support/tmp.ts';
import { startMisbehavingServer } from '../../harness/misbehaving-server.ts';
import type { MisbehavingServer } from '../../harness/misbehaving-server.ts';

const HUGE = 64 * 1024 * 1024;
/** What loopback's socket buffers take before a reader that stopped: a few MiB, far below HUGE. */
const TAKEN_WITHOUT_READING = 24 * 1024 * 1024;

const status = (code: number, message: string) => JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'InternalError', code });

const dir = scratchDir('error-answers');
const servers: MisbehavingServer[] = [];
after(() => Promise.all(servers.map((s) => s.close())));
/** Bytes the last test's server handed to the connection before the plugin closed it (or all of them). */
let handedOver = 0;

/** The error a GET of the events gets from a server answering `start`, then `fill` up to HUGE bytes (gzip: 16 MiB of it, compressed, some 16 KiB). */
async function failure(answer: { start: string; fill: string; gzip?: boolean }): Promise<ApiError> {
  const server = await startMisbehavingServer({ kind: 'huge-error', bytes: answer.gzip === true ? 16 * 1024 * 1024 : HUGE, ...answer }, [], dir);
  servers.push(server);
  const target = await loadKubeTarget({ env: { KUBECONFIG: server.kubeconfig } });
  const error = await apiRequest(target, { method: 'GET', path: '/api/v1/namespaces/shop/events', timeoutMs: 60_000 }).then(
    () => assert.fail('a 500 was taken for an answer'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof ApiError, String(error));
  handedOver = server.handedOver();
  return error;
}

test('500 with a Status and 64 MiB after it: the Status is told, and the body is not read on', async () => {
  const error = await failure({ start: status(500, 'etcdserver: request timed out'), fill: ' ' });
  assert.deepEqual([error.code, error.reason, error.message], [500, 'InternalError', 'etcdserver: request timed out']);
  assert.ok(handedOver < TAKEN_WITHOUT_READING, `the server handed over ${(handedOver / 1024 / 1024).toFixed(1)} MiB of ${HUGE / 1024 / 1024}`);
});

test('500 with a Status of some 18 KiB (every field a request got wrong): its reason and whole message are told', async () => {
  const words = Array.from({ length: 400 }, (_, i) => `spec.containers[${i}].image: Required value`).join(', ');
  const error = await failure({ start: status(500, words), fill: ' ' });
  assert.deepEqual([error.code, error.reason], [500, 'InternalError']);
  assert.ok(error.message === words, `a message of ${error.message.length} characters`);
  assert.ok(handedOver < TAKEN_WITHOUT_READING, `the server handed over ${(handedOver / 1024 / 1024).toFixed(1)} MiB of ${HUGE / 1024 / 1024}`);
});

test("500 with 64 MiB of a proxy's text: the status and the text's first line, and the body is not read on", async () => {
  const error = await failure({ start: '<html><head><title>500 Internal Server Error</title></head>\n', fill: 'x' });
  assert.deepEqual([error.code, error.message], [500, '500: <html><head><title>500 Internal Server Error</title></head>']);
  assert.ok(handedOver < TAKEN_WITHOUT_READING, `the server handed over ${(handedOver / 1024 / 1024).toFixed(1)} MiB of ${HUGE / 1024 / 1024}`);
});

test('500 with one line that never ends within 4 KiB: one line of at most 4 KiB, not the 64 MiB', async () => {
  const error = await failure({ start: '', fill: 'x' });
  // Compared without printing it: a failure would otherwise print the 64 MiB line.
  assert.ok(error.message === `500: ${'x'.repeat(4096)}`, `a line of ${error.message.length} characters`);
  assert.ok(handedOver < TAKEN_WITHOUT_READING, `the server handed over ${(handedOver / 1024 / 1024).toFixed(1)} MiB of ${HUGE / 1024 / 1024}`);
});

test('500 compressed, a Status and 16 MiB after it: the start read is inflated as far as it goes and the Status told', async () => {
  const error = await failure({ start: status(500, 'etcdserver: leader changed'), fill: ' ', gzip: true });
  assert.deepEqual([error.code, error.message], [500, 'etcdserver: leader changed']);
});

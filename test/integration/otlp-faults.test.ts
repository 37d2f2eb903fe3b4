// export and record --otlp against endpoints that misbehave as a real collector never does (stand-in
// servers on 127.0.0.1: an endless answer, one dripping a byte at a time, a 400 for everything, a
// closed port), with the built executable; record against the real control plane. Each case asserts
// the exit code and the line a user sees, and that nothing hangs past --duration or Ctrl-C.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { sharedControlPlane } from '../harness/controlplane.ts';
import type { ControlPlane } from '../harness/controlplane.ts';
import { freshNamespace } from '../harness/namespace.ts';
import { PLUGIN_BINARY } from '../harness/plugin.ts';
import { spawnCollecting } from '../harness/spawned.ts';
import { waitFor } from '../harness/wait.ts';
import { ev, labEvents } from '../support/builders.ts';
import { postEvents } from '../support/posted-events.ts';
import { startRecord } from '../support/recorder.ts';
import { scratchDir } from '../support/tmp.ts';
import { recordSoFar } from '../support/record-so-far.ts';

const dir = scratchDir('otlp-faults');
const saved = join(dir, 'events.json');
writeFileSync(saved, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [...labEvents(), ev({ name: 'one-more' })] }));

const servers: http.Server[] = [];
const children = new Set<ChildProcess>();
after(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
});

/** A stand-in endpoint on 127.0.0.1; its URL. */
async function endpoint(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/logs`;
}

/** 200, then 64 KiB chunks for as long as the client reads. */
const endless: http.RequestListener = (req, res) => {
  req.resume();
  res.writeHead(200, { 'Content-Type': 'application/x-protobuf' });
  const chunk = Buffer.alloc(64 * 1024, 1);
  const pump = (): void => {
    while (!res.destroyed && res.write(chunk));
    if (!res.destroyed) res.once('drain', pump);
  };
  pump();
};

/** 200, then one byte a second, never ending. */
const drip: http.RequestListener = (req, res) => {
  req.resume();
  res.writeHead(200, { 'Content-Type': 'application/x-protobuf' });
  const timer = setInterval(() => res.write('\n'), 1000);
  res.on('close', () => clearInterval(timer));
};

interface Run {
  code: number;
  stderr: string;
}

function plugin(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    // Past every bound this file tests: a hang is a kill, exit -1.
    execFile(PLUGIN_BINARY, args, { env: { PATH: process.env.PATH, HOME: dir }, timeout: 90_000 }, (error, _stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stderr });
    });
  });
}

describe('export to an endpoint that misbehaves', () => {
  test('an endless 200 answer: not read past 4 MiB; exit 1 with one line', async () => {
    const url = await endpoint(endless);
    const run = await plugin(['export', '--from', saved, '--otlp', url]);
    assert.equal(run.code, 1, run.stderr);
    assert.equal(run.stderr, `error: OTLP export to ${url} failed: HTTP 200 with an answer larger than 4 MiB (an ExportLogsServiceResponse is a few bytes): not read\n`);
  });

  test('an answer dripping a byte a second: --otlp-timeout bounds the whole request, which is retried', async () => {
    const url = await endpoint(drip);
    const run = spawnCollecting(PLUGIN_BINARY, ['export', '--from', saved, '--otlp', url, '--otlp-timeout', '2s'], { env: { PATH: process.env.PATH, HOME: dir } });
    children.add(run.child);
    // Twelve tries with their waits take minutes; the first retry notice is what changed (it blocked forever).
    const notice = /^http:\/\/127\.0\.0\.1:\d+: no whole answer within 2 s \(--otlp-timeout\); retrying in 0\.5 s\n/;
    await waitFor('the first retry notice', async () => notice.test(run.err()), { timeoutMs: 60_000 });
    run.child.kill('SIGINT');
    await run.exited;
  });

  test('a closed port: exit 1 at once with one line, not four minutes of retries', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const url = `http://127.0.0.1:${port}/v1/logs`;
    const run = await plugin(['export', '--from', saved, '--otlp', url]);
    assert.equal(run.code, 1);
    assert.equal(run.stderr, `error: OTLP export to ${url} failed: connect 127.0.0.1:${port}: connection refused (nothing listens there)\n`);
  });
});

// Each dripping case sits out record's 15 s for what is left to ship (SHIP_GRACE_MS,
// src/commands/record-otlp.ts); each has an endpoint and a file of its own, so they wait side by side.
describe('record --otlp to an endpoint that misbehaves', { concurrency: true }, () => {
  let cp: ControlPlane;
  let ns = '';
  before(async () => {
    cp = await sharedControlPlane();
    ns = await freshNamespace(cp.kubeconfig, 'otlp-faults');
    await postEvents(cp, ns, 20, { component: 'otlp-faults', reason: 'Seen', padding: 1 });
  });

  test('a dripping collector: --duration still ends the recorder, with its summary and what is left for the next run (exit 0)', { timeout: 120_000 }, async () => {
    const url = await endpoint(drip);
    const file = join(dir, 'drip.jsonl');
    const rec = startRecord(['-n', ns, file, '--otlp', url, '--otlp-timeout', '60s', '--duration', '3s'], cp.kubeconfig, dir, children);
    const end = await rec.ended;
    assert.equal(end.code, 0, end.stderr);
    assert.match(end.stderr, new RegExp(`shipped 0 log records to ${url.replace(/\./g, '\\.')} \\(1 request\\); 20 observations not yet confirmed, sent on the next run\\n`));
  });

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    test(`a dripping collector: the first ${signal} ends the recorder with its summary (exit 0)`, { timeout: 120_000 }, async () => {
      const url = await endpoint(drip);
      const file = join(dir, `drip-${signal}.jsonl`);
      const rec = startRecord(['-n', ns, file, '--otlp', url, '--otlp-timeout', '60s'], cp.kubeconfig, dir, children);
      await waitFor('the recorder to write the list', async () => recordSoFar(file).lines.length > 20, { timeoutMs: 60_000 });
      rec.child.kill(signal);
      const end = await rec.ended;
      assert.equal(end.code, 0, end.stderr);
      assert.match(end.stderr, /observations not yet confirmed, sent on the next run\n/);
    });
  }

  test('a collector answering 400: recording goes on, the refused batch said and counted; the summary says how many were rejected', { timeout: 120_000 }, async () => {
    let requests = 0;
    const url = await endpoint((req, res) => {
      requests += 1;
      req.resume();
      res.writeHead(400, { 'Content-Type': 'text/plain' }).end('invalid log record\n');
    });
    const file = join(dir, 'bad-data.jsonl');
    const rec = startRecord(['-n', ns, file, '--otlp', url, '--otlp-batch', '5'], cp.kubeconfig, dir, children);
    await waitFor('four refused batches', async () => requests >= 4, { timeoutMs: 60_000 });
    assert.equal(rec.child.exitCode, null, `the recorder stopped: ${rec.stderr()}`);
    assert.match(rec.stderr(), /http:\/\/127\.0\.0\.1:\d+: refused 5 log records as bad data \(HTTP 400: invalid log record\): not sent again; recording goes on\n/);
    rec.child.kill('SIGTERM');
    const end = await rec.ended;
    assert.equal(end.code, 0, end.stderr);
    assert.match(end.stderr, /shipped 20 log records to .* \(4 requests\); the collector rejected 20 log records\n/);
  });
});

// Ctrl-C and SIGTERM while `record` lists a large namespace and while it appends what the list
// brought, against the real control plane and the built executable (the phases before the first
// answer and while watching are in record-faults.test.ts). A TCP proxy holds the list's answer
// part-way, so the signal surely lands mid-list; SIGSTOP the moment the file appears makes it land
// mid-append. Each time: the exit code, the one line, a file whose every line is whole and that a
// later record completes, and nothing temporary left beside it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, watch } from 'node:fs';
import { join } from 'node:path';
import { sharedControlPlane } from '../harness/controlplane.ts';
import type { ControlPlane } from '../harness/controlplane.ts';
import { freshNamespace } from '../harness/namespace.ts';
import { startTcpProxy } from '../harness/tcp-proxy.ts';
import type { TcpProxy } from '../harness/tcp-proxy.ts';
import { postEvents } from '../support/posted-events.ts';
import { scratchDir } from '../support/tmp.ts';
import { recordSoFar } from '../support/record-so-far.ts';
import { proxiedKubeconfig as proxiedKubeconfigFor, startRecord } from '../support/recorder.ts';
import type { Ended, Recorder } from '../support/recorder.ts';

/** Enough events for several list pages (500 each) and a few thousand appends. */
const N = 3000;
/** Past the TLS handshake, well before the end of the list's first page (each event is ~1 KB). */
const HOLD_AFTER_BYTES = 150_000;

const cpPromise = sharedControlPlane();
let cp: ControlPlane;
let ns: string;
let work: string;
const children = new Set<ChildProcess>();
const proxies: TcpProxy[] = [];

before(async () => {
  cp = await cpPromise;
  work = scratchDir('record-interrupt');
  ns = await freshNamespace(cp.kubeconfig, 'record-interrupt');
  await postEvents(cp, ns, N, { component: 'record-interrupt', reason: 'Listed', padding: 40 });
});
after(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const proxy of proxies) await proxy.close();
});

function record(args: string[], kubeconfig: string): Recorder {
  return startRecord(args, kubeconfig, work, children);
}

function proxiedKubeconfig(proxy: TcpProxy, name: string): string {
  return proxiedKubeconfigFor(cp, proxy, ns, join(work, `${name}.kubeconfig`));
}

/** Every line of the record parsed (each must be whole JSON): the headers, and the names of the events observed. */
function readRecord(file: string): { headers: number; names: string[] } {
  const text = readFileSync(file, 'utf8');
  assert.ok(text.endsWith('\n'), 'the record ends with a whole line');
  let headers = 0;
  const names: string[] = [];
  for (const line of text.slice(0, -1).split('\n')) {
    const parsed = JSON.parse(line) as { kind?: string; event?: { metadata?: { name?: string } } };
    if (parsed.kind === 'EvtimelineRecord') headers += 1;
    // An object line (who owns an event's object) and a seen line (the version a list was at, where a
    // continued record resumes) are not observations.
    else if (parsed.kind !== 'EvtimelineObject' && parsed.kind !== 'EvtimelineSeen') names.push(parsed.event?.metadata?.name ?? '');
  }
  return { headers, names };
}

/** Waits for the proxy to hold the answer; fails at once if the recorder ended first. */
async function heldOrEnded(holding: Promise<void>, ended: Promise<Ended>): Promise<void> {
  const early = ended.then((end) => {
    throw new Error(`the recorder ended (${end.code}) before the proxy held its list: ${end.stderr}`);
  });
  await Promise.race([holding, early]);
  early.catch(() => {});
}

/** Every event of the namespace, once each. */
function assertAllOnce(names: string[]): void {
  assert.equal(names.length, N, 'one observation per event, none twice');
  assert.equal(new Set(names).size, N);
}

/** Records until the file holds every event, then stops it with Ctrl-C: the later record that completes a stopped one. */
async function recordToTheEnd(file: string, kubeconfig = cp.kubeconfig): Promise<Ended> {
  const run = record([file, '-n', ns], kubeconfig);
  // The recorder may be mid-write as we look: count whole lines only, and judge the file once it has stopped.
  while (recordSoFar(file).observations.length < N) {
    if (run.child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  run.child.kill('SIGINT');
  return run.ended;
}

describe('record stopped during the initial list of a large namespace', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    test(`${signal} mid-list: exit 1, one line saying it was stopped before the list was complete, no file; a later record is whole`, async () => {
      const folder = join(work, `mid-list-${signal}`);
      mkdirSync(folder);
      const file = join(folder, 'events.jsonl');
      const proxy = await startTcpProxy(cp.server);
      proxies.push(proxy);
      const holding = proxy.holdAfterServerBytes(HOLD_AFTER_BYTES);
      const run = record([file, '-n', ns], proxiedKubeconfig(proxy, `mid-list-${signal}`));
      await heldOrEnded(holding, run.ended);
      // The list's answer is part-way through: the recorder waits for the rest.
      run.child.kill(signal);
      const end = await run.ended;
      proxy.release();
      assert.equal(end.code, 1, end.stderr);
      assert.equal(
        end.stderr,
        `error: record was stopped by ${signal} before the API server at ${proxy.url} had answered in full (its list of events); nothing recorded, ${file} not created\n`,
      );
      assert.deepEqual(readdirSync(folder), []);

      const again = await recordToTheEnd(file);
      assert.equal(again.code, 0, again.stderr);
      const { headers, names } = readRecord(file);
      assert.equal(headers, 1);
      assertAllOnce(names);
      assert.deepEqual(readdirSync(folder), ['events.jsonl']);
    });
  }

  test('SIGINT mid-list of a record that must list first (other filters): the file is left byte for byte; the next record completes it', async () => {
    const folder = join(work, 'mid-list-existing');
    mkdirSync(folder);
    const file = join(folder, 'events.jsonl');
    // Every session through the same proxy: a record refuses another server's URL.
    const proxy = await startTcpProxy(cp.server);
    proxies.push(proxy);
    const kubeconfig = proxiedKubeconfig(proxy, 'mid-list-existing');
    // A first session with another filter: what it holds cannot tell the next one what is gone.
    const firstRun = record([file, '-n', ns, '--types', 'Warning'], kubeconfig);
    // The file appears with the server's answer to its list; then it watches, and Ctrl-C stops it.
    while (!existsSync(file) && firstRun.child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 100));
    firstRun.child.kill('SIGINT');
    const first = await firstRun.ended;
    assert.equal(first.code, 0, first.stderr);
    const before = readFileSync(file);
    const holding = proxy.holdAfterServerBytes(HOLD_AFTER_BYTES);
    const run = record([file, '-n', ns], kubeconfig);
    await heldOrEnded(holding, run.ended);
    run.child.kill('SIGINT');
    const end = await run.ended;
    proxy.release();
    assert.equal(end.code, 1, end.stderr);
    assert.match(end.stderr.trimEnd().split('\n').at(-1) ?? '', /^error: record was stopped by SIGINT before the API server at .* had answered in full \(its list of events\); nothing recorded, .* unchanged$/);
    assert.deepEqual(readFileSync(file), before);
    assert.deepEqual(readdirSync(folder), ['events.jsonl']);

    const again = await recordToTheEnd(file, kubeconfig);
    assert.equal(again.code, 0, again.stderr);
    const { headers, names } = readRecord(file);
    assert.equal(headers, 2);
    assertAllOnce(names);
  });
});

describe('record stopped while it appends what the list brought', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    test(`${signal} mid-append: exit 0, the summary, every listed event written once, nothing left beside it`, async (t) => {
      const folder = join(work, `mid-append-${signal}`);
      mkdirSync(folder);
      const file = join(folder, 'events.jsonl');
      // The file appears once the whole list has come; SIGSTOP, some way into it, holds the recorder mid-append
      // however loaded the machine is, and the signal is pending when it goes on.
      let watcher: ReturnType<typeof watch> | undefined;
      const appeared = new Promise<void>((resolve) => {
        watcher = watch(folder, (_event, name) => {
          // Some way into the append (about a hundred of the 3000 lines), not before its first line.
          if (name === 'events.jsonl' && existsSync(file) && statSync(file).size > 100_000) resolve();
        });
      });
      const run = record([file, '-n', ns], cp.kubeconfig);
      await appeared;
      run.child.kill('SIGSTOP');
      watcher?.close();
      // Observations so far (the last line may be mid-write: it is stopped).
      const written = recordSoFar(file).observations.length;
      run.child.kill(signal);
      run.child.kill('SIGCONT');
      const end = await run.ended;
      if (written === N) t.diagnostic('the append had finished before SIGSTOP landed: the signal came while watching');
      else t.diagnostic(`stopped with ${written} of ${N} events appended`);
      assert.equal(end.code, 0, end.stderr);
      assert.equal(end.stderr, `recorded ${N} lines (${N} added, 0 modified, 0 deleted) to ${file}; it holds ${N} observations\n`);
      const { headers, names } = readRecord(file);
      assert.equal(headers, 1);
      assertAllOnce(names);
      assert.deepEqual(readdirSync(folder), ['events.jsonl']);

      // A resume afterwards finds the record complete: nothing added, nothing repeated.
      const resumed = record([file, '-n', ns], cp.kubeconfig);
      while (!/^continuing /m.test(resumed.stderr()) && resumed.child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 100));
      resumed.child.kill('SIGINT');
      const again = await resumed.ended;
      assert.equal(again.code, 0, again.stderr);
      assert.match(again.stderr.trimEnd().split('\n').at(-1) ?? '', new RegExp(`^recorded 0 lines .*; it holds ${N} observations$`));
      assertAllOnce(readRecord(file).names);
    });
  }
});

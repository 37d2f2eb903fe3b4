// -w / --watch-only against the real control plane, through kubectl's plugin mechanism: the
// current timeline, then each new occurrence once; updates that are no new occurrence, and TTL
// deletions, print nothing; a dropped connection (the TCP proxy cuts it) resumes without repeats;
// filters apply; Ctrl-C exits 0 with everything printed; a reader that leaves (`| head`) ends it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcessByStdio } from 'node:child_process';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import https from 'node:https';
import { sharedControlPlane, startControlPlane } from '../harness/controlplane.ts';
import { eventsPath } from '../../src/kube/events-api.ts';
import { waitFor } from '../support/cluster-api.ts';
import type { ControlPlane } from '../harness/controlplane.ts';
import { freshNamespace } from '../harness/namespace.ts';
import { kubectl, pluginEnv } from '../harness/plugin.ts';
import { secondApiserver } from '../harness/second-apiserver.ts';
import { startTcpProxy } from '../harness/tcp-proxy.ts';
import type { TcpProxy } from '../harness/tcp-proxy.ts';
import { scratchDir } from '../support/tmp.ts';
import { adminKubeconfigAt, proxiedKubeconfig as proxiedKubeconfigFor } from '../support/recorder.ts';

const cpPromise = sharedControlPlane();
let cp: ControlPlane;
let work: string;
const proxies: TcpProxy[] = [];

before(async () => {
  cp = await cpPromise;
  work = scratchDir('watch');
});
after(async () => {
  for (const proxy of proxies) await proxy.close();
});

function now(): string {
  return new Date().toISOString().replace(/\.\d+Z$/, 'Z');
}

async function createEvent(ns: string, name: string, o: { type?: string; reason?: string; count?: number; message?: string; first?: string; last?: string } = {}, on: ControlPlane = cp): Promise<void> {
  const event = {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, namespace: ns },
    involvedObject: { kind: 'Pod', name: `pod-${name}`, namespace: ns },
    reason: o.reason ?? 'Happened',
    type: o.type ?? 'Normal',
    message: o.message ?? `${name} happened`,
    firstTimestamp: o.first ?? now(),
    lastTimestamp: o.last ?? o.first ?? now(),
    count: o.count ?? 1,
    source: { component: 'watch-test' },
  };
  const r = await kubectl(['create', '-f', '-'], on.kubeconfig, { input: JSON.stringify(event) });
  assert.equal(r.code, 0, r.stderr);
}

async function patchEvent(ns: string, name: string, patch: unknown, on: ControlPlane = cp): Promise<void> {
  const r = await kubectl(['-n', ns, 'patch', 'event', name, '--type=merge', '-p', JSON.stringify(patch)], on.kubeconfig);
  assert.equal(r.code, 0, r.stderr);
}

interface Follower {
  child: ChildProcessByStdio<null, Readable, Readable>;
  lines: string[];
  /** resolves with the lines once `count` lines have come */
  waitLines(count: number): Promise<string[]>;
  exited: Promise<number | null>;
  stderr(): string;
}

function follow(args: string[], kubeconfig = cp.kubeconfig): Follower {
  const child = spawn('kubectl', ['evtimeline', ...args], { env: pluginEnv(kubeconfig), stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let buffered = '';
  let err = '';
  const waiters: Array<() => void> = [];
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buffered += chunk;
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    lines.push(...parts);
    for (const wake of waiters.splice(0)) wake();
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    lines,
    stderr: () => err,
    exited,
    waitLines: async (count) => {
      while (lines.length < count) {
        if (child.exitCode !== null) throw new Error(`the follower exited (${child.exitCode}) with ${lines.length} lines: ${err}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          child.once('exit', () => resolve());
        });
      }
      return lines.slice(0, count);
    },
  };
}

interface Row {
  name: string;
  count: number;
  type: string;
}

function rows(lines: string[]): Row[] {
  return lines.map((line) => JSON.parse(line) as Row).map(({ name, count, type }) => ({ name, count, type }));
}

function proxiedKubeconfig(on: ControlPlane, proxy: TcpProxy, ns: string, name: string): string {
  return proxiedKubeconfigFor(on, proxy, ns, join(work, `${name}.kubeconfig`));
}

test('-w -o json: the timeline, then one line per new occurrence; updates that are none, and deletions, print nothing', async () => {
  const ns = await freshNamespace(cp.kubeconfig, 'watch-json');
  await createEvent(ns, 'a');
  const f = follow(['-n', ns, '-w', '-o', 'json']);
  assert.deepEqual(rows(await f.waitLines(1)), [{ name: 'a', count: 1, type: 'Normal' }]);
  await createEvent(ns, 'b');
  await f.waitLines(2);
  // A repeat, as the recorder writes it: a new occurrence of a.
  await patchEvent(ns, 'a', { count: 2, lastTimestamp: now() });
  await f.waitLines(3);
  // No new occurrence: a label; then a deletion (what the TTL does).
  await patchEvent(ns, 'a', { metadata: { labels: { seen: 'yes' } } });
  const del = await kubectl(['-n', ns, 'delete', 'event', 'b'], cp.kubeconfig);
  assert.equal(del.code, 0, del.stderr);
  // A sentinel: the next line printed must be c.
  await createEvent(ns, 'c', { type: 'Warning' });
  const all = rows(await f.waitLines(4));
  assert.deepEqual(all, [
    { name: 'a', count: 1, type: 'Normal' },
    { name: 'b', count: 1, type: 'Normal' },
    { name: 'a', count: 2, type: 'Normal' },
    { name: 'c', count: 1, type: 'Warning' },
  ]);
  f.child.kill('SIGINT');
  assert.equal(await f.exited, 0, f.stderr());
  assert.equal(f.lines.length, 4);
  assert.equal(f.stderr(), '');
});

/** A table row's cells: columns are at least 3 spaces apart, and no cell here holds 3 spaces. */
function cells(line: string): string[] {
  return line.split(/ {3,}/);
}

test('-w in the default table: the timeline, then exactly one row per new occurrence, xN in LAST SEEN, text escaped; Ctrl-C exits 0', async () => {
  const ns = await freshNamespace(cp.kubeconfig, 'watch-table');
  // Untrusted text: an ANSI colour, a bidi override and a newline must reach the terminal as visible text.
  const hostile = 'pull \u001b[31mRED\u202eevil\nsecond line';
  await createEvent(ns, 'a', { message: hostile });
  const f = follow(['-n', ns, '-w']);
  const [header, first] = await f.waitLines(2);
  assert.deepEqual(cells(header ?? ''), ['FIRST SEEN', 'LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'FROM', 'MESSAGE']);
  const age = /^\d+[smhd]/;
  const a = cells(first ?? '');
  assert.equal(a.length, 7, first ?? '');
  assert.match(a[0] ?? '', age);
  assert.match(a[1] ?? '', age);
  assert.deepEqual(a.slice(2), ['Normal', 'Happened', 'Pod/pod-a', 'watch-test', 'pull ^[[31mRED\\u202eevil\\nsecond line']);
  // A repeat (count 2, as the recorder writes it): one new row, its count in LAST SEEN, no header again.
  await patchEvent(ns, 'a', { count: 2, lastTimestamp: now() });
  const bumped = cells((await f.waitLines(3))[2] ?? '');
  assert.match(bumped[1] ?? '', /^\d+[smhd]\S* \(x2 over \d+[smhd]\S*\)$/);
  assert.deepEqual(bumped.slice(2), a.slice(2));
  // An update that is no new occurrence prints nothing: the next row must be the sentinel b.
  await patchEvent(ns, 'a', { metadata: { labels: { seen: 'yes' } } });
  await createEvent(ns, 'b', { type: 'Warning', reason: 'Failed' });
  const b = cells((await f.waitLines(4))[3] ?? '');
  assert.deepEqual(b.slice(2), ['Warning', 'Failed', 'Pod/pod-b', 'watch-test', 'b happened']);
  assert.doesNotMatch(b[1] ?? '', /\(x/);
  f.child.kill('SIGINT');
  assert.equal(await f.exited, 0, f.stderr());
  assert.equal(f.lines.length, 4, f.lines.join('\n'));
  assert.ok(f.lines.every((line) => !/[\u001b\u202e]/.test(line)), 'no raw escape or bidi control on stdout');
  assert.equal(f.stderr(), '');
});

test('--watch-only with filters: only new occurrences that pass --types and --for', async () => {
  const ns = await freshNamespace(cp.kubeconfig, 'watch-only');
  await createEvent(ns, 'old', { type: 'Warning' });
  const f = follow(['-n', ns, '--watch-only', '--types', 'Warning,Critical', '--for', 'po/pod-new', '-o', 'name']);
  // Nothing is printed for what exists now; a Normal event and one about another pod are filtered out.
  await createEvent(ns, 'normal');
  await createEvent(ns, 'other', { type: 'Warning' });
  // Use the same object name for the one that passes: --for matches the involved object.
  await createEvent(ns, 'new', { type: 'Critical' });
  assert.deepEqual(await f.waitLines(1), ['event/new']);
  f.child.kill('SIGTERM');
  assert.equal(await f.exited, 0, f.stderr());
  assert.deepEqual(f.lines, ['event/new']);
});

test('-w -o stable prints each new unique line once; a repeat of a line already shown prints nothing', async () => {
  const ns = await freshNamespace(cp.kubeconfig, 'watch-stable');
  await createEvent(ns, 'x', { reason: 'Started' });
  const f = follow(['-n', ns, '-w', '-o', 'stable']);
  assert.deepEqual(await f.waitLines(1), ['Normal Started Pod/pod-x']);
  await patchEvent(ns, 'x', { count: 5, lastTimestamp: now() });
  await createEvent(ns, 'y', { reason: 'Stopped', type: 'Warning' });
  assert.deepEqual(await f.waitLines(2), ['Normal Started Pod/pod-x', 'Warning Stopped Pod/pod-y']);
  f.child.kill('SIGINT');
  assert.equal(await f.exited, 0);
  assert.equal(f.lines.length, 2);
});

/** `before` and `first` as listed and watched, then what came while the follower was cut off (in either order), each once. */
function assertCaughtUp(lines: Row[], meanwhile: Row[]): void {
  assert.deepEqual(lines.slice(0, 2), [
    { name: 'before', count: 1, type: 'Normal' },
    { name: 'first', count: 1, type: 'Normal' },
  ]);
  assert.deepEqual(lines.slice(2).sort((p, q) => p.name.localeCompare(q.name)), meanwhile);
}

test('-w through a connection that drops: it resumes and prints what came meanwhile, with no repeats', async () => {
  const ns = await freshNamespace(cp.kubeconfig, 'watch-drop');
  const proxy = await startTcpProxy(cp.server);
  proxies.push(proxy);
  const kubeconfig = proxiedKubeconfig(cp, proxy, ns, 'proxied');
  await createEvent(ns, 'before');
  const f = follow(['-w', '-o', 'json'], kubeconfig);
  await f.waitLines(1);
  await createEvent(ns, 'first');
  await f.waitLines(2);
  assert.ok(proxy.cutAll() > 0);
  await createEvent(ns, 'during');
  await patchEvent(ns, 'first', { count: 3, lastTimestamp: now() });
  assertCaughtUp(rows(await f.waitLines(4)), [
    { name: 'during', count: 1, type: 'Normal' },
    { name: 'first', count: 3, type: 'Normal' },
  ]);
  await createEvent(ns, 'after');
  await f.waitLines(5);
  f.child.kill('SIGINT');
  assert.equal(await f.exited, 0, f.stderr());
  assert.equal(f.lines.length, 5);
  assert.match(f.stderr(), /watch failed .*retrying|^$/);
});

test('a reader that leaves (| head) ends the follow quietly', async () => {
  const ns = await freshNamespace(cp.kubeconfig, 'watch-head');
  await createEvent(ns, 'one');
  await createEvent(ns, 'two');
  const f = follow(['-n', ns, '-w', '-o', 'name']);
  await f.waitLines(1);
  f.child.stdout.destroy();
  // The next write finds the pipe closed; the plugin must then stop following, not hang.
  await createEvent(ns, 'three');
  const code = await f.exited;
  assert.equal(code, 0);
  assert.doesNotMatch(f.stderr(), /error/);
});

test('-w: an event written through events.k8s.io/v1 arrives on the core/v1 watch, and its series bump is one new row with x2', async () => {
  const ns = await freshNamespace(cp.kubeconfig, 'watch-series');
  await createEvent(ns, 'legacy');
  const f = follow(['-n', ns, '-w']);
  await f.waitLines(2);
  // As client-go's events.k8s.io recorder writes it: eventTime, a reporter and instance, no count.
  const micro = new Date().toISOString().replace(/Z$/, '000Z');
  const created = await kubectl(['create', '-f', '-'], cp.kubeconfig, {
    input: JSON.stringify({
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'modern', namespace: ns },
      regarding: { apiVersion: 'v1', kind: 'ConfigMap', name: 'cm-modern', namespace: ns },
      reason: 'Synced',
      note: 'written through events.k8s.io/v1',
      type: 'Normal',
      eventTime: micro,
      reportingController: 'example.com/syncer',
      reportingInstance: 'syncer-0',
      action: 'Sync',
    }),
  });
  assert.equal(created.code, 0, created.stderr);
  const modern = cells((await f.waitLines(3))[2] ?? '');
  assert.deepEqual(modern.slice(2), ['Normal', 'Synced', 'ConfigMap/cm-modern', 'example.com/syncer', 'written through events.k8s.io/v1']);
  assert.doesNotMatch(modern[1] ?? '', /\(x/);
  // The recorder's second occurrence: series through events.k8s.io/v1 (the only field it may update).
  const bumped = await kubectl(['-n', ns, 'patch', 'events.v1.events.k8s.io', 'modern', '--type=merge', '-p', JSON.stringify({ series: { count: 2, lastObservedTime: new Date().toISOString().replace(/Z$/, '000Z') } })], cp.kubeconfig);
  assert.equal(bumped.code, 0, bumped.stderr);
  const row = cells((await f.waitLines(4))[3] ?? '');
  assert.match(row[1] ?? '', /^\d+[smhd]\S* \(x2 over \d+[smhd]\S*\)$/);
  assert.deepEqual(row.slice(2), modern.slice(2));
  // Nothing more came of it: the next row is the sentinel.
  await createEvent(ns, 'sentinel');
  assert.deepEqual(cells((await f.waitLines(5))[4] ?? '').slice(2, 5), ['Normal', 'Happened', 'Pod/pod-sentinel']);
  f.child.kill('SIGINT');
  assert.equal(await f.exited, 0, f.stderr());
  assert.equal(f.lines.length, 5, f.lines.join('\n'));
});

test('-w -A with --reason and --since: the filters choose among the listed events and among the new ones, in every namespace', async () => {
  const one = await freshNamespace(cp.kubeconfig, 'watch-all-1');
  const two = await freshNamespace(cp.kubeconfig, 'watch-all-2');
  // A reason no other test writes, so -A sees only these.
  const reason = `Probe${Date.now().toString(36)}`;
  const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z');
  await createEvent(one, 'recent', { reason });
  await createEvent(one, 'other-reason', { reason: `${reason}X` });
  await createEvent(one, 'stale', { reason, first: hoursAgo(3), last: hoursAgo(2) });
  const f = follow(['-A', '-w', '--reason', reason, '--since', '1h', '-o', 'json']);
  const ns = (l: string) => (JSON.parse(l) as { namespace: string; name: string }).namespace + '/' + (JSON.parse(l) as { name: string }).name;
  assert.deepEqual((await f.waitLines(1)).map(ns), [`${one}/recent`]);
  // In another namespace: a new one that passes, one of another reason, one last seen too long ago.
  await createEvent(two, 'other-reason', { reason: `${reason}X` });
  await createEvent(two, 'old', { reason, first: hoursAgo(5), last: hoursAgo(4) });
  await createEvent(two, 'fresh', { reason, type: 'Warning' });
  assert.deepEqual((await f.waitLines(2)).map(ns), [`${one}/recent`, `${two}/fresh`]);
  // The stale one happens again now: a new occurrence within --since.
  await patchEvent(one, 'stale', { count: 2, lastTimestamp: now() });
  assert.deepEqual((await f.waitLines(3)).map(ns), [`${one}/recent`, `${two}/fresh`, `${one}/stale`]);
  f.child.kill('SIGINT');
  assert.equal(await f.exited, 0, f.stderr());
  assert.equal(f.lines.length, 3, f.lines.join('\n'));
  // Once following ends, what the filters hid: -A holds other tests' events of other reasons; of this
  // reason only two/old stays out (one/stale was shown once it happened again).
  assert.match(f.stderr(), /^Hidden: \d+ events by --reason, 1 by --since\.\n$/);
});

test('-w --absolute-times: the listed rows and the new ones carry RFC 3339 times, the bump its count', async () => {
  const ns = await freshNamespace(cp.kubeconfig, 'watch-absolute');
  await createEvent(ns, 'a', { first: '2026-01-02T03:04:05Z' });
  const f = follow(['-n', ns, '-w', '--absolute-times', '-o', 'wide']);
  const [, first] = await f.waitLines(2);
  assert.deepEqual(cells(first ?? '').slice(0, 4), ['2026-01-02T03:04:05Z', '2026-01-02T03:04:05Z', 'Normal', 'Happened']);
  await patchEvent(ns, 'a', { count: 4, lastTimestamp: '2026-01-02T04:00:00Z' });
  const bumped = cells((await f.waitLines(3))[2] ?? '');
  assert.deepEqual(bumped.slice(0, 4), ['2026-01-02T03:04:05Z', '2026-01-02T04:00:00Z (x4)', 'Normal', 'Happened']);
  f.child.kill('SIGINT');
  assert.equal(await f.exited, 0, f.stderr());
});

test('Ctrl-C while stdout is full: what was printed reaches the reader whole, then exit 0', async () => {
  const ns = await freshNamespace(cp.kubeconfig, 'watch-flush');
  // Far more than a pipe holds (64 KiB): the listed timeline is still being written when Ctrl-C comes.
  const items = Array.from({ length: 300 }, (_, i) => ({
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `e-${String(i).padStart(3, '0')}`, namespace: ns },
    involvedObject: { kind: 'Pod', name: `pod-${i}`, namespace: ns },
    reason: 'Filled',
    type: 'Normal',
    message: `${i} `.padEnd(1000, 'x'),
    firstTimestamp: now(),
    lastTimestamp: now(),
    count: 1,
  }));
  const created = await kubectl(['create', '-f', '-'], cp.kubeconfig, { input: JSON.stringify({ apiVersion: 'v1', kind: 'List', items }) });
  assert.equal(created.code, 0, created.stderr);
  // -v=6 logs the watch request once the list is printed (the watch is asked for only then): stdout
  // is not read until Ctrl-C has been sent.
  const child = spawn('kubectl', ['evtimeline', '-n', ns, '-w', '-o', 'json', '-v=6'], { env: pluginEnv(cp.kubeconfig), stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pause();
  let err = '';
  child.stderr.setEncoding('utf8');
  await new Promise<void>((resolve) => {
    child.stderr.on('data', (chunk: string) => {
      err += chunk;
      if (/"Response" verb="GET" url="[^"]*watch=1/.test(err)) resolve();
    });
  });
  child.kill('SIGINT');
  const chunks: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  child.stdout.resume();
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  assert.equal(code, 0, err);
  const lines = Buffer.concat(chunks).toString('utf8').split('\n');
  assert.equal(lines.pop(), '', 'the last line is whole');
  assert.deepEqual(lines.map((l) => (JSON.parse(l) as { name: string }).name), items.map((i) => i.metadata.name));
});

test('| head in a shell: the follow ends at its next write, exit 0, nothing on stderr', async () => {
  const ns = await freshNamespace(cp.kubeconfig, 'watch-pipe');
  await createEvent(ns, 'one');
  await createEvent(ns, 'two');
  const child = spawn('bash', ['-c', `kubectl evtimeline -n ${ns} -w -o name | head -n 1; echo "plugin exit \${PIPESTATUS[0]}" >&2`], {
    env: pluginEnv(cp.kubeconfig),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  await waitFor('head to print its line', async () => out === 'event/one\n');
  // head has gone; the plugin learns it at its next write.
  await createEvent(ns, 'three');
  assert.equal(await closed, 0);
  assert.equal(out, 'event/one\n');
  assert.equal(err, 'plugin exit 0\n');
});

test('-w refuses --from and -o html', async () => {
  const r = await kubectl(['evtimeline', '-w', '--from', '-'], cp.kubeconfig, { input: '[]' });
  assert.equal(r.code, 2);
  assert.equal(r.stderr, 'error: --watch follows the live cluster: it does not apply to --from\n');
  const html = await kubectl(['evtimeline', '-w', '-o', 'html'], cp.kubeconfig);
  assert.equal(html.code, 2);
  assert.equal(html.stdout, '');
  assert.equal(html.stderr, 'error: -o html is one self-contained page: it does not apply to --watch\n');
});

/** Whether a watch from `resourceVersion` gets 410 Gone (etcd compacted past it). */
function watchIsGone(on: ControlPlane, ns: string, resourceVersion: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      new URL(`${eventsPath('core', ns)}?watch=1&resourceVersion=${resourceVersion}&timeoutSeconds=1`, on.server),
      { ca: on.ca, headers: { Authorization: `Bearer ${on.token}` } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve(res.statusCode === 410 || /"code":410/.test(text)));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('-w across 410 Gone (--etcd-compaction-interval 2s)', () => {
  let gone: ControlPlane;
  before(async () => {
    gone = await startControlPlane({ compactionInterval: '2s' });
  });
  after(async () => gone?.stop());

  test('offline while etcd compacts: it lists again and prints only the occurrences it missed, once', { timeout: 240_000 }, async () => {
    const ns = await freshNamespace(gone.kubeconfig, 'watch-gone');
    const proxy = await startTcpProxy(gone.server);
    proxies.push(proxy);
    await createEvent(ns, 'kept', {}, gone);
    await createEvent(ns, 'bumped', {}, gone);
    const f = follow(['-w', '-o', 'json'], proxiedKubeconfig(gone, proxy, ns, 'gone'));
    await f.waitLines(2);
    const listed = JSON.parse(f.lines[1] ?? '{}') as { resourceVersion: string };
    // The follower loses its connection and cannot reconnect while things happen and etcd compacts.
    proxy.refuse(true);
    proxy.cutAll();
    // The version it will resume from is the last it saw, which a BOOKMARK may have moved past its
    // lines' (src/kube/watch.ts; the apiserver sends them to a watch that allows them): the cluster's
    // version read now, after the cut, is at least that, so compaction past it means 410 for it.
    // (kubectl get -o json wraps a list in a List without one: the raw list has it.)
    const reached = await kubectl(['get', '--raw', `${eventsPath('core', ns)}?limit=1`], gone.kubeconfig);
    assert.equal(reached.code, 0, reached.stderr);
    const rv = (JSON.parse(reached.stdout) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
    assert.ok(Number(rv) >= Number(listed.resourceVersion), `${rv} vs ${listed.resourceVersion}`);
    await patchEvent(ns, 'bumped', { count: 2, lastTimestamp: now() }, gone);
    await createEvent(ns, 'missed', { type: 'Warning' }, gone);
    await waitFor(`etcd to compact past ${rv}`, () => watchIsGone(gone, ns, rv), { everyMs: 1000 });
    proxy.refuse(false);
    const all = rows(await f.waitLines(4));
    await createEvent(ns, 'after', {}, gone);
    await f.waitLines(5);
    f.child.kill('SIGINT');
    assert.equal(await f.exited, 0, f.stderr());
    assert.deepEqual(all.slice(0, 2).map((r) => r.name).sort(), ['bumped', 'kept']);
    assert.deepEqual(all.slice(2), [
      { name: 'bumped', count: 2, type: 'Normal' },
      { name: 'missed', count: 1, type: 'Warning' },
    ]);
    assert.equal(f.lines.length, 5);
    assert.deepEqual(rows(f.lines.slice(4)), [{ name: 'after', count: 1, type: 'Normal' }]);
    assert.match(f.stderr(), /^watch expired \(410 Gone\): listing again$/m);
  });

  test('across an apiserver restart: it waits for the server, then prints what came meanwhile once, and goes on', { timeout: 300_000 }, async () => {
    const ns = await freshNamespace(gone.kubeconfig, 'watch-restart');
    // Its graceful stop (SIGTERM) holds the follower's watch open up to the server's --request-timeout
    // before exiting: 5 s here, not 60 s; what the follower sees is the same.
    const second = await secondApiserver(gone, join(work, 'second-apiserver.log'), '5s');
    try {
      const kubeconfig = adminKubeconfigAt(gone, second.server, ns, join(work, 'restart.kubeconfig'));
      await createEvent(ns, 'before', {}, gone);
      const f = follow(['-w', '-o', 'json'], kubeconfig);
      await f.waitLines(1);
      await createEvent(ns, 'first', {}, gone);
      await f.waitLines(2);
      await second.stop();
      // While it is down (written through the cluster's other kube-apiserver): a new event and a repeat.
      await createEvent(ns, 'during', { type: 'Warning' }, gone);
      await patchEvent(ns, 'first', { count: 2, lastTimestamp: now() }, gone);
      await second.start();
      const lines = rows(await f.waitLines(4));
      await createEvent(ns, 'after', {}, gone);
      await f.waitLines(5);
      f.child.kill('SIGINT');
      assert.equal(await f.exited, 0, f.stderr());
      assertCaughtUp(lines, [
        { name: 'during', count: 1, type: 'Warning' },
        { name: 'first', count: 2, type: 'Normal' },
      ]);
      assert.deepEqual(rows(f.lines.slice(4)), [{ name: 'after', count: 1, type: 'Normal' }]);
      assert.equal(f.lines.length, 5);
      // The one notice of each kind a restart may cause, no error.
      for (const line of f.stderr().split('\n').filter((l) => l !== '')) {
        assert.match(line, /^(watch|list) (failed \(.*\): retrying in [\d.]+ m?s|expired \(410 Gone\): listing again)$/);
      }
    } finally {
      await second.stop();
    }
  });
});

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
import { startTcpProxy } from '../harness/tcp-proxy.ts';
import type { TcpProxy } from '../harness/tcp-proxy.ts';
import { scratchDir } from '../support/tmp.ts';
import { proxiedKubeconfig as proxiedKubeconfigFor } from '../support/recorder.ts';

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

async function createEvent(ns: string, name: string, o: { type?: string; reason?: string; count?: number; message?: string } = {}, on: ControlPlane = cp): Promise<void> {
  const event = {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, namespace: ns },
    involvedObject: { kind: 'Pod', name: `pod-${name}`, namespace: ns },
    reason: o.reason ?? 'Happened',
    type: o.type ?? 'Normal',
    message: o.message ?? `${name} happened`,
    firstTimestamp: now(),
    lastTimestamp: now(),
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
  const lines = rows(await f.waitLines(4));
  assert.deepEqual(lines.slice(0, 2), [
    { name: 'before', count: 1, type: 'Normal' },
    { name: 'first', count: 1, type: 'Normal' },
  ]);
  assert.deepEqual(lines.slice(2).sort((p, q) => p.name.localeCompare(q.name)), [
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

test('-w refuses --from', async () => {
  const r = await kubectl(['evtimeline', '-w', '--from', '-'], cp.kubeconfig, { input: '[]' });
  assert.equal(r.code, 2);
  assert.equal(r.stderr, 'error: --watch follows the live cluster: it does not apply to --from\n');
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
    await patchEvent(ns, 'bumped', { count: 2, lastTimestamp: now() }, gone);
    await createEvent(ns, 'missed', { type: 'Warning' }, gone);
    const rv = String(Math.max(...f.lines.map((l) => Number((JSON.parse(l) as { resourceVersion: string }).resourceVersion)), Number(listed.resourceVersion)));
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
});

// `record` against the real control plane: the lab recorded and replayed after the API server has
// expired every event (--event-ttl 20s); a recorder killed with SIGKILL in the middle of a burst and
// restarted; a watch forced to expire by etcd compaction (410 Gone) and listed again; a watch that
// the server ends again and again. Then the network failing on cue, through a TCP proxy in front of
// the apiserver (test/harness/tcp-proxy.ts): a connection dropped mid-line, connections refused
// until the recorder gives up; a user RBAC refuses (403); and --duration on a terminal. And a record
// whose last resourceVersion the server has not reached (a cluster re-created at the same URL), and
// a quiet namespace, whose record is its header alone.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../../src/cli.ts';
import { parseRecordOptions, runRecord } from '../../src/commands/record.ts';
import { RuntimeError } from '../../src/errors.ts';
import { RECORD_KIND } from '../../src/core/record.ts';
import type { Observation } from '../../src/core/record.ts';
import { formatHeader, formatObservation } from '../../src/io/record-line.ts';
import { parseRecordText } from '../../src/io/record-replay.ts';
import { loadKubeTarget } from '../../src/kube/kubeconfig.ts';
import { followEvents } from '../../src/kube/watch.ts';
import type { FollowStep } from '../../src/core/source.ts';
import type { WatchNotice } from '../../src/core/notices.ts';
import { sharedControlPlane, startControlPlane } from '../harness/controlplane.ts';
import type { ControlPlane } from '../harness/controlplane.ts';
import { playLab } from '../harness/lab.ts';
import { pluginEnv } from '../harness/plugin.ts';
import { freshNamespace } from '../harness/namespace.ts';
import { startTcpProxy } from '../harness/tcp-proxy.ts';
import type { TcpProxy } from '../harness/tcp-proxy.ts';
import { fakeDeps } from '../support/deps.ts';
import { api, sleep, waitFor } from '../support/cluster-api.ts';

type Json = Record<string, unknown>;

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const shared = sharedControlPlane();

let scratch = '';
const children = new Set<ChildProcessWithoutNullStreams>();
before(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'evtimeline-record-it-'));
});
after(async () => {
  // A failed test must not leave a recorder running (it would keep this process alive).
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

// -- helpers ------------------------------------------------------------------------------------

function coreEvent(namespace: string, name: string, message: string): Json {
  const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, namespace },
    involvedObject: { kind: 'Pod', name: 'burst', namespace, apiVersion: 'v1' },
    reason: 'Burst',
    message,
    type: 'Normal',
    source: { component: 'record-test' },
    firstTimestamp: now,
    lastTimestamp: now,
    count: 1,
  };
}

const eventsPath = (ns: string, name?: string) => `/api/v1/namespaces/${ns}/events${name ? `/${name}` : ''}`;
const meta = (o: Json) => o.metadata as { uid: string; name: string; resourceVersion: string };
const versionKey = (o: Json) => `${meta(o).uid}@${meta(o).resourceVersion}`;

async function createEvent(cp: ControlPlane, ns: string, name: string): Promise<Json> {
  return api(cp, 'POST', eventsPath(ns), coreEvent(ns, name, `event ${name}`));
}

async function bumpEvent(cp: ControlPlane, ns: string, name: string, count: number): Promise<Json> {
  return api(cp, 'PATCH', eventsPath(ns, name), { count, lastTimestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z') }, 'application/merge-patch+json');
}

/** Runs `jobs` with at most `width` in flight. */
async function concurrently<T>(width: number, jobs: (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < jobs.length) {
        const i = next++;
        results[i] = await (jobs[i] as () => Promise<T>)();
      }
    }),
  );
  return results;
}

function kubectl(kubeconfig: string, args: string[]): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    execFile('kubectl', [`--kubeconfig=${kubeconfig}`, ...args], { timeout: 60_000, maxBuffer: 32 * 1024 * 1024 }, (err, stdout, stderr) =>
      err ? reject(new Error(`kubectl ${args.join(' ')}: ${stderr || err.message}`)) : resolvePromise(stdout),
    );
  });
}

interface RecordFile {
  observations: Observation[];
  headers: number;
  tornTail: string;
}

async function readRecord(path: string): Promise<RecordFile> {
  if (!existsSync(path)) return { observations: [], headers: 0, tornTail: '' };
  const text = await readFile(path, 'utf8');
  if (text === '') return { observations: [], headers: 0, tornTail: '' }; // created, its header not written yet
  const record = parseRecordText(text);
  assert.ok(record, `${path} is not a record`);
  return { observations: record.observations, headers: record.headers.length, tornTail: record.tornTail };
}

/**
 * kubectl's own watch of a namespace's events (`get events -w --output-watch-events -o json`): the
 * versions it was sent (ADDED, MODIFIED) and the uids it was told were deleted. kubectl v1.32 prints
 * one JSON object a line, and its first list as one ADDED whose object is the whole EventList.
 */
function kubectlWatch(kubeconfig: string, ns: string) {
  const child = spawn('kubectl', [`--kubeconfig=${kubeconfig}`, '-n', ns, 'get', 'events', '-w', '--output-watch-events', '-o', 'json', '-v=6'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const versions: Json[] = [];
  const deleted = new Set<string>();
  let pending = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    pending += chunk;
    const end = pending.lastIndexOf('\n');
    for (const line of pending.slice(0, end + 1).split('\n').filter((l) => l.trim() !== '')) {
      const { type, object } = JSON.parse(line) as { type: string; object: Json };
      const items = Array.isArray(object.items) ? (object.items as Json[]) : [object];
      if (type === 'DELETED') for (const item of items) deleted.add(meta(item).uid);
      else versions.push(...items);
    }
    pending = pending.slice(end + 1);
  });
  let log = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
  const latest = () => [...new Map(versions.map((o) => [meta(o).uid, o])).values()];
  // -v=6 logs each request: the watch is open once its GET is answered.
  const watching = () => /\/events\?[^\s"]*watch=true[^\n]*200 OK/.test(log);
  return { objects: () => [...new Map(versions.map((o) => [versionKey(o), o])).values()], deleted: () => deleted, latest, watching, stop: () => child.kill('SIGTERM') };
}

/** Each event version (uid + resourceVersion) once among ADDED/MODIFIED lines, and DELETED once per uid. */
function assertNoDuplicates(observations: Observation[]): void {
  const versions = new Map<string, number>();
  const deleted = new Map<string, number>();
  for (const o of observations) {
    if (o.type === 'DELETED') deleted.set(meta(o.event).uid, (deleted.get(meta(o.event).uid) ?? 0) + 1);
    else versions.set(versionKey(o.event), (versions.get(versionKey(o.event)) ?? 0) + 1);
  }
  assert.deepEqual([...versions].filter(([, n]) => n > 1), [], 'event versions written twice');
  assert.deepEqual([...deleted].filter(([, n]) => n > 1), [], 'DELETED written twice for a uid');
}

/** The record verb in this process, stopped by interrupt() as Ctrl-C would. */
function recordInProcess(args: string[], env: Record<string, string | undefined>, tty = false) {
  const fake = fakeDeps({ env, tty });
  const deps = { ...fake.deps, now: () => Date.now() };
  const done = runCli(['record', ...args], deps);
  return { done, stderr: fake.stderr, interrupt: fake.interrupt };
}

/** The record verb as a real process (the source through tsx, as `npm test` builds nothing for it). */
function recordProcess(args: string[], kubeconfig: string) {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'record', ...args], {
    cwd: REPO,
    env: { ...process.env, KUBECONFIG: kubeconfig },
  });
  children.add(child);
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d: string) => (stderr += d));
  child.stdout.resume();
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => child.once('exit', (code, signal) => r({ code, signal })));
  return { child, exited, stderr: () => stderr };
}

// -- past the TTL ---------------------------------------------------------------------------------

describe('record and replay past the TTL (--event-ttl 20s)', () => {
  let cp: ControlPlane;
  before(async () => {
    cp = await startControlPlane({ eventTTL: '20s' });
  });
  after(async () => cp?.stop());

  // What the server held is what kubectl's own watch of the namespace was sent, started before the
  // lab: not a list taken after it, since on a slow machine the lab's first events expire before its
  // last are written (20 s TTL), and a list would then hold fewer than the lab wrote.
  test('the lab recorded while played is still there, whole, after the server expired every event', { timeout: 240_000 }, async () => {
    const t0 = performance.now();
    const ns = await freshNamespace(cp.kubeconfig, 'record-ttl');
    const file = join(scratch, 'lab.jsonl');
    const env = { KUBECONFIG: cp.kubeconfig };
    const reference = kubectlWatch(cp.kubeconfig, ns);
    const recorder = recordInProcess(['-n', ns, file], env);
    try {
      await waitFor('the recorder to list', async () => existsSync(file));
      await waitFor('kubectl to watch', async () => reference.watching());
      await playLab({ kubeconfig: cp.kubeconfig, namespace: ns, outDir: join(scratch, 'lab') });
      const played = performance.now();
      const labReasons = () => new Set(reference.objects().map((o) => o.reason as string));
      await waitFor('kubectl\'s watch to have each reason of the lab', async () => ['ReconcileStarted', 'StageUnknown', 'ReconcileSucceeded', 'FailedScheduling'].every((r) => labReasons().has(r)));

      // The server forgets them all, and both kubectl's watch and the recorder are told of each.
      await waitFor('the server to expire every event', async () => (await kubectl(cp.kubeconfig, ['-n', ns, 'get', 'events', '-o', 'name'])).trim() === '', { everyMs: 1000 });
      const expired = performance.now();
      const uids = () => new Set(reference.objects().map((o) => meta(o).uid));
      await waitFor('kubectl\'s watch to be told of each expiry', async () => [...uids()].every((uid) => reference.deleted().has(uid)));
      const recorded = async () => (await readRecord(file)).observations;
      await waitFor('a DELETED line for each expired event', async () => {
        const deleted = new Set((await recorded()).filter((o) => o.type === 'DELETED').map((o) => meta(o.event).uid));
        return [...uids()].every((uid) => deleted.has(uid));
      });
      recorder.interrupt();
      assert.equal(await recorder.done, 0);
      assert.ok(uids().size >= 4, `the lab leaves four events or more: ${reference.objects().map((o) => o.reason).join(', ')}`);
      assert.match(
        recorder.stderr(),
        new RegExp(`^recorded \\d+ lines \\(\\d+ added, \\d+ modified, ${uids().size} deleted\\) to .*lab\\.jsonl; it holds \\d+ observations\n$`, 'm'),
      );

      // Every version kubectl was sent is in the record, and nothing else.
      const { observations } = await readRecord(file);
      assertNoDuplicates(observations);
      const inRecord = observations.filter((o) => o.type !== 'DELETED').map((o) => versionKey(o.event));
      assert.deepEqual([...inRecord].sort(), reference.objects().map(versionKey).sort());
      assert.ok(observations.filter((o) => o.type === 'DELETED').every((o) => o.inferred !== true), 'the server sent each DELETED');

      const incident = fakeDeps({ env: {} });
      assert.equal(await runCli(['incident', '--from', file], incident.deps), 0);
      for (const word of ['FailedScheduling', 'ReconcileStarted', 'ReconcileSucceeded', 'Critical']) {
        assert.match(incident.stdout(), new RegExp(word), `incident --from the record does not name ${word}`);
      }
      // The replay's lines are those of the events kubectl was sent, read as a list.
      const listFile = join(scratch, 'lab-kubectl.json');
      await writeFile(listFile, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: reference.latest() }));
      const seen = fakeDeps({ env: {} });
      assert.equal(await runCli(['timeline', '-o', 'stable', '--from', listFile], seen.deps), 0);
      const replay = fakeDeps({ env: {} });
      assert.equal(await runCli(['timeline', '-o', 'stable', '--from', file], replay.deps), 0);
      assert.equal(replay.stdout(), seen.stdout());
      assert.match(replay.stdout(), /^Critical StageUnknown Pipeline\/build-1$/m);
      process.stderr.write(
        `record past the TTL: lab ${((played - t0) / 1000).toFixed(1)} s, expiry after ${((expired - played) / 1000).toFixed(1)} s, ${observations.length} observations\n`,
      );
    } finally {
      reference.stop();
    }
  });

  // -w (the timeline's follow) here too, for this control plane's short TTL: the deletion a watch
  // gets when the server expires an event, not one a client asked for, prints nothing.
  test('-w through kubectl: an event the TTL deletes prints nothing; the follow goes on', { timeout: 180_000 }, async () => {
    const ns = await freshNamespace(cp.kubeconfig, 'watch-ttl');
    await createEvent(cp, ns, 'expires');
    const child = spawn('kubectl', ['evtimeline', '-n', ns, '-w', '-o', 'json'], { env: pluginEnv(cp.kubeconfig), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    const exited = new Promise<number | null>((resolvePromise) => child.on('exit', resolvePromise));
    const names = () => out.split('\n').filter((l) => l !== '').map((l) => (JSON.parse(l) as { name: string }).name);
    try {
      await waitFor('the listed event', async () => names().length === 1);
      await waitFor('the server to expire it', async () => (await kubectl(cp.kubeconfig, ['-n', ns, 'get', 'events', '-o', 'name'])).trim() === '', { everyMs: 1000 });
      await createEvent(cp, ns, 'sentinel');
      await waitFor('the sentinel', async () => names().length >= 2);
    } finally {
      child.kill('SIGINT');
    }
    assert.equal(await exited, 0, err);
    assert.deepEqual(names(), ['expires', 'sentinel']);
  });
});

// -- SIGKILL in a burst ----------------------------------------------------------------------------

describe('a recorder killed with SIGKILL in the middle of a burst', () => {
  test('restarted on the same file, it holds every version of all 200 events, each once', { timeout: 180_000 }, async () => {
    const cp = await shared;
    const ns = await freshNamespace(cp.kubeconfig, 'record-kill');
    const file = join(scratch, 'burst.jsonl');
    const first = recordProcess(['-n', ns, file], cp.kubeconfig);
    await waitFor('the recorder to list', async () => existsSync(file));

    // 200 events through four connections, and a second version of every fifth one.
    const written: Json[] = [];
    const names = Array.from({ length: 200 }, (_, i) => `burst-${String(i).padStart(3, '0')}`);
    let killedAt = -1;
    const burst = concurrently(
      4,
      names.map((name, i) => async () => {
        written.push(await createEvent(cp, ns, name));
        if (i % 5 === 0) written.push(await bumpEvent(cp, ns, name, 2));
      }),
    );
    const kill = (async () => {
      await waitFor('the recorder to write 60 lines', async () => (await readRecord(file)).observations.length >= 60, { everyMs: 5 });
      killedAt = written.length;
      first.child.kill('SIGKILL');
    })();
    await Promise.all([burst, kill]);
    assert.equal((await first.exited).signal, 'SIGKILL');
    const before = await readRecord(file);
    assert.ok(killedAt < written.length, `the kill came after the burst (${killedAt} of ${written.length} writes)`);
    assert.ok(before.observations.length < written.length, 'the first recorder saw the whole burst before it died');

    // A kill lands between two writes far more often than inside one: make sure the restart also
    // meets a torn last line, as a short write(2) cut by the kill would leave it.
    const text = await readFile(file, 'utf8');
    const lastLine = text.slice(text.lastIndexOf('\n', text.length - 2) + 1);
    await appendFile(file, lastLine.slice(0, 100));

    const second = recordProcess(['-n', ns, file], cp.kubeconfig);
    const want = new Set(written.map(versionKey));
    await waitFor('the record to hold every version', async () => {
      const have = new Set((await readRecord(file)).observations.map((o) => versionKey(o.event)));
      return [...want].every((key) => have.has(key));
    });
    second.child.kill('SIGTERM');
    const exit = await second.exited;
    assert.deepEqual(exit, { code: 0, signal: null }, second.stderr());

    const after = await readRecord(file);
    assert.equal(after.tornTail, '', 'a torn line survived the restart');
    assertNoDuplicates(after.observations);
    const keys = after.observations.map((o) => versionKey(o.event));
    assert.deepEqual(new Set(keys), want, 'the record holds exactly the versions the server wrote');
    assert.equal(keys.length, want.size);
    assert.equal(after.headers, 2, 'one header per recorder session');
    assert.match(second.stderr(), new RegExp(`continuing .*burst\\.jsonl \\(${before.observations.length} observations\\) from resourceVersion \\d+`));
    assert.doesNotMatch(second.stderr(), /410 Gone/);
    assert.match(second.stderr(), /^.*burst\.jsonl: cut off a torn last line \(\d+ bytes\) left by a recorder that was stopped mid-write$/m);
    assert.match(second.stderr(), /^recorded \d+ lines \(\d+ added, \d+ modified, 0 deleted\) to .*; it holds 240 observations$/m);
    process.stderr.write(
      `SIGKILL after ${before.observations.length} of 240 lines${before.tornTail ? ` (the kill itself tore the last line: ${before.tornTail.length} chars)` : ''}\n`,
    );
  });
});

// -- 410 Gone -------------------------------------------------------------------------------------

/** Starts a watch at `resourceVersion` and reports whether the server answers 410 (compacted). */
function watchIsGone(cp: ControlPlane, ns: string, resourceVersion: string): Promise<boolean> {
  return new Promise((resolvePromise, reject) => {
    const req = https.request(
      new URL(`${eventsPath(ns)}?watch=1&resourceVersion=${resourceVersion}&timeoutSeconds=1`, cp.server),
      { ca: cp.ca, headers: { Authorization: `Bearer ${cp.token}` } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolvePromise(res.statusCode === 410 || /"code":410/.test(text)));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('a watch that expired (--etcd-compaction-interval 2s)', () => {
  let cp: ControlPlane;
  before(async () => {
    cp = await startControlPlane({ compactionInterval: '2s' });
  });
  after(async () => cp?.stop());

  test('resuming gets 410 Gone: the recorder lists again and writes only what is new', { timeout: 180_000 }, async () => {
    const ns = await freshNamespace(cp.kubeconfig, 'record-gone');
    const file = join(scratch, 'gone.jsonl');
    const env = { KUBECONFIG: cp.kubeconfig };
    const names = Array.from({ length: 20 }, (_, i) => `gone-${String(i).padStart(2, '0')}`);

    const first = recordInProcess(['-n', ns, file], env);
    await waitFor('the recorder to list', async () => existsSync(file));
    const created = await concurrently(4, names.map((name) => () => createEvent(cp, ns, name)));
    await waitFor('20 lines', async () => (await readRecord(file)).observations.length === 20);
    first.interrupt();
    assert.equal(await first.done, 0);
    const stopped = await readRecord(file);
    const lastVersion = String(Math.max(...stopped.observations.map((o) => Number(meta(o.event).resourceVersion))));

    // While nobody watches: 10 events change (twice, so one version is never seen), 3 go, 5 arrive.
    for (const name of names.slice(0, 10)) {
      await bumpEvent(cp, ns, name, 2);
      await bumpEvent(cp, ns, name, 3);
    }
    for (const name of names.slice(17)) await api(cp, 'DELETE', eventsPath(ns, name));
    for (const name of ['late-0', 'late-1', 'late-2', 'late-3', 'late-4']) await createEvent(cp, ns, name);
    const t0 = performance.now();
    await waitFor(`etcd to compact past resourceVersion ${lastVersion}`, () => watchIsGone(cp, ns, lastVersion), { everyMs: 1000 });
    const compactedAfter = (performance.now() - t0) / 1000;

    const second = recordInProcess(['-n', ns, file], env);
    const server = JSON.parse(await kubectl(cp.kubeconfig, ['-n', ns, 'get', 'events', '-o', 'json'])) as { items: Json[] };
    assert.equal(server.items.length, 22);
    await waitFor('the record to catch up', async () => {
      const { observations } = await readRecord(file);
      const keys = new Set(observations.map((o) => versionKey(o.event)));
      return server.items.every((item) => keys.has(versionKey(item))) && observations.filter((o) => o.type === 'DELETED').length === 3;
    });
    second.interrupt();
    assert.equal(await second.done, 0);

    assert.match(second.stderr(), new RegExp(`continuing .*gone\\.jsonl \\(20 observations\\) from resourceVersion ${lastVersion}\n`));
    assert.match(second.stderr(), /^watch expired \(410 Gone\): listing again$/m);
    // From the list: 10 changed, as MODIFIED (as a watch would have said), and 5 new as ADDED; 3
    // gone, as DELETED inferred from it.
    assert.match(second.stderr(), /^recorded 18 lines \(5 added, 10 modified, 3 deleted\) to .*; it holds 38 observations$/m);

    const { observations } = await readRecord(file);
    assertNoDuplicates(observations);
    const deleted = observations.filter((o) => o.type === 'DELETED');
    assert.deepEqual(deleted.map((o) => meta(o.event).name).sort(), names.slice(17));
    assert.ok(deleted.every((o) => o.inferred === true));
    for (const event of created) assert.ok(observations.some((o) => versionKey(o.event) === versionKey(event)), 'a first version went missing');
    process.stderr.write(`410 Gone: compacted ${compactedAfter.toFixed(1)} s after the changes\n`);
  });
});

// -- a watch the server ends --------------------------------------------------------------------------

describe('following events across watches the server ends', () => {
  test('each watch resumes from the last resourceVersion: no list, nothing lost, nothing twice', { timeout: 180_000 }, async () => {
    const cp = await shared;
    const ns = await freshNamespace(cp.kubeconfig, 'record-resume');
    const target = await loadKubeTarget({ kubeconfig: cp.kubeconfig, env: {} });
    const stop = new AbortController();
    const notices: WatchNotice[] = [];
    const steps: FollowStep[] = [];
    // The server ends each watch after 1 s; events keep coming across 4 s.
    const following = (async () => {
      for await (const step of followEvents(target, { namespace: ns, signal: stop.signal, notice: (n) => notices.push(n), watchSeconds: 1 })) steps.push(step);
    })();
    await waitFor('the first list', async () => steps.length > 0);
    const written: Json[] = [];
    for (let i = 0; i < 8; i += 1) {
      written.push(await createEvent(cp, ns, `resume-${i}`));
      await sleep(500);
    }
    const want = written.map(versionKey);
    await waitFor('every change', async () => want.every((key) => steps.some((s) => s.kind === 'change' && versionKey(s.object) === key)));
    stop.abort();
    await following;
    assert.deepEqual(steps.filter((s) => s.kind === 'list').length, 1, 'listed again instead of resuming');
    assert.deepEqual(steps.filter((s) => s.kind === 'change').map((s) => (s.kind === 'change' ? versionKey(s.object) : '')), want);
    assert.deepEqual(notices, []);
  });
});

// -- the network fails, the server refuses, time runs out ---------------------------------------------

/** A kubeconfig for `cp` as the admin, whose server is `server` (the proxy in front of the apiserver). */
async function kubeconfigFor(cp: ControlPlane, server: string, name: string): Promise<string> {
  const path = join(scratch, `${name}.kubeconfig`);
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    'current-context': 'proxied',
    clusters: [{ name: 'proxied', cluster: { server, 'certificate-authority-data': Buffer.from(cp.ca).toString('base64') } }],
    users: [{ name: 'admin', user: { token: cp.token } }],
    contexts: [{ name: 'proxied', context: { cluster: 'proxied', user: 'admin' } }],
  };
  await writeFile(path, JSON.stringify(config), { mode: 0o600 });
  return path;
}

/** An event whose watch line is far longer than what the proxy lets through before it cuts. */
async function createLargeEvent(cp: ControlPlane, ns: string, name: string, bytes: number): Promise<Json> {
  // core/v1 Events have no limit on the message (events.k8s.io/v1 notes do: 1 kB).
  return api(cp, 'POST', eventsPath(ns), coreEvent(ns, name, `large ${name} ${'x'.repeat(bytes)}`));
}

describe('record through a proxy that fails on cue, and as a user the server refuses', () => {
  const proxies: TcpProxy[] = [];
  after(async () => {
    for (const proxy of proxies) await proxy.close();
  });
  async function proxyTo(cp: ControlPlane, name: string): Promise<{ proxy: TcpProxy; kubeconfig: string }> {
    const proxy = await startTcpProxy(cp.server);
    proxies.push(proxy);
    return { proxy, kubeconfig: await kubeconfigFor(cp, proxy.url, name) };
  }

  test('a connection dropped mid-line is retried after a backoff and resumed from the last version written', { timeout: 180_000 }, async () => {
    const cp = await shared;
    const ns = await freshNamespace(cp.kubeconfig, 'record-drop');
    const { proxy, kubeconfig } = await proxyTo(cp, 'drop');
    const file = join(scratch, 'drop.jsonl');
    const recorder = recordInProcess(['-n', ns, file], { KUBECONFIG: kubeconfig });
    await waitFor('the recorder to list', async () => existsSync(file), { everyMs: 20 });

    const written: Json[] = [];
    for (const name of ['drop-a', 'drop-b', 'drop-c']) written.push(await createEvent(cp, ns, name));
    await waitFor('the first three events in the record', async () => (await readRecord(file)).observations.length === 3, { everyMs: 20 });

    // The next event's watch line is about 64 kB; the proxy lets 16 kB of it through (whole TLS
    // records among them, so the recorder holds the start of a line without its end) and then
    // drops every connection. New connections are refused until the changes below are made, so
    // they all happen while the recorder is away.
    proxy.refuse(true);
    const cutting = proxy.cutAfterServerBytes(16_000);
    written.push(await createLargeEvent(cp, ns, 'drop-large', 64_000));
    assert.ok((await cutting) >= 1, 'the watch connection was cut');
    written.push(await bumpEvent(cp, ns, 'drop-a', 2));
    written.push(await bumpEvent(cp, ns, 'drop-a', 3));
    for (const name of ['drop-d', 'drop-e']) written.push(await createEvent(cp, ns, name));
    proxy.refuse(false);

    const want = written.map(versionKey);
    await waitFor('every version in the record', async () => {
      const have = new Set((await readRecord(file)).observations.map((o) => versionKey(o.event)));
      return want.every((key) => have.has(key));
    }, { everyMs: 50 });
    recorder.interrupt();
    assert.equal(await recorder.done, 0);

    const record = await readRecord(file);
    assertNoDuplicates(record.observations);
    // In server order, each once. drop-a at count 2 was replaced by count 3 before the recorder
    // came back: only a watch resumed from the last version written still delivers it (a new
    // list would hold count 3 alone).
    assert.deepEqual(record.observations.map((o) => `${o.type} ${versionKey(o.event)}`), written.map((o, i) => `${i === 4 || i === 5 ? 'MODIFIED' : 'ADDED'} ${versionKey(o)}`));
    assert.equal(record.headers, 1);
    assert.match(recorder.stderr(), /^watch failed \(.+\): retrying in 500 ms$/m);
    assert.doesNotMatch(recorder.stderr(), /listing again|adding to/);
    assert.match(recorder.stderr(), /^recorded 8 lines \(6 added, 2 modified, 0 deleted\) to .*drop\.jsonl; it holds 8 observations$/m);
    assert.ok(proxy.accepted >= 2, 'the recorder connected again');
  });

  test('failures in a row are bounded: the recorder gives up with a one-line error', { timeout: 180_000 }, async () => {
    const cp = await shared;
    const ns = await freshNamespace(cp.kubeconfig, 'record-bounded');
    const { proxy, kubeconfig } = await proxyTo(cp, 'bounded');
    const file = join(scratch, 'bounded.jsonl');
    const fake = fakeDeps({ env: { KUBECONFIG: kubeconfig } });
    // The default schedule (0.5 s doubling to 30 s, ten failures: test/unit/commands/record.test.ts) would
    // take two minutes to give up; the same code with a short one.
    const retry = { firstDelayMs: 50, maxDelayMs: 200, maxAttempts: 5 };
    const done = runRecord({ ...parseRecordOptions(file, { namespace: ns }), retry }, { ...fake.deps, now: () => Date.now() });
    await waitFor('the recorder to list and watch', async () => existsSync(file) && proxy.live > 0, { everyMs: 20 });

    proxy.refuse(true);
    proxy.cutAll();
    let message = '';
    await assert.rejects(done, (e: unknown) => {
      message = e instanceof Error ? e.message : String(e);
      return e instanceof RuntimeError;
    });
    // src/main.ts prints a RuntimeError as `error: MESSAGE` and exits 1.
    assert.match(
      message,
      new RegExp(`^gave up following events after 5 failures in a row: cannot reach the API server at ${proxy.url.replaceAll('.', '\\.')} \\(context "proxied"\\): E[A-Z]+$`),
    );
    const retries = fake.stderr().split('\n').filter((l) => l.startsWith('watch failed ('));
    assert.deepEqual(retries.map((l) => l.replace(/^watch failed \(.*\): /, '')), ['retrying in 50 ms', 'retrying in 100 ms', 'retrying in 200 ms', 'retrying in 200 ms']);
    // One line on failure: main's `error: ...`; no summary before it.
    assert.deepEqual(fake.stderr().split('\n').filter((l) => l !== '' && !l.startsWith('watch failed (')), []);
    assert.ok(proxy.accepted >= 5, `${proxy.accepted} connections`);
  });

  test('a server that refuses (403) stops the recorder at once, and no file is written', { timeout: 180_000 }, async () => {
    const cp = await shared;
    const ns = await freshNamespace(cp.kubeconfig, 'record-forbidden');
    const file = join(scratch, 'forbidden.jsonl');
    // viewer: authenticated, but no RoleBinding in this namespace.
    const recorder = recordInProcess(['-n', ns, file], { KUBECONFIG: cp.viewerKubeconfig });
    await assert.rejects(
      recorder.done,
      (e: unknown) => e instanceof RuntimeError && e.message === `events is forbidden: User "viewer" cannot list resource "events" in API group "" in the namespace "${ns}"`,
    );
    assert.equal(existsSync(file), false);
    // Nothing before main's one-line `error: ...`: no retry, no summary.
    assert.equal(recorder.stderr(), '');
  });

  test('--duration stops by itself; on a terminal the live count is shown and cleared', { timeout: 180_000 }, async () => {
    const cp = await shared;
    const ns = await freshNamespace(cp.kubeconfig, 'record-duration');
    for (const name of ['tty-a', 'tty-b']) await createEvent(cp, ns, name);
    const file = join(scratch, 'tty.jsonl');
    const t0 = performance.now();
    const recorder = recordInProcess(['-n', ns, file, '--duration', '2s'], { KUBECONFIG: cp.kubeconfig }, true);
    await waitFor('the recorder to list', async () => existsSync(file), { everyMs: 10 });
    await bumpEvent(cp, ns, 'tty-a', 2);
    assert.equal(await recorder.done, 0);
    const took = performance.now() - t0;
    // It stopped by itself (done resolved), not before the 2 s it was given.
    assert.ok(took >= 1_900, `--duration 2s took ${took.toFixed(0)} ms`);
    const err = recorder.stderr();
    assert.ok(err.includes(`\r\u001b[Krecording to ${file}: 2 lines (2 added, 0 modified, 0 deleted)`), JSON.stringify(err));
    assert.ok(err.includes(`\r\u001b[Krecording to ${file}: 3 lines (2 added, 1 modified, 0 deleted)`), JSON.stringify(err));
    assert.ok(err.endsWith(`: 3 lines (2 added, 1 modified, 0 deleted)\r\u001b[Krecorded 3 lines (2 added, 1 modified, 0 deleted) to ${file}; it holds 3 observations\n`), JSON.stringify(err));
  });
});

// -- a record the server has not caught up with, and a quiet namespace -------------------------------

describe('continuing a record only from a version the server has reached', () => {
  test('a record whose last resourceVersion is ahead of the server\'s (a re-created cluster): listed again, and what happens is recorded', { timeout: 180_000 }, async () => {
    const cp = await shared;
    const ns = await freshNamespace(cp.kubeconfig, 'record-ahead');
    const target = await loadKubeTarget({ kubeconfig: cp.kubeconfig, env: {} });
    const file = join(scratch, 'ahead.jsonl');
    // Recorded of this server and namespace, by the look of its header: a cluster since re-created.
    const before = { ...coreEvent(ns, 'from-before', 'before the cluster was re-created'), metadata: { name: 'from-before', namespace: ns, uid: 'uid-from-before', resourceVersion: '99999999' } };
    const startedAt = '2026-11-30T11:00:00.000Z';
    await writeFile(
      file,
      formatHeader({ kind: RECORD_KIND, version: 1, context: target.context, server: target.server, namespace: ns, filter: {}, startedAt: Date.parse(startedAt) }) +
        formatObservation({ observedAt: Date.parse(startedAt), type: 'ADDED', event: before }),
    );
    const listed = await createEvent(cp, ns, 'ahead-listed');

    const recorder = recordInProcess(['-n', ns, file], { KUBECONFIG: cp.kubeconfig });
    try {
      // Before the fix it waited here for ever, at resourceVersion 99999999.
      await waitFor('the recorder to list', async () => (await readRecord(file)).observations.length === 2, { everyMs: 20 });
      const watched = await createEvent(cp, ns, 'ahead-watched');
      await waitFor('the event created while recording', async () => (await readRecord(file)).observations.some((o) => versionKey(o.event) === versionKey(watched)), { everyMs: 20 });
    } finally {
      recorder.interrupt();
    }
    assert.equal(await recorder.done, 0);

    const record = await readRecord(file);
    // The old event is kept, and not declared gone: this cluster's list cannot speak for it.
    assert.deepEqual(record.observations.map((o) => `${o.type} ${meta(o.event).name}`), ['ADDED from-before', 'ADDED ahead-listed', 'ADDED ahead-watched']);
    assert.equal(versionKey(record.observations[1]?.event ?? {}), versionKey(listed));
    assert.equal(record.headers, 2);
    assert.match(
      recorder.stderr(),
      /^.*ahead\.jsonl: its last resourceVersion 99999999 is ahead of the server's \d+ \(a different or re-created cluster\?\): listing again\n/,
    );
    assert.doesNotMatch(recorder.stderr(), /continuing/);
    assert.match(recorder.stderr(), /^recorded 2 lines \(2 added, 0 modified, 0 deleted\) to .*ahead\.jsonl; it holds 3 observations$/m);
  });

  test('continued from the version the last session had listed at, not its newest event\'s: what was created and deleted before it began is never replayed', { timeout: 180_000 }, async () => {
    const cp = await shared;
    const ns = await freshNamespace(cp.kubeconfig, 'record-seen');
    const file = join(scratch, 'seen.jsonl');
    const kept = await createEvent(cp, ns, 'seen-kept');
    // Created and deleted before the first session: in no list, so in no record.
    await createEvent(cp, ns, 'seen-gone');
    const deleted = await api(cp, 'DELETE', eventsPath(ns, 'seen-gone'));
    const first = recordInProcess(['-n', ns, file, '--duration', '1s'], { KUBECONFIG: cp.kubeconfig });
    assert.equal(await first.done, 0, first.stderr());
    // Before the fix the second session watched from seen-kept's version, and the watch cache
    // handed it seen-gone's ADDED and DELETED, written now as if they had just happened.
    const second = recordInProcess(['-n', ns, file, '--duration', '2s'], { KUBECONFIG: cp.kubeconfig });
    assert.equal(await second.done, 0, second.stderr());
    const record = await readRecord(file);
    assert.deepEqual(record.observations.map((o) => `${o.type} ${meta(o.event).name}`), ['ADDED seen-kept']);
    assert.equal(record.headers, 2);
    // Where it resumed: the first session's list's version, written after its events.
    const text = await readFile(file, 'utf8');
    const seen = text.split('\n').filter((l) => l.includes('"kind":"EvtimelineSeen"')).map((l) => JSON.parse(l) as { resourceVersion: string });
    assert.equal(seen.length, 1, text);
    const listedAt = BigInt(seen[0]?.resourceVersion ?? '0');
    assert.ok(listedAt > BigInt(meta(kept).resourceVersion), `the list's version ${listedAt} is past its newest event's ${meta(kept).resourceVersion}`);
    assert.ok(listedAt >= BigInt((deleted.metadata as { resourceVersion?: string } | undefined)?.resourceVersion ?? '0'));
    assert.match(second.stderr(), new RegExp(`continuing .*seen\\.jsonl \\(1 observation\\) from resourceVersion ${listedAt}\n`));
    // What happens while no recorder runs is still picked up by the next one.
    const meanwhile = await createEvent(cp, ns, 'seen-meanwhile');
    const third = recordInProcess(['-n', ns, file, '--duration', '2s'], { KUBECONFIG: cp.kubeconfig });
    assert.equal(await third.done, 0, third.stderr());
    assert.deepEqual((await readRecord(file)).observations.map((o) => versionKey(o.event)), [versionKey(kept), versionKey(meanwhile)]);
  });

  test('a quiet namespace leaves a record of its header, which --from reads as a record of no events', { timeout: 180_000 }, async () => {
    const cp = await shared;
    const ns = await freshNamespace(cp.kubeconfig, 'record-quiet');
    const file = join(scratch, 'quiet.jsonl');
    const recorder = recordInProcess(['-n', ns, file, '--duration', '1s'], { KUBECONFIG: cp.kubeconfig });
    assert.equal(await recorder.done, 0);
    assert.deepEqual(await readRecord(file), { observations: [], headers: 1, tornTail: '' });
    const replay = fakeDeps({ env: {} });
    assert.equal(await runCli(['timeline', '--from', file], replay.deps), 0);
    assert.equal(replay.stdout(), '');
  });
});

// Every verb against the real control plane, run as users run it: `kubectl evtimeline ...` through
// kubectl's plugin mechanism, the built executable on PATH. The real kubectl is the reference.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sharedControlPlane } from '../harness/controlplane.ts';
import type { ControlPlane } from '../harness/controlplane.ts';
import { playLab, renderFixture, rfc3339Seconds } from '../harness/lab.ts';
import { freshNamespace } from '../harness/namespace.ts';
import { evtimeline, kubectl } from '../harness/plugin.ts';
import { waitFor } from '../harness/wait.ts';
import { LAB_STABLE } from '../support/builders.ts';
import { scratchDir } from '../support/tmp.ts';


const cpPromise = sharedControlPlane();
let cp: ControlPlane;
let lab: string;
let work: string;

async function ok(args: string[], ns?: string): Promise<string> {
  const r = ns === undefined ? await kubectl(args, cp.kubeconfig) : await kubectl(['-n', ns, ...args], cp.kubeconfig);
  assert.equal(r.code, 0, `kubectl ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}

function withoutLiveFields(events: Record<string, unknown>[]): Record<string, unknown>[] {
  return events.map(({ incarnation: _incarnation, ...rest }) => rest);
}

function sortedLines(text: string): string[] {
  return text.split('\n').filter((l) => l !== '').sort();
}

before(async () => {
  cp = await cpPromise;
  work = scratchDir('verbs');
  lab = await freshNamespace(cp.kubeconfig, 'verbs-lab');
  await playLab({ kubeconfig: cp.kubeconfig, namespace: lab, outDir: join(work, 'lab') });
});

test('-o stable on the lab prints exactly the four lines of timeline.sh', async () => {
  const r = await evtimeline(['-n', lab, '-o', 'stable'], cp.kubeconfig);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, LAB_STABLE);
});

test('flags may stand before or after the verb', async () => {
  const before = await evtimeline(['-n', lab, 'timeline', '-o', 'stable'], cp.kubeconfig);
  const after = await evtimeline(['timeline', '-o', 'stable', '-n', lab], cp.kubeconfig);
  assert.equal(before.stdout, LAB_STABLE);
  assert.equal(after.stdout, LAB_STABLE);
});

test('the timeline holds exactly the events kubectl get events returns, once each', async () => {
  // The scheduler may add a FailedScheduling event about pod hungry at any time (it retries when
  // another file's node or pod comes or goes, and a new message is a new event), so kubectl is
  // asked before and after the plugin: what the plugin read lies between the two lists, and when
  // both are the same it is exactly that list.
  const serverUids = async () =>
    (JSON.parse(await ok(['get', 'events', '-o', 'json'], lab)) as { items: { metadata: { uid: string } }[] }).items.map((e) => e.metadata.uid).sort();
  for (let attempt = 1; ; attempt++) {
    const before = await serverUids();
    const r = await evtimeline(['-n', lab, '-o', 'json'], cp.kubeconfig);
    assert.equal(r.code, 0, r.stderr);
    const ours = (JSON.parse(r.stdout) as { uid: string }[]).map((e) => e.uid);
    const after = await serverUids();
    assert.equal(new Set(ours).size, ours.length, 'each event once');
    const between = before.every((uid) => ours.includes(uid)) && ours.every((uid) => after.includes(uid));
    assert.ok(between, `the plugin's events are not between kubectl's two lists:\n${before}\n${ours.sort()}\n${after}`);
    if (before.join() === after.join() || attempt === 5) {
      if (before.join() === after.join()) assert.deepEqual([...ours].sort(), before);
      return;
    }
  }
});

test('LAST SEEN after the count patch reads (x5 over ...) as kubectl events shows it', async () => {
  const reference = (await ok(['events'], lab)).split('\n').find((l) => l.includes('ReconcileStarted')) ?? '';
  assert.match(reference, /\(x5 over \d+s\)/);
  const r = await evtimeline(['-n', lab], cp.kubeconfig);
  const row = r.stdout.split('\n').find((l) => l.includes('ReconcileStarted')) ?? '';
  assert.match(row, /\(x5 over \d+s\)/);
  assert.match(row, /Pipeline\/build-1/);
  assert.match(r.stdout.split('\n')[0] ?? '', /^FIRST SEEN +LAST SEEN +TYPE +REASON +OBJECT +FROM +MESSAGE$/);
});

test('--types=Critical reaches the event that kubectl events --types refuses', async () => {
  const refused = await kubectl(['-n', lab, 'events', '--types=Critical'], cp.kubeconfig);
  assert.equal(refused.code, 1);
  const r = await evtimeline(['-n', lab, '--types=critical', '-o', 'stable'], cp.kubeconfig);
  assert.equal(r.stdout, 'Critical StageUnknown Pipeline/build-1\n');
});

test('--for Pod/hungry keeps the scheduler event only', async () => {
  const r = await evtimeline(['-n', lab, '--for', 'pod/hungry', '-o', 'stable'], cp.kubeconfig);
  assert.equal(r.stdout, 'Warning FailedScheduling Pod/hungry\n');
});

test('an empty namespace says so on stderr, as kubectl does, and exits 0', async () => {
  const empty = await freshNamespace(cp.kubeconfig, 'verbs-empty');
  const r = await evtimeline(['-n', empty], cp.kubeconfig);
  const reference = await kubectl(['-n', empty, 'events'], cp.kubeconfig);
  assert.equal(r.code, 0);
  assert.equal(r.stdout, '');
  assert.equal(r.stderr, reference.stderr);
  assert.equal(r.stderr, `No events found in ${empty} namespace.\n`);
});

test('incident names the reporters, their reasons, the Critical type and the TTL', async () => {
  const r = await evtimeline(['incident', '-n', lab], cp.kubeconfig);
  assert.equal(r.code, 0, r.stderr);
  for (const word of ['FailedScheduling', 'ReconcileStarted', 'ReconcileSucceeded', 'StageUnknown', 'Critical', 'default-scheduler', 'pipeline-operator', '5 times', 'Insufficient cpu']) {
    assert.ok(r.stdout.includes(word), `incident lacks ${word}:\n${r.stdout}`);
  }
  assert.match(r.stdout, /1h|one hour/);
  const json = await evtimeline(['incident', '-n', lab, '-o', 'json'], cp.kubeconfig);
  assert.equal(json.code, 0);
  assert.doesNotThrow(() => JSON.parse(json.stdout));
});

test('type-audit exits 3 on the lab and 0 on a namespace of conventional events', async () => {
  const found = await evtimeline(['type-audit', '-n', lab], cp.kubeconfig);
  assert.equal(found.code, 3, found.stderr);
  assert.match(found.stdout, /Critical/);
  assert.match(found.stdout, /valid --types are Normal or Warning/);
  // Conventional events with object uids, one Normal and one Warning: nothing to report.
  const clean = await freshNamespace(cp.kubeconfig, 'verbs-clean');
  await applyStartedEvent(clean);
  const warning = {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: 'build-1-slow', namespace: clean },
    involvedObject: { apiVersion: 'ev.labhub.io/v1', kind: 'Pipeline', name: 'build-1', namespace: clean, uid: '00000000-0000-0000-0000-000000000001' },
    reason: 'StageSlow',
    type: 'Warning',
    message: 'Stage build took longer than expected.',
    firstTimestamp: rfc3339Seconds(),
    lastTimestamp: rfc3339Seconds(),
    count: 1,
    source: { component: 'pipeline-operator' },
  };
  const applied = await kubectl(['-n', clean, 'apply', '-f', '-'], cp.kubeconfig, { input: JSON.stringify(warning) });
  assert.equal(applied.code, 0, applied.stderr);
  const r = await evtimeline(['type-audit', '-n', clean], cp.kubeconfig);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /2 events checked/);
});

/** The lab's step-2 event in its own namespace, first seen two minutes ago (count 1). */
async function applyStartedEvent(ns: string, first = rfc3339Seconds(Date.now() - 120_000)): Promise<string> {
  const manifest = await renderFixture('event-started.yaml', {
    NAMESPACE: ns,
    UID: '00000000-0000-0000-0000-000000000001',
    NOW: first,
  });
  const file = join(work, `${ns}-started.yaml`);
  writeFileSync(file, manifest);
  await ok(['apply', '-f', file], ns);
  return 'build-1-started';
}

test('aggregate-patch --count 5 gives what the lab kubectl patch gives', async () => {
  const ns = await freshNamespace(cp.kubeconfig, 'verbs-patch');
  const name = await applyStartedEvent(ns);
  const r = await evtimeline(['aggregate-patch', name, '-n', ns, '--count', '5'], cp.kubeconfig);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /count 1 -> 5/);
  // First seen two minutes ago: HumanDuration prints 2m, or 2m1s once a second has passed.
  assert.match(r.stdout, /\(x5 over 2m(\d+s)?\)/);
  assert.equal(await ok(['get', 'event', name, '-o', 'jsonpath={.count}'], ns), '5');
  const reference = (await ok(['events'], ns)).split('\n').find((l) => l.includes('ReconcileStarted')) ?? '';
  assert.match(reference, /\(x5 over 2m(\d+s)?\)/);
});

test('aggregate-patch on an events.k8s.io/v1 event patches its series', async () => {
  const r = await evtimeline(['aggregate-patch', 'build-1-done', '-n', lab], cp.kubeconfig);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /series\.count/);
  assert.equal(await ok(['get', 'events.events.k8s.io', 'build-1-done', '-o', 'jsonpath={.series.count}'], lab), '2');
  const again = await evtimeline(['aggregate-patch', 'build-1-done', '-n', lab, '--add', '3'], cp.kubeconfig);
  assert.equal(again.code, 0, again.stderr);
  assert.equal(await ok(['get', 'events.events.k8s.io', 'build-1-done', '-o', 'jsonpath={.series.count}'], lab), '5');
});

test('aggregate-patch --dry-run=server changes nothing', async () => {
  const ns = await freshNamespace(cp.kubeconfig, 'verbs-dry');
  const name = await applyStartedEvent(ns);
  const r = await evtimeline(['aggregate-patch', name, '-n', ns, '--count', '9', '--dry-run=server'], cp.kubeconfig);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /count 1 -> 9/);
  assert.equal(await ok(['get', 'event', name, '-o', 'jsonpath={.count}'], ns), '1');
});

test('aggregate-patch refuses a missing event, a bad count and a forbidden patch, changing nothing', async () => {
  const missing = await evtimeline(['aggregate-patch', 'no-such-event', '-n', lab], cp.kubeconfig);
  assert.equal(missing.code, 1);
  assert.equal(missing.stderr, `error: event "no-such-event" not found in namespace "${lab}"\n`);
  for (const bad of [['--count', '0'], ['--add', '-2'], ['--count', 'five']]) {
    const r = await evtimeline(['aggregate-patch', 'build-1-started', '-n', lab, ...bad], cp.kubeconfig);
    assert.equal(r.code, 2, `${bad.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, /^error: .*want a whole number from 1 to 2147483647 \(the API's int32 count\)\n$/);
  }
  assert.equal(await ok(['get', 'event', 'build-1-started', '-o', 'jsonpath={.count}'], lab), '5');
});

test('capture writes the reports atomically and they replay through --from to the same timeline', async () => {
  const dir = join(work, 'capture');
  const r = await evtimeline(['capture', '-n', lab, dir], cp.kubeconfig);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(readdirSync(dir).sort(), [
    'both-apis.txt', 'count-report.txt', 'events-list.txt', 'events.json', 'incident.txt', 'objects.json', 'scheduler-event.txt', 'status.json', 'timeline.html', 'timeline.txt', 'type-report.txt',
  ]);
  // status.json holds the lab's Pod hungry as the cluster had it: Pending, unscheduled, asking for 64 cpus.
  const status = JSON.parse(readFileSync(join(dir, 'status.json'), 'utf8')) as { kind: string; items: { kind: string; name: string; phase?: string; containers?: { requests: Record<string, string> }[] }[] };
  assert.equal(status.kind, 'EvtimelineStatus');
  const hungry = status.items.find((o) => o.kind === 'Pod' && o.name === 'hungry');
  assert.deepEqual([hungry?.phase, hungry?.containers?.[0]?.requests.cpu], ['Pending', '64']);
  assert.equal(readFileSync(join(dir, 'timeline.txt'), 'utf8'), LAB_STABLE);
  const replay = await evtimeline(['--from', join(dir, 'events.json'), '-o', 'stable'], cp.kubeconfig);
  assert.equal(replay.stdout, LAB_STABLE);
  const liveJson = await evtimeline(['-n', lab, '-o', 'json'], cp.kubeconfig);
  const replayJson = await evtimeline(['--from', join(dir, 'events.json'), '-o', 'json'], cp.kubeconfig);
  // What only a live read can know (is the object still the same incarnation?) is not in a replay.
  assert.deepEqual(JSON.parse(replayJson.stdout), withoutLiveFields(JSON.parse(liveJson.stdout)));

  const both = readFileSync(join(dir, 'both-apis.txt'), 'utf8');
  const core = sortedLines(await ok(['get', 'events', '-o', 'custom-columns=:metadata.name', '--no-headers'], lab));
  const fresh = sortedLines(await ok(['get', 'events.events.k8s.io', '-o', 'custom-columns=:metadata.name', '--no-headers'], lab));
  assert.deepEqual(
    both.split('\n').filter((l) => l.startsWith('core: ')).map((l) => l.slice(6)),
    core,
  );
  assert.deepEqual(
    both.split('\n').filter((l) => l.startsWith('new: ')).map((l) => l.slice(5)),
    fresh,
  );
  assert.match(readFileSync(join(dir, 'scheduler-event.txt'), 'utf8'), /0\/\d nodes are available: 1 Insufficient cpu/);
  assert.match(readFileSync(join(dir, 'count-report.txt'), 'utf8'), /\(x5 over/);

  const refused = await evtimeline(['capture', '-n', lab, dir], cp.kubeconfig);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /not empty: pass --force/);
});

// Issue 28, L1: `kubectl create role ev-read --verb=get,list,watch --resource=events` grants core
// events only; kubectl events works with it, and so must capture, saying what it could not read.
test('capture with rights to core events only (a real Role) captures what it can read and says both-apis.txt is partial', async () => {
  await ok(['create', 'role', 'ev-read', '--verb=get,list,watch', '--resource=events'], lab);
  await ok(['create', 'rolebinding', 'viewer-ev-read', '--role=ev-read', '--user=viewer'], lab);
  const reference = await kubectl(['-n', lab, 'events'], cp.viewerKubeconfig);
  assert.equal(reference.code, 0, reference.stderr);
  const denied = await kubectl(['-n', lab, 'get', 'events.events.k8s.io'], cp.viewerKubeconfig);
  assert.match(denied.stderr, /events\.events\.k8s\.io is forbidden/);

  const dir = join(work, 'capture-core-only');
  const r = await evtimeline(['capture', '-n', lab, dir], cp.viewerKubeconfig);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /^warning: the events\.k8s\.io\/v1 view could not be read \(events\.events\.k8s\.io is forbidden: [^\n]*\): both-apis\.txt is partial; the other files hold every event \(core\/v1 lists those written through either API\)$/m);
  assert.equal(readFileSync(join(dir, 'timeline.txt'), 'utf8'), LAB_STABLE);
  const both = readFileSync(join(dir, 'both-apis.txt'), 'utf8').split('\n').filter((l) => l !== '');
  const core = sortedLines(await ok(['get', 'events', '-o', 'custom-columns=:metadata.name', '--no-headers'], lab));
  assert.deepEqual(both.filter((l) => l.startsWith('core: ')).map((l) => l.slice(6)), core);
  assert.deepEqual(both.filter((l) => l.startsWith('new: ')).map((l) => l.replace(/forbidden: .*;/, 'forbidden: ...;')), ['new: (the events.k8s.io/v1 view could not be read: events.events.k8s.io is forbidden: ...; this file is partial)']);
  // A capture of the capture still says so: the view was not read, not empty.
  const again = join(work, 'capture-core-only-again');
  const replay = await evtimeline(['capture', '--from', dir, again], cp.viewerKubeconfig);
  assert.equal(replay.code, 0, replay.stderr);
  assert.deepEqual(readFileSync(join(again, 'both-apis.txt'), 'utf8'), readFileSync(join(dir, 'both-apis.txt'), 'utf8'));
});

test('a bad flag is a one-line usage error with exit 2', async () => {
  const r = await evtimeline(['-n', lab, '-o', 'xml'], cp.kubeconfig);
  assert.equal(r.code, 2);
  assert.equal(r.stderr, 'error: -o "xml": want one of table, wide, stable, html, json, yaml, name, jsonpath=, jsonpath-file=, jsonpath-as-json=\n');
});

test('aggregate-patch refuses a forbidden patch and changes nothing', async () => {
  const ns = await freshNamespace(cp.kubeconfig, 'verbs-forbidden');
  const name = await applyStartedEvent(ns);
  await ok(['create', 'rolebinding', 'viewer-view', '--clusterrole=view', '--user=viewer'], ns);
  // The view role may read the event (once RBAC has seen the binding) but not patch it.
  await waitFor('the viewer to read the event', async () => (await kubectl(['-n', ns, 'get', 'event', name], cp.viewerKubeconfig)).code === 0);
  const r = await evtimeline(['aggregate-patch', name, '-n', ns, '--count', '5'], cp.viewerKubeconfig);
  assert.equal(r.code, 1, r.stdout);
  assert.match(r.stderr, /^error: [^\n]*forbidden[^\n]*\n$/);
  assert.match(r.stderr, /cannot patch resource "events"/);
  assert.equal(await ok(['get', 'event', name, '-o', 'jsonpath={.count}'], ns), '1');
});

/** `60s (x5 over 2m)` -> seconds of last, count, seconds of over (kubectl's HumanDuration forms). */
function parseLastSeen(cell: string): { last: number; count: number; over: number } {
  const m = /^(\S+) \(x(\d+) over (\S+)\)$/.exec(cell.trim());
  assert.ok(m, `not a repeated LAST SEEN cell: ${JSON.stringify(cell)}`);
  const seconds = (text: string): number => {
    let total = 0;
    for (const [, n, unit] of text.matchAll(/(\d+)([smhd])/g)) total += Number(n) * { s: 1, m: 60, h: 3600, d: 86400 }[unit as 's' | 'm' | 'h' | 'd'];
    return total;
  };
  return { last: seconds(m[1] ?? ''), count: Number(m[2]), over: seconds(m[3] ?? '') };
}

test("LAST SEEN says what kubectl events says: the last occurrence's age, and 'over' the FIRST one's age", async () => {
  const ns = await freshNamespace(cp.kubeconfig, 'verbs-lastseen');
  const first = rfc3339Seconds(Date.now() - 120_000);
  const name = await applyStartedEvent(ns, first);
  const at = rfc3339Seconds(Date.now() - 60_000);
  const patched = await evtimeline(['aggregate-patch', name, '-n', ns, '--count', '5', '--at', at], cp.kubeconfig);
  assert.equal(patched.code, 0, patched.stderr);
  const t0 = Date.now();
  const ours = await evtimeline(['-n', ns], cp.kubeconfig);
  const t1 = Date.now();
  const theirs = await kubectl(['-n', ns, 'events'], cp.kubeconfig);
  const t2 = Date.now();
  // Both tables start LAST SEEN at a header offset; take the cell up to the TYPE column.
  const cell = (table: string, header: string) => {
    const lines = table.split('\n');
    const start = (lines[0] ?? '').indexOf('LAST SEEN');
    const end = (lines[0] ?? '').indexOf(header);
    return (lines.find((l) => l.includes('ReconcileStarted')) ?? '').slice(start, end);
  };
  const a = parseLastSeen(cell(ours.stdout, 'TYPE'));
  const b = parseLastSeen(cell(theirs.stdout, 'TYPE'));
  assert.equal(a.count, 5);
  assert.equal(b.count, 5);
  // An age is whole seconds of the moment the command ran: between the stamp's age when it started and
  // when it ended (a second either side for the rounding), however long a loaded machine made it take.
  const age = (stamp: string, ms: number) => (ms - Date.parse(stamp)) / 1000;
  const check = (who: string, what: string, seconds: number, stamp: string, from: number, to: number) =>
    assert.ok(seconds >= Math.floor(age(stamp, from)) - 1 && seconds <= Math.ceil(age(stamp, to)) + 1, `${what}: ${who} ${seconds}s, while it ran ${age(stamp, from)}-${age(stamp, to)} s`);
  check('ours', 'last', a.last, at, t0, t1);
  check('kubectl', 'last', b.last, at, t1, t2);
  check('ours', 'over', a.over, first, t0, t1);
  check('kubectl', 'over', b.over, first, t1, t2);
});

test('an error quoting untrusted text is escaped and stays one line', async () => {
  const r = await evtimeline(['--from', `${work}/no\u001b[31mfile\rhere`], cp.kubeconfig);
  assert.equal(r.code, 1);
  assert.equal(r.stderr, `error: --from ${work}/no^[[31mfile\\rhere: no such file\n`);
});

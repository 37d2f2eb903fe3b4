// The selection flags through the source port: what goes to the server, what is applied here, with
// -w, --tree, a saved file and the live cluster, and the footer that says what each hid.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../../../src/cli.ts';
import type { ObjectMeta } from '../../../src/core/ownership.ts';
import { ev, newEv, NOW } from '../../support/builders.ts';
import { fakeDeps } from '../../support/deps.ts';
import { servedResource } from '../../support/served.ts';
import { fromCapture, fromCluster, memorySource, openSources } from '../../support/sources.ts';

async function run(argv: string[], sources: ReturnType<typeof openSources>) {
  const fake = fakeDeps({ openSource: sources.open });
  const code = await runCli(argv, fake.deps).catch((error: unknown) => error);
  return { code, stdout: fake.stdout(), stderr: fake.stderr() };
}

const pod = (name: string, uid: string) => ({ kind: 'Pod', apiVersion: 'v1', objectName: name, objectUid: uid, component: 'kubelet', host: 'node-k', fieldPath: 'spec.containers{app}' });
const meta = (name: string, uid: string, labels?: Record<string, string>): ObjectMeta => ({
  apiVersion: 'v1',
  kind: 'Pod',
  namespace: 'op-events',
  name,
  uid,
  owners: [],
  created: null,
  deleting: null,
  ...(labels ? { labels } : {}),
});
const events = () => [
  ev({ ...pod('web-1', 'u1'), name: 'pulled', reason: 'Pulled', message: 'Container image "busybox:1.36" already present on machine', first: 120 }),
  ev({ ...pod('web-1', 'u1'), name: 'startup', type: 'Warning', reason: 'Unhealthy', message: 'Startup probe failed: cat: can\'t open \'/tmp/ready\'', count: 4, first: 100, last: 70 }),
  ev({ ...pod('db-0', 'u2'), name: 'db-startup', type: 'Warning', reason: 'Unhealthy', message: 'Startup probe failed: timeout', count: 3, first: 90, last: 60 }),
  ev({ ...pod('db-0', 'u2'), name: 'db-killing', reason: 'Killing', message: 'Container app failed startup probe, will be restarted', first: 55 }),
];
const stableOf = (stdout: string) => stdout.trimEnd().split('\n');

describe('the selection flags on the live cluster', () => {
  test('--field-selector goes to the server as kubectl get events sends it, and is not applied twice', async () => {
    const live = memorySource({ provenance: fromCluster(), raw: events() });
    const r = await run(['-n', 'op-events', '-o', 'stable', '--field-selector', 'reason=Unhealthy'], openSources({ live }));
    assert.equal(r.code, 0);
    assert.deepEqual(live.reads.map((o) => o.fieldSelector), ['reason=Unhealthy']);
    // the in-memory server ignores it: everything it sent is shown, and nothing is said to be hidden here
    assert.equal(stableOf(r.stdout).length, 4);
    assert.doesNotMatch(r.stderr, /Hidden/);
  });

  test('--exclude-startup-probes hides the Unhealthy of a container never killed for it, and says how many', async () => {
    const live = memorySource({ provenance: fromCluster(), raw: events() });
    const r = await run(['-n', 'op-events', '-o', 'json', '--exclude-startup-probes'], openSources({ live }));
    const names = (JSON.parse(r.stdout) as { name: string }[]).map((e) => e.name);
    assert.deepEqual(names, ['pulled', 'db-startup', 'db-killing']);
    assert.match(r.stderr, /^Hidden: 1 event by --exclude-startup-probes \(start-up probes below their failure threshold\)\.$/m);
  });

  test('-l keeps the events about the objects whose labels match, from the listed objects', async () => {
    const live = memorySource({ provenance: fromCluster(), raw: events(), ownership: [meta('web-1', 'u1', { app: 'web' }), meta('db-0', 'u2', { app: 'db' })] });
    const r = await run(['-n', 'op-events', '-o', 'json', '-l', 'app in (web)'], openSources({ live }));
    assert.deepEqual((JSON.parse(r.stdout) as { name: string }[]).map((e) => e.name), ['pulled', 'startup']);
    assert.match(r.stderr, /^Hidden: 2 events by -l\.$/m);
  });

  test('with --tree, --field-selector is applied here: the tree is made of every event', async () => {
    const live = memorySource({ provenance: fromCluster(), raw: events(), served: [servedResource('', 'v1', 'pods', 'Pod', { shortNames: ['po'] })], ownership: [meta('db-0', 'u2')] });
    const r = await run(['-n', 'op-events', '-o', 'json', '--for', 'pod/db-0', '--tree', '--field-selector', 'reason!=Killing'], openSources({ live }));
    assert.deepEqual(live.reads.map((o) => o.fieldSelector), [undefined]);
    assert.deepEqual((JSON.parse(r.stdout) as { name: string }[]).map((e) => e.name), ['db-startup']);
    assert.match(r.stderr, /^Hidden: 1 event by --field-selector\.$/m);
  });

  test('-w sends --field-selector with the list and the watch, and hides a start-up Unhealthy only until its Killing arrives', async () => {
    const [pulled, startup, , killing] = events();
    const again = ev({ ...pod('web-1', 'u1'), name: 'startup-2', type: 'Warning', reason: 'Unhealthy', message: 'Startup probe failed: again', first: 10 });
    const killWeb = ev({ ...pod('web-1', 'u1'), name: 'web-killing', reason: 'Killing', message: 'Container app failed startup probe, will be restarted', first: 9 });
    const after = ev({ ...pod('web-1', 'u1'), name: 'startup-3', type: 'Warning', reason: 'Unhealthy', message: 'Startup probe failed: still', first: 8 });
    const live = memorySource({
      provenance: fromCluster(),
      steps: [
        { kind: 'list', items: [pulled, startup, killing].filter((e): e is Record<string, unknown> => e !== undefined), resourceVersion: '1', why: 'start' },
        { kind: 'change', type: 'ADDED', object: again },
        { kind: 'change', type: 'ADDED', object: killWeb },
        { kind: 'change', type: 'ADDED', object: after },
      ],
    });
    const r = await run(['-w', '-o', 'json', '--exclude-startup-probes', '--field-selector', 'type!=Critical'], openSources({ live }));
    assert.equal(r.code, 0);
    assert.deepEqual(live.followed.map((f) => f.fieldSelector), ['type!=Critical']);
    const names = r.stdout.trimEnd().split('\n').map((line) => (JSON.parse(line) as { name: string }).name);
    assert.deepEqual(names, ['pulled', 'db-killing', 'web-killing', 'startup-3']);
    // said once following ends: the two Unhealthy that were below the threshold when they came
    assert.match(r.stderr, /Hidden: 2 events by --exclude-startup-probes \(start-up probes below their failure threshold\)\.\n$/);
  });
});

describe('the selection flags on a saved file', () => {
  test('--field-selector is applied to a capture and counted; --since-time and --until make a window', async () => {
    const saved = memorySource({ provenance: fromCapture({ capturedAt: NOW }), raw: events() });
    const r = await run(['--from', 'cap', '-o', 'json', '--field-selector', 'reason=Unhealthy', '--until', new Date(NOW - 95_000).toISOString()], openSources({ saved }));
    assert.deepEqual((JSON.parse(r.stdout) as { name: string }[]).map((e) => e.name), ['startup']);
    assert.match(r.stderr, /^Hidden: 2 events by --field-selector, 1 by --until\.$/m);
  });

  test('-l on a capture that keeps no labels says so and matches nothing', async () => {
    const saved = memorySource({ provenance: fromCapture({ capturedAt: NOW }), raw: events(), ownership: [meta('web-1', 'u1')] });
    const r = await run(['--from', 'cap', '-o', 'stable', '-l', 'app=web'], openSources({ saved }));
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^warning: cap keeps no labels of the events' objects: -l matches none of its events/m);
  });

  test('incident -o json carries what each filter hid and the recorder notes', async () => {
    const burst = ev({ ...pod('web-1', 'u1'), name: 'backoff', type: 'Warning', reason: 'BackOff', message: 'Back-off restarting failed container app', count: 25, first: 50, last: 20 });
    const saved = memorySource({ provenance: fromCapture({ capturedAt: NOW }), raw: [...events(), burst] });
    const r = await run(['incident', '--from', 'cap', '-o', 'json', '--exclude-reason', 'pulled'], openSources({ saved }));
    const doc = JSON.parse(r.stdout) as { hidden: unknown; recorderNotes: { spam: { occurrences: number; object: { name: string }; mayBeMissingAfter: string; nextCouldComeAt: string }[] } };
    assert.deepEqual(doc.hidden, [{ flag: '--exclude-reason', events: 1 }]);
    assert.equal(doc.recorderNotes.spam.length, 1);
    // 4 + 25 Warning occurrences from kubelet about web-1: the bucket of 25 ran dry; one token 300 s after the first write
    assert.equal(doc.recorderNotes.spam[0]?.occurrences, 29);
    assert.equal(doc.recorderNotes.spam[0]?.nextCouldComeAt, new Date(NOW - 100_000 + 300_000).toISOString());
    const text = await run(['incident', '--from', 'cap', '--exclude-reason', 'pulled'], openSources({ saved }));
    assert.match(text.stdout, /kubelet \(node-k\) wrote 29 occurrences of Warning events \(2 events\) about Pod\/web-1 .* reports after .* may be missing, and the next can come at 2026-11-30T12:03:20Z \(in 3m20s\)\./);
    assert.match(text.stdout, /- Hidden: 1 event by --exclude-reason\./);
  });

  test('timeline -o json and -o yaml carry on each event the recorder notes about it; the table\'s stderr and -o json\'s stderr unchanged', async () => {
    const burst = ev({ ...pod('web-1', 'u1'), name: 'backoff', type: 'Warning', reason: 'BackOff', message: 'Back-off restarting failed container app', count: 25, first: 50, last: 20 });
    const merged = ev({ ...pod('db-0', 'u2'), name: 'merged', type: 'Warning', reason: 'FailedMount', message: '(combined from similar events): MountVolume.SetUp failed for volume "cfg-9"', count: 3, first: 40, last: 10 });
    const series = newEv({ name: 'series', kind: 'Pod', apiVersion: 'v1', objectName: 'db-0', objectUid: 'u2', reason: 'Probe', seriesCount: 7, seriesLast: 5, first: 600 });
    const saved = memorySource({ provenance: fromCapture({ capturedAt: NOW }), raw: [...events(), burst, merged, series] });
    const r = await run(['--from', 'cap', '-o', 'json', '--exclude-reason', 'pulled'], openSources({ saved }));
    assert.equal(r.code, 0, r.stderr);
    type Doc = { name: string; uid: string; recorderNotes?: { spam: { occurrences: number; nextCouldComeAt: string }[]; combined: { reason: string; count: number }[]; series: { count: number; mayLagSeconds: number }[] } };
    const docs = JSON.parse(r.stdout) as Doc[];
    const notesOf = (name: string) => docs.find((d) => d.name === name)?.recorderNotes;
    // the spam note on both Warning events of kubelet about web-1 (4 + 25 occurrences share its bucket)
    assert.equal(notesOf('backoff')?.spam[0]?.occurrences, 29);
    assert.equal(notesOf('startup')?.spam[0]?.nextCouldComeAt, new Date(NOW - 100_000 + 300_000).toISOString());
    assert.deepEqual(notesOf('merged')?.combined, [{ event: { namespace: 'op-events', name: 'merged', uid: docs.find((d) => d.name === 'merged')?.uid }, object: { kind: 'Pod', apiVersion: 'v1', namespace: 'op-events', name: 'db-0', uid: 'u2' }, reason: 'FailedMount', count: 3, lastSeen: new Date(NOW - 10_000).toISOString() }]);
    assert.deepEqual(notesOf('merged')?.spam, []);
    assert.equal(notesOf('series')?.series[0]?.count, 7);
    assert.equal(notesOf('series')?.series[0]?.mayLagSeconds, 1800);
    // an event no note concerns has no key
    assert.equal(notesOf('db-killing'), undefined);
    assert.ok(!('recorderNotes' in (docs.find((d) => d.name === 'db-killing') ?? {})));
    // the footer stays the table's: -o json's stderr holds no notes
    assert.doesNotMatch(r.stderr, /What the recorders may have left out/);
    const table = await run(['--from', 'cap', '--exclude-reason', 'pulled'], openSources({ saved }));
    assert.match(table.stderr, /What the recorders may have left out/);
    assert.doesNotMatch(table.stdout, /recorderNotes/);
    const yaml = await run(['--from', 'cap', '-o', 'yaml', '--exclude-reason', 'pulled'], openSources({ saved }));
    assert.match(yaml.stdout, /recorderNotes:\n\s+spam:\n\s+- reporter: kubelet\n/);
    assert.match(yaml.stdout, /mayLagSeconds: 1800/);
  });
});

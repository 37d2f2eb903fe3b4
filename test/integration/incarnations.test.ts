// Re-created objects and --compare against the real control plane, run as users run the plugin.
// The lab is played in a fresh namespace; then Pipeline build-1 is deleted and created again (a new
// uid), a new event is written about the new build-1, and Pod hungry is deleted. The lab's events are
// now about a previous build-1 and about a pod that is gone; the new event is about the current one.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sharedControlPlane } from '../harness/controlplane.ts';
import type { ControlPlane } from '../harness/controlplane.ts';
import { playLab, rfc3339Seconds } from '../harness/lab.ts';
import { freshNamespace } from '../harness/namespace.ts';
import { evtimeline, kubectl } from '../harness/plugin.ts';
import { LAB_STABLE } from '../support/builders.ts';
import { scratchDir } from '../support/tmp.ts';


const cpPromise = sharedControlPlane();
let cp: ControlPlane;
let ns: string;
let work: string;
let oldUid: string;
let newUid: string;
let podUid: string;
// A discovery cache of our own: one left by an earlier cluster on the same host:port would hide the CRD.
let cacheEnv: NodeJS.ProcessEnv;

async function ok(args: string[], input?: string): Promise<string> {
  const r = await kubectl(['-n', ns, ...args], cp.kubeconfig, { input, env: cacheEnv });
  assert.equal(r.code, 0, `kubectl ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}

async function plugin(args: string[]): Promise<string> {
  const r = await evtimeline(args, cp.kubeconfig);
  assert.equal(r.code, 0, `kubectl evtimeline ${args.join(' ')} failed (${r.code}): ${r.stderr}`);
  return r.stdout;
}

/** The row of a wide table whose NAME cell is `name`. */
function rowOf(table: string, name: string): string {
  const row = table.split('\n').find((line) => line.split(/ {3,}/).includes(name));
  assert.ok(row !== undefined, `no row for ${name} in\n${table}`);
  return row;
}

before(async () => {
  cp = await cpPromise;
  work = scratchDir('incarnations');
  cacheEnv = { KUBECACHEDIR: join(work, 'kube-cache') };
  ns = await freshNamespace(cp.kubeconfig, 'incarnations');
  const lab = await playLab({ kubeconfig: cp.kubeconfig, namespace: ns, outDir: join(work, 'lab') });
  oldUid = lab.pipelineUid;
  podUid = (await ok(['get', 'pod', 'hungry', '-o', 'jsonpath={.metadata.uid}'])).trim();

  await ok(['delete', 'pipelines.ev.labhub.io', 'build-1', '--wait=true', '--timeout=60s']);
  await ok(['apply', '-f', join(work, 'lab', 'pipeline-build1.yaml')]);
  newUid = (await ok(['get', 'pipelines.ev.labhub.io', 'build-1', '-o', 'jsonpath={.metadata.uid}'])).trim();
  assert.notEqual(newUid, oldUid);

  const now = rfc3339Seconds();
  const restarted = {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: 'build-1-restarted', namespace: ns },
    involvedObject: { apiVersion: 'ev.labhub.io/v1', kind: 'Pipeline', name: 'build-1', namespace: ns, uid: newUid },
    reason: 'ReconcileStarted',
    type: 'Normal',
    message: 'Started reconciling the new Pipeline build-1.',
    firstTimestamp: now,
    lastTimestamp: now,
    count: 1,
    source: { component: 'pipeline-operator' },
  };
  await ok(['apply', '-f', '-'], JSON.stringify(restarted));
  await ok(['delete', 'pod', 'hungry', '--wait=true', '--timeout=60s']);
});

test('the timeline marks the old events (previous) and the deleted pod (gone), not the new event', async () => {
  const table = await plugin(['-n', ns, '-o', 'wide']);
  for (const name of ['build-1-started', 'build-1-weird', 'build-1-done']) {
    assert.match(rowOf(table, name), / Pipeline\/build-1 \(previous\) /, name);
  }
  assert.match(rowOf(table, 'build-1-restarted'), / Pipeline\/build-1 {3,}pipeline-operator /);
  const hungry = table.split('\n').filter((line) => line.includes('FailedScheduling'));
  assert.ok(hungry.length > 0);
  for (const row of hungry) assert.match(row, / Pod\/hungry \(gone\) /);
  assert.doesNotMatch(table, /\(current\)|\(unknown\)/);
});

test('the timeline JSON gives each event its incarnation', async () => {
  const events = JSON.parse(await plugin(['-n', ns, '-o', 'json'])) as { name: string; reason: string; incarnation: string; onServer?: boolean }[];
  const byName = Object.fromEntries(events.map((e) => [e.name, e.incarnation]));
  assert.deepEqual(
    [byName['build-1-started'], byName['build-1-weird'], byName['build-1-done'], byName['build-1-restarted']],
    ['previous', 'previous', 'previous', 'current'],
  );
  const scheduler = events.filter((e) => e.reason === 'FailedScheduling');
  assert.ok(scheduler.length > 0);
  assert.ok(scheduler.every((e) => e.incarnation === 'gone'));
  assert.ok(events.every((e) => !('onServer' in e)), 'onServer only with --compare');
});

test('-o stable stays the lab table: the new ReconcileStarted line is the same line', async () => {
  assert.equal(await plugin(['-n', ns, '-o', 'stable']), LAB_STABLE);
});

test('incident says build-1 was re-created and how many events are about the previous one, and that the pod is gone', async () => {
  const text = await plugin(['incident', '-n', ns]);
  const recreated = new RegExp(
    `  Pipeline/build-1 was re-created at \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ \\(uid ${oldUid} -> uid ${newUid}\\); 3 events are about the previous build-1 and 1 about the current one\\.\n`,
  );
  assert.match(text, recreated);
  assert.match(text, new RegExp(`  Pod/hungry \\(uid ${podUid}\\) no longer exists; \\d+ events? (is|are) about it\\.\n`));
  assert.ok(text.includes(`Pipeline/build-1 (uid ${oldUid}, a previous incarnation)\n`), text);
  assert.ok(text.includes(`Pipeline/build-1 (uid ${newUid}, the current incarnation)\n`), text);
  const json = JSON.parse(await plugin(['incident', '-n', ns, '-o', 'json'])) as {
    recreatedObjects: { name: string; previousUids: string[]; currentUid: string; previousEvents: number; currentEvents: number }[];
    goneObjects: { name: string; uids: string[] }[];
  };
  assert.deepEqual(json.recreatedObjects.map((r) => [r.name, r.previousUids, r.currentUid, r.previousEvents, r.currentEvents]), [
    ['build-1', [oldUid], newUid, 3, 1],
  ]);
  assert.deepEqual(json.goneObjects.map((g) => [g.name, g.uids]), [['hungry', [podUid]]]);
});

test('--compare: an event deleted from the server after a capture is named as no longer on the server', async () => {
  const capture = join(work, 'capture');
  await plugin(['capture', '-n', ns, capture]);
  // A live capture's reports tell the incarnations apart too.
  assert.match(readFileSync(join(capture, 'incident.txt'), 'utf8'), /Pipeline\/build-1 was re-created at /);
  assert.match(readFileSync(join(capture, 'events-list.txt'), 'utf8'), /Pipeline\/build-1 \(previous\)/);
  const saved = JSON.parse(readFileSync(join(capture, 'events.json'), 'utf8')) as { core: { metadata: { uid: string } }[] };
  const total = new Set(saved.core.map((e) => e.metadata.uid)).size;
  await ok(['delete', 'event', 'build-1-weird']); // what --event-ttl would do an hour later

  const from = join(capture, 'events.json');
  const text = await plugin(['incident', '--from', from, '--compare', '-n', ns]);
  const share = `${Math.round(100 / total)}%`;
  assert.ok(text.includes(`  1 of ${total} events in the capture (${share}) is no longer on the server (expired after --event-ttl or deleted).\n`), text);
  assert.match(text, /\nOnly in the capture \(no longer on the server\)\n  StageUnknown on Pipeline\/build-1 \(event build-1-weird, Critical\), last seen /);
  assert.match(text, /reported StageUnknown \(type Critical, unconventional\), once, no longer on the server:\n/);
  // The live cluster is asked about the objects too: the capture's build-1 events are about the previous one.
  assert.match(text, /Pipeline\/build-1 was re-created at /);

  const timeline = await evtimeline(['--from', from, '--compare', '-n', ns, '-o', 'wide'], cp.kubeconfig);
  assert.equal(timeline.code, 0, timeline.stderr);
  assert.match(rowOf(timeline.stdout, 'build-1-weird'), / \[not on server\] /);
  assert.equal(timeline.stdout.split('\n').filter((line) => line.includes('[not on server]')).length, 1);
  assert.match(timeline.stderr, /^The capture was taken at \S+; its events were first seen \S+ \.\. last seen \S+\.\n/);
  assert.match(timeline.stderr, new RegExp(`\n1 of ${total} events in the capture is no longer on the server \\(expired after --event-ttl or deleted\\), marked \\[not on server\\]\\.\n`));
  // Ages in the table count from when the capture was taken, and it says so after the comparison;
  // only the recorders' notes may follow (the scheduler retries pod hungry whenever another file's
  // node or pod comes or goes, and its second FailedScheduling makes a series).
  const ages = /\nAges are counted from \S+, when the capture was taken\.\n/.exec(timeline.stderr);
  assert.ok(ages, timeline.stderr);
  const rest = timeline.stderr.slice(ages.index + ages[0].length);
  assert.ok(rest === '' || rest.startsWith('What the recorders may have left out:\n'), timeline.stderr);

  const json = JSON.parse(await plugin(['--from', from, '--compare', '-n', ns, '-o', 'json'])) as { name: string; onServer: boolean }[];
  assert.deepEqual(json.filter((e) => !e.onServer).map((e) => e.name), ['build-1-weird']);
  assert.ok(json.every((e) => typeof e.onServer === 'boolean'));
});

test('--compare with a record: the events only the record still holds are counted and named', async () => {
  const record = join(work, 'events.jsonl');
  const recorded = await evtimeline(['record', '-n', ns, record, '--duration', '2s'], cp.kubeconfig);
  assert.equal(recorded.code, 0, recorded.stderr);
  const total = JSON.parse(await plugin(['--from', record, '-o', 'json'])).length as number;
  await ok(['delete', 'event', 'build-1-done']);

  const text = await plugin(['incident', '--from', record, '--compare', '-n', ns]);
  assert.ok(text.includes(`  1 of ${total} events in the record (${Math.round(100 / total)}%) is no longer on the server (expired after --event-ttl or deleted).\n`), text);
  assert.match(text, /\nOnly in the record \(no longer on the server\)\n  ReconcileSucceeded on Pipeline\/build-1 \(event build-1-done, Normal\), last seen /);
  // Ages count from the record's last observation, with --compare too (README "Times in saved files",
  // commit 7843499): that time is written bare, said to be where the ages count from, and an earlier
  // first observation keeps its age (fc5f052 drops a '(0s ago)' when both are the same moment).
  const watched = /  - The recorder watched from \d{4}-\d\d-\d\dT\S+Z(?: \(\d+\w+ ago\))? to (\d{4}-\d\d-\d\dT\S+Z): the record's first and last observation; the ages here count from then\.\n/.exec(text);
  assert.ok(watched, text);
  // The title names when the cluster was read, after the record ended and build-1-done was deleted.
  const compared = /, compared with the cluster at (\S+)\n/.exec(text);
  assert.ok(compared && Date.parse(compared[1]!) > Date.parse(watched[1]!), text);
});

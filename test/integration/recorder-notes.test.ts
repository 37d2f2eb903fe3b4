// Recorder notes against client-go's own recorders (`controlplane emit`, test/controlplane/emit.go)
// and the real API server. The figures asserted are what the recorders' code does, seen on the
// server first, then in the plugin's words (k8s.io/client-go@v0.36.3):
//   - tools/record/events_cache.go:47-48 defaultSpamBurst 25, defaultSpamQPS 1/300: of 30 identical
//     events the server's count stops at 25, and a token comes back 300 s after the first write;
//   - :40-41, :183, :238-293: the 10th distinct message of one reason becomes "(combined from similar
//     events): ..." whose count covers it and every later message;
//   - tools/events/event_broadcaster.go:50-51, :170-206: a series reaches the server as count 2 and
//     is refreshed only every 30 minutes.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedControlPlane, type ControlPlane } from '../harness/controlplane.ts';
import { emitEvents, type EmitOptions } from '../harness/emit.ts';
import { kubectlOk } from '../harness/kubectl.ts';
import { freshNamespace } from '../harness/namespace.ts';
import { evtimeline } from '../harness/plugin.ts';
import { listEvents, type CoreEvent } from '../harness/workloads.ts';

const cpPromise = sharedControlPlane();
let cp: ControlPlane;

before(async () => {
  cp = await cpPromise;
});

async function emitAbout(ns: string, name: string, opts: Omit<EmitOptions, 'kind' | 'name' | 'namespace'>) {
  await kubectlOk(cp.kubeconfig, ['-n', ns, 'create', 'configmap', name]);
  return emitEvents(cp, { kind: 'ConfigMap', name, namespace: ns, component: 'acme-operator', ...opts });
}

async function eventsAbout(ns: string, name: string): Promise<CoreEvent[]> {
  return (await listEvents(cp.kubeconfig, ns)).filter((e) => e.involvedObject.name === name);
}

interface NotesDoc {
  recorderNotes: {
    spam: { occurrences: number; object: { name: string }; first: string; nextCouldComeAt: string; burst: number; refillSeconds: number }[];
    combined: { event: { name: string }; count: number }[];
    series: { object: { name: string }; count: number; lastObserved: string; mayLagSeconds: number }[];
  };
}

async function incidentJson(ns: string): Promise<NotesDoc> {
  const r = await evtimeline(['incident', '-n', ns, '-o', 'json'], cp.kubeconfig);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as NotesDoc;
}

interface TimelineDoc {
  name: string;
  recorderNotes?: NotesDoc['recorderNotes'];
}

/** The timeline's -o json: each event carries the notes about it; the footer stays the table's (stderr empty of notes). */
async function timelineJson(ns: string): Promise<TimelineDoc[]> {
  const r = await evtimeline(['-n', ns, '-o', 'json'], cp.kubeconfig);
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /What the recorders/);
  return JSON.parse(r.stdout) as TimelineDoc[];
}

test('a burst past 25: the server holds count 25 of 30, and the account says later reports may be missing and when the next could come', async () => {
  const ns = await freshNamespace(cp.kubeconfig, 'notes-burst');
  await emitAbout(ns, 'burst', { type: 'Warning', reason: 'QueueFull', message: 'queue is full', instance: 'acme-0', count: 30 });
  const [event] = await eventsAbout(ns, 'burst');
  assert.equal(event?.count, 25, 'client-go lets 25 through (defaultSpamBurst)');
  const first = Date.parse(event.firstTimestamp ?? '');
  const doc = await incidentJson(ns);
  const [note] = doc.recorderNotes.spam;
  assert.equal(doc.recorderNotes.spam.length, 1);
  assert.equal(note?.object.name, 'burst');
  assert.equal(note?.occurrences, 25);
  // a token every 300 s (defaultSpamQPS): the bucket, full at the first write, holds one again 300 s later
  assert.equal(note?.nextCouldComeAt, new Date(first + 300_000).toISOString());
  const text = await evtimeline(['incident', '-n', ns, '--absolute-times'], cp.kubeconfig);
  const at = new Date(first + 300_000).toISOString().replace('.000Z', 'Z');
  assert.match(text.stdout, new RegExp(`acme-operator \\(acme-0\\) wrote 25 occurrences of Warning events \\(1 event\\) about ConfigMap/burst .*one source write 25 events about one object at once, then one every 5m .*the next (can|could have) come at ${at}\\.`));
  // the timeline says it in its footer, on stderr: stdout stays the table
  const table = await evtimeline(['-n', ns], cp.kubeconfig);
  assert.match(table.stderr, /(^|\n)What the recorders may have left out:\n {2}- acme-operator \(acme-0\) wrote 25 occurrences .*, and the next can come at \S+ \(in [0-9ms]+\)\.\n/);
  assert.doesNotMatch(table.stdout, /What the recorders/);
  // -o json: the note on the event it is about
  const [item] = await timelineJson(ns);
  assert.equal(item?.name, event.metadata.name);
  assert.equal(item?.recorderNotes?.spam[0]?.occurrences, 25);
  assert.equal(item?.recorderNotes?.spam[0]?.nextCouldComeAt, new Date(first + 300_000).toISOString());
});

test('10 distinct messages of one reason: the combined event is explained, its count covering the merged messages', async () => {
  const ns = await freshNamespace(cp.kubeconfig, 'notes-combined');
  await emitAbout(ns, 'sync', { reason: 'Synced', message: 'item {n} synced', count: 12 });
  const combined = (await eventsAbout(ns, 'sync')).filter((e) => e.message?.startsWith('(combined from similar events): '));
  assert.equal(combined.length, 1);
  // the 10th, 11th and 12th messages (defaultAggregateMaxEvents 10)
  assert.equal(combined[0]?.count, 3);
  assert.equal(combined[0]?.message, '(combined from similar events): item 12 synced');
  const doc = await incidentJson(ns);
  assert.deepEqual(doc.recorderNotes.combined.map((c) => [c.event.name, c.count]), [[combined[0]?.metadata.name, 3]]);
  const text = await evtimeline(['incident', '-n', ns], cp.kubeconfig);
  const items = await timelineJson(ns);
  assert.deepEqual(items.filter((i) => i.recorderNotes !== undefined).map((i) => [i.name, i.recorderNotes?.combined.map((c) => c.count)]), [[combined[0]?.metadata.name, [3]]]);
  assert.match(text.stdout, /Synced on ConfigMap\/sync \(event sync\.[0-9a-f]+, count 3, .*after 10 different messages for one reason about one object, each within 10m of the last, .*Its count covers all the merged messages; only the latest text is kept \("item 12 synced"\)/);
});

test('an events.k8s.io series: count 2 on the server, and the note says when it was last observed and that it may lag 30 minutes', async () => {
  const ns = await freshNamespace(cp.kubeconfig, 'notes-series');
  await emitAbout(ns, 'series', { recorder: 'events', type: 'Warning', reason: 'Throttled', message: 'throttled', count: 5 });
  const [event] = await eventsAbout(ns, 'series');
  assert.equal(event?.series?.count, 2, 'the second occurrence is sent as series {count: 2}; the rest wait for the 30-minute refresh');
  const doc = await incidentJson(ns);
  const [note] = doc.recorderNotes.series;
  assert.equal(note?.count, 2);
  assert.equal(note?.lastObserved, new Date(Date.parse(event?.series?.lastObservedTime ?? '')).toISOString());
  assert.equal(note?.mayLagSeconds, 1800);
  const text = await evtimeline(['incident', '-n', ns], cp.kubeconfig);
  const [item] = await timelineJson(ns);
  assert.equal(item?.recorderNotes?.series[0]?.count, 2);
  assert.equal(item?.recorderNotes?.series[0]?.mayLagSeconds, 1800);
  const yaml = await evtimeline(['-n', ns, '-o', 'yaml'], cp.kubeconfig);
  assert.match(yaml.stdout, /recorderNotes:\n(.*\n)*?\s+mayLagSeconds: 1800\n/);
  assert.match(text.stdout, /Throttled on ConfigMap\/series from acme-operator \(series count 2, last observed .*\): if written by client-go's events\.k8s\.io recorder, the server learns a series' count only every 30m and once it has been quiet for 6m .*may lag by up to 30m/);
});

test('a namespace with a handful of events gets no recorder note', async () => {
  const ns = await freshNamespace(cp.kubeconfig, 'notes-none');
  await emitAbout(ns, 'quiet', { reason: 'Reconciled', message: 'reconciled', count: 3 });
  await emitAbout(ns, 'once', { recorder: 'events', reason: 'Started', message: 'started', count: 1 });
  const doc = await incidentJson(ns);
  assert.deepEqual(doc.recorderNotes, { spam: [], combined: [], series: [] });
  assert.deepEqual((await timelineJson(ns)).filter((i) => i.recorderNotes !== undefined), []);
  const text = await evtimeline(['incident', '-n', ns], cp.kubeconfig);
  assert.doesNotMatch(text.stdout, /recorder/);
  const table = await evtimeline(['-n', ns], cp.kubeconfig);
  assert.doesNotMatch(table.stderr, /What the recorders/);
});

// Events written by client-go's own recorders (`controlplane emit`), as operators write them.
// What each case expects is what the recorders' code does (k8s.io/client-go@v0.36.3 in the Go
// module cache; test/controlplane/emit.go cites every function):
//   - tools/record/events_cache.go:323-366 eventObserve: a repeat of the same source, object,
//     type, reason and message is a patch of count/lastTimestamp/message of the first event;
//   - :40-48 and :127-150 the spam filter: a token bucket per source + object + type, burst 25,
//     refilled once per 300 s; :506-516 EventCorrelate filters after counting, so the cache
//     counts the dropped ones and the server's count stops at 25;
//   - :238-293 EventAggregate: the 10th distinct message of a key (source, object, type, reason,
//     reportingController/Instance) within 600 s becomes one "(combined from similar events): "
//     event (:183) with only a source, which later messages patch;
//   - tools/events/event_broadcaster.go:170-206 recordToSink: the first occurrence is created,
//     the second patched in as series {count: 2}, later ones only counted in memory, sent every
//     30 min (:50-51, :127-140) or when the series ends after 6 min of quiet (:145-161);
//   - tools/record/event.go:449 and tools/events/event_recorder.go:80: any type other than
//     Normal or Warning is dropped before it is sent.
// The plugin must show these events as `kubectl events` does.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { hostname } from 'node:os';
import { sharedControlPlane, type ControlPlane } from '../harness/controlplane.ts';
import { emitEvents, type EmitOptions, type EmitReport } from '../harness/emit.ts';
import { kubectlJSON, kubectlOk } from '../harness/kubectl.ts';
import { freshNamespace } from '../harness/namespace.ts';
import { readBoth } from '../harness/kubectl-events.ts';
import { evtimeline } from '../harness/plugin.ts';
import { listEvents, type CoreEvent, type KubeObject } from '../harness/workloads.ts';

const cpPromise = sharedControlPlane();
let cp: ControlPlane;
let ns: string;

before(async () => {
  cp = await cpPromise;
  ns = await freshNamespace(cp.kubeconfig, 'emit');
});

/** A ConfigMap to write events about; emit reads it and hands the live object to the recorder. */
async function target(name: string): Promise<KubeObject> {
  await kubectlOk(cp.kubeconfig, ['-n', ns, 'create', 'configmap', name]);
  return kubectlJSON<KubeObject>(cp.kubeconfig, ['-n', ns, 'get', 'configmap', name]);
}

/** A new ConfigMap `name` and `opts` emitted about it by acme-operator (the live object, uid included). */
async function emitAbout(name: string, opts: Omit<EmitOptions, 'kind' | 'name' | 'namespace'>): Promise<EmitReport> {
  await target(name);
  return emitEvents(cp, { kind: 'ConfigMap', name, namespace: ns, component: 'acme-operator', ...opts });
}

async function eventsAbout(name: string): Promise<CoreEvent[]> {
  return (await listEvents(cp.kubeconfig, ns)).filter((e) => e.involvedObject.name === name);
}

/** The row about ConfigMap/<name> with the given reason, in kubectl events and in the plugin's table. */
async function rows(name: string, reason: string): Promise<{ kubectl: string; plugin: string }> {
  const pick = (text: string) =>
    text.split('\n').filter((l) => l.includes(`ConfigMap/${name}`) && l.includes(reason));
  const kubectlRows = pick(await kubectlOk(cp.kubeconfig, ['-n', ns, 'events']));
  const r = await evtimeline(['-n', ns], cp.kubeconfig);
  assert.equal(r.code, 0, r.stderr);
  const pluginRows = pick(r.stdout);
  assert.equal(kubectlRows.length, 1, kubectlRows.join('\n'));
  assert.equal(pluginRows.length, 1, pluginRows.join('\n'));
  return { kubectl: kubectlRows[0] ?? '', plugin: pluginRows[0] ?? '' };
}

test('core/v1 recorder: 20 identical events leave one event with count 20', async () => {
  const cm = await target('twenty');
  const report = await emitEvents(cp, {
    kind: 'ConfigMap', name: 'twenty', namespace: ns, type: 'Warning', reason: 'QueueFull', message: 'queue is full',
    component: 'acme-operator', instance: 'acme-operator-0', count: 20,
  });
  assert.deepEqual([report.creates, report.patches, report.errors], [1, 19, 0]);
  const [event, ...more] = await eventsAbout('twenty');
  assert.ok(event);
  assert.deepEqual(more, []);
  assert.equal(event.count, 20);
  assert.equal(event.message, 'queue is full');
  assert.equal(event.involvedObject.uid, cm.metadata.uid);
  assert.deepEqual(event.source, { component: 'acme-operator', host: 'acme-operator-0' });
  assert.equal(event.reportingComponent, 'acme-operator');
  assert.equal(event.reportingInstance, 'acme-operator-0');
  const { kubectl, plugin } = await rows('twenty', 'QueueFull');
  assert.match(kubectl, /\(x20 over \d+s\)/);
  assert.match(plugin, /\(x20 over \d+s\)/);
});

test('core/v1 recorder: the spam filter lets 25 of 30 through, and the count stops at 25', async () => {
  const report = await emitAbout('thirty', { type: 'Warning', reason: 'QueueFull', message: 'queue is full', count: 30 });
  assert.deepEqual([report.creates, report.patches, report.errors], [1, 24, 0]);
  const events = await eventsAbout('thirty');
  assert.deepEqual(events.map((e) => e.count), [25]);
  const { kubectl, plugin } = await rows('thirty', 'QueueFull');
  assert.match(kubectl, /\(x25 over \d+s\)/);
  assert.match(plugin, /\(x25 over \d+s\)/);
});

test('core/v1 recorder: the 10th distinct message of a reason becomes "(combined from similar events)"', async () => {
  const report = await emitAbout('twelve', { type: 'Warning', reason: 'SyncFailed', message: 'attempt {n} failed', instance: 'acme-operator-0', count: 12 });
  // Messages 1..9 are created one by one; the 10th is created as the combined event, the 11th
  // and 12th patch it (count and message).
  assert.deepEqual([report.creates, report.patches, report.errors], [10, 2, 0]);
  const events = await eventsAbout('twelve');
  const single = events.filter((e) => !e.message.startsWith('(combined')).map((e) => [e.message, e.count]);
  assert.deepEqual(single.sort(), Array.from({ length: 9 }, (_, i) => [`attempt ${i + 1} failed`, 1]).sort());
  const combined = events.filter((e) => e.message.startsWith('(combined'));
  assert.equal(combined.length, 1);
  assert.equal(combined[0]?.message, '(combined from similar events): attempt 12 failed');
  assert.equal(combined[0]?.count, 3);
  // The aggregator's copy keeps the source but not reportingController/Instance
  // (events_cache.go EventAggregate): the plugin's FROM falls back to source.component.
  assert.equal(combined[0]?.reportingComponent ?? '', '');
  assert.deepEqual(combined[0]?.source, { component: 'acme-operator', host: 'acme-operator-0' });
  const r = await evtimeline(['-n', ns, '-o', 'json'], cp.kubeconfig);
  const ours = (JSON.parse(r.stdout) as { uid: string; reporter: string; count: number }[]).find((e) => e.uid === combined[0]?.metadata.uid);
  assert.equal(ours?.reporter, 'acme-operator');
  assert.equal(ours?.count, 3);
});

test('core/v1 recorder: 9 distinct messages stay 9 events; the 10th distinct one is already the combined event', async () => {
  for (const [name, count] of [['nine', 9], ['ten', 10]] as const) {
    const report = await emitAbout(name, { type: 'Normal', reason: 'Retried', message: 'try {n}', count });
    assert.deepEqual([report.creates, report.patches, report.errors], [count, 0, 0], name);
    const messages = (await eventsAbout(name)).map((e) => `${e.message} x${e.count}`).sort();
    const singles = Array.from({ length: 9 }, (_, i) => `try ${i + 1} x1`);
    assert.deepEqual(messages, count === 9 ? singles.sort() : ['(combined from similar events): try 10 x1', ...singles].sort(), name);
  }
});

test('core/v1 recorder: 30 distinct messages, aggregated and then spam-filtered: 25 writes, the combined event counts 16', async () => {
  // The spam key has no reason and no message (events_cache.go:70-82), so the combined event
  // spends the same bucket: 9 singles + the combined create + 15 patches = 25 tokens; the 26th to
  // 30th occurrences are counted in the cache (eventObserve runs before the filter) but never sent.
  const report = await emitAbout('thirtyfold', { type: 'Warning', reason: 'SyncFailed', message: 'attempt {n} failed', count: 30 });
  assert.deepEqual([report.creates, report.patches, report.errors], [10, 15, 0]);
  const events = await eventsAbout('thirtyfold');
  assert.equal(events.length, 10);
  const combined = events.filter((e) => e.message.startsWith('(combined from similar events): '));
  assert.deepEqual(combined.map((e) => [e.message, e.count]), [['(combined from similar events): attempt 25 failed', 16]]);
});

test('events.k8s.io recorder: 20 identical events leave one event whose series.count is 2', async () => {
  await target('series');
  const report = await emitEvents(cp, {
    recorder: 'events', kind: 'ConfigMap', name: 'series', namespace: ns, type: 'Normal', reason: 'Reconciled',
    action: 'Reconcile', message: 'reconciled', component: 'acme-operator', count: 20,
  });
  // Two writes, each in its own goroutine: usually a create then the series patch; when the patch
  // arrives first it finds nothing and creates the event with its series, and the first create
  // is then refused (AlreadyExists, logged, not retried). The server ends the same either way.
  assert.equal(report.creates + report.patches + report.errors, 2);
  assert.ok(report.creates >= 1);
  const [event, ...more] = await eventsAbout('series');
  assert.ok(event);
  assert.deepEqual(more, []);
  // The other 18 occurrences stayed in the recorder's memory: it sends them every 30 min or when
  // the series has been quiet for 6 min, neither of which a process that exits lives to see.
  assert.equal(event.series?.count, 2);
  assert.equal(event.reportingComponent, 'acme-operator');
  assert.equal(event.reportingInstance, `acme-operator-${hostname()}`);
  assert.equal(report.reportingInstance, `acme-operator-${hostname()}`);
  const { kubectl, plugin } = await rows('series', 'Reconciled');
  assert.match(kubectl, /\(x2 over \d+s\)/);
  assert.match(plugin, /\(x2 over \d+s\)/);
});

test('events.k8s.io recorder: 150 occurrences about an object that does not exist still leave series.count 2 on the server', async () => {
  // With --uid the recorder is handed a reference, not a live object: here a Node that was never
  // registered (cluster-scoped, so the event goes to namespace default). However many occurrences
  // follow, only the first two are written before the 30-minute refresh.
  const name = `ghost-${ns}`;
  const report = await emitEvents(cp, {
    recorder: 'events', kind: 'Node', name, uid: `uid-${ns}`, type: 'Warning', reason: 'NodeGone',
    action: 'Probe', message: 'node does not answer', component: 'acme-node-prober', count: 150,
  });
  assert.equal(report.creates + report.patches + report.errors, 2);
  const events = (await listEvents(cp.kubeconfig, 'default')).filter((e) => e.involvedObject.name === name);
  assert.equal(events.length, 1);
  assert.equal(events[0]?.series?.count, 2);
  assert.equal(events[0]?.involvedObject.kind, 'Node');
  assert.equal(events[0]?.involvedObject.uid, `uid-${ns}`);
  assert.equal(events[0]?.reportingInstance, `acme-node-prober-${hostname()}`);
});

test('both recorders drop a type other than Normal or Warning before sending it', async () => {
  await target('critical');
  for (const recorder of ['core', 'events'] as const) {
    const report = await emitEvents(cp, {
      recorder, kind: 'ConfigMap', name: 'critical', namespace: ns, type: 'Critical', reason: 'Meltdown', action: 'Melt',
      message: 'core temperature critical', component: 'acme-operator', count: 3,
    });
    assert.deepEqual([report.creates, report.patches, report.errors], [0, 0, 0], recorder);
  }
  assert.deepEqual(await eventsAbout('critical'), []);
});

test('the table says what kubectl events says of every recorder\'s output, row for row, ages included', async () => {
  // An event repeated 4 s apart: its last and first occurrence ages differ, and both must match.
  await emitAbout('paced', { type: 'Warning', reason: 'BackOff', message: 'back-off restarting', count: 3, interval: '4s' });
  const both = await readBoth(cp.kubeconfig, ['-n', ns]);
  assert.deepEqual(both.plugin, both.kubectl);
  assert.deepEqual(both.ages, []);
  assert.ok(both.kubectl.some((row) => row.startsWith('AGE (x3 over AGE) | Warning | BackOff | ConfigMap/paced')), both.kubectl.join('\n'));
  assert.ok(both.kubectl.some((row) => row.includes('(combined from similar events): attempt 12 failed')), both.kubectl.join('\n'));
});

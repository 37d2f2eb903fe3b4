// Ownership travels with saved files, on the real controllers: a Deployment whose pods cannot be
// scheduled is recorded and captured, then deleted (the garbage collector removes its ReplicaSet
// and Pods). `--from CAPTURE --tree` and `--from RECORD --tree` still tell the Deployment, its
// ReplicaSet and Pods apart, offline (a kubeconfig that names no reachable server); the live cluster
// after the deletion marks the children gone.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sharedControlPlane, type ControlPlane } from '../harness/controlplane.ts';
import { kubectlOk } from '../harness/kubectl.ts';
import { deleteNamespace, freshNamespace } from '../harness/namespace.ts';
import { evtimeline } from '../harness/plugin.ts';
import { waitFor } from '../harness/wait.ts';
import { createDeployment, listEvents, listObjects, type KubeObject } from '../harness/workloads.ts';
import { startRecord } from '../support/recorder.ts';
import { scratchDir } from '../support/tmp.ts';

const cpPromise = sharedControlPlane();
const work = scratchDir('owners-saved');
const children = new Set<ChildProcess>();
let cp: ControlPlane;
let ns: string;
let deployment: KubeObject;
let rs: KubeObject;
let pods: KubeObject[];
const capture = join(work, 'capture');
const captureAll = join(work, 'capture-all');
let captureStderr = '';
const record = join(work, 'shop.jsonl');
/** A kubeconfig whose only server refuses connections: a read that works with it is offline. */
const offline = join(work, 'offline.kubeconfig');

interface SavedItem {
  kind: string;
  metadata: { name: string; uid: string; ownerReferences?: { uid: string; controller: boolean }[] };
  unknown?: unknown;
}

/** Lines of the record that are object lines, as items. */
function objectLines(): SavedItem[] {
  return readFileSync(record, 'utf8')
    .split('\n')
    .filter((l) => l.includes('"kind":"EvtimelineObject"'))
    .map((l) => (JSON.parse(l) as { object: SavedItem }).object);
}

before(async () => {
  cp = await cpPromise;
  writeFileSync(
    offline,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      'current-context': 'nowhere',
      clusters: [{ name: 'nowhere', cluster: { server: 'https://127.0.0.1:9' } }],
      users: [{ name: 'nobody', user: { token: 'x' } }],
      contexts: [{ name: 'nowhere', context: { cluster: 'nowhere', user: 'nobody' } }],
    }),
  );
  ns = await freshNamespace(cp.kubeconfig, 'owners-saved');
  const recorder = startRecord([record, '-n', ns], cp.kubeconfig, work, children);
  deployment = await createDeployment(cp.kubeconfig, ns, 'shop-web', { replicas: 2, cpu: '64' });
  pods = await waitFor('2 pods of shop-web, each unschedulable', async () => {
    const found = await listObjects(cp.kubeconfig, ns, 'pods', 'app=shop-web');
    const events = await listEvents(cp.kubeconfig, ns);
    const told = found.every((p) => events.some((e) => e.reason === 'FailedScheduling' && e.involvedObject.uid === p.metadata.uid));
    return found.length === 2 && told ? found : undefined;
  });
  const [set] = await listObjects(cp.kubeconfig, ns, 'replicasets', 'app=shop-web');
  assert.ok(set);
  rs = set;
  // The recorder looks up each new object behind the recording: wait for its lines, then stop it.
  await waitFor('the record to hold the pods, the ReplicaSet and the Deployment', async () => {
    const uids = new Set(objectLines().map((o) => o.metadata.uid));
    return [deployment, rs, ...pods].every((o) => uids.has(o.metadata.uid));
  });
  recorder.child.kill('SIGINT');
  const end = await recorder.ended;
  assert.equal(end.code, 0, end.stderr);

  const captured = await evtimeline(['capture', '-n', ns, capture], cp.kubeconfig);
  assert.equal(captured.code, 0, captured.stderr);
  captureStderr = captured.stderr;
  const whole = await evtimeline(['capture', '-n', ns, captureAll, '--all-objects'], cp.kubeconfig);
  assert.equal(whole.code, 0, whole.stderr);

  await kubectlOk(cp.kubeconfig, ['-n', ns, 'delete', 'deployment', 'shop-web', '--wait=true']);
  await waitFor('the garbage collector to remove the ReplicaSet and the Pods', async () => {
    const left = [...(await listObjects(cp.kubeconfig, ns, 'replicasets')), ...(await listObjects(cp.kubeconfig, ns, 'pods'))];
    return left.length === 0;
  });
});

after(async () => {
  for (const child of children) child.kill('SIGKILL');
  if (ns) await deleteNamespace(cp.kubeconfig, ns);
});

const rowOf = (stdout: string, reason: string, name: string) => stdout.split('\n').find((row) => row.includes(` ${reason} `) && row.includes(name)) ?? '';

describe('a capture saves ownership in objects.json', () => {
  test('the Deployment, its ReplicaSet and Pods with the ownerReferences the controllers set, matched by uid', () => {
    const doc = JSON.parse(readFileSync(join(capture, 'objects.json'), 'utf8')) as { kind: string; capturedAt: string; items: SavedItem[] };
    assert.equal(doc.kind, 'EvtimelineObjects');
    assert.equal(doc.capturedAt, (JSON.parse(readFileSync(join(capture, 'events.json'), 'utf8')) as { capturedAt: string }).capturedAt);
    const byUid = new Map(doc.items.map((i) => [i.metadata.uid, i]));
    assert.equal(byUid.get(deployment.metadata.uid)?.kind, 'Deployment');
    assert.deepEqual(byUid.get(rs.metadata.uid)?.metadata.ownerReferences?.map((o) => [o.uid, o.controller]), [[deployment.metadata.uid, true]]);
    for (const pod of pods) assert.deepEqual(byUid.get(pod.metadata.uid)?.metadata.ownerReferences?.map((o) => o.uid), [rs.metadata.uid]);
    // Only the trees of the events' objects: not the namespace's ServiceAccount or the root CA ConfigMap, which no event is about; stderr says so.
    assert.deepEqual(doc.items.filter((i) => i.kind === 'ServiceAccount' || i.kind === 'ConfigMap'), []);
    assert.match(captureStderr, /^objects\.json keeps the trees of the objects the events are about; \d+ other objects of namespace \S+ were left out \(capture --all-objects saves them too\)$/m);
  });
  test('--all-objects saves the whole namespace: its ServiceAccount too, though no event is about it', () => {
    const doc = JSON.parse(readFileSync(join(captureAll, 'objects.json'), 'utf8')) as { items: SavedItem[] };
    assert.ok(doc.items.some((i) => i.kind === 'ServiceAccount' && i.metadata.name === 'default'));
    assert.ok(doc.items.some((i) => i.metadata.uid === deployment.metadata.uid));
  });
});

describe('after the Deployment is deleted', () => {
  const root = 'Deployment/shop-web';

  test('--from the capture --tree works offline: the Deployment, its ReplicaSet and its Pods, as they were', async () => {
    const r = await evtimeline(['--from', capture, '--for', 'deploy/shop-web', '--tree'], offline);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /holds no ownership/);
    const set = `${root} > ReplicaSet/${rs.metadata.name}`;
    assert.match(rowOf(r.stdout, 'ScalingReplicaSet', root), new RegExp(`ScalingReplicaSet\\s+${root}\\s`));
    for (const pod of pods) {
      assert.match(rowOf(r.stdout, 'SuccessfulCreate', pod.metadata.name), new RegExp(`SuccessfulCreate\\s+${set}\\s`));
      assert.match(rowOf(r.stdout, 'FailedScheduling', pod.metadata.name), new RegExp(`FailedScheduling\\s+${set} > Pod/${pod.metadata.name}\\s`));
    }
  });

  test('--from the capture --tree -o json: the chain of each pod event by the uids the capture saved', async () => {
    const r = await evtimeline(['--from', join(capture, 'events.json'), '--for', 'deploy/shop-web', '--tree', '-o', 'json'], offline);
    assert.equal(r.code, 0, r.stderr);
    const items = JSON.parse(r.stdout) as { reason: string; object: { uid: string }; tree: { kind: string; uid: string; gone: boolean }[] }[];
    const pod = pods[0] as KubeObject;
    const scheduled = items.find((e) => e.reason === 'FailedScheduling' && e.object.uid === pod.metadata.uid);
    assert.deepEqual(
      scheduled?.tree.map((n) => [n.kind, n.uid, n.gone]),
      [
        ['Deployment', deployment.metadata.uid, false],
        ['ReplicaSet', rs.metadata.uid, false],
        ['Pod', pod.metadata.uid, false],
      ],
    );
  });

  test('--from the record --tree works offline: the owner chains the recorder wrote', async () => {
    const items = objectLines();
    assert.deepEqual(items.filter((i) => i.metadata.uid === rs.metadata.uid).length, 1, 'each object written once');
    const r = await evtimeline(['--from', record, '--for', 'deploy/shop-web', '--tree'], offline);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /holds no ownership/);
    const set = `${root} > ReplicaSet/${rs.metadata.name}`;
    for (const pod of pods) {
      assert.match(rowOf(r.stdout, 'FailedScheduling', pod.metadata.name), new RegExp(`FailedScheduling\\s+${set} > Pod/${pod.metadata.name}\\s`));
    }
  });

  test('incident --from the capture --tree tells the story of the tree offline, owner first', async () => {
    const r = await evtimeline(['incident', '--from', capture, '--for', 'deploy/shop-web', '--tree'], offline);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /holds no ownership/);
    assert.match(r.stdout, /The tree of Deployment\/shop-web: 1 ReplicaSet, 2 Pods\./);
  });

  test('a recorder that may read events but no objects records every event, writes each object once as not known (forbidden), and exits 0', async () => {
    await kubectlOk(cp.kubeconfig, ['-n', ns, 'create', 'role', 'events-only', '--verb=list,watch', '--resource=events']);
    await kubectlOk(cp.kubeconfig, ['-n', ns, 'create', 'rolebinding', 'viewer-events-only', '--role=events-only', '--user=viewer']);
    const file = join(work, 'viewer.jsonl');
    const run = startRecord([file, '-n', ns, '--duration', '10s'], cp.viewerKubeconfig, work, children);
    const end = await run.ended;
    assert.equal(end.code, 0, end.stderr);
    const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { type?: string; kind?: string; object?: SavedItem });
    const events = await listEvents(cp.kubeconfig, ns);
    assert.equal(lines.filter((l) => l.type === 'ADDED').length, events.length);
    const objects = lines.filter((l) => l.kind === 'EvtimelineObject').map((l) => l.object as SavedItem);
    assert.ok(objects.length > 0, 'the recorder looked its objects up');
    assert.deepEqual([...new Set(objects.map((o) => (o.unknown as { reason: string }).reason))], ['forbidden']);
    assert.equal(new Set(objects.map((o) => o.metadata.uid)).size, objects.length, 'each object once');
  });

  test('the live cluster marks the children gone: the ReplicaSet and Pods its events and the owners\' messages name', async () => {
    const r = await evtimeline(['-n', ns, '--for', 'deploy/shop-web', '--tree'], cp.kubeconfig);
    assert.equal(r.code, 0, r.stderr);
    for (const pod of pods) assert.match(rowOf(r.stdout, 'FailedScheduling', pod.metadata.name), new RegExp(`Pod/${pod.metadata.name} \\(gone\\)\\s`));
  });
});

// `--for X --tree` on owners and children that the real controllers made (kube-controller-manager
// in the shared control plane), and on custom resources owning ConfigMaps through ownerReferences
// the test sets, through kubectl's plugin mechanism. Each case checks the tree against what the
// server holds: the events `kubectl get events` lists about exactly the tree's members, each placed
// under its owners, the gone ones marked.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedControlPlane, type ControlPlane } from '../harness/controlplane.ts';
import { crdObject, deleteCrds } from '../harness/crds.ts';
import { applyObjects, kubectlJSON, kubectlOk } from '../harness/kubectl.ts';
import { rfc3339Seconds } from '../harness/lab.ts';
import { freshNamespace } from '../harness/namespace.ts';
import { evtimeline } from '../harness/plugin.ts';
import { waitFor } from '../harness/wait.ts';
import { condition, createDeployment, listEvents, listObjects, waitForPods, type CoreEvent, type KubeObject } from '../harness/workloads.ts';

const cpPromise = sharedControlPlane();
let cp: ControlPlane;

before(async () => {
  cp = await cpPromise;
});

/** A member of an event's tree, as -o json carries it (README: the `tree` field). */
interface Member {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  gone: boolean;
}

interface TreeEvent {
  uid: string;
  type: string;
  reason: string;
  message: string;
  object: { kind: string; name: string; uid: string };
  tree: Member[];
  /** what the live lookup says of the event's object (README: -o json) */
  incarnation?: string;
}

/** The chain with the tree's gone marks: `Deployment/web > ReplicaSet/web-5d4 > Pod/web-5d4-x2k (gone)`. */
const chain = (e: TreeEvent): string => e.tree.map((m) => `${m.kind}/${m.name}${m.gone ? ' (gone)' : ''}`).join(' > ');

/**
 * The chain as the table's OBJECT cell writes it, one mark per member: the event's own object, an
 * earlier incarnation of a name that holds a newer object now, is `(previous)` rather than `(gone)`.
 */
const tableChain = (e: TreeEvent): string =>
  e.tree.map((m, i) => `${m.kind}/${m.name}${i === e.tree.length - 1 && e.incarnation === 'previous' ? ' (previous)' : m.gone ? ' (gone)' : ''}`).join(' > ');

async function treeJson(ns: string, target: string): Promise<TreeEvent[]> {
  const r = await evtimeline(['-n', ns, '--for', target, '--tree', '-o', 'json'], cp.kubeconfig);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as TreeEvent[];
}

/** The table's rows, each holding its event's chain and reason: the same events as -o json, in the same places. */
async function assertTableMatches(ns: string, target: string, events: TreeEvent[]): Promise<void> {
  const r = await evtimeline(['-n', ns, '--for', target, '--tree'], cp.kubeconfig);
  assert.equal(r.code, 0, r.stderr);
  const [header, ...rows] = r.stdout.trimEnd().split('\n');
  assert.match(header ?? '', /\bOBJECT\b/);
  assert.equal(rows.length, events.length, r.stdout);
  for (const e of events) {
    // the cell and then the gap before FROM: no second mark after it
    assert.ok(rows.some((row) => row.includes(` ${tableChain(e)}   `) && row.includes(` ${e.reason} `)), `no row ${e.reason} ${tableChain(e)} in\n${r.stdout}`);
  }
}

const eventsAbout = (events: CoreEvent[], uids: Set<string>, names: Set<string>) =>
  events.filter((e) => (e.involvedObject.uid ? uids.has(e.involvedObject.uid) : names.has(`${e.involvedObject.kind}/${e.involvedObject.name}`)));

test('a rollout to a second ReplicaSet: both sets under the Deployment, the old pods marked gone, ScalingReplicaSet on the Deployment itself', async () => {
  const ns = await freshNamespace(cp.kubeconfig, 'tree-rollout');
  const deployment = await createDeployment(cp.kubeconfig, ns, 'web', { replicas: 2 });
  await createDeployment(cp.kubeconfig, ns, 'bystander', { replicas: 1 });
  const oldPods = await waitForPods(cp.kubeconfig, ns, 'web', 2, (p) => condition(p, 'Ready') === 'True');
  await waitForPods(cp.kubeconfig, ns, 'bystander', 1);
  // A new image is a new pod template: the deployment controller makes a second ReplicaSet, scales
  // it up and the first down; the pods of the first are deleted (the node agent finishes it).
  await kubectlOk(cp.kubeconfig, ['-n', ns, 'set', 'image', 'deployment/web', 'main=registry.k8s.io/pause:3.9']);
  await kubectlOk(cp.kubeconfig, ['-n', ns, 'rollout', 'status', 'deployment/web', '--timeout=180s']);
  const oldNames = new Set(oldPods.map((p) => p.metadata.name));
  const newPods = await waitFor('only the new pods of web', async () => {
    const pods = await listObjects(cp.kubeconfig, ns, 'pods', 'app=web');
    return pods.length === 2 && pods.every((p) => !oldNames.has(p.metadata.name)) ? pods : undefined;
  });
  const sets = await listObjects(cp.kubeconfig, ns, 'replicasets', 'app=web');
  assert.equal(sets.length, 2);
  const oldSet = sets.find((s) => s.metadata.uid === oldPods[0]?.metadata.ownerReferences?.[0]?.uid) as KubeObject;
  const newSet = sets.find((s) => s !== oldSet) as KubeObject;
  assert.ok(oldSet && newSet);
  // The controllers' own words, before the plugin is asked: ScalingReplicaSet names both sets, and
  // the old set's SuccessfulDelete names the pods that are gone.
  const server = await waitFor('the scale-down and the old pods deleted, in events', async () => {
    const all = await listEvents(cp.kubeconfig, ns);
    const deleted = [...oldNames].every((n) => all.some((e) => e.reason === 'SuccessfulDelete' && e.message === `Deleted pod: ${n}`));
    const scaledDown = all.some((e) => e.reason === 'ScalingReplicaSet' && e.message.includes(`down replica set ${oldSet.metadata.name}`));
    return deleted && scaledDown ? all : undefined;
  });

  const events = await treeJson(ns, 'deploy/web');
  // Exactly the events about the tree's members, now and gone: nothing about the bystander.
  const members = [deployment, oldSet, newSet, ...oldPods, ...newPods];
  const expected = eventsAbout(server, new Set(members.map((o) => o.metadata.uid)), new Set());
  const later = new Set((await listEvents(cp.kubeconfig, ns)).map((e) => e.metadata.uid));
  const ours = new Set(events.map((e) => e.uid));
  assert.equal(ours.size, events.length, 'each event once');
  for (const e of expected) assert.ok(ours.has(e.metadata.uid), `${e.reason} about ${e.involvedObject.kind}/${e.involvedObject.name} is missing`);
  for (const e of events) assert.ok(later.has(e.uid) && !/bystander/.test(chain(e)), `${e.reason} on ${chain(e)} is not web's`);

  const web = `Deployment/web`;
  const byChain = (c: string) => events.filter((e) => chain(e) === c).map((e) => e.reason);
  // ScalingReplicaSet is about the Deployment: it sits at the root, however many sets it names.
  const scaling = events.filter((e) => e.reason === 'ScalingReplicaSet');
  assert.ok(scaling.length >= 3, `up, up and down: ${scaling.map((e) => e.message).join(' | ')}`);
  for (const e of scaling) assert.equal(chain(e), web);
  for (const set of [oldSet, newSet]) {
    const setChain = `${web} > ReplicaSet/${set.metadata.name}`;
    assert.ok(byChain(setChain).includes('SuccessfulCreate'), setChain);
    assert.equal(events.find((e) => chain(e) === setChain)?.tree[1]?.uid, set.metadata.uid);
  }
  assert.ok(byChain(`${web} > ReplicaSet/${oldSet.metadata.name}`).includes('SuccessfulDelete'));
  for (const pod of oldPods) {
    assert.ok(byChain(`${web} > ReplicaSet/${oldSet.metadata.name} > Pod/${pod.metadata.name} (gone)`).includes('Scheduled'), `old ${pod.metadata.name}`);
  }
  for (const pod of newPods) {
    assert.ok(byChain(`${web} > ReplicaSet/${newSet.metadata.name} > Pod/${pod.metadata.name}`).includes('Scheduled'), `new ${pod.metadata.name}`);
  }
  for (const e of events) {
    const [root] = e.tree;
    assert.deepEqual(root, { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: deployment.metadata.uid, gone: false });
    assert.equal(e.tree.at(-1)?.name, e.object.name, 'the chain ends at the event’s object');
  }
  await assertTableMatches(ns, 'deploy/web', events);
  // -o stable keeps the lab's lines (no chain), the members' events only.
  const stable = await evtimeline(['-n', ns, '--for', 'deploy/web', '--tree', '-o', 'stable'], cp.kubeconfig);
  assert.equal(stable.code, 0, stable.stderr);
  const lines = [...new Set(events.map((e) => `${e.type} ${e.reason} ${e.object.kind}/${e.object.name}`))].sort();
  assert.equal(stable.stdout, `${lines.join('\n')}\n`);

  // Without --tree, --for is the Deployment's own events, as `kubectl events --for` shows them.
  const own = await evtimeline(['-n', ns, '--for', 'deploy/web', '-o', 'json'], cp.kubeconfig);
  assert.equal(own.code, 0, own.stderr);
  assert.deepEqual(
    (JSON.parse(own.stdout) as TreeEvent[]).map((e) => e.reason).sort(),
    events.filter((e) => e.tree.length === 1).map((e) => e.reason).sort(),
  );
});

const podTemplate = (labels: Record<string, string>, restartPolicy?: string) => ({
  metadata: { labels },
  spec: {
    ...(restartPolicy ? { restartPolicy } : {}),
    containers: [{ name: 'main', image: 'registry.k8s.io/pause:3.10', resources: { requests: { cpu: '10m' } } }],
  },
});

test('a StatefulSet, a DaemonSet and a Job: each controller names its pods; a StatefulSet pod deleted and made again is two members, the old one gone', async () => {
  const ns = await freshNamespace(cp.kubeconfig, 'tree-kinds');
  await applyObjects(cp.kubeconfig, [
    { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'db', namespace: ns }, spec: { serviceName: 'db', replicas: 2, selector: { matchLabels: { app: 'db' } }, template: podTemplate({ app: 'db' }) } },
    { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent', namespace: ns }, spec: { selector: { matchLabels: { app: 'agent' } }, template: podTemplate({ app: 'agent' }) } },
    { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'batch', namespace: ns }, spec: { backoffLimit: 0, template: podTemplate({ app: 'batch' }, 'Never') } },
  ]);
  const [db0, db1] = (await waitForPods(cp.kubeconfig, ns, 'db', 2, (p) => condition(p, 'Ready') === 'True')).sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
  // A DaemonSet runs a pod on every node whose taints it tolerates (one, unless another file has added
  // some): it tolerates the node.kubernetes.io/* conditions by itself (pkg/controller/daemon/util
  // AddOrUpdateDaemonPodTolerations), not the real node's own NoSchedule (test/harness/kubelet-node.ts).
  const nodes = (await kubectlJSON<{ items: { spec?: { taints?: { key: string; effect: string }[] } }[] }>(cp.kubeconfig, ['get', 'nodes'])).items.filter(
    (n) => !(n.spec?.taints ?? []).some((t) => t.effect !== 'PreferNoSchedule' && !t.key.startsWith('node.kubernetes.io/')),
  ).length;
  const agents = await waitForPods(cp.kubeconfig, ns, 'agent', nodes);
  const [batch] = await waitForPods(cp.kubeconfig, ns, 'batch', 1);
  assert.ok(db0 && db1 && batch);
  // The StatefulSet controller makes db-1 again, under the same name and a new uid, once the node
  // agent has finished deleting the old one (as a kubelet does). Not `--wait=true`: kubectl before
  // the fix of kubernetes/kubernetes#135563 (kubectl#1803) can watch the new db-1 and hang.
  await kubectlOk(cp.kubeconfig, ['-n', ns, 'delete', 'pod', 'db-1', '--wait=false']);
  const again = await waitFor('db-1 made again', async () => {
    const pods = await listObjects(cp.kubeconfig, ns, 'pods', 'app=db');
    return pods.find((p) => p.metadata.name === 'db-1' && p.metadata.uid !== db1.metadata.uid);
  });
  await waitFor('the new db-1 scheduled', async () => (await listEvents(cp.kubeconfig, ns)).some((e) => e.reason === 'Scheduled' && e.involvedObject.uid === again.metadata.uid));
  const server = await listEvents(cp.kubeconfig, ns);
  // The controllers' own words (pkg/controller/statefulset/stateful_pod_control.go, controller_utils.go).
  const messages = server.filter((e) => e.reason === 'SuccessfulCreate').map((e) => `${e.involvedObject.kind}: ${e.message}`).sort();
  assert.deepEqual(messages, [
    ...agents.map((a) => `DaemonSet: Created pod: ${a.metadata.name}`).sort(),
    `Job: Created pod: ${batch.metadata.name}`,
    'StatefulSet: Create Pod db-0 in StatefulSet db successful',
    'StatefulSet: Create Pod db-1 in StatefulSet db successful',
  ]);

  const where = (e: TreeEvent) => e.tree.map((m) => `${m.kind}/${m.name}${m.gone ? ' (gone)' : ''}@${m.uid}`).join(' > ');
  const db = await treeJson(ns, 'sts/db');
  const sts = db[0]?.tree[0];
  assert.ok(sts);
  const root = `StatefulSet/db@${sts.uid}`;
  const scheduled = db.filter((e) => e.reason === 'Scheduled').map(where).sort();
  assert.deepEqual(scheduled, [
    `${root} > Pod/db-0@${db0.metadata.uid}`,
    `${root} > Pod/db-1 (gone)@${db1.metadata.uid}`,
    `${root} > Pod/db-1@${again.metadata.uid}`,
  ].sort());
  assert.ok(db.filter((e) => e.reason === 'SuccessfulCreate').every((e) => where(e) === root));
  // The old db-1 is the previous incarnation of a name that holds a pod again: the table marks it
  // once, `Pod/db-1 (previous)`, never `Pod/db-1 (gone) (previous)`.
  const old = db.filter((e) => e.object.uid === db1.metadata.uid);
  assert.ok(old.length > 0);
  assert.ok(old.every((e) => e.incarnation === 'previous' && tableChain(e) === 'StatefulSet/db > Pod/db-1 (previous)'));
  await assertTableMatches(ns, 'sts/db', db);

  for (const [target, kind, name, pods] of [['ds/agent', 'DaemonSet', 'agent', agents], ['job/batch', 'Job', 'batch', [batch]]] as const) {
    const events = await treeJson(ns, target);
    const expected = pods.flatMap((p) => [`${kind}/${name} > Pod/${p.metadata.name}: Scheduled`, `${kind}/${name}: SuccessfulCreate`]);
    assert.deepEqual(events.map((e) => `${chain(e)}: ${e.reason}`).sort(), expected.sort(), target);
  }
});

// Two CRDs in different groups share the Kind Stack; a third, Bundle, has the short name `bdl`.
// A Stack owns a Bundle, which owns a ConfigMap; the other group's Stack of the same name owns a
// ConfigMap of its own. Names of our own so that other files' CRDs (Pipeline, Gadget) are untouched.
const INFRA = 'infra.tree.evtimeline.test';
const APPS = 'apps.tree.evtimeline.test';
const BUNDLES = 'tree.evtimeline.test';
const CRD_NAMES = [`stacks.${INFRA}`, `stacks.${APPS}`, `bundles.${BUNDLES}`];

// The control plane is shared: the CRDs (and so their objects) go when this file is done.
after(async () => {
  if (cp) await deleteCrds(cp.kubeconfig, CRD_NAMES);
});

interface Made {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
}

/** Creates an object owned by `owner` (a controller reference, as a controller would set it) and returns it. */
async function make(ns: string, apiVersion: string, kind: string, name: string, owner?: Made, body: Record<string, unknown> = {}): Promise<Made> {
  const ownerReferences = owner ? [{ apiVersion: owner.apiVersion, kind: owner.kind, name: owner.name, uid: owner.uid, controller: true }] : undefined;
  await applyObjects(cp.kubeconfig, [{ apiVersion, kind, metadata: { name, namespace: ns, ...(ownerReferences ? { ownerReferences } : {}) }, ...body }]);
  const resource = kind === 'ConfigMap' ? 'configmap' : `${kind.toLowerCase()}s.${apiVersion.split('/')[0]}`;
  const obj = await kubectlJSON<KubeObject>(cp.kubeconfig, ['-n', ns, 'get', resource, name]);
  return { apiVersion, kind, name, uid: obj.metadata.uid };
}

/** One event about the object, as an operator's recorder would write it (uid included). */
const eventAbout = (ns: string, o: Made, reason: string) => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name: `${o.kind.toLowerCase()}-${o.name}-${reason.toLowerCase()}-${o.uid.slice(0, 8)}`, namespace: ns },
  involvedObject: { apiVersion: o.apiVersion, kind: o.kind, name: o.name, namespace: ns, uid: o.uid },
  reason,
  type: 'Normal',
  message: `${reason} ${o.kind} ${o.name}`,
  firstTimestamp: rfc3339Seconds(),
  lastTimestamp: rfc3339Seconds(),
  count: 1,
  source: { component: 'stack-operator' },
});

test('custom owners: the tree walks a custom resource, the custom resource it owns and their ConfigMaps, one group only; a short name roots it too', async () => {
  const ns = await freshNamespace(cp.kubeconfig, 'tree-crd');
  await applyObjects(cp.kubeconfig, [crdObject(INFRA, 'stacks', 'Stack'), crdObject(APPS, 'stacks', 'Stack'), crdObject(BUNDLES, 'bundles', 'Bundle', 'v1', ['bdl'])]);
  await kubectlOk(cp.kubeconfig, ['wait', '--for=condition=Established', '--timeout=60s', ...CRD_NAMES.map((n) => `crd/${n}`)]);
  // The API server serves a new CRD's resources a moment after Established: wait until kubectl can list them.
  await waitFor('the CRDs served', async () => {
    await kubectlOk(cp.kubeconfig, ['-n', ns, 'get', CRD_NAMES.join(',')]);
    return true;
  });

  const stack = await make(ns, `${INFRA}/v1`, 'Stack', 'prod');
  const bundle = await make(ns, `${BUNDLES}/v1`, 'Bundle', 'prod-bundle', stack);
  const settings = await make(ns, 'v1', 'ConfigMap', 'prod-settings', bundle, { data: { a: '1' } });
  const direct = await make(ns, 'v1', 'ConfigMap', 'prod-direct', stack, { data: { b: '2' } });
  const twin = await make(ns, `${APPS}/v1`, 'Stack', 'prod');
  const twinSettings = await make(ns, 'v1', 'ConfigMap', 'twin-settings', twin, { data: { c: '3' } });
  const all = [stack, bundle, settings, direct, twin, twinSettings];
  await applyObjects(cp.kubeconfig, all.map((o) => eventAbout(ns, o, o.kind === 'ConfigMap' ? 'Rendered' : 'Reconciled')));

  // The garbage collector keeps an object whose owner exists (a wrong owner uid would have it deleted).
  const configMaps = (await listObjects(cp.kubeconfig, ns, 'configmaps')).map((c) => c.metadata.name);
  for (const name of ['prod-settings', 'prod-direct', 'twin-settings']) assert.ok(configMaps.includes(name), name);

  const events = await treeJson(ns, `stacks.${INFRA}/prod`);
  assert.deepEqual(events.map((e) => `${chain(e)}: ${e.reason}`).sort(), [
    'Stack/prod > Bundle/prod-bundle > ConfigMap/prod-settings: Rendered',
    'Stack/prod > Bundle/prod-bundle: Reconciled',
    'Stack/prod > ConfigMap/prod-direct: Rendered',
    'Stack/prod: Reconciled',
  ]);
  for (const e of events) {
    assert.deepEqual(e.tree[0], { apiVersion: `${INFRA}/v1`, kind: 'Stack', name: 'prod', uid: stack.uid, gone: false });
    assert.equal(e.tree.at(-1)?.uid, e.object.uid);
  }
  await assertTableMatches(ns, `stacks.${INFRA}/prod`, events);

  // Kind.group names the other Stack: its own ConfigMap, nothing of the first.
  const other = await treeJson(ns, `Stack.${APPS}/prod`);
  assert.deepEqual(other.map((e) => `${chain(e)} (root ${e.tree[0]?.uid})`).sort(), [
    `Stack/prod (root ${twin.uid})`,
    `Stack/prod > ConfigMap/twin-settings (root ${twin.uid})`,
  ]);

  // A bare Kind two groups share is still refused with the qualified choices (exit 2), --tree or not.
  const ambiguous = await evtimeline(['-n', ns, '--for', 'Stack/prod', '--tree'], cp.kubeconfig);
  assert.equal(ambiguous.code, 2, ambiguous.stderr);
  assert.equal(ambiguous.stdout, '');
  assert.match(ambiguous.stderr, /is ambiguous/);
  assert.ok(ambiguous.stderr.includes(`stacks.${INFRA}/prod`) && ambiguous.stderr.includes(`stacks.${APPS}/prod`), ambiguous.stderr);

  // The short name, any case, roots the tree at the Bundle.
  const short = await treeJson(ns, 'BDL/prod-bundle');
  assert.deepEqual(short.map((e) => chain(e)).sort(), ['Bundle/prod-bundle', 'Bundle/prod-bundle > ConfigMap/prod-settings']);
});

test("--tree on a type nothing serves is kubectl's error (exit 1); --tree without --for is a usage error (exit 2)", async () => {
  const ns = await freshNamespace(cp.kubeconfig, 'tree-usage');
  const unknown = await evtimeline(['-n', ns, '--for', 'Nonsense/x', '--tree'], cp.kubeconfig);
  assert.equal(unknown.code, 1, unknown.stderr);
  assert.equal(unknown.stdout, '');
  assert.equal(unknown.stderr, 'error: the server doesn\'t have a resource type "nonsense"\n');

  for (const args of [['--tree'], ['incident', '--tree'], ['--tree', '-o', 'json']]) {
    const r = await evtimeline(['-n', ns, ...args], cp.kubeconfig);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, /^error: .*--tree.*--for/, r.stderr);
  }
});

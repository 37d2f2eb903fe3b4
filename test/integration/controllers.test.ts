// The harness is real: kube-controller-manager's controllers act on what a test creates, and the
// events they write are the ones the plugin reads. Each case asserts what the controllers did,
// then that the plugin shows those events as `kubectl events` does.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedControlPlane, type ControlPlane } from '../harness/controlplane.ts';
import { kubectlJSON, kubectlOk } from '../harness/kubectl.ts';
import { deleteNamespace, freshNamespace } from '../harness/namespace.ts';
import { readBoth } from '../harness/kubectl-events.ts';
import { evtimeline } from '../harness/plugin.ts';
import { waitFor } from '../harness/wait.ts';
import {
  condition,
  createDeployment,
  listEvents,
  listObjects,
  waitForEvent,
  waitForPods,
  type CoreEvent,
  type KubeObject,
} from '../harness/workloads.ts';

const cpPromise = sharedControlPlane();
let cp: ControlPlane;

before(async () => {
  cp = await cpPromise;
});

const ownerOf = (obj: KubeObject) => obj.metadata.ownerReferences?.find((o) => o.controller);

interface JsonEvent {
  uid: string;
  reason: string;
  message: string;
  reporter: string;
  object: { kind: string; name: string };
}

test('a Deployment of 2 becomes a ReplicaSet and 2 Pods, owned, created, scheduled and running', async () => {
  const ns = await freshNamespace(cp.kubeconfig, 'ctl-deploy');
  const deployment = await createDeployment(cp.kubeconfig, ns, 'web', { replicas: 2 });
  const pods = await waitForPods(cp.kubeconfig, ns, 'web', 2, (p) => condition(p, 'Ready') === 'True');
  const [rs, ...moreSets] = await listObjects(cp.kubeconfig, ns, 'replicasets', 'app=web');
  assert.ok(rs);
  assert.deepEqual(moreSets, []);
  assert.equal(ownerOf(rs)?.uid, deployment.metadata.uid);
  assert.equal(ownerOf(rs)?.kind, 'Deployment');
  for (const pod of pods) {
    assert.equal(ownerOf(pod)?.uid, rs.metadata.uid);
    assert.equal(pod.spec?.nodeName, 'node-1');
    // The ServiceAccount admission plugin gave the pod its namespace's default account.
    assert.equal(pod.spec?.serviceAccountName, 'default');
  }

  const rsName = rs.metadata.name;
  const scaled = await waitForEvent(cp.kubeconfig, ns, 'ScalingReplicaSet', (e) => e.reason === 'ScalingReplicaSet');
  assert.equal(scaled.involvedObject.kind, 'Deployment');
  assert.equal(scaled.source?.component, 'deployment-controller');
  assert.equal(scaled.message, `Scaled up replica set ${rsName} from 0 to 2`);
  const events = await waitFor('SuccessfulCreate and Scheduled for both pods', async () => {
    const all = await listEvents(cp.kubeconfig, ns);
    const done = pods.every((p) =>
      ['SuccessfulCreate', 'Scheduled'].every((reason) => all.some((e) => e.reason === reason && e.message.includes(p.metadata.name))),
    );
    return done ? all : undefined;
  });
  for (const pod of pods) {
    const created = events.find((e) => e.reason === 'SuccessfulCreate' && e.message === `Created pod: ${pod.metadata.name}`);
    assert.ok(created, `no SuccessfulCreate for ${pod.metadata.name}`);
    assert.equal(created.involvedObject.name, rsName);
    assert.equal(created.source?.component, 'replicaset-controller');
    const scheduled = events.find((e) => e.reason === 'Scheduled' && e.involvedObject.name === pod.metadata.name);
    assert.ok(scheduled);
    assert.equal(scheduled.reportingComponent, 'default-scheduler');
    assert.match(scheduled.message, new RegExp(`Successfully assigned ${ns}/${pod.metadata.name} to node-1`));
  }

  // The plugin reads the controllers' events as they are: same events as kubectl get events,
  // reporters from source.component (deployment-controller) or reportingComponent (scheduler).
  const r = await evtimeline(['-n', ns, '-o', 'json'], cp.kubeconfig);
  assert.equal(r.code, 0, r.stderr);
  const ours = JSON.parse(r.stdout) as JsonEvent[];
  const reference = await listEvents(cp.kubeconfig, ns);
  assert.deepEqual(ours.map((e) => e.uid).sort(), reference.map((e: CoreEvent) => e.metadata.uid).sort());
  const byReason = (reason: string) => ours.filter((e) => e.reason === reason);
  assert.deepEqual(byReason('ScalingReplicaSet').map((e) => [e.reporter, e.object.kind, e.message]), [
    ['deployment-controller', 'Deployment', `Scaled up replica set ${rsName} from 0 to 2`],
  ]);
  assert.deepEqual(byReason('SuccessfulCreate').map((e) => e.reporter), ['replicaset-controller', 'replicaset-controller']);
  assert.deepEqual(byReason('Scheduled').map((e) => e.reporter), ['default-scheduler', 'default-scheduler']);

  // The table says what kubectl events says of the controllers' events, row for row: LAST SEEN
  // (ages within the time between the reads), TYPE, REASON, OBJECT and MESSAGE.
  const both = await readBoth(cp.kubeconfig, ['-n', ns]);
  assert.deepEqual(both.plugin, both.kubectl);
  assert.deepEqual(both.ages, []);
  assert.ok(both.kubectl.length >= 5, both.kubectl.join('\n'));
  for (const e of reference) {
    assert.ok(both.kubectl.some((row) => row.includes(` | ${e.reason} | ${e.involvedObject.kind}/${e.involvedObject.name} | ${e.message}`)), `${e.reason} missing`);
  }
});

test('deleting the Deployment makes the garbage collector remove its ReplicaSet and Pods', async () => {
  const ns = await freshNamespace(cp.kubeconfig, 'ctl-gc');
  await createDeployment(cp.kubeconfig, ns, 'api', { replicas: 2 });
  await waitForPods(cp.kubeconfig, ns, 'api', 2);
  // Background propagation (kubectl's default): the Deployment goes at once, its dependents
  // only through the garbage collector.
  await kubectlOk(cp.kubeconfig, ['-n', ns, 'delete', 'deployment', 'api', '--wait=false']);
  await waitFor('the ReplicaSet and Pods of api to be collected', async () => {
    const sets = await listObjects(cp.kubeconfig, ns, 'replicasets');
    const pods = await listObjects(cp.kubeconfig, ns, 'pods');
    return sets.length === 0 && pods.length === 0;
  });
  assert.deepEqual(await listObjects(cp.kubeconfig, ns, 'deployments'), []);
});

test('a new namespace gets its default ServiceAccount and root CA; deleting it removes them', async () => {
  const ns = await freshNamespace(cp.kubeconfig, 'ctl-ns');
  const sa = await kubectlJSON<KubeObject>(cp.kubeconfig, ['-n', ns, 'get', 'serviceaccount', 'default']);
  assert.equal(sa.metadata.namespace, ns);
  await waitFor('ConfigMap kube-root-ca.crt', async () =>
    (await kubectlOk(cp.kubeconfig, ['-n', ns, 'get', 'configmap', 'kube-root-ca.crt', '--ignore-not-found', '-o', 'name'])).trim() !== '',
  );
  await createDeployment(cp.kubeconfig, ns, 'doomed', { replicas: 1 });
  await waitForPods(cp.kubeconfig, ns, 'doomed', 1);
  await deleteNamespace(cp.kubeconfig, ns, { wait: true });
  const left = await kubectlOk(cp.kubeconfig, ['get', 'serviceaccounts', '-A', '--field-selector', `metadata.namespace=${ns}`, '-o', 'name']);
  assert.equal(left.trim(), '');
});

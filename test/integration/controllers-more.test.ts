// Every controller the test control plane promises is at work (issue 10: "at least these
// controllers run"), each shown by what it did to objects a test made: the replicationcontroller,
// cronjob, job and ttl-after-finished, endpoints, endpointslice and endpointslice-mirroring,
// resourcequota, disruption, pod garbage collection and ttl controllers. (deployment, replicaset,
// garbage collector, namespace, serviceaccount, root CA publisher: controllers.test.ts; statefulset,
// daemonset, job: tree-controllers.test.ts; node lifecycle and taint eviction: node-failure.test.ts;
// clusterrole aggregation: the supervisor waits for it, and auth tests bind `view`.) Everything is
// made up front so the slow ones (a CronJob fires on the minute; pod GC waits 40 s for a missing
// node, pkg/controller/podgc/gc_controller.go quarantineTime) wait at the same time. Last, the
// plugin's table of all their events is compared with kubectl events, row for row.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedControlPlane, type ControlPlane } from '../harness/controlplane.ts';
import { applyObjects, kubectlJSON } from '../harness/kubectl.ts';
import { getObject } from '../harness/api-direct.ts';
import { readBoth } from '../harness/kubectl-events.ts';
import { freshNamespace } from '../harness/namespace.ts';
import { waitFor } from '../harness/wait.ts';
import { condition, createDeployment, listEvents, listObjects, waitForEvent, waitForPods, type KubeObject } from '../harness/workloads.ts';

const cpPromise = sharedControlPlane();
let cp: ControlPlane;
let ns: string;

const container = { name: 'main', image: 'registry.k8s.io/pause:3.10', resources: { requests: { cpu: '10m' } } };
const template = (labels: Record<string, string>, restartPolicy = 'Always') => ({ metadata: { labels }, spec: { restartPolicy, containers: [container] } });

before(async () => {
  cp = await cpPromise;
  ns = await freshNamespace(cp.kubeconfig, 'ctl-more');
  await createDeployment(cp.kubeconfig, ns, 'web', { replicas: 1 });
  await applyObjects(cp.kubeconfig, [
    { apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'legacy', namespace: ns }, spec: { replicas: 1, selector: { app: 'legacy' }, template: template({ app: 'legacy' }) } },
    {
      apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'tick', namespace: ns },
      spec: { schedule: '* * * * *', jobTemplate: { spec: { template: template({ app: 'tick' }, 'Never') } } },
    },
    {
      apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'brief', namespace: ns },
      spec: { activeDeadlineSeconds: 1, ttlSecondsAfterFinished: 0, backoffLimit: 0, template: template({ app: 'brief' }, 'Never') },
    },
    { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: ns }, spec: { selector: { app: 'web' }, ports: [{ port: 80 }] } },
    // No selector: its Endpoints are written by hand, and the mirroring controller copies them into a slice.
    { apiVersion: 'v1', kind: 'Service', metadata: { name: 'outside', namespace: ns }, spec: { ports: [{ port: 5432 }] } },
    {
      apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'outside', namespace: ns },
      subsets: [{ addresses: [{ ip: '192.0.2.10' }], ports: [{ port: 5432 }] }],
    },
    { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'web', namespace: ns }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } } },
    // Bound to a node that does not exist: no kubelet will ever run it.
    { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'stranded', namespace: ns }, spec: { nodeName: `gone-${ns}`, containers: [container] } },
  ]);
  // The quota comes once the pods are there: until the quota controller has filled in its status
  // the ResourceQuota admission plugin refuses every pod of the namespace.
  await waitForPods(cp.kubeconfig, ns, 'legacy', 1);
  await applyObjects(cp.kubeconfig, [{ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'pods', namespace: ns }, spec: { hard: { pods: '10' } } }]);
});

test('replicationcontroller: a ReplicationController of 1 gets its pod, and says so', async () => {
  const [pod] = await waitForPods(cp.kubeconfig, ns, 'legacy', 1);
  assert.ok(pod);
  assert.equal(pod.metadata.ownerReferences?.[0]?.kind, 'ReplicationController');
  const created = await waitForEvent(cp.kubeconfig, ns, 'SuccessfulCreate about legacy', (e) => e.involvedObject.name === 'legacy' && e.reason === 'SuccessfulCreate');
  assert.equal(created.message, `Created pod: ${pod.metadata.name}`);
  assert.equal(created.source?.component, 'replication-controller');
});

test('cronjob: the CronJob makes a Job on the minute, owned by it, and says so', async () => {
  const created = await waitForEvent(cp.kubeconfig, ns, 'SuccessfulCreate about tick', (e) => e.involvedObject.name === 'tick' && e.reason === 'SuccessfulCreate');
  assert.equal(created.involvedObject.kind, 'CronJob');
  assert.equal(created.source?.component, 'cronjob-controller');
  const job = /^Created job (tick-\d+)$/.exec(created.message)?.[1];
  assert.ok(job, created.message);
  const stored = await kubectlJSON<KubeObject>(cp.kubeconfig, ['-n', ns, 'get', 'job', job]);
  assert.equal(stored.metadata.ownerReferences?.[0]?.kind, 'CronJob');
});

test('job and ttl-after-finished: a Job past its deadline fails (DeadlineExceeded) and is then deleted', async () => {
  const exceeded = await waitForEvent(cp.kubeconfig, ns, 'DeadlineExceeded about brief', (e) => e.involvedObject.name === 'brief' && e.reason === 'DeadlineExceeded');
  assert.equal(exceeded.type, 'Warning');
  assert.equal(exceeded.source?.component, 'job-controller');
  assert.equal(exceeded.message, 'Job was active longer than specified deadline');
  await waitFor('Job brief deleted by the ttl-after-finished controller', async () => (await getObject(cp.kubeconfig, 'jobs', 'brief', ns)) === null);
});

test('endpoints and endpointslice: a Service with a selector gets its Endpoints and an EndpointSlice', async () => {
  const slice = await waitFor('EndpointSlice of web', async () =>
    (await listObjects(cp.kubeconfig, ns, 'endpointslices', 'kubernetes.io/service-name=web'))[0],
  );
  assert.equal(slice.metadata.labels?.['endpointslice.kubernetes.io/managed-by'], 'endpointslice-controller.k8s.io');
  assert.equal(slice.metadata.ownerReferences?.[0]?.kind, 'Service');
  await waitFor('Endpoints web', async () => (await getObject(cp.kubeconfig, 'endpoints', 'web', ns)) !== null);
});

test('endpointslice-mirroring: hand-written Endpoints of a selectorless Service are mirrored into a slice', async () => {
  interface Slice extends KubeObject {
    endpoints?: { addresses: string[] }[];
  }
  const slice = await waitFor('mirrored EndpointSlice of outside', async () =>
    (await kubectlJSON<{ items: Slice[] }>(cp.kubeconfig, ['-n', ns, 'get', 'endpointslices', '-l', 'kubernetes.io/service-name=outside'])).items[0],
  );
  assert.equal(slice.metadata.labels?.['endpointslice.kubernetes.io/managed-by'], 'endpointslicemirroring-controller.k8s.io');
  assert.deepEqual(slice.endpoints?.map((e) => e.addresses), [['192.0.2.10']]);
});

test('resourcequota: the quota counts the pods of the namespace', async () => {
  const quota = await waitFor('quota status', async () => {
    const q = await kubectlJSON<KubeObject & { status?: { hard?: { pods?: string }; used?: { pods?: string } } }>(cp.kubeconfig, ['-n', ns, 'get', 'resourcequota', 'pods']);
    return q.status?.used?.pods !== undefined && Number(q.status.used.pods) >= 2 ? q : undefined;
  });
  assert.equal(quota.status?.hard?.pods, '10');
});

test('disruption: the PodDisruptionBudget sees the Deployment’s one healthy pod and allows no disruption', async () => {
  const pdb = await waitFor('PDB status', async () => {
    const p = await kubectlJSON<KubeObject & { status?: { expectedPods?: number; currentHealthy?: number; disruptionsAllowed?: number } }>(
      cp.kubeconfig, ['-n', ns, 'get', 'poddisruptionbudget', 'web'],
    );
    return p.status?.expectedPods === 1 && p.status.currentHealthy === 1 ? p : undefined;
  });
  assert.equal(pdb.status?.disruptionsAllowed, 0);
  assert.equal(condition(pdb, 'DisruptionAllowed'), 'False');
});

test('pod garbage collection: a pod bound to a node that does not exist is deleted', async () => {
  await waitFor('pod stranded collected', async () => (await getObject(cp.kubeconfig, 'pods', 'stranded', ns)) === null);
});

test('ttl: node-1 carries the TTL annotation the ttl controller sets', async () => {
  const node = await kubectlJSON<KubeObject & { metadata: { annotations?: Record<string, string> } }>(cp.kubeconfig, ['get', 'node', 'node-1']);
  assert.equal(node.metadata.annotations?.['node.alpha.kubernetes.io/ttl'], '0');
});

test('the plugin’s table says what kubectl events says of all these controllers’ events, row for row', async () => {
  const reporters = new Set((await listEvents(cp.kubeconfig, ns)).map((e) => e.source?.component || e.reportingComponent));
  for (const r of ['replication-controller', 'cronjob-controller', 'job-controller', 'deployment-controller', 'replicaset-controller', 'default-scheduler']) {
    assert.ok(reporters.has(r), `${r} in ${[...reporters].join(', ')}`);
  }
  const both = await readBoth(cp.kubeconfig, ['-n', ns]);
  assert.deepEqual(both.plugin, both.kubectl);
  assert.deepEqual(both.ages, []);
});

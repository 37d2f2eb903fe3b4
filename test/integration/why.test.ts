// The Why of `incident` on the real control plane: the scheduler, the ReplicaSet, Deployment and Job
// controllers, admission (ResourceQuota, LimitRanger, PodSecurity) and the node lifecycle and taint
// eviction controllers write the status and events; each cause is compared with what `kubectl
// describe` shows for the same object. Its own control plane: two nodes and short node failure
// timings, as node-failure.test.ts. Causes that need a kubelet running containers (OOMKilled, exits,
// image pulls, missing ConfigMaps and Secrets, probes, a Job's back-off) are in why-real-node.test.ts.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getObject } from '../harness/api-direct.ts';
import { FAST_NODE_FAILURE, startControlPlane, type ControlPlane } from '../harness/controlplane.ts';
import { describedMessages, whyOf } from '../harness/described.ts';
import { applyObjects, kubectlJSON, kubectlOk } from '../harness/kubectl.ts';
import { freshNamespace } from '../harness/namespace.ts';
import { stageNodeFailure } from '../harness/node-failure.ts';
import { evtimeline, kubectl } from '../harness/plugin.ts';
import { waitFor } from '../harness/wait.ts';
import { createDeployment, deploymentObject, listEvents, listObjects, waitForEvent } from '../harness/workloads.ts';
import { formatQuantity, parseQuantity } from '../../src/core/quantity.ts';
import { scratchDir } from '../support/tmp.ts';

/** This file's temporary folders live under one, removed when the file ends. */
const SCRATCH = scratchDir('why');

let cp: ControlPlane;

before(async () => {
  cp = await startControlPlane({ ...FAST_NODE_FAILURE, nodes: 2 });
});

after(() => cp?.stop());

async function incident(args: string[], kubeconfig = cp.kubeconfig): Promise<string> {
  const r = await evtimeline(['incident', ...args], kubeconfig);
  assert.equal(r.code, 0, r.stderr);
  return r.stdout;
}

/** `kubectl describe node`'s Allocatable cpu and its Allocated resources cpu requests, in cores. */
async function describedCpu(node: string): Promise<{ allocatable: number; requested: number }> {
  const text = await kubectlOk(cp.kubeconfig, ['describe', 'node', node]);
  const allocatable = /\nAllocatable:\n(?:\s+\S+:\s+\S+\n)*?\s+cpu:\s+(\S+)\n/.exec(text)?.[1];
  const requested = /\nAllocated resources:\n[\s\S]*?\n\s+cpu\s+(\S+) /.exec(text)?.[1];
  assert.ok(allocatable !== undefined && requested !== undefined, text);
  return { allocatable: parseQuantity(allocatable) ?? Number.NaN, requested: parseQuantity(requested) ?? Number.NaN };
}

test('a Pod no node can hold: the scheduler read with the numbers, the most free cpu as kubectl describe node sums it', async () => {
  const ns = await freshNamespace(cp.kubeconfig, 'why-fit');
  await createDeployment(cp.kubeconfig, ns, 'hungry', { cpu: '64' });
  await waitForEvent(cp.kubeconfig, ns, 'FailedScheduling', (e) => e.reason === 'FailedScheduling');
  const why = whyOf(await incident(['-n', ns]));
  const free = await Promise.all(cp.nodes.map(async (node) => ({ node, ...(await describedCpu(node)) })));
  const best = free.reduce((a, b) => (b.allocatable - b.requested > a.allocatable - a.requested ? b : a));
  const line = why.find((l) => l.includes('cannot be scheduled'));
  assert.ok(line !== undefined, why.join('\n'));
  assert.match(line, /^ {2}Pod\/hungry-\S+: cannot be scheduled: 0\/2 nodes are available: 2 Insufficient cpu; /);
  assert.ok(line.includes(`; requests cpu 64; the most any node has free is ${formatQuantity('cpu', best.allocatable - best.requested)} of ${formatQuantity('cpu', best.allocatable)} (${best.node}).`), `${line}\n${JSON.stringify(free)}`);
  // -o json: the same cause, with the field paths it was read from.
  const json = JSON.parse((await evtimeline(['incident', '-n', ns, '-o', 'json'], cp.kubeconfig)).stdout);
  const cause = json.causes.find((c: { kind: string }) => c.kind === 'unschedulable');
  assert.deepEqual(cause.detail.shortfalls[0].best.node, best.node);
  assert.ok(cause.evidence.some((e: { object: string; path: string }) => e.object === `Node/${best.node}` && e.path === 'status.allocatable.cpu'));
  assert.equal(json.causesFrom.status, true);
});

test('a quota that refuses a ReplicaSet: named with requested, used and limited, as kubectl describe quota shows them', async () => {
  const ns = await freshNamespace(cp.kubeconfig, 'why-quota');
  await applyObjects(cp.kubeconfig, [{ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'one-pod', namespace: ns }, spec: { hard: { pods: '1' } } }]);
  await waitFor('the quota counted', async () => ((await getObject(cp.kubeconfig, 'resourcequotas', 'one-pod', ns))?.status?.hard ? true : undefined));
  await createDeployment(cp.kubeconfig, ns, 'web', { replicas: 2 });
  const refused = await waitForEvent(cp.kubeconfig, ns, 'FailedCreate', (e) => e.reason === 'FailedCreate' && e.message.includes('exceeded quota'));
  const described = await kubectlOk(cp.kubeconfig, ['-n', ns, 'describe', 'resourcequota', 'one-pod']);
  assert.match(described, /\npods\s+1\s+1\n/);
  const why = whyOf(await incident(['-n', ns]));
  assert.ok(
    why.includes(`  ReplicaSet/${refused.involvedObject.name}: cannot create Pods: ResourceQuota "one-pod" refused them (requested pods=1, used pods=1, limited pods=1) (its hard limits: pods=1).`),
    why.join('\n'),
  );
});

/**
 * The admission message the Why tells for an object that cannot create Pods. Each retry of a
 * generateName'd Pod is refused with its own name (validating admission runs after the name is made,
 * k8s.io/apiserver pkg/registry/generic/registry/store.go Create), so the newest is told: it is read
 * first, and kubectl describe, read after, must hold it among its events.
 */
/**
 * The refusal with the refused Pod's generated name left out: the combined event is one object whose
 * message each retry rewrites with its own Pod's name, so what describe shows after the Why was read
 * may name a later Pod; the admission's words must be the same.
 */
const withoutPodName = (message: string): string => message.replace(/^(?:Error creating: )?pods "[a-z0-9-]+" is forbidden: /, 'pods "<generated>" is forbidden: ');

async function refusalTold(object: string, ns: string): Promise<string> {
  const why = whyOf(await incident(['-n', ns]));
  const prefix = `  ${object}: cannot create Pods: `;
  const line = why.find((l) => l.startsWith(prefix));
  assert.ok(line !== undefined && line.endsWith('.'), why.join('\n'));
  return line.slice(prefix.length, -1);
}

test('a LimitRange that refuses a ReplicaSet: the admission message, as kubectl describe replicaset shows it', async () => {
  const ns = await freshNamespace(cp.kubeconfig, 'why-limits');
  // Type Pod has no defaults (pkg/apis/core/v1/defaults.go SetDefaults_LimitRangeItem fills them for
  // Container only): a Pod without a cpu limit is refused by LimitRanger's max, not changed.
  await applyObjects(cp.kubeconfig, [{ apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'small', namespace: ns }, spec: { limits: [{ type: 'Pod', max: { cpu: '100m' } }] } }]);
  await createDeployment(cp.kubeconfig, ns, 'web', { cpu: '200m' });
  // Each retry's Pod has its own name: after ten different messages the recorder combines them, and
  // the Why tells the admission's words without the recorder's prefix.
  const refused = await waitForEvent(cp.kubeconfig, ns, 'FailedCreate combined', (e) => e.reason === 'FailedCreate' && e.involvedObject.kind === 'ReplicaSet' && e.message.startsWith('(combined from similar events): '));
  const message = await refusalTold(`ReplicaSet/${refused.involvedObject.name}`, ns);
  assert.match(message, /^pods "web-[^"]+" is forbidden: maximum cpu usage per Pod is 100m\.  No limit is specified$/);
  const described = await kubectlOk(cp.kubeconfig, ['-n', ns, 'describe', 'replicaset', refused.involvedObject.name]);
  assert.ok(describedMessages(described, 'FailedCreate').map(withoutPodName).includes(withoutPodName(message)), `${message}\n${described}`);
  assert.match(described, /\n\s+ReplicaFailure\s+True\s+FailedCreate\n/);
});

test('PodSecurity admission that refuses a Job\'s Pods: the admission message, as kubectl describe job shows it', async () => {
  const ns = await freshNamespace(cp.kubeconfig, 'why-podsecurity');
  await kubectlOk(cp.kubeconfig, ['label', 'namespace', ns, 'pod-security.kubernetes.io/enforce=restricted']);
  const job = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'migrate', namespace: ns },
    spec: { backoffLimit: 0, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'migrate', image: 'registry.k8s.io/pause:3.10' }] } } },
  };
  await applyObjects(cp.kubeconfig, [job]);
  await waitForEvent(cp.kubeconfig, ns, 'FailedCreate', (e) => e.reason === 'FailedCreate' && e.involvedObject.kind === 'Job');
  const message = await refusalTold('Job/migrate', ns);
  assert.match(message, /^pods "migrate-[^"]+" is forbidden: violates PodSecurity "restricted:latest": .*runAsNonRoot != true/);
  const described = await kubectlOk(cp.kubeconfig, ['-n', ns, 'describe', 'job', 'migrate']);
  assert.ok(describedMessages(described, 'FailedCreate').map(withoutPodName).includes(withoutPodName(message)), `${message}\n${described}`);
});

test('a rollout past its progress deadline, as kubectl describe deployment says it; the same after record, deleting the Deployment and incident --from', async () => {
  const ns = await freshNamespace(cp.kubeconfig, 'why-deadline');
  const deployment = deploymentObject(ns, 'slow', { cpu: '64' });
  delete (deployment.metadata as { uid?: string }).uid;
  (deployment.spec as Record<string, unknown>).progressDeadlineSeconds = 2;
  await applyObjects(cp.kubeconfig, [deployment]);
  const condition = await waitFor('ProgressDeadlineExceeded', async () => {
    const d = await kubectlJSON<{ status?: { conditions?: { type: string; status: string; reason: string; message: string }[] } }>(cp.kubeconfig, ['-n', ns, 'get', 'deployment', 'slow']);
    return d.status?.conditions?.find((c) => c.type === 'Progressing' && c.reason === 'ProgressDeadlineExceeded');
  });
  assert.match(await kubectlOk(cp.kubeconfig, ['-n', ns, 'describe', 'deployment', 'slow']), /\n\s+Progressing\s+False\s+ProgressDeadlineExceeded\n/);
  const expected = `  Deployment/slow: is past its progress deadline (2s): ${condition.message}.`;
  assert.ok(whyOf(await incident(['-n', ns])).includes(expected), await incident(['-n', ns]));

  const dir = mkdtempSync(join(SCRATCH, 'record-'));
  const file = join(dir, 'slow.jsonl');
  const recorded = await evtimeline(['record', '-n', ns, file, '--duration', '3s'], cp.kubeconfig);
  assert.equal(recorded.code, 0, recorded.stderr);
  const statusLines = readFileSync(file, 'utf8').split('\n').filter((l) => l.includes('"kind":"EvtimelineStatus"'));
  assert.ok(statusLines.some((l) => l.includes('"kind":"Deployment"') && l.includes('ProgressDeadlineExceeded')), statusLines.join('\n'));
  // Once per object and change of fact: not a line per read.
  const perObject = new Map<string, number>();
  for (const l of statusLines) {
    const facts = (JSON.parse(l) as { facts?: { kind: string; name: string } }).facts;
    if (facts) perObject.set(`${facts.kind}/${facts.name}`, (perObject.get(`${facts.kind}/${facts.name}`) ?? 0) + 1);
  }
  assert.equal(perObject.get('Deployment/slow'), 1, JSON.stringify([...perObject]));

  await kubectlOk(cp.kubeconfig, ['-n', ns, 'delete', 'deployment', 'slow', '--wait=true']);
  await waitFor('the Pods gone', async () => (await listObjects(cp.kubeconfig, ns, 'pods')).length === 0);
  const replayed = whyOf(await incident(['--from', file]));
  assert.ok(replayed.includes(expected), replayed.join('\n'));
  // The live account of the same namespace no longer has the Deployment to read.
  assert.ok(!whyOf(await incident(['-n', ns])).includes(expected));
});

test('without the right to read Pods or Nodes, the Why names what is missing and still tells what the events state', async () => {
  const ns = await freshNamespace(cp.kubeconfig, 'why-rbac');
  await createDeployment(cp.kubeconfig, ns, 'hungry', { cpu: '64' });
  await waitForEvent(cp.kubeconfig, ns, 'FailedScheduling', (e) => e.reason === 'FailedScheduling');
  const role = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'events-only', namespace: ns }, rules: [{ apiGroups: [''], resources: ['events'], verbs: ['get', 'list', 'watch'] }] };
  const binding = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'events-only', namespace: ns }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'events-only' }, subjects: [{ kind: 'ServiceAccount', name: 'reader', namespace: ns }] };
  await kubectlOk(cp.kubeconfig, ['-n', ns, 'create', 'serviceaccount', 'reader']);
  await applyObjects(cp.kubeconfig, [role, binding]);
  const token = (await kubectlOk(cp.kubeconfig, ['-n', ns, 'create', 'token', 'reader'])).trim();
  // The admin kubeconfig's cluster, with the service account's token as its user.
  const config = JSON.parse(await kubectlOk(cp.kubeconfig, ['config', 'view', '--raw', '--minify', '-o', 'json'])) as { users: { user: unknown }[] };
  for (const u of config.users) u.user = { token };
  const readerConfig = join(mkdtempSync(join(SCRATCH, 'rbac-')), 'kubeconfig');
  writeFileSync(readerConfig, JSON.stringify(config));
  const denied = await kubectl(['-n', ns, 'auth', 'can-i', 'list', 'pods'], readerConfig);
  assert.equal(denied.stdout.trim(), 'no');
  const why = whyOf(await incident(['-n', ns], readerConfig));
  assert.ok(why.includes(`  Not read: pods in ${ns} (forbidden): causes written in their status are not told.`), why.join('\n'));
  assert.ok(why.includes('  Not read: nodes (forbidden): causes written in their status are not told.'), why.join('\n'));
  // What the scheduler's event states is still told, without numbers it could not read.
  assert.ok(why.some((l) => /^ {2}Pod\/hungry-\S+: cannot be scheduled: 0\/2 nodes are available: 2 Insufficient cpu\.$/.test(l)), why.join('\n'));
});

test("the demo's node failure: the Why names the node, when it stopped reporting, its taint and the Pods it lost, as kubectl describe node shows it", async () => {
  const ns = await freshNamespace(cp.kubeconfig, 'why-node');
  const staged = await stageNodeFailure(cp, ns);
  const node = await kubectlJSON<{ status: { conditions: { type: string; status: string; reason: string; lastTransitionTime: string }[] } }>(cp.kubeconfig, ['get', 'node', staged.node]);
  const ready = node.status.conditions.find((c) => c.type === 'Ready');
  const described = await kubectlOk(cp.kubeconfig, ['describe', 'node', staged.node]);
  assert.match(described, /\nTaints:\s+node\.kubernetes\.io\/unreachable:NoExecute\n/);
  assert.match(described, /\n\s+Ready\s+Unknown\s+/);
  const text = await incident(['-n', ns, '--for', `deploy/${staged.deployment}`, '--tree']);
  const why = whyOf(text);
  const line = why.find((l) => l.startsWith(`  Node/${staged.node}: stopped reporting at `));
  assert.ok(line !== undefined, text);
  const at = new Date(ready?.lastTransitionTime ?? '').toISOString().replace('.000Z', 'Z');
  assert.ok(line.includes(`stopped reporting at ${at}, Ready=Unknown (NodeStatusUnknown); the taint node.kubernetes.io/unreachable:NoExecute evicts its Pods; Pods it lost: `), line);
  const evicted = (await listEvents(cp.kubeconfig, ns)).filter((e) => e.reason === 'TaintManagerEviction').map((e) => `${ns}/${e.involvedObject.name}`);
  assert.ok(evicted.length >= 2);
  for (const pod of evicted) assert.ok(line.includes(pod), `${pod} in ${line}`);
  // The lost node comes first; the replacements that cannot be placed follow, with the taint's key.
  assert.equal(why[0], line);
  assert.ok(why.some((l) => /cannot be scheduled: .*untolerated taints: node-1 node\.kubernetes\.io\/unreachable:NoSchedule/.test(l)), why.join('\n'));
});

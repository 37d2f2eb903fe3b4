// The Why of `incident` for each way the real scheduler says it cannot place a Pod (node affinity,
// unbound PersistentVolumeClaims, topology spread, cordoned nodes, an extended resource no node has),
// each compared with the FailedScheduling message `kubectl describe pod` shows for the same Pod; and
// a Pod gone before its status was read.
// Its own control plane of two nodes, as it cordons one of them. Only the scheduler and the
// controllers act: no kubelet runs these Pods.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { startControlPlane, type ControlPlane } from '../harness/controlplane.ts';
import { describedMessages, whyOf } from '../harness/described.ts';
import { applyObjects, kubectlOk } from '../harness/kubectl.ts';
import { freshNamespace } from '../harness/namespace.ts';
import { evtimeline, kubectl } from '../harness/plugin.ts';
import { waitFor } from '../harness/wait.ts';
import { listEvents, waitForEvent } from '../harness/workloads.ts';
import { scratchDir } from '../support/tmp.ts';

/** This file's temporary folders live under one, removed when the file ends. */
const SCRATCH = scratchDir('why-scheduling');

let cp: ControlPlane;

before(async () => {
  cp = await startControlPlane({ nodes: 2 });
});

after(() => cp?.stop());

async function incident(args: string[]): Promise<string> {
  const r = await evtimeline(['incident', ...args], cp.kubeconfig);
  assert.equal(r.code, 0, r.stderr);
  return r.stdout;
}

/** A bare Pod (no kubelet runs it: the image is never pulled) with `spec` merged into its spec. */
function podObject(ns: string, name: string, spec: Record<string, unknown> = {}, container: Record<string, unknown> = {}): unknown {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: ns, labels: { app: name } },
    spec: { containers: [{ name: 'main', image: 'registry.k8s.io/pause:3.10', ...container }], ...spec },
  };
}

/** Applies the Pod and waits for the scheduler's FailedScheduling on it. */
async function unplaced(ns: string, pod: unknown): Promise<void> {
  await applyObjects(cp.kubeconfig, [pod]);
  const name = (pod as { metadata: { name: string } }).metadata.name;
  await waitForEvent(cp.kubeconfig, ns, `FailedScheduling of ${name}`, (e) => e.reason === 'FailedScheduling' && e.involvedObject.name === name);
}

/**
 * The Why's line for Pod `name`, checked against `kubectl describe pod`: the Why tells the filter's
 * reasons of the scheduler's message, up to its first ". " (PostFilter's preemption words follow,
 * pkg/scheduler/framework/types.go FitError.Error). Returns what the Why adds after them.
 */
async function toldAsDescribed(ns: string, name: string): Promise<string> {
  const why = whyOf(await incident(['-n', ns]));
  const prefix = `  Pod/${name}: cannot be scheduled: `;
  const line = why.find((l) => l.startsWith(prefix));
  assert.ok(line !== undefined, why.join('\n'));
  const described = await kubectlOk(cp.kubeconfig, ['-n', ns, 'describe', 'pod', name]);
  const messages = describedMessages(described, 'FailedScheduling');
  assert.ok(messages.length > 0, described);
  const told = line.slice(prefix.length);
  const match = messages.map((m) => /^([\s\S]*?)(?:\.(?: |$)|$)/.exec(m)?.[1] ?? m).find((reasons) => told.startsWith(reasons) && /^[;.]/.test(told.slice(reasons.length)));
  assert.ok(match !== undefined, `${line}\n${described}`);
  return told.slice(match.length);
}

test('a node selector no node matches: the scheduler\'s reasons, as kubectl describe pod shows them', async () => {
  const ns = await freshNamespace(cp.kubeconfig, 'why-affinity');
  await unplaced(ns, podObject(ns, 'picky', { nodeSelector: { 'example.com/disk': 'ssd' } }));
  assert.equal(await toldAsDescribed(ns, 'picky'), '.');
  assert.ok(whyOf(await incident(['-n', ns])).includes("  Pod/picky: cannot be scheduled: 0/2 nodes are available: 2 node(s) didn't match Pod's node affinity/selector."));
});

test('an unbound PersistentVolumeClaim whose storage class does not exist: the claim, its phase and class named', async () => {
  const ns = await freshNamespace(cp.kubeconfig, 'why-pvc');
  const claim = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data', namespace: ns }, spec: { storageClassName: 'no-such-class', accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } };
  await applyObjects(cp.kubeconfig, [claim]);
  await unplaced(ns, podObject(ns, 'db', { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }] }));
  const rest = await toldAsDescribed(ns, 'db');
  const pvc = await kubectlOk(cp.kubeconfig, ['-n', ns, 'describe', 'pvc', 'data']);
  assert.match(pvc, /\nStorageClass:\s+no-such-class\n/);
  assert.match(pvc, /\nStatus:\s+Pending\n/);
  assert.equal(rest, '; PersistentVolumeClaim data is Pending (storage class no-such-class).');
});

test('topology spread that cannot be satisfied (DoNotSchedule): the scheduler\'s reasons, as kubectl describe pod shows them', async () => {
  const ns = await freshNamespace(cp.kubeconfig, 'why-spread');
  const pinned = { nodeSelector: { 'kubernetes.io/hostname': 'node-1' } };
  // One Pod of the group on node-1, placed by the scheduler itself (so its cache holds it).
  await applyObjects(cp.kubeconfig, [{ ...(podObject(ns, 'first', pinned) as object), metadata: { name: 'first', namespace: ns, labels: { group: 'spread' } } }]);
  await waitForEvent(cp.kubeconfig, ns, 'Scheduled first', (e) => e.reason === 'Scheduled' && e.involvedObject.name === 'first');
  // A second one pinned to node-1 too, skew at most 1 per hostname counting node-2 (which it may
  // not use: nodeAffinityPolicy Ignore): node-1 would hold 2 and node-2 0.
  const constraint = { maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'DoNotSchedule', nodeAffinityPolicy: 'Ignore', labelSelector: { matchLabels: { group: 'spread' } } };
  await unplaced(ns, { ...(podObject(ns, 'second', { ...pinned, topologySpreadConstraints: [constraint] }) as object), metadata: { name: 'second', namespace: ns, labels: { group: 'spread' } } });
  assert.equal(await toldAsDescribed(ns, 'second'), '.');
  const line = whyOf(await incident(['-n', ns])).find((l) => l.startsWith('  Pod/second: '));
  assert.match(line ?? '', /1 node\(s\) didn't match pod topology spread constraints/);
});

test('a cordoned node: named as cordoned, as kubectl describe node shows it', async () => {
  const ns = await freshNamespace(cp.kubeconfig, 'why-cordon');
  await kubectlOk(cp.kubeconfig, ['cordon', 'node-2']);
  try {
    assert.match(await kubectlOk(cp.kubeconfig, ['describe', 'node', 'node-2']), /\nUnschedulable:\s+true\n/);
    await unplaced(ns, podObject(ns, 'stuck', { nodeSelector: { 'kubernetes.io/hostname': 'node-2' } }));
    const rest = await toldAsDescribed(ns, 'stuck');
    assert.equal(rest, '; cordoned: node-2.');
    const line = whyOf(await incident(['-n', ns])).find((l) => l.startsWith('  Pod/stuck: '));
    assert.match(line ?? '', /1 node\(s\) were unschedulable/);
  } finally {
    await kubectlOk(cp.kubeconfig, ['uncordon', 'node-2']);
  }
});

test('an extended resource no node has: Insufficient named with what the Pod requests', async () => {
  const ns = await freshNamespace(cp.kubeconfig, 'why-extended');
  await unplaced(ns, podObject(ns, 'widgety', {}, { resources: { requests: { 'example.com/widget': '1' }, limits: { 'example.com/widget': '1' } } }));
  const rest = await toldAsDescribed(ns, 'widgety');
  assert.match(await kubectlOk(cp.kubeconfig, ['-n', ns, 'describe', 'pod', 'widgety']), /\n\s+example\.com\/widget:\s+1\n/);
  assert.equal(rest, '; requests example.com/widget 1.');
  const line = whyOf(await incident(['-n', ns])).find((l) => l.startsWith('  Pod/widgety: '));
  assert.equal(line, '  Pod/widgety: cannot be scheduled: 0/2 nodes are available: 2 Insufficient example.com/widget; requests example.com/widget 1.');
});

test('a Pod gone before its status was read: its status unknown, as kubectl describe finds nothing; a record made before tells the cause', async () => {
  const ns = await freshNamespace(cp.kubeconfig, 'why-gone');
  await unplaced(ns, podObject(ns, 'brief', { nodeSelector: { 'example.com/disk': 'ssd' } }));
  const file = join(mkdtempSync(join(SCRATCH, 'gone-')), 'brief.jsonl');
  const recorded = await evtimeline(['record', '-n', ns, file, '--duration', '3s'], cp.kubeconfig);
  assert.equal(recorded.code, 0, recorded.stderr);
  await kubectlOk(cp.kubeconfig, ['-n', ns, 'delete', 'pod', 'brief', '--wait=true']);
  const gone = await kubectl(['-n', ns, 'describe', 'pod', 'brief'], cp.kubeconfig);
  assert.notEqual(gone.code, 0);
  assert.match(gone.stderr, /pods "brief" not found/);
  // Its events outlive it (their TTL is an hour).
  await waitFor('the events kept', async () => (await listEvents(cp.kubeconfig, ns)).some((e) => e.involvedObject.name === 'brief' && e.reason === 'FailedScheduling'));
  const why = whyOf(await incident(['-n', ns]));
  assert.ok(why.includes('  Status unknown (gone before it was read): Pod/brief.'), why.join('\n'));
  // The record read it while it was there: no unknown status, the cause as it was.
  const replayed = whyOf(await incident(['--from', file]));
  assert.ok(!replayed.some((l) => l.includes('Status unknown')), replayed.join('\n'));
  assert.ok(replayed.includes("  Pod/brief: cannot be scheduled: 0/2 nodes are available: 2 node(s) didn't match Pod's node affinity/selector."), replayed.join('\n'));
});

// lookUpObjects against the real control plane: 20 pods and events about them, plus events about a
// pod deleted since, in a fresh namespace; Node node-1 and Nodes that never existed. The admin's
// lookups cost one discovery and one LIST per collection; a reader granted get but not list on pods
// is answered the same, one GET at a time.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { normaliseEvent } from '../../src/core/event.ts';
import type { ObjectRef } from '../../src/core/event.ts';
import { objectKey } from '../../src/core/identity.ts';
import { objectsToLookUp } from '../../src/core/incarnation.ts';
import { loadKubeTarget } from '../../src/kube/kubeconfig.ts';
import { lookUpObjects } from '../../src/kube/objects.ts';
import { targetGetter } from '../../src/kube/http.ts';
import type { Getter } from '../../src/kube/http.ts';
import { sharedControlPlane } from '../harness/controlplane.ts';
import type { ControlPlane } from '../harness/controlplane.ts';
import { rfc3339Seconds } from '../harness/lab.ts';
import { freshNamespace } from '../harness/namespace.ts';

const cpPromise = sharedControlPlane();
let cp: ControlPlane;
let ns: string;
let refs: ObjectRef[];
const PODS = Array.from({ length: 20 }, (_, i) => `web-${i}`);
const DELETED = 'web-deleted';

function kubectl(args: string[], input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile('kubectl', [`--kubeconfig=${cp.kubeconfig}`, '-n', ns, ...args], { timeout: 60_000, maxBuffer: 32 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`kubectl ${args.join(' ')} failed: ${stderr || err.message}`));
      else resolve(stdout);
    });
    // A process that exits before reading its stdin closes the pipe: its exit code and stderr say why, not EPIPE.
    child.stdin?.on('error', () => {});
    child.stdin?.end(input ?? '');
  });
}

// A node selector nothing matches: the pods stay Pending, so deleting one needs no kubelet.
const pod = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { nodeSelector: { 'evtimeline.test/nowhere': 'true' }, containers: [{ name: 'main', image: 'registry.invalid/none' }] },
});

const event = (name: string, uid: string) => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name: `${name}.lookup` },
  involvedObject: { apiVersion: 'v1', kind: 'Pod', name, namespace: ns, uid },
  reason: 'Probed',
  type: 'Normal',
  message: `looked at ${name}`,
  firstTimestamp: rfc3339Seconds(),
  lastTimestamp: rfc3339Seconds(),
  count: 1,
  source: { component: 'lookups-test' },
});

const list = (items: unknown[]) => JSON.stringify({ apiVersion: 'v1', kind: 'List', items });

/** A Getter that records every path it is asked and the kind of each answer. */
function counting(get: Getter): { get: Getter; asked: string[]; kinds: string[] } {
  const asked: string[] = [];
  const kinds: string[] = [];
  const counted: Getter = async (path, accept) => {
    asked.push(path);
    const answer = (await get(path, accept)) as { kind?: string };
    kinds.push(`${path.split('?')[0]} ${answer.kind}`);
    return answer;
  };
  return { get: counted, asked, kinds };
}

const nodeRef = (name: string): ObjectRef => ({ apiVersion: 'v1', kind: 'Node', name, namespace: '', uid: `uid-${name}`, fieldPath: '' });

before(async () => {
  cp = await cpPromise;
  ns = await freshNamespace(cp.kubeconfig, 'lookups');
  await kubectl(['create', '-f', '-'], list([...PODS, DELETED].map(pod)));
  const uids = JSON.parse(await kubectl(['get', 'pods', '-o', 'json'])) as { items: { metadata: { name: string; uid: string } }[] };
  await kubectl(['create', '-f', '-'], list(uids.items.map((p) => event(p.metadata.name, p.metadata.uid))));
  await kubectl(['delete', 'pod', DELETED, '--wait=true', '--timeout=60s']);

  const admin = targetGetter(await loadKubeTarget({ kubeconfig: cp.kubeconfig, env: {} }), 0);
  const events = (await admin(`/api/v1/namespaces/${encodeURIComponent(ns)}/events`)) as { items: unknown[] };
  refs = [...objectsToLookUp(events.items.map(normaliseEvent)), ...['node-1', 'node-a', 'node-b', 'node-c'].map(nodeRef)];
  assert.equal(refs.length, PODS.length + 1 + 4, 'one ref per pod, the deleted pod and each node');
});

/** Each ref as `Kind/name state`, sorted. */
function classified(found: Map<string, { state: string }>): string[] {
  return refs.map((r) => `${r.kind}/${r.name} ${found.get(objectKey(r))?.state ?? 'missing'}`).sort();
}

const podsWant = [...PODS.map((name) => `Pod/${name} exists`), `Pod/${DELETED} gone`];

test('the admin: every pod exists but the deleted one, node-1 exists, the others are gone; 3 requests in all', async () => {
  const { get, asked, kinds } = counting(targetGetter(await loadKubeTarget({ kubeconfig: cp.kubeconfig, env: {} }), 0));
  const found = await lookUpObjects(get, refs);
  assert.deepEqual(classified(found), [...podsWant, 'Node/node-1 exists', 'Node/node-a gone', 'Node/node-b gone', 'Node/node-c gone'].sort());
  assert.deepEqual([...asked].sort(), ['/api/v1', `/api/v1/namespaces/${ns}/pods?limit=500`, '/api/v1/nodes?limit=500']);
  // The server honours the Accept header: metadata only, no spec.
  assert.deepEqual(kinds.filter((k) => !k.startsWith('/api/v1 ')).sort(), [`/api/v1/namespaces/${ns}/pods PartialObjectMetadataList`, '/api/v1/nodes PartialObjectMetadataList']);
});

test('the uids the LIST gives are the uids the events name', async () => {
  const found = await lookUpObjects(targetGetter(await loadKubeTarget({ kubeconfig: cp.kubeconfig, env: {} }), 0), refs);
  for (const r of refs.filter((x) => x.kind === 'Pod' && x.name !== DELETED)) {
    const lookup = found.get(objectKey(r));
    assert.equal(lookup?.state === 'exists' ? lookup.uid : lookup?.state, r.uid, r.name);
  }
});

test('a reader who may get pods but not list them gets the same answers from one GET per pod; Nodes it may not read are unknown', async () => {
  await kubectl(['create', 'role', 'pod-getter', '--verb=get', '--resource=pods']);
  await kubectl(['create', 'rolebinding', 'viewer-pod-getter', '--role=pod-getter', '--user=viewer']);
  const { get, asked } = counting(targetGetter(await loadKubeTarget({ kubeconfig: cp.viewerKubeconfig, env: {} }), 0));
  const found = await lookUpObjects(get, refs);
  assert.deepEqual(classified(found), [...podsWant, ...['node-1', 'node-a', 'node-b', 'node-c'].map((n) => `Node/${n} unknown`)].sort());
  const podGets = asked.filter((p) => p.startsWith(`/api/v1/namespaces/${ns}/pods/`));
  assert.equal(podGets.length, PODS.length + 1);
  assert.ok(asked.includes(`/api/v1/namespaces/${ns}/pods?limit=500`), 'the LIST was tried first');
});

test('pods in two namespaces: one metadata-only LIST across namespaces answers both, matching namespace and name', async () => {
  const other = await freshNamespace(cp.kubeconfig, 'lookups-other');
  await new Promise<void>((resolve, reject) =>
    execFile('kubectl', [`--kubeconfig=${cp.kubeconfig}`, '-n', other, 'create', '-f', '-'], (err, _out, stderr) => (err ? reject(new Error(stderr)) : resolve()))
      .stdin?.end(list(['web-a', 'web-b'].map(pod))),
  );
  const podRef = (name: string): ObjectRef => ({ apiVersion: 'v1', kind: 'Pod', name, namespace: other, uid: '', fieldPath: '' });
  // web-0 exists in the first namespace only: in this one it is gone.
  const spread = [...refs.filter((r) => r.kind === 'Pod'), podRef('web-a'), podRef('web-b'), podRef('web-0')];
  const { get, asked, kinds } = counting(targetGetter(await loadKubeTarget({ kubeconfig: cp.kubeconfig, env: {} }), 0));
  const found = await lookUpObjects(get, spread);
  assert.deepEqual(
    spread.map((r) => `${r.namespace === ns ? 'first' : 'other'} ${r.name} ${found.get(objectKey(r))?.state}`).sort(),
    [...podsWant.map((p) => `first ${p.slice('Pod/'.length)}`), 'other web-0 gone', 'other web-a exists', 'other web-b exists'].sort(),
  );
  assert.deepEqual(asked, ['/api/v1', '/api/v1/pods?limit=500']);
  assert.deepEqual(kinds.slice(1), ['/api/v1/pods PartialObjectMetadataList']);
});

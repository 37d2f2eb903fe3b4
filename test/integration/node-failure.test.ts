// A node failure staged by stopping node-1's heartbeat, played out by the real node lifecycle,
// taint eviction, ReplicaSet and scheduler code. It needs its own control plane: short timings
// (FAST_NODE_FAILURE) and a second node. With one node a failure is a "full disruption": the
// node lifecycle controller then stops evicting and removes its NoExecute taints
// (pkg/controller/nodelifecycle handleDisruption, "Entering master disruption mode"), so node-2
// stays healthy to keep the zone merely partially down, as in any real cluster.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { FAST_NODE_FAILURE, startControlPlane, type ControlPlane } from '../harness/controlplane.ts';
import { kubectlJSON, kubectlOk } from '../harness/kubectl.ts';
import { getObject } from '../harness/api-direct.ts';
import { freshNamespace } from '../harness/namespace.ts';
import { listNodes, startHeartbeat, stopHeartbeat } from '../harness/nodes.ts';
import { readBoth } from '../harness/kubectl-events.ts';
import { evtimeline } from '../harness/plugin.ts';
import { waitFor } from '../harness/wait.ts';
import { condition, createDeployment, listEvents, listObjects, waitForPods, type KubeObject } from '../harness/workloads.ts';

let cp: ControlPlane;
let ns: string;
let original: KubeObject[];

interface Node extends KubeObject {
  spec?: { taints?: { key: string; effect: string }[] };
}

const readNode = async (name: string): Promise<Node> => {
  const node = await getObject(cp.kubeconfig, 'nodes', name);
  if (node === null) throw new Error(`node ${name} not found`);
  return node as Node;
};
const taints = (node: Node) => (node.spec?.taints ?? []).map((t) => `${t.key}:${t.effect}`).sort();

before(async () => {
  cp = await startControlPlane({ ...FAST_NODE_FAILURE, nodes: 2 });
  ns = await freshNamespace(cp.kubeconfig, 'node-failure');
  await createDeployment(cp.kubeconfig, ns, 'web', { replicas: 2, node: 'node-1' });
  original = await waitForPods(cp.kubeconfig, ns, 'web', 2, (p) => condition(p, 'Ready') === 'True');
});

after(() => cp?.stop());

test('both nodes start Ready, each with its heartbeat', async () => {
  assert.deepEqual(cp.nodes, ['node-1', 'node-2']);
  assert.deepEqual(await listNodes(cp), [
    { name: 'node-1', heartbeat: true, podStatus: true },
    { name: 'node-2', heartbeat: true, podStatus: true },
  ]);
  for (const name of cp.nodes) {
    const node = await readNode(name);
    assert.equal(condition(node, 'Ready'), 'True');
    assert.deepEqual(taints(node), []);
    const lease = await kubectlJSON<KubeObject>(cp.kubeconfig, ['-n', 'kube-node-lease', 'get', 'lease', name]);
    assert.equal(lease.metadata.ownerReferences?.[0]?.kind, 'Node');
  }
});

test('a stopped heartbeat: node-1 goes Unknown and tainted, its pods get NodeNotReady, are evicted and replaced by pods that cannot be scheduled', async () => {
  assert.deepEqual(await stopHeartbeat(cp, 'node-1'), { name: 'node-1', heartbeat: false, podStatus: true });
  const node = await waitFor('node-1 tainted unreachable', async () => {
    const n = await readNode('node-1');
    return taints(n).length === 2 ? n : undefined;
  });
  assert.equal(condition(node, 'Ready'), 'Unknown');
  assert.deepEqual(taints(node), ['node.kubernetes.io/unreachable:NoExecute', 'node.kubernetes.io/unreachable:NoSchedule']);

  const events = await waitFor('evictions and a FailedScheduling replacement', async () => {
    const all = await listEvents(cp.kubeconfig, ns);
    const evicted = original.every((p) =>
      all.some((e) => e.reason === 'TaintManagerEviction' && e.involvedObject.name === p.metadata.name),
    );
    return evicted && all.some((e) => e.reason === 'FailedScheduling') ? all : undefined;
  });
  for (const pod of original) {
    const about = events.filter((e) => e.involvedObject.name === pod.metadata.name);
    const notReady = about.find((e) => e.reason === 'NodeNotReady');
    assert.equal(notReady?.type, 'Warning');
    assert.equal(notReady?.message, 'Node is not ready');
    assert.equal(notReady?.source?.component, 'node-controller');
    const eviction = about.find((e) => e.reason === 'TaintManagerEviction');
    assert.equal(eviction?.message, `Marking for deletion Pod ${ns}/${pod.metadata.name}`);
    assert.equal(eviction?.source?.component, 'taint-eviction-controller');
    // The taint eviction controller names the pod by a reference it builds itself, without the
    // pod's uid (pkg/controller/tainteviction emitPodDeletionEvent), unlike NodeNotReady.
    assert.equal(eviction?.involvedObject.uid ?? '', '');
    assert.equal(notReady?.involvedObject.uid, pod.metadata.uid);
  }
  const failed = events.find((e) => e.reason === 'FailedScheduling');
  assert.ok(failed);
  assert.equal(failed.type, 'Warning');
  assert.match(failed.message, /0\/2 nodes are available/);
  // v1.36's scheduler no longer names the taint (older ones said {node.kubernetes.io/unreachable: }).
  assert.match(failed.message, /1 node\(s\) had untolerated taint\(s\)/);
  assert.match(failed.message, /didn't match Pod's node affinity\/selector/);

  // The evicted pods stay Terminating: no kubelet confirms they stopped.
  const pods = await listObjects(cp.kubeconfig, ns, 'pods', 'app=web');
  const terminating = pods.filter((p) => p.metadata.deletionTimestamp).map((p) => p.metadata.name).sort();
  assert.deepEqual(terminating, original.map((p) => p.metadata.name).sort());

  // The node's own story is in namespace default, written by the node lifecycle controller.
  const nodeEvents = (await listEvents(cp.kubeconfig, 'default')).filter((e) => e.involvedObject.kind === 'Node' && e.involvedObject.name === 'node-1');
  assert.ok(nodeEvents.some((e) => e.reason === 'NodeNotReady' && e.message === 'Node node-1 status is now: NodeNotReady'));

  // The plugin shows the failure as kubectl events does: every event, once (read between two
  // reads of kubectl's, as the controllers may still be writing), and as many rows per reason.
  const before = (await listEvents(cp.kubeconfig, ns)).map((e) => e.metadata.uid);
  const kubectlTable = await kubectlOk(cp.kubeconfig, ['-n', ns, 'events']);
  const r = await evtimeline(['-n', ns, '-o', 'json'], cp.kubeconfig);
  const table = await evtimeline(['-n', ns], cp.kubeconfig);
  const afterwards = new Set((await listEvents(cp.kubeconfig, ns)).map((e) => e.metadata.uid));
  assert.equal(r.code, 0, r.stderr);
  const ours = (JSON.parse(r.stdout) as { uid: string }[]).map((e) => e.uid);
  assert.equal(new Set(ours).size, ours.length);
  assert.ok(before.every((uid) => ours.includes(uid)));
  assert.ok(ours.every((uid) => afterwards.has(uid)));
  for (const reason of ['NodeNotReady', 'TaintManagerEviction', 'FailedScheduling']) {
    const count = (text: string) => text.split('\n').filter((l) => l.includes(` ${reason} `)).length;
    assert.equal(count(table.stdout), count(kubectlTable), reason);
  }
  // Row for row, what kubectl events says of the failure: the pods' namespace, the node's own
  // events in default, and every namespace at once (-A adds NAMESPACE).
  for (const scope of [['-n', ns], ['-n', 'default'], ['-A']]) {
    const both = await readBoth(cp.kubeconfig, scope);
    assert.deepEqual(both.plugin, both.kubectl, scope.join(' '));
    assert.deepEqual(both.ages, [], scope.join(' '));
  }

  // incident tells each evicted pod as one story, as kubectl events shows one object: the
  // TaintManagerEviction event without a uid joins the story of the pod's only incarnation.
  const incident = await evtimeline(['incident', '-n', ns, '-o', 'json'], cp.kubeconfig);
  assert.equal(incident.code, 0, incident.stderr);
  const stories = (JSON.parse(incident.stdout) as { objects: { kind: string; name: string; uid: string | null; reports: { reason: string }[] }[] }).objects;
  for (const pod of original) {
    const about = stories.filter((o) => o.kind === 'Pod' && o.name === pod.metadata.name);
    assert.deepEqual(about.map((o) => o.uid), [pod.metadata.uid], pod.metadata.name);
    const reasons = about[0]?.reports.map((r) => r.reason) ?? [];
    assert.ok(reasons.includes('NodeNotReady') && reasons.includes('TaintManagerEviction'), reasons.join(' '));
  }
  const text = await evtimeline(['incident', '-n', ns], cp.kubeconfig);
  assert.equal(text.code, 0, text.stderr);
  // The two evicted pods tell the same story, so the text tells it once for both (src/core/families.ts).
  assert.ok(!text.stdout.includes('(no uid)'), text.stdout);
  const evicted = text.stdout.split('\n\n').filter((block) => block.includes('TaintManagerEviction'));
  assert.equal(evicted.length, 2, text.stdout); // the pods' story and the reporters' list
  assert.match(evicted[0] ?? '', /reported NodeNotReady[\s\S]*reported TaintManagerEviction/);
});

test('--for deploy/web --tree tells the failure under its owners: each pod’s NodeNotReady, eviction and FailedScheduling under its ReplicaSet, and the incident tells it owner first', async () => {
  interface TreeEvent {
    uid: string;
    reason: string;
    object: { kind: string; name: string };
    tree: { kind: string; name: string; uid: string; gone: boolean }[];
  }
  const [rs] = await listObjects(cp.kubeconfig, ns, 'replicasets', 'app=web');
  assert.ok(rs);
  const pods = await listObjects(cp.kubeconfig, ns, 'pods', 'app=web');
  const server = await listEvents(cp.kubeconfig, ns);
  const r = await evtimeline(['-n', ns, '--for', 'deploy/web', '--tree', '-o', 'json'], cp.kubeconfig);
  assert.equal(r.code, 0, r.stderr);
  const events = JSON.parse(r.stdout) as TreeEvent[];
  const where = (e: TreeEvent) => e.tree.map((m) => `${m.kind}/${m.name}`).join(' > ');
  const set = `Deployment/web > ReplicaSet/${rs.metadata.name}`;
  // Every pod event of the namespace is about one of web's pods: each is in the tree, under the set.
  const podEvents = server.filter((e) => e.involvedObject.kind === 'Pod');
  for (const e of podEvents) {
    const ours = events.find((o) => o.uid === e.metadata.uid);
    assert.equal(ours && where(ours), `${set} > Pod/${e.involvedObject.name}`, `${e.reason} about ${e.involvedObject.name}`);
  }
  for (const pod of original) {
    const reasons = events.filter((e) => where(e) === `${set} > Pod/${pod.metadata.name}`).map((e) => e.reason);
    // The eviction names its pod without a uid (see above): the tree still places it by name.
    for (const reason of ['Scheduled', 'NodeNotReady', 'TaintManagerEviction']) assert.ok(reasons.includes(reason), `${pod.metadata.name}: ${reasons.join(' ')}`);
  }
  const replacements = pods.filter((p) => !original.some((o) => o.metadata.uid === p.metadata.uid));
  assert.ok(replacements.length >= 1);
  assert.ok(
    replacements.some((p) => events.some((e) => e.reason === 'FailedScheduling' && where(e) === `${set} > Pod/${p.metadata.name}`)),
    'a replacement’s FailedScheduling under the set',
  );
  // The evicted pods are still there (Terminating: no kubelet confirms), so none is gone.
  assert.ok(events.every((e) => e.tree.every((m) => !m.gone)), 'no member gone');
  // The set's SuccessfulCreate of the replacements sits on the set; the node's own events are not web's.
  assert.ok(events.some((e) => where(e) === set && e.reason === 'SuccessfulCreate'));
  assert.ok(events.every((e) => e.object.kind !== 'Node'));

  // The incident tells it owner first: the tree's members as data, each pod's story under the set.
  interface Member {
    kind: string;
    name: string;
    gone: boolean;
    objects: number[];
    children: Member[];
  }
  const incident = await evtimeline(['incident', '-n', ns, '--for', 'deploy/web', '--tree', '-o', 'json'], cp.kubeconfig);
  assert.equal(incident.code, 0, incident.stderr);
  const account = JSON.parse(incident.stdout) as {
    objects: { kind: string; name: string; reports: { reason: string }[]; tree?: { kind: string; name: string }[] }[];
    tree: { root: Member; members: number; gone: number };
  };
  assert.equal(account.tree.members, 2 + pods.length, 'the Deployment, its ReplicaSet and every pod');
  assert.equal(account.tree.gone, 0);
  assert.deepEqual([account.tree.root.kind, account.tree.root.name], ['Deployment', 'web']);
  const [setMember, ...otherSets] = account.tree.root.children;
  assert.deepEqual(otherSets, []);
  assert.equal(setMember?.name, rs.metadata.name);
  const toldUnderSet = new Set(setMember?.children.flatMap((m) => m.objects.map((i) => account.objects[i]?.name)));
  for (const pod of original) {
    assert.ok(toldUnderSet.has(pod.metadata.name), `${pod.metadata.name} under the set`);
    const story = account.objects.find((o) => o.name === pod.metadata.name);
    assert.equal(story?.tree?.map((m) => `${m.kind}/${m.name}`).join(' > '), `${set} > Pod/${pod.metadata.name}`);
    const reasons = story?.reports.map((r) => r.reason) ?? [];
    assert.ok(reasons.includes('NodeNotReady') && reasons.includes('TaintManagerEviction'), reasons.join(' '));
  }
  const text = await evtimeline(['incident', '-n', ns, '--for', 'deploy/web', '--tree'], cp.kubeconfig);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, new RegExp(`The tree of Deployment/web: 1 ReplicaSet, ${pods.length} Pods\\.`));
  assert.match(text.stdout, /What happened, owner first \(Deployment\/web and what it owns\)/);
});

test('a restarted heartbeat heals node-1: Ready, untainted, the replacements scheduled and the evicted pods gone', async () => {
  assert.deepEqual(await startHeartbeat(cp, 'node-1'), { name: 'node-1', heartbeat: true, podStatus: true });
  await waitFor('node-1 Ready and untainted', async () => {
    const n = await readNode('node-1');
    return condition(n, 'Ready') === 'True' && taints(n).length === 0;
  });
  const pods = await waitForPods(cp.kubeconfig, ns, 'web', 2, (p) => condition(p, 'Ready') === 'True');
  const originalNames = new Set(original.map((p) => p.metadata.name));
  assert.ok(pods.every((p) => !originalNames.has(p.metadata.name)));
  await waitFor('the evicted pods to finish deleting', async () => {
    const all = await listObjects(cp.kubeconfig, ns, 'pods', 'app=web');
    return all.every((p) => !originalNames.has(p.metadata.name));
  });
  const events = await listEvents(cp.kubeconfig, ns);
  for (const pod of pods) {
    assert.ok(events.some((e) => e.reason === 'Scheduled' && e.involvedObject.name === pod.metadata.name && /to node-1$/.test(e.message)));
  }
});

test('`controlplane node` stops and starts a heartbeat from the command line', async () => {
  const run = (args: string[]) =>
    new Promise<string>((resolve, reject) =>
      execFile(cp.binary, ['node', `--socket=${cp.controlSocket}`, ...args], (err, stdout, stderr) =>
        err ? reject(new Error(stderr || err.message)) : resolve(stdout),
      ),
    );
  assert.deepEqual(JSON.parse(await run(['stop', 'node-2'])), { name: 'node-2', heartbeat: false, podStatus: true });
  assert.deepEqual(JSON.parse(await run(['start', 'node-2'])), { name: 'node-2', heartbeat: true, podStatus: true });
  await assert.rejects(run(['stop', 'node-9']), /no node "node-9"/);
});

// `incident --for X --tree` and `-o html --for X --tree` on the real controllers: a Deployment whose
// Pods cannot be scheduled (a cpu request no node can hold), rolled out to a second ReplicaSet, one Pod
// of the first deleted (its ReplicaSet replaces it; the deleted one is a member gone). The account is
// told owner first, the Pods grouped per ReplicaSet; -o json carries the tree; the page's lanes come
// owner first.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedControlPlane, type ControlPlane } from '../harness/controlplane.ts';
import { kubectlOk } from '../harness/kubectl.ts';
import { deleteNamespace, freshNamespace } from '../harness/namespace.ts';
import { evtimeline } from '../harness/plugin.ts';
import { waitFor } from '../harness/wait.ts';
import { createDeployment, listEvents, listObjects, waitForUnschedulable as unschedulable, type KubeObject } from '../harness/workloads.ts';

const cpPromise = sharedControlPlane();
let cp: ControlPlane;
let ns: string;
let deploy: KubeObject;
/** the first ReplicaSet, then the rollout's */
let sets: [KubeObject, KubeObject];
let gone: KubeObject;

const podsOf = async (rs: KubeObject) => (await listObjects(cp.kubeconfig, ns, 'pods', 'app=web')).filter((p) => p.metadata.ownerReferences?.some((o) => o.uid === rs.metadata.uid));

const waitForUnschedulable = (names: string[]): Promise<void> => unschedulable(cp.kubeconfig, ns, names);

before(async () => {
  cp = await cpPromise;
  ns = await freshNamespace(cp.kubeconfig, 'story');
  deploy = await createDeployment(cp.kubeconfig, ns, 'web', { replicas: 2, cpu: '64' });
  await createDeployment(cp.kubeconfig, ns, 'bystander', { replicas: 1, cpu: '64' });
  const first = await waitFor('2 pods of web', async () => {
    const found = await listObjects(cp.kubeconfig, ns, 'pods', 'app=web');
    return found.length === 2 ? found : undefined;
  });
  await waitForUnschedulable(first.map((p) => p.metadata.name));
  gone = first[0] as KubeObject;
  await kubectlOk(cp.kubeconfig, ['-n', ns, 'delete', 'pod', gone.metadata.name, '--wait=true']);
  // A rollout: a new Pod template makes a second ReplicaSet; its Pods cannot be scheduled either.
  await kubectlOk(cp.kubeconfig, ['-n', ns, 'patch', 'deployment', 'web', '-p', '{"spec":{"template":{"metadata":{"annotations":{"rollout":"2"}}}}}']);
  const found = await waitFor('two ReplicaSets of web, each with unschedulable pods', async () => {
    const rs = await listObjects(cp.kubeconfig, ns, 'replicasets', 'app=web');
    if (rs.length !== 2) return undefined;
    const pods = (await Promise.all(rs.map(podsOf))).flat();
    const events = await listEvents(cp.kubeconfig, ns);
    const allFailed = pods.every((p) => events.some((e) => e.reason === 'FailedScheduling' && e.involvedObject.uid === p.metadata.uid));
    return rs.every((_, i) => pods.some((p) => p.metadata.ownerReferences?.[0]?.uid === rs[i]?.metadata.uid)) && allFailed ? rs : undefined;
  });
  // Oldest first: the ReplicaSet the Deployment made before the rollout.
  const created = (o: KubeObject) => Date.parse((o.metadata as { creationTimestamp?: string }).creationTimestamp ?? '');
  sets = [...found].sort((a, b) => created(a) - created(b) || (a.metadata.name < b.metadata.name ? -1 : 1)) as [KubeObject, KubeObject];
});

after(async () => {
  if (ns) await deleteNamespace(cp.kubeconfig, ns);
});

describe('incident --tree on a Deployment rolled out to a second ReplicaSet, no Pod fitting', () => {
  test('the account is told owner first: the Deployment, each ReplicaSet under it, its Pods under that; the deleted Pod marked gone', async () => {
    const r = await evtimeline(['incident', '-n', ns, '--for', 'deploy/web', '--tree'], cp.kubeconfig);
    assert.equal(r.code, 0, r.stderr);
    const [old, next] = sets;
    assert.match(r.stdout, /\n {2}The tree of Deployment\/web: 2 ReplicaSets, \d+ Pods \(1 gone\)\.\n/);
    // The Pods of each ReplicaSet are grouped under their owner in the headline.
    // The first ReplicaSet's Pods (the deleted one too) are one group naming their owner.
    assert.match(r.stdout, new RegExp(`\\n {2}\\d+ Warnings: .*FailedScheduling on Pod/${old.metadata.name}-\\w+ and 2 more Pod/web-<hash>-<id> of ReplicaSet/${old.metadata.name} \\(`));
    const section = r.stdout.slice(r.stdout.indexOf('What happened, owner first (Deployment/web and what it owns)'), r.stdout.indexOf('\nWho reported what'));
    const headers = section.split('\n').filter((l) => /^ *(Deployment|ReplicaSet|Pod)\//.test(l));
    assert.match(headers[0] ?? '', new RegExp(`^Deployment/web \\(uid ${deploy.metadata.uid}\\)$`));
    const at = (name: string) => headers.findIndex((l) => l.startsWith(`  ReplicaSet/${name} `));
    assert.ok(at(old.metadata.name) > 0 && at(next.metadata.name) > at(old.metadata.name), headers.join('\n'));
    // Every Pod line sits two levels down, after its own ReplicaSet and before the next one.
    const podLines = headers.filter((l) => l.trimStart().startsWith('Pod/'));
    assert.ok(podLines.length > 0 && podLines.every((l) => /^ {4}Pod\//.test(l)), headers.join('\n'));
    for (const [i, line] of headers.entries()) {
      if (!line.trimStart().startsWith('Pod/')) continue;
      const owner = headers.slice(0, i).reverse().find((l) => l.startsWith('  ReplicaSet/'));
      const name = /Pod\/(\S+)/.exec(line)?.[1] ?? '';
      assert.ok(owner?.startsWith(`  ReplicaSet/${name.slice(0, name.lastIndexOf('-'))} `), `${line} under ${owner}`);
    }
    assert.ok(section.includes(`\n    Pod/${gone.metadata.name} (gone; uid ${gone.metadata.uid})\n`), section);
    assert.doesNotMatch(r.stdout, /bystander/);
  });

  test('-o json carries the tree nested, gone members marked, and groups the Pods per ReplicaSet', async () => {
    const r = await evtimeline(['incident', '-n', ns, '--for', 'deployments.apps/web', '--tree', '-o', 'json'], cp.kubeconfig);
    assert.equal(r.code, 0, r.stderr);
    interface Member {
      kind: string;
      name: string;
      uid: string;
      gone: boolean;
      objects: number[];
      children: Member[];
    }
    const json = JSON.parse(r.stdout) as { tree: { root: Member; gone: number }; objects: { uid: string; tree: { name: string }[] }[]; groups: { kind: string; reason: string; owner: string | null }[] };
    const root = json.tree.root;
    assert.deepEqual([root.kind, root.name, root.uid], ['Deployment', 'web', deploy.metadata.uid]);
    assert.deepEqual(root.children.map((c) => [c.kind, c.name, c.uid]), sets.map((s) => ['ReplicaSet', s.metadata.name, s.metadata.uid]));
    const lost = root.children[0]?.children.find((c) => c.name === gone.metadata.name);
    assert.equal(lost?.gone, true);
    assert.equal(json.objects[lost?.objects[0] ?? -1]?.uid, gone.metadata.uid);
    assert.equal(json.tree.gone, 1);
    for (const o of json.objects) assert.equal(o.tree[0]?.name, 'web');
    const owners = new Set(json.groups.filter((g) => g.kind === 'Pod' && g.reason === 'FailedScheduling').map((g) => g.owner));
    assert.deepEqual([...owners].sort(), sets.map((s) => `ReplicaSet/${s.metadata.name}`).sort());
    // Without --tree the Pods of both ReplicaSets share one name template, and nothing names an owner.
    const plain = JSON.parse((await evtimeline(['incident', '-n', ns, '-o', 'json'], cp.kubeconfig)).stdout) as typeof json;
    assert.equal(plain.tree, undefined);
    assert.ok(plain.groups.every((g) => g.owner === null));
  });

  test('-o html --tree: the page\'s lanes come owner first, each naming its owner\'s lane', async () => {
    const r = await evtimeline(['-n', ns, '--for', 'deploy/web', '--tree', '-o', 'html'], cp.kubeconfig);
    assert.equal(r.code, 0, r.stderr);
    const data = JSON.parse(/<script type="application\/json" id="timeline-data">([^<]*)<\/script>/.exec(r.stdout)?.[1] ?? 'null') as { lanes: { kind: string; name: string; owner: number | null; gone: boolean }[] };
    const lanes = data.lanes;
    assert.deepEqual([lanes[0]?.kind, lanes[0]?.name, lanes[0]?.owner], ['Deployment', 'web', null]);
    for (const [i, lane] of lanes.entries()) {
      if (i === 0) continue;
      const owner = lanes[lane.owner ?? -1];
      assert.ok(lane.owner !== null && lane.owner < i, `${lane.kind}/${lane.name} after its owner`);
      assert.equal(owner?.kind, lane.kind === 'Pod' ? 'ReplicaSet' : 'Deployment');
    }
    assert.deepEqual(lanes.filter((l) => l.kind === 'ReplicaSet').map((l) => l.name), sets.map((s) => s.metadata.name));
    assert.deepEqual(lanes.filter((l) => l.gone).map((l) => l.name), [gone.metadata.name]);
  });
});

// `--tree` on the real controllers: a Deployment whose pods cannot be scheduled (a cpu request no
// node can hold) is a Deployment, a ReplicaSet and Pods that kube-controller-manager made and owns;
// one pod deleted (the ReplicaSet replaces it) is a child gone that the ReplicaSet's events still name.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedControlPlane, type ControlPlane } from '../harness/controlplane.ts';
import { kubectlOk } from '../harness/kubectl.ts';
import { deleteNamespace, freshNamespace } from '../harness/namespace.ts';
import { evtimeline, pluginEnv } from '../harness/plugin.ts';
import { spawnCollecting } from '../harness/spawned.ts';
import { waitFor } from '../harness/wait.ts';
import { createDeployment, listObjects, waitForUnschedulable as unschedulable, type KubeObject } from '../harness/workloads.ts';

const cpPromise = sharedControlPlane();
let cp: ControlPlane;
let ns: string;
let rs: KubeObject;
let pods: KubeObject[];
/** the pod deleted: gone, named by the ReplicaSet's "Deleted pod"/"Created pod" and its own events */
let gone: KubeObject;

interface JsonTreeEvent {
  reason: string;
  object: { kind: string; name: string; uid: string };
  tree: { kind: string; apiVersion: string; name: string; uid: string; gone: boolean }[];
}

const waitForUnschedulable = (names: string[]): Promise<void> => unschedulable(cp.kubeconfig, ns, names);

before(async () => {
  cp = await cpPromise;
  ns = await freshNamespace(cp.kubeconfig, 'tree');
  await createDeployment(cp.kubeconfig, ns, 'hungry-web', { replicas: 2, cpu: '64' });
  // Another workload in the namespace: not in the tree.
  await createDeployment(cp.kubeconfig, ns, 'bystander', { replicas: 1, cpu: '64' });
  const first = await waitFor('2 pods of hungry-web', async () => {
    const found = await listObjects(cp.kubeconfig, ns, 'pods', 'app=hungry-web');
    return found.length === 2 ? found : undefined;
  });
  await waitForUnschedulable(first.map((p) => p.metadata.name));
  gone = first[0] as KubeObject;
  await kubectlOk(cp.kubeconfig, ['-n', ns, 'delete', 'pod', gone.metadata.name, '--wait=true']);
  pods = await waitFor('the replacement pod', async () => {
    const found = await listObjects(cp.kubeconfig, ns, 'pods', 'app=hungry-web');
    return found.length === 2 && !found.some((p) => p.metadata.uid === gone.metadata.uid) ? found : undefined;
  });
  await waitForUnschedulable(pods.map((p) => p.metadata.name));
  const [set] = await listObjects(cp.kubeconfig, ns, 'replicasets', 'app=hungry-web');
  assert.ok(set);
  rs = set;
});

after(async () => {
  if (ns) await deleteNamespace(cp.kubeconfig, ns);
});

describe('--tree on a Deployment whose pods cannot be scheduled', () => {
  test('the table shows the Deployment, its ReplicaSet and its Pods, each row with its owner chain; a deleted pod marked gone', async () => {
    const r = await evtimeline(['-n', ns, '--for', 'deploy/hungry-web', '--tree'], cp.kubeconfig);
    assert.equal(r.code, 0, r.stderr);
    const [head = '', ...rows] = r.stdout.trimEnd().split('\n');
    assert.match(head, /\bOBJECT\b/);
    const chainOf = (reason: string, name: string) => rows.find((row) => row.includes(` ${reason} `) && row.includes(name));
    const root = 'Deployment/hungry-web';
    const set = `${root} > ReplicaSet/${rs.metadata.name}`;
    assert.match(chainOf('ScalingReplicaSet', root) ?? '', new RegExp(`ScalingReplicaSet\\s+${root}\\s`));
    for (const pod of pods) {
      assert.match(chainOf('SuccessfulCreate', pod.metadata.name) ?? '', new RegExp(`SuccessfulCreate\\s+${set}\\s`));
      assert.match(chainOf('FailedScheduling', pod.metadata.name) ?? '', new RegExp(`FailedScheduling\\s+${set} > Pod/${pod.metadata.name}\\s`));
    }
    assert.match(chainOf('FailedScheduling', gone.metadata.name) ?? '', new RegExp(`FailedScheduling\\s+${set} > Pod/${gone.metadata.name} \\(gone\\)\\s`));
    assert.doesNotMatch(r.stdout, /bystander/);
  });

  test('-o json carries each event\'s chain as data, uids from the live objects', async () => {
    const r = await evtimeline(['-n', ns, '--for', 'deployments.apps/hungry-web', '--tree', '-o', 'json'], cp.kubeconfig);
    assert.equal(r.code, 0, r.stderr);
    const items = JSON.parse(r.stdout) as JsonTreeEvent[];
    assert.ok(items.length > 0);
    for (const e of items) {
      assert.equal(e.tree[0]?.name, 'hungry-web');
      assert.equal(e.tree.at(-1)?.name, e.object.name);
    }
    const pod = pods[0] as KubeObject;
    const scheduled = items.find((e) => e.reason === 'FailedScheduling' && e.object.uid === pod.metadata.uid);
    assert.deepEqual(
      scheduled?.tree.map((n) => [n.kind, n.apiVersion, n.name, n.uid, n.gone]),
      [
        ['Deployment', 'apps/v1', 'hungry-web', rs.metadata.ownerReferences?.[0]?.uid, false],
        ['ReplicaSet', 'apps/v1', rs.metadata.name, rs.metadata.uid, false],
        ['Pod', 'v1', pod.metadata.name, pod.metadata.uid, false],
      ],
    );
    const lost = items.find((e) => e.reason === 'FailedScheduling' && e.object.uid === gone.metadata.uid);
    assert.deepEqual(lost?.tree.at(-1), { kind: 'Pod', apiVersion: 'v1', name: gone.metadata.name, uid: gone.metadata.uid, gone: true });
  });

  test('ownership is one metadata-only LIST per resource (-v=6), never a request per object, events not among them', async () => {
    const r = await evtimeline(['-n', ns, '--for', 'deploy/hungry-web', '--tree', '-o', 'stable', '-v=6'], cp.kubeconfig);
    assert.equal(r.code, 0, r.stderr);
    const urls = [...r.stderr.matchAll(/verb="GET" url="([^"]+)"/g)].map((m) => new URL(m[1] as string).pathname);
    const lists = (resource: string) => urls.filter((p) => p.endsWith(`/namespaces/${ns}/${resource}`));
    assert.equal(lists('pods').length, 1, urls.join('\n'));
    assert.equal(lists('replicasets').length, 1);
    assert.equal(lists('deployments').length, 1);
    // the one events LIST is the timeline's own read (core/v1); events.k8s.io is not listed for ownership
    assert.equal(lists('events').length, 1);
    assert.ok(!urls.some((p) => p.startsWith('/apis/events.k8s.io/')));
    assert.ok(!urls.some((p) => new RegExp(`/namespaces/${ns}/pods/`).test(p)), 'no GET of one pod');
  });

  test('the table, -o json and the incident look nothing up again (-v=6): the lists answer whether each object exists, discovery is read once', async () => {
    const runs = {
      table: ['-n', ns, '--for', 'deploy/hungry-web', '--tree'],
      json: ['-n', ns, '--for', 'deploy/hungry-web', '--tree', '-o', 'json'],
      incident: ['incident', '-n', ns, '--for', 'deploy/hungry-web', '--tree'],
    };
    for (const [name, args] of Object.entries(runs)) {
      const r = await evtimeline([...args, '-v=6'], cp.kubeconfig);
      assert.equal(r.code, 0, r.stderr);
      const paths = [...r.stderr.matchAll(/verb="GET" url="([^"]+)"/g)].map((m) => new URL(m[1] as string).pathname);
      const count = (p: string) => paths.filter((x) => x === p).length;
      // discovery: the two aggregated documents, once; no group/version document (a lookup's discovery)
      assert.equal(count('/api'), 1, `${name}:\n${paths.join('\n')}`);
      assert.equal(count('/apis'), 1, name);
      const nodeFactPaths = new Set(['/api/v1/nodes', '/api/v1/pods']);
      assert.deepEqual(paths.filter((p) => /^\/apis?\/[^/]+(\/[^/]+)?$/.test(p) && p !== '/api' && p !== '/apis' && !nodeFactPaths.has(p)), [], name);
      // the incident's Why reads the nodes its Pods run on once, and what each node's Pods request
      // (cluster-wide lists, one per node, as kubectl describe node sums them); the tree's reads do not
      const urls = [...r.stderr.matchAll(/verb="GET" url="([^"]+)"/g)].map((m) => new URL(m[1] as string));
      const nodeFacts = urls.filter((u) => u.pathname === '/api/v1/nodes' || u.pathname === '/api/v1/pods');
      if (name === 'incident') {
        assert.equal(count('/api/v1/nodes'), 1, `${name}:\n${paths.join('\n')}`);
        const podLists = nodeFacts.filter((u) => u.pathname === '/api/v1/pods').map((u) => u.searchParams.get('fieldSelector'));
        assert.ok(podLists.length >= 1 && new Set(podLists).size === podLists.length, `${name}: a node's Pods listed twice: ${podLists.join(', ')}`);
      } else {
        assert.deepEqual(nodeFacts, [], `${name}: only the incident reads the nodes`);
      }
      // one LIST per resource of the namespace (the events' own read among them), no GET of one object
      const lists = paths.filter((p) => p.startsWith('/api') && !nodeFactPaths.has(p));
      // The tree's lists are metadata only; the incident's Why lists again, in full, the few Kinds whose
      // status and spec it reads (src/kube/facts.ts), once each. Nothing else is listed twice.
      const STATUS_KINDS = /\/(pods|replicasets|deployments|statefulsets|daemonsets|jobs|resourcequotas|persistentvolumeclaims)$/;
      const seen = new Map<string, number>();
      for (const p of lists.slice(2)) seen.set(p, (seen.get(p) ?? 0) + 1);
      const twice = [...seen].filter(([, n]) => n > 1);
      assert.ok(twice.every(([p, n]) => name === 'incident' && n === 2 && STATUS_KINDS.test(p)), `${name}: a resource listed twice:\n${paths.join('\n')}`);
      assert.deepEqual(paths.filter((p) => new RegExp(`/namespaces/${ns}/[^/]+/[^/]+$`).test(p)), [], `${name}: a GET of one object`);
      if (name === 'json') {
        // the answers are the lookups': the deleted pod's events are about a gone object, the others' current
        const items = JSON.parse(r.stdout) as (JsonTreeEvent & { incarnation?: string })[];
        const of = (uid: string) => new Set(items.filter((e) => e.object.uid === uid).map((e) => e.incarnation));
        assert.deepEqual(of(gone.metadata.uid), new Set(['gone']));
        for (const pod of pods) assert.deepEqual(of(pod.metadata.uid), new Set(['current']));
        assert.deepEqual(of(rs.metadata.uid), new Set(['current']));
      }
      if (name === 'incident') assert.match(r.stdout, new RegExp(`Pod/${gone.metadata.name} \\(uid ${gone.metadata.uid}\\) no longer exists`));
    }
  });
});

describe('-l SELECTOR --tree without --for: the trees of the objects whose labels match', () => {
  const json = async (args: string[]) => {
    const r = await evtimeline([...args, '-o', 'json'], cp.kubeconfig);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout) as (JsonTreeEvent & { uid: string })[];
  };
  const uids = (items: { uid: string }[]) => items.map((e) => e.uid).sort();

  test('live: the Deployment\'s whole tree as --for shows it (its ReplicaSet and Pods match too, told once), the deleted pod\'s events included', async () => {
    const byFor = await json(['-n', ns, '--for', 'deploy/hungry-web', '--tree']);
    const byLabel = await json(['-n', ns, '-l', 'app=hungry-web', '--tree']);
    assert.deepEqual(uids(byLabel), uids(byFor));
    for (const e of byLabel) assert.equal(e.tree[0]?.name, 'hungry-web');
    assert.deepEqual(byLabel.find((e) => e.object.uid === gone.metadata.uid)?.tree.at(-1)?.gone, true);
    // Without --tree, -l is the labelled objects' own events: the deleted pod, no longer listed, has no labels to match.
    const flat = await json(['-n', ns, '-l', 'app=hungry-web']);
    assert.ok(!flat.some((e) => e.object.uid === gone.metadata.uid));
    assert.ok(flat.length < byLabel.length);
  });

  test('a selector matching two Deployments: two trees, each event under its own root', async () => {
    const items = await json(['-n', ns, '-l', 'app in (hungry-web,bystander)', '--tree']);
    assert.deepEqual([...new Set(items.map((e) => e.tree[0]?.name))].sort(), ['bystander', 'hungry-web']);
    for (const e of items) assert.equal(e.tree[0]?.kind, 'Deployment');
    const table = await evtimeline(['-n', ns, '-l', 'app in (hungry-web,bystander)', '--tree', '--no-headers'], cp.kubeconfig);
    assert.match(table.stdout, /Deployment\/bystander > ReplicaSet\/bystander-\S+ > Pod\/bystander-/);
    assert.match(table.stdout, new RegExp(`Deployment/hungry-web > ReplicaSet/${rs.metadata.name} > Pod/${gone.metadata.name} \\(gone\\)`));
  });

  test('offline: a capture keeps the labels, and gives the trees --for gives', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'label-tree-'));
    try {
      const cap = join(dir, 'cap');
      const captured = await evtimeline(['capture', '-n', ns, cap], cp.kubeconfig);
      assert.equal(captured.code, 0, captured.stderr);
      const byLabel = await json(['--from', cap, '-l', 'app=hungry-web', '--tree']);
      assert.deepEqual(uids(byLabel), uids(await json(['--from', cap, '--for', 'deploy/hungry-web', '--tree'])));
      assert.ok(byLabel.some((e) => e.object.uid === gone.metadata.uid));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('-w and incident refuse it (exit 2): they tell one tree', async () => {
    for (const args of [['-w'], ['incident']]) {
      const r = await evtimeline([...args, '-n', ns, '-l', 'app=hungry-web', '--tree'], cp.kubeconfig);
      assert.equal(r.code, 2);
      assert.equal(r.stderr, 'error: -l SELECTOR --tree without --for is several trees, and ' + (args[0] === '-w' ? '--watch' : 'incident') + ' tells one: add --for KIND/NAME\n');
    }
  });
});

describe('--tree as a reader RBAC lets list only some resources', () => {
  test('the resources it may not list are left out, said once on stderr; pods it may not list are not called gone', async () => {
    // viewer may list the Deployment, its ReplicaSets and the events, not the pods
    await kubectlOk(cp.kubeconfig, ['-n', ns, 'create', 'role', 'tree-no-pods', '--verb=get,list,watch', '--resource=deployments,replicasets,events']);
    await kubectlOk(cp.kubeconfig, ['-n', ns, 'create', 'rolebinding', 'tree-no-pods', '--role=tree-no-pods', '--user=viewer']);
    const r = await waitFor('the role to apply', async () => {
      const run = await evtimeline(['-n', ns, '--for', 'deploy/hungry-web', '--tree', '--no-headers'], cp.viewerKubeconfig);
      return run.code === 0 ? run : undefined;
    });
    const warnings = r.stderr.split('\n').filter((l) => l.startsWith('warning: --tree left out'));
    assert.equal(warnings.length, 1, r.stderr);
    assert.match(warnings[0] ?? '', /not allowed to list: [^;)]*\bpods\b/);
    assert.doesNotMatch(warnings[0] ?? '', /replicasets|deployments/);
    const set = `Deployment/hungry-web > ReplicaSet/${rs.metadata.name}`;
    // The pods' events are still there, placed by the ReplicaSet's messages; none is called gone.
    assert.match(r.stdout, new RegExp(`${set} > Pod/${gone.metadata.name}\\s`));
    assert.doesNotMatch(r.stdout, /\(gone\)/);
    // The lookups of a Kind the lists left out are not answered from them: the pods, which viewer
    // may neither list nor get, are of an unknown incarnation, not gone.
    const json = await evtimeline(['-n', ns, '--for', 'deploy/hungry-web', '--tree', '-o', 'json'], cp.viewerKubeconfig);
    assert.equal(json.code, 0, json.stderr);
    const items = JSON.parse(json.stdout) as (JsonTreeEvent & { incarnation?: string })[];
    const podIncarnations = new Set(items.filter((e) => e.object.kind === 'Pod').map((e) => e.incarnation));
    assert.deepEqual(podIncarnations, new Set(['unknown']));
    assert.ok(items.some((e) => e.object.kind === 'ReplicaSet' && e.incarnation === 'current'));
  });
});

describe('-w --tree on a rollout', () => {
  test("the new ReplicaSet's pods join the tree as their events arrive, with their chain", async () => {
    const { child, out, err, exited } = spawnCollecting('kubectl', ['evtimeline', '-n', ns, '--for', 'deploy/hungry-web', '--tree', '-w', '-o', 'json'], {
      env: pluginEnv(cp.kubeconfig),
    });
    const lines = () => out().split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as JsonTreeEvent);
    try {
      // The list is printed once it is read: what comes after arrives through the watch.
      await waitFor('the listed events', async () => lines().length > 0);
      // A change of the pod template is a rollout: a new ReplicaSet, and new pods no node can hold.
      await kubectlOk(cp.kubeconfig, ['-n', ns, 'patch', 'deployment', 'hungry-web', '-p', '{"spec":{"template":{"metadata":{"annotations":{"rollout":"2"}}}}}']);
      const fresh = await waitFor('a FailedScheduling of a pod of the new ReplicaSet', async () =>
        lines().find((e) => e.reason === 'FailedScheduling' && e.tree.length === 3 && e.tree[1]?.name !== rs.metadata.name),
      );
      const sets = await listObjects(cp.kubeconfig, ns, 'replicasets', 'app=hungry-web');
      const newSet = sets.find((s) => s.metadata.name !== rs.metadata.name);
      assert.ok(newSet);
      assert.deepEqual(
        fresh.tree.map((n) => [n.kind, n.name, n.uid, n.gone]),
        [
          ['Deployment', 'hungry-web', rs.metadata.ownerReferences?.[0]?.uid, false],
          ['ReplicaSet', newSet.metadata.name, newSet.metadata.uid, false],
          ['Pod', fresh.object.name, fresh.object.uid, false],
        ],
      );
      assert.ok(!lines().some((e) => e.object.name.startsWith('bystander')));
    } finally {
      child.kill('SIGINT');
    }
    assert.equal((await exited).code, 0, err());
  });
});

// `timeline --for X --tree` in process, through an in-memory source at the EventSource port: what
// the table, wide, json and stable outputs show. The real controllers' trees are in test/integration/tree.test.ts.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../../../src/cli.ts';
import { UsageError } from '../../../src/errors.ts';
import type { ObjectMeta } from '../../../src/core/ownership.ts';
import { ev, NOW } from '../../support/builders.ts';
import { fakeDeps } from '../../support/deps.ts';
import { fromCapture, fromCluster, memorySource, openSources } from '../../support/sources.ts';
import { servedResource } from '../../support/owned-objects.ts';

const NS = 'op-events';
const served = servedResource;
const SERVED = [served('', 'pods', 'Pod', ['po']), served('apps', 'deployments', 'Deployment', ['deploy']), served('apps', 'replicasets', 'ReplicaSet', ['rs'])];

function meta(apiVersion: string, kind: string, name: string, uid: string, owner?: ObjectMeta): ObjectMeta {
  const owners = owner ? [{ apiVersion: owner.apiVersion, kind: owner.kind, name: owner.name, uid: owner.uid, controller: true }] : [];
  return { apiVersion, kind, namespace: NS, name, uid, owners, created: NOW - 600_000, deleting: null };
}
const deploy = meta('apps/v1', 'Deployment', 'web', 'uid-d');
const rs = meta('apps/v1', 'ReplicaSet', 'web-5d4', 'uid-rs', deploy);
const pod = meta('v1', 'Pod', 'web-5d4-aaaaa', 'uid-pa', rs);
const other = meta('v1', 'Pod', 'lonely', 'uid-lonely');
const OBJECTS = [deploy, rs, pod, other];

const on = (o: ObjectMeta | { apiVersion: string; kind: string; name: string; uid: string }) => ({ apiVersion: o.apiVersion, kind: o.kind, objectName: o.name, objectUid: o.uid });
const RAW = [
  ev({ ...on(deploy), reason: 'ScalingReplicaSet', message: 'Scaled up replica set web-5d4 from 0 to 2', first: 300, component: 'deployment-controller' }),
  ev({ ...on(rs), reason: 'SuccessfulCreate', message: 'Created pod: web-5d4-aaaaa', first: 299, component: 'replicaset-controller' }),
  ev({ ...on(rs), reason: 'SuccessfulCreate', message: 'Created pod: web-5d4-bbbbb', first: 298, component: 'replicaset-controller' }),
  ev({ ...on(pod), type: 'Warning', reason: 'FailedScheduling', message: '0/1 nodes are available: 1 Insufficient cpu.', first: 297, component: 'default-scheduler' }),
  ev({ apiVersion: 'v1', kind: 'Pod', objectName: 'web-5d4-bbbbb', objectUid: 'uid-pb', type: 'Warning', reason: 'FailedScheduling', message: '0/1 nodes are available.', first: 296, component: 'default-scheduler' }),
  ev({ ...on(other), reason: 'Pulled', message: 'pulled', first: 200, component: 'kubelet' }),
];

async function run(argv: string[], sources: ReturnType<typeof openSources>) {
  const fake = fakeDeps({ openSource: sources.open });
  const code = await runCli(argv, fake.deps).catch((error: unknown) => error);
  return { code, stdout: fake.stdout(), stderr: fake.stderr() };
}
const liveSource = () => memorySource({ provenance: fromCluster(), raw: RAW, served: SERVED, ownership: OBJECTS });

describe('timeline --tree', () => {
  test('the table keeps the tree members\' events, each OBJECT the chain from the root, a gone pod marked', async () => {
    const r = await run(['--for', 'deploy/web', '--tree', '--no-headers'], openSources({ live: liveSource() }));
    assert.equal(r.code, 0, r.stderr);
    const objects = r.stdout
      .trimEnd()
      .split('\n')
      .map((row) => /(Deployment\/\S+(?: > \S+)*(?: \(gone\))?)/.exec(row)?.[1]);
    assert.deepEqual(objects, [
      'Deployment/web',
      'Deployment/web > ReplicaSet/web-5d4',
      'Deployment/web > ReplicaSet/web-5d4',
      'Deployment/web > ReplicaSet/web-5d4 > Pod/web-5d4-aaaaa',
      'Deployment/web > ReplicaSet/web-5d4 > Pod/web-5d4-bbbbb (gone)',
    ]);
    assert.doesNotMatch(r.stdout, /lonely/);
  });

  test('--types narrows the rows, not the tree: a gone pod named by a Normal event still shows its Warning', async () => {
    const r = await run(['--for', 'deploy/web', '--tree', '--types', 'Warning', '--no-headers'], openSources({ live: liveSource() }));
    assert.equal(r.code, 0, r.stderr);
    const rows = r.stdout.trimEnd().split('\n');
    assert.equal(rows.length, 2);
    assert.match(rows[1] ?? '', /Deployment\/web > ReplicaSet\/web-5d4 > Pod\/web-5d4-bbbbb \(gone\)/);
  });

  test('-o wide adds the owner uid', async () => {
    const r = await run(['--for', 'deploy/web', '--tree', '-o', 'wide'], openSources({ live: liveSource() }));
    const [head = '', ...rows] = r.stdout.trimEnd().split('\n');
    assert.match(head, /OWNER UID/);
    assert.match(rows.find((row) => row.includes('Pod/web-5d4-aaaaa')) ?? '', /uid-pa\s+uid-rs\s/);
  });

  test('-o json carries the chain of each event as data', async () => {
    const r = await run(['--for', 'deploy/web', '--tree', '-o', 'json'], openSources({ live: liveSource() }));
    assert.equal(r.code, 0, r.stderr);
    const items = JSON.parse(r.stdout) as { reason: string; object: { name: string }; tree: unknown[] }[];
    const gone = items.find((e) => e.object.name === 'web-5d4-bbbbb');
    assert.deepEqual(gone?.tree, [
      { kind: 'Deployment', apiVersion: 'apps/v1', name: 'web', uid: 'uid-d', gone: false },
      { kind: 'ReplicaSet', apiVersion: 'apps/v1', name: 'web-5d4', uid: 'uid-rs', gone: false },
      { kind: 'Pod', apiVersion: 'v1', name: 'web-5d4-bbbbb', uid: 'uid-pb', gone: true },
    ]);
    assert.equal(items.length, 5);
  });

  test('-o stable prints its usual lines (one per type, reason and object), for the members only', async () => {
    const r = await run(['--for', 'deploy/web', '--tree', '-o', 'stable'], openSources({ live: liveSource() }));
    assert.equal(
      r.stdout,
      [
        'Normal ScalingReplicaSet Deployment/web',
        'Normal SuccessfulCreate ReplicaSet/web-5d4',
        'Warning FailedScheduling Pod/web-5d4-aaaaa',
        'Warning FailedScheduling Pod/web-5d4-bbbbb',
        '',
      ].join('\n'),
    );
  });

  test('--tree without --for is a usage error (exit 2)', async () => {
    const r = await run(['--tree'], openSources({ live: liveSource() }));
    assert.ok(r.code instanceof UsageError);
    assert.match(r.code.message, /--tree needs --for KIND\/NAME/);
  });

  test('a saved file without ownership: the tree from the owners\' messages, said once on stderr', async () => {
    const saved = memorySource({ provenance: fromCapture(), raw: RAW });
    const r = await run(['--from', 'x.json', '--for', 'deploy/web', '--tree', '--no-headers'], openSources({ saved }));
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr.match(/holds no ownership/g)?.length, 1);
    assert.match(r.stderr, /the capture holds no ownership/);
    const rows = r.stdout.trimEnd().split('\n');
    assert.equal(rows.length, 5);
    // nothing is gone when nothing tells what exists
    assert.doesNotMatch(r.stdout, /\(gone\)/);
    assert.match(rows[4] ?? '', /Deployment\/web > ReplicaSet\/web-5d4 > Pod\/web-5d4-bbbbb/);
  });

  test('a saved file from a v1.19-v1.34 cluster: the StatefulSet\'s lower-case "create Pod X in StatefulSet S successful" still names its Pods', async () => {
    // The shape of a 2021 kind cluster's StatefulSet rollout (the public kspan fixtures): the controller
    // wrote the verb lower-case then (core/tree-owner-messages.ts cites where).
    const sts = { apiVersion: 'apps/v1', kind: 'StatefulSet', objectName: 'ingester', objectUid: 'uid-sts' };
    const podOf = (name: string) => ({ apiVersion: 'v1', kind: 'Pod', objectName: name, objectUid: `uid-${name}` });
    const raw = [
      ev({ ...sts, reason: 'SuccessfulDelete', message: 'delete Pod ingester-3 in StatefulSet ingester successful', first: 400, component: 'statefulset-controller' }),
      ev({ ...sts, reason: 'SuccessfulCreate', message: 'create Pod ingester-3 in StatefulSet ingester successful', first: 390, component: 'statefulset-controller' }),
      ev({ ...podOf('ingester-3'), reason: 'Scheduled', message: 'Successfully assigned cortex/ingester-3 to ip-172-20-2-22.ec2.internal', first: 389, component: 'default-scheduler' }),
      ev({ ...sts, reason: 'SuccessfulDelete', message: 'delete Pod ingester-2 in StatefulSet ingester successful', first: 300, component: 'statefulset-controller' }),
      ev({ ...sts, reason: 'SuccessfulCreate', message: 'create Pod ingester-2 in StatefulSet ingester successful', first: 290, component: 'statefulset-controller' }),
      ev({ ...podOf('ingester-2'), reason: 'Started', message: 'Started container ingester', first: 280, component: 'kubelet' }),
      ev({ ...podOf('distributor-0'), reason: 'Started', message: 'Started container distributor', first: 270, component: 'kubelet' }),
    ];
    const saved = memorySource({ provenance: fromCapture(), raw });
    const r = await run(['--from', 'x.json', '--for', 'sts/ingester', '--tree', '--no-headers'], openSources({ saved }));
    assert.equal(r.code, 0, r.stderr);
    const chains = r.stdout
      .trimEnd()
      .split('\n')
      .map((row) => /(StatefulSet\/\S+(?: > \S+)*)/.exec(row)?.[1]);
    assert.deepEqual(chains, [
      'StatefulSet/ingester',
      'StatefulSet/ingester',
      'StatefulSet/ingester > Pod/ingester-3',
      'StatefulSet/ingester',
      'StatefulSet/ingester',
      'StatefulSet/ingester > Pod/ingester-2',
    ]);
    assert.doesNotMatch(r.stdout, /distributor/);
  });

  test('hostile names are escaped in the chain', async () => {
    const evil = { apiVersion: 'v1', kind: 'Pod', name: 'x\u001b[31mred', uid: 'uid-evil' };
    const evilMeta = { ...meta('v1', 'Pod', evil.name, evil.uid, rs) };
    const live = memorySource({
      provenance: fromCluster(),
      raw: [...RAW, ev({ ...on(evil), reason: 'Evil', message: 'm', first: 100 })],
      served: SERVED,
      ownership: [...OBJECTS, evilMeta],
    });
    const r = await run(['--for', 'deploy/web', '--tree', '--no-headers'], openSources({ live }));
    assert.doesNotMatch(r.stdout, /\u001b/);
    assert.match(r.stdout, /ReplicaSet\/web-5d4 > Pod\/x\^\[\[31mred/);
  });
});

describe('timeline -w --tree', () => {
  const d2 = meta('apps/v1', 'ReplicaSet', 'web-9f8', 'uid-rs2', deploy);
  const newPod = meta('v1', 'Pod', 'web-9f8-ccccc', 'uid-pc', d2);
  const quietPod = meta('v1', 'Pod', 'web-9f8-ddddd', 'uid-pd', d2);
  const stranger = meta('v1', 'Pod', 'stranger', 'uid-s');
  const exists = (m: ObjectMeta) => ({ state: 'exists' as const, uid: m.uid, creationTimestamp: null, meta: m });
  const key = (m: ObjectMeta) => [m.apiVersion, m.kind, m.namespace, m.name].join('\u0000');
  const change = (raw: Record<string, unknown>) => ({ kind: 'change' as const, type: 'ADDED' as const, object: raw });

  test("a rollout's new ReplicaSet and its pods join the tree as their events arrive; a stranger is asked about once", async () => {
    const live = memorySource({
      provenance: fromCluster(),
      served: SERVED,
      ownership: OBJECTS,
      lookups: new Map([d2, newPod, quietPod, stranger].map((m) => [key(m), exists(m)])),
      steps: [
        { kind: 'list', items: RAW, resourceVersion: '10', why: 'start' },
        change(ev({ ...on(deploy), reason: 'ScalingReplicaSet', message: 'Scaled up replica set web-9f8 from 0 to 2', first: 30, component: 'deployment-controller' })),
        change(ev({ ...on(d2), reason: 'SuccessfulCreate', message: 'Created pod: web-9f8-ccccc', first: 29, component: 'replicaset-controller' })),
        change(ev({ ...on(newPod), type: 'Warning', reason: 'FailedScheduling', message: 'no', first: 28, component: 'default-scheduler' })),
        // a pod whose creation event was not seen: looked up, its owner already known
        change(ev({ ...on(quietPod), type: 'Warning', reason: 'FailedScheduling', message: 'no', first: 27, component: 'default-scheduler' })),
        change(ev({ ...on(stranger), reason: 'Pulled', message: 'a', first: 26, component: 'kubelet' })),
        change(ev({ ...on(stranger), reason: 'Started', message: 'b', first: 25, component: 'kubelet' })),
      ],
    });
    const r = await run(['--for', 'deploy/web', '--tree', '-w', '--no-headers'], openSources({ live }));
    assert.equal(r.code, 0, r.stderr);
    const rows = r.stdout.trimEnd().split('\n');
    // the 5 listed, then 4 new
    assert.equal(rows.length, 9, r.stdout);
    assert.match(rows[5] ?? '', /ScalingReplicaSet\s+Deployment\/web\s/);
    assert.match(rows[6] ?? '', /SuccessfulCreate\s+Deployment\/web > ReplicaSet\/web-9f8\s/);
    assert.match(rows[7] ?? '', /FailedScheduling\s+Deployment\/web > ReplicaSet\/web-9f8 > Pod\/web-9f8-ccccc\s/);
    assert.match(rows[8] ?? '', /FailedScheduling\s+Deployment\/web > ReplicaSet\/web-9f8 > Pod\/web-9f8-ddddd\s/);
    assert.doesNotMatch(r.stdout, /stranger/);
    assert.doesNotMatch(rows.slice(5).join('\n'), /\(gone\)/, 'a child made a moment ago is not gone');
    const asked = live.looked.flat().map((ref) => ref.name);
    assert.deepEqual(asked.filter((n) => n === 'stranger'), ['stranger']);
    assert.deepEqual(asked.filter((n) => n === 'web-9f8-ccccc'), ['web-9f8-ccccc']);
  });

  test('a root made after the follow began is not taken for gone once its events come', async () => {
    const late = meta('v1', 'Pod', 'late', 'uid-late');
    const live = memorySource({
      provenance: fromCluster(),
      served: SERVED,
      ownership: OBJECTS,
      lookups: new Map([[key(late), exists(late)]]),
      steps: [
        { kind: 'list', items: RAW, resourceVersion: '10', why: 'start' },
        change(ev({ ...on(late), reason: 'Scheduled', message: 'assigned', first: 3, component: 'default-scheduler' })),
        change(ev({ ...on(late), reason: 'Pulled', message: 'pulled', first: 2, component: 'kubelet' })),
      ],
    });
    const r = await run(['--for', 'pod/late', '--tree', '-w', '--no-headers'], openSources({ live }));
    assert.equal(r.code, 0, r.stderr);
    const rows = r.stdout.trimEnd().split('\n');
    assert.equal(rows.length, 2, r.stdout);
    for (const row of rows) assert.match(row, /\sPod\/late\s/);
    assert.deepEqual(live.looked.flat().map((ref) => ref.name), ['late'], 'asked once');
  });

  test('-w -o json lines carry the chain', async () => {
    const live = memorySource({
      provenance: fromCluster(),
      served: SERVED,
      ownership: OBJECTS,
      lookups: new Map(),
      steps: [{ kind: 'list', items: RAW, resourceVersion: '10', why: 'start' }],
    });
    const r = await run(['--for', 'deploy/web', '--tree', '-w', '-o', 'json'], openSources({ live }));
    const lines = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { tree: { name: string }[] });
    assert.equal(lines.length, 5);
    assert.deepEqual(lines[3]?.tree.map((n) => n.name), ['web', 'web-5d4', 'web-5d4-aaaaa']);
  });
});

describe('--tree refusals', () => {
  test('a cluster-scoped root is a usage error', async () => {
    const live = memorySource({ provenance: fromCluster(), raw: RAW, served: [...SERVED, { ...served('', 'nodes', 'Node', ['no']), namespaced: false }], ownership: OBJECTS });
    const r = await run(['--for', 'node/n1', '--tree'], openSources({ live }));
    assert.ok(r.code instanceof UsageError);
    // A whole sentence (issue 28, L8: it ended "may be in any").
    assert.equal(r.code.message, '--tree reads the ownership of one namespace: Node is cluster-scoped, so its dependents may be in any namespace');
  });

  test('-A: the namespace is the one the object\'s events are in; none is a usage error', async () => {
    const live = memorySource({ provenance: fromCluster({ namespace: null }), raw: RAW, served: SERVED, ownership: OBJECTS });
    const r = await run(['-A', '--for', 'deploy/web', '--tree', '-o', 'stable'], openSources({ live }));
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.split('\n').filter((l) => l !== '').length, 4);
    const none = await run(['-A', '--for', 'deploy/nowhere', '--tree'], openSources({ live }));
    assert.ok(none.code instanceof UsageError);
    assert.match(none.code.message, /--tree needs one namespace for Deployment\/nowhere: no namespace holds events about it; pass -n NAMESPACE/);
  });
});

describe('--tree table width', () => {
  test('a chain longer than a cell is cut at its start: the event\'s own object stays whole', async () => {
    // Two names of 600 characters (longer than the API allows, as hostile input may be): a chain
    // past the table's 1024-character cell (DEFAULT_CELL_WIDTH).
    const long = 'x'.repeat(600);
    const bigRs = meta('apps/v1', 'ReplicaSet', `web-${long}`, 'uid-big', deploy);
    const bigPod = meta('v1', 'Pod', `web-${long}-abcde`, 'uid-bigpod', bigRs);
    const live = memorySource({
      provenance: fromCluster(),
      raw: [ev({ ...on(bigPod), reason: 'Pulled', message: 'm', first: 10 })],
      served: SERVED,
      ownership: [deploy, bigRs, bigPod],
    });
    const r = await run(['--for', 'deploy/web', '--tree', '--no-headers'], openSources({ live }));
    assert.match(r.stdout, new RegExp(`\\.\\.\\.x+ > Pod/web-${long}-abcde\\s`));
    assert.doesNotMatch(r.stdout, /Deployment\/web/);
  });
});

describe('--tree --compare', () => {
  test("compares the saved tree's events with the live events of the same members", async () => {
    const saved = memorySource({ provenance: fromCapture(), raw: RAW, ownership: OBJECTS });
    // the live cluster lost the gone pod's event and has a new one about the pod, and one about a stranger
    const held = RAW.filter((e) => (e.involvedObject as { name: string }).name !== 'web-5d4-bbbbb');
    const live = memorySource({
      provenance: fromCluster(),
      raw: [...held, ev({ ...on(pod), reason: 'Pulled', message: 'later', first: 5 }), ev({ ...on(other), reason: 'Later', message: 'x', first: 4 })],
      served: SERVED,
      lookups: new Map(),
    });
    const r = await run(['--from', 'cap', '--for', 'deploy/web', '--tree', '--compare', '--no-headers'], openSources({ saved, live }));
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /1 of 5 events in the capture is no longer on the server .*; 1 event on the server is not in the capture\.\n/);
  });
});

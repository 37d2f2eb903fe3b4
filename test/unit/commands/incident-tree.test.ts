// `incident --for X --tree` and `-o html --for X --tree` through the verb, with an in-memory source
// at the EventSource port (the tree built by src/core/tree.ts from the source's ownership): the
// account told owner first, its -o json tree, and the page's lanes owner first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../../../src/cli.ts';
import type { PageData } from '../../../src/render/html-data.ts';
import { ev } from '../../support/builders.ts';
import { fakeDeps } from '../../support/deps.ts';
import { fromCluster, memorySource, openSources } from '../../support/sources.ts';
import { objectMeta, WORKLOAD_RESOURCES } from '../../support/owned-objects.ts';

const SERVED = WORKLOAD_RESOURCES;
const meta = objectMeta;
const deploy = meta('apps/v1', 'Deployment', 'web', 'uid-d');
const rs = meta('apps/v1', 'ReplicaSet', 'web-5d4f7c9b8', 'uid-rs', deploy, 599);
const pods = ['x2k4q', 'b7fzw', '9mvpl'].map((id, i) => meta('v1', 'Pod', `web-5d4f7c9b8-${id}`, `uid-p${i}`, rs, 598 - i));
const other = meta('v1', 'Pod', 'lonely', 'uid-lonely');
// The fourth Pod is gone: only its ReplicaSet's "Created pod" and its own events name it.
const GONE = 'web-5d4f7c9b8-kq4tz';

const on = (o: { apiVersion: string; kind: string; name: string; uid: string }) => ({ apiVersion: o.apiVersion, kind: o.kind, objectName: o.name, objectUid: o.uid });
const RAW = [
  ev({ ...on(deploy), reason: 'ScalingReplicaSet', message: `Scaled up replica set ${rs.name} from 0 to 4`, first: 600, component: 'deployment-controller' }),
  ...[...pods.map((p) => p.name), GONE].map((name, i) => ev({ ...on(rs), reason: 'SuccessfulCreate', message: `Created pod: ${name}`, first: 599 - i, component: 'replicaset-controller' })),
  ...pods.map((p, i) => ev({ ...on(p), type: 'Warning', reason: 'FailedScheduling', message: `0/${3 + i} nodes are available: ${3 + i} Insufficient cpu.`, count: 2, first: 590 - i, last: 60, component: 'default-scheduler' })),
  ev({ apiVersion: 'v1', kind: 'Pod', objectName: GONE, objectUid: 'uid-gone', type: 'Warning', reason: 'FailedScheduling', message: '0/3 nodes are available: 3 Insufficient cpu.', first: 580, last: 200, count: 3, component: 'default-scheduler' }),
  ev({ ...on(other), type: 'Warning', reason: 'BackOff', message: 'Back-off restarting failed container', first: 100, component: 'kubelet' }),
];

async function run(argv: string[]) {
  const source = memorySource({ provenance: fromCluster(), raw: RAW, served: SERVED, ownership: [deploy, rs, ...pods, other] });
  const fake = fakeDeps({ openSource: openSources({ live: source }).open });
  const code = await runCli(argv, fake.deps).catch((error: unknown) => error);
  return { code, stdout: fake.stdout(), stderr: fake.stderr() };
}

test('incident --for deploy/web --tree: the Deployment first, its ReplicaSet under it, the Pods as one story under that, the gone one counted', async () => {
  const r = await run(['incident', '--for', 'deploy/web', '--tree']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /\n {2}The tree of Deployment\/web: 1 ReplicaSet, 4 Pods \(1 gone\)\.\n/);
  assert.match(r.stdout, /FailedScheduling on Pod\/web-5d4f7c9b8-\w+ and 3 more Pod\/web-<hash>-<id> of ReplicaSet\/web-5d4f7c9b8 \(4 events\)/);
  const section = r.stdout.slice(r.stdout.indexOf('What happened, owner first (Deployment/web and what it owns)'));
  const headers = section.split('\n').filter((l) => /^ *(Deployment|ReplicaSet|Pod)\//.test(l));
  assert.deepEqual(headers, [
    'Deployment/web (uid uid-d)',
    '  ReplicaSet/web-5d4f7c9b8 (uid uid-rs)',
    '    Pod/web-5d4f7c9b8-x2k4q and 3 more Pod/web-<hash>-<id> with the same story, 1 of them gone',
  ]);
  assert.doesNotMatch(r.stdout, /lonely/);
});

test('incident -o json --tree carries the tree, and without --tree the account is as before', async () => {
  const r = await run(['incident', '--for', 'deploy/web', '--tree', '-o', 'json']);
  assert.equal(r.code, 0, r.stderr);
  const json = JSON.parse(r.stdout);
  const names = (m: { name: string; gone: boolean; children: unknown[] }): unknown => [m.gone ? `${m.name} (gone)` : m.name, ...m.children.map((c) => names(c as typeof m))];
  assert.deepEqual(names(json.tree.root), ['web', ['web-5d4f7c9b8', ...pods.map((p) => [p.name]), [`${GONE} (gone)`]]]);
  assert.deepEqual(json.groups.filter((g: { kind: string }) => g.kind === 'Pod').map((g: { owner: string }) => g.owner), ['ReplicaSet/web-5d4f7c9b8']);
  const plain = JSON.parse((await run(['incident', '--for', 'deploy/web', '-o', 'json'])).stdout);
  assert.equal(plain.tree, undefined);
  assert.deepEqual(plain.objects.map((o: { name: string }) => o.name), ['web']);
});

test('-o html --for deploy/web --tree: the page\'s lanes come owner first, each naming its owner\'s lane', async () => {
  const r = await run(['--for', 'deploy/web', '--tree', '-o', 'html']);
  assert.equal(r.code, 0, r.stderr);
  const json = /<script type="application\/json" id="timeline-data">([^<]*)<\/script>/.exec(r.stdout)?.[1] ?? 'null';
  const data = JSON.parse(json) as PageData;
  const named = data.lanes.map((l) => `${l.kind}/${l.name}`);
  assert.deepEqual(named, ['Deployment/web', 'ReplicaSet/web-5d4f7c9b8', ...pods.map((p) => `Pod/${p.name}`), `Pod/${GONE}`]);
  assert.deepEqual(data.lanes.map((l) => (l.owner === null ? null : named[l.owner])), [null, 'Deployment/web', ...Array(4).fill('ReplicaSet/web-5d4f7c9b8')]);
  assert.deepEqual(data.lanes.map((l) => l.gone), [false, false, false, false, false, true]);
  assert.ok(data.headline.includes('  The tree of Deployment/web: 1 ReplicaSet, 4 Pods (1 gone).'), data.headline.join('\n'));
});

// `timeline -l SELECTOR --tree` without --for: the trees of every object whose labels match, live and
// from a saved file, through an in-memory source at the EventSource port. On the real control plane:
// test/integration/selection.test.ts.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../../../src/cli.ts';
import { UsageError } from '../../../src/errors.ts';
import type { ObjectMeta } from '../../../src/core/ownership.ts';
import { ev, NOW } from '../../support/builders.ts';
import { fakeDeps } from '../../support/deps.ts';
import { fromCapture, fromCluster, fromRecord, memorySource, openSources } from '../../support/sources.ts';
import { servedResource } from '../../support/owned-objects.ts';

const NS = 'shop-9';
const served = servedResource;
const SERVED = [served('', 'pods', 'Pod', ['po']), served('apps', 'deployments', 'Deployment', ['deploy']), served('apps', 'replicasets', 'ReplicaSet', ['rs'])];

function meta(apiVersion: string, kind: string, name: string, uid: string, labels: Record<string, string> | undefined, owner?: ObjectMeta): ObjectMeta {
  const owners = owner ? [{ apiVersion: owner.apiVersion, kind: owner.kind, name: owner.name, uid: owner.uid, controller: true }] : [];
  return { apiVersion, kind, namespace: NS, name, uid, owners, created: NOW - 600_000, deleting: null, ...(labels ? { labels } : {}) };
}
// The Deployment alone carries tier=edge; its template's app=cart is copied to its ReplicaSet and Pods.
const deploy = meta('apps/v1', 'Deployment', 'cart', 'uid-d', { app: 'cart', tier: 'edge' });
const rs = meta('apps/v1', 'ReplicaSet', 'cart-7f9', 'uid-rs', { app: 'cart', 'pod-template-hash': '7f9' }, deploy);
const pod = meta('v1', 'Pod', 'cart-7f9-aaaaa', 'uid-pa', { app: 'cart', 'pod-template-hash': '7f9' }, rs);
const loose = meta('v1', 'Pod', 'cart-debug', 'uid-loose', { app: 'cart' });
const other = meta('apps/v1', 'Deployment', 'ledger', 'uid-l', { app: 'ledger' });
const OBJECTS = [deploy, rs, pod, loose, other];

const on = (o: { apiVersion: string; kind: string; name: string; uid: string }) => ({ apiVersion: o.apiVersion, kind: o.kind, objectName: o.name, objectUid: o.uid, namespace: NS });
const RAW = [
  ev({ ...on(deploy), reason: 'ScalingReplicaSet', message: 'Scaled up replica set cart-7f9 from 0 to 2', first: 300, component: 'deployment-controller' }),
  ev({ ...on(rs), reason: 'SuccessfulCreate', message: 'Created pod: cart-7f9-aaaaa', first: 299, component: 'replicaset-controller' }),
  ev({ ...on(rs), reason: 'SuccessfulCreate', message: 'Created pod: cart-7f9-bbbbb', first: 298, component: 'replicaset-controller' }),
  ev({ ...on(pod), type: 'Warning', reason: 'BackOff', message: 'Back-off restarting failed container', first: 297, component: 'kubelet' }),
  // A Pod deleted since: no object, so no labels; only its owner's message makes it a member.
  ev({ apiVersion: 'v1', kind: 'Pod', objectName: 'cart-7f9-bbbbb', objectUid: 'uid-pb', namespace: NS, type: 'Warning', reason: 'OOMKilling', message: 'Memory cgroup out of memory', first: 296, component: 'kubelet' }),
  ev({ ...on(loose), reason: 'Pulled', message: 'pulled', first: 250, component: 'kubelet' }),
  ev({ ...on(other), reason: 'ScalingReplicaSet', message: 'Scaled up replica set ledger-1a2 from 0 to 1', first: 200, component: 'deployment-controller' }),
];

async function run(argv: string[], sources: ReturnType<typeof openSources>) {
  const fake = fakeDeps({ openSource: sources.open });
  const code = await runCli(argv, fake.deps).catch((error: unknown) => error);
  return { code, stdout: fake.stdout(), stderr: fake.stderr() };
}
const live = () => openSources({ live: memorySource({ provenance: fromCluster({ namespace: NS }), raw: RAW, served: SERVED, ownership: OBJECTS }) });
const saved = (objects: ObjectMeta[]) => openSources({ saved: memorySource({ provenance: fromCapture({ namespace: NS }), raw: RAW, ownership: objects }) });
const objectCells = (stdout: string) =>
  stdout
    .trimEnd()
    .split('\n')
    .map((row) => /((?:Deployment|ReplicaSet|Pod)\/\S+(?: > \S+)*(?: \(gone\))?)/.exec(row)?.[1]);

const CART_TREES = [
  'Pod/cart-debug',
  'Deployment/cart',
  'Deployment/cart > ReplicaSet/cart-7f9',
  'Deployment/cart > ReplicaSet/cart-7f9',
  'Deployment/cart > ReplicaSet/cart-7f9 > Pod/cart-7f9-aaaaa',
  'Deployment/cart > ReplicaSet/cart-7f9 > Pod/cart-7f9-bbbbb (gone)',
].sort();

describe('timeline -l SELECTOR --tree (no --for)', () => {
  test('live: each matching object\'s tree once, a member that also matches told inside its owner\'s tree, a gone child included', async () => {
    const r = await run(['-n', NS, '-l', 'app=cart', '--tree', '--no-headers'], live());
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(objectCells(r.stdout).sort(), CART_TREES);
    assert.doesNotMatch(r.stdout, /ledger/);
  });

  test('a selector only the owner matches still shows everything it owns, not only its own events', async () => {
    const r = await run(['-n', NS, '-l', 'tier=edge', '--tree', '--no-headers'], live());
    assert.equal(r.code, 0, r.stderr);
    assert.equal(objectCells(r.stdout).length, 5);
    assert.ok(objectCells(r.stdout).every((c) => c?.startsWith('Deployment/cart')));
    // Without --tree, -l is the matching objects' own events: the Deployment's one row.
    const flat = await run(['-n', NS, '-l', 'tier=edge', '--no-headers'], live());
    assert.equal(flat.stdout.trimEnd().split('\n').length, 1);
  });

  test('offline: a capture that kept labels gives the same trees', async () => {
    const r = await run(['--from', 'cap.json', '-l', 'app=cart', '--tree', '--no-headers'], saved(OBJECTS));
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(objectCells(r.stdout).sort(), CART_TREES);
  });

  test('offline: a record\'s object lines kept labels too', async () => {
    const record = openSources({ saved: memorySource({ provenance: fromRecord({ namespace: NS }), raw: RAW, ownership: OBJECTS }) });
    const r = await run(['--from', 'rec.jsonl', '-l', 'app=cart', '--tree', '--no-headers'], record);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(objectCells(r.stdout).sort(), CART_TREES);
  });

  test('offline without labels: says so, and shows nothing', async () => {
    const bare = OBJECTS.map(({ labels: _labels, ...o }) => o);
    const r = await run(['--from', 'cap.json', '-l', 'app=cart', '--tree', '--no-headers'], saved(bare));
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /cap\.json keeps no labels of the events' objects/);
  });

  test('-o json carries each event\'s chain; other criteria still narrow the rows', async () => {
    const r = await run(['-n', NS, '-l', 'app=cart', '--tree', '--types', 'Warning', '-o', 'json'], live());
    assert.equal(r.code, 0, r.stderr);
    const items = JSON.parse(r.stdout) as { object: { name: string }; tree: { name: string; gone: boolean }[] }[];
    assert.deepEqual(items.map((e) => e.tree.map((n) => `${n.name}${n.gone ? ' (gone)' : ''}`).join(' > ')).sort(), ['cart > cart-7f9 > cart-7f9-aaaaa', 'cart > cart-7f9 > cart-7f9-bbbbb (gone)']);
  });

  test('no object matches: no rows, and the footer says -l hid every event', async () => {
    const r = await run(['-n', NS, '-l', 'app=nothing', '--tree'], live());
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /-l.*\b7\b|\b7\b.*-l/);
  });

  for (const argv of [['-w'], ['-o', 'html'], ['incident']]) {
    test(`${argv.join(' ')} with -l --tree and no --for is a usage error (exit 2) naming --for`, async () => {
      const r = await run([...argv, '-n', NS, '-l', 'app=cart', '--tree'], live());
      assert.ok(r.code instanceof UsageError, String(r.code));
      assert.match(r.code.message, /-l SELECTOR --tree without --for is several trees.*add --for KIND\/NAME/);
    });
  }

  test('--tree with neither --for nor -l is still a usage error', async () => {
    const r = await run(['-n', NS, '--tree'], live());
    assert.ok(r.code instanceof UsageError);
    assert.match(r.code.message, /--tree needs --for KIND\/NAME or -l SELECTOR/);
  });
});

// `--tree` against hostile input: objects and event messages crafted to break it (control characters
// in every field, ownership cycles, chains thousands deep), through an in-memory source at the port.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../../../src/cli.ts';
import type { ObjectMeta } from '../../../src/core/ownership.ts';
import { buildTree } from '../../../src/core/tree.ts';
import { MAX_TREE_DEPTH } from '../../../src/core/tree-grow.ts';
import { normaliseEvent } from '../../../src/core/event.ts';
import type { Json } from '../../../src/core/json.ts';
import { ev, NOW } from '../../support/builders.ts';
import { fakeDeps } from '../../support/deps.ts';
import { fromCluster, fromStableTable, memorySource, openSources } from '../../support/sources.ts';
import { parseStableTable } from '../../../src/core/stable-table.ts';
import { servedResource } from '../../support/owned-objects.ts';

const NS = 'op-events';
const SERVED = [servedResource('', 'pods', 'Pod', ['po']), servedResource('apps', 'deployments', 'Deployment', ['deploy']), servedResource('apps', 'replicasets', 'ReplicaSet', ['rs'])];
type Ref = { apiVersion: string; kind: string; name: string; uid: string };

function meta(apiVersion: string, kind: string, name: string, uid: string, owner?: Ref): ObjectMeta {
  const owners = owner ? [{ apiVersion: owner.apiVersion, kind: owner.kind, name: owner.name, uid: owner.uid, controller: true }] : [];
  return { apiVersion, kind, namespace: NS, name, uid, owners, created: NOW - 600_000, deleting: null };
}
const on = (o: Ref) => ({ apiVersion: o.apiVersion, kind: o.kind, objectName: o.name, objectUid: o.uid });

async function run(argv: string[], objects: ObjectMeta[], raw: unknown[]) {
  const sources = openSources({ live: memorySource({ provenance: fromCluster(), raw, served: SERVED, ownership: objects }) });
  const fake = fakeDeps({ openSource: sources.open });
  const code = await runCli(argv, fake.deps).catch((error: unknown) => error);
  return { code, stdout: fake.stdout(), stderr: fake.stderr() };
}

const deploy = meta('apps/v1', 'Deployment', 'web', 'uid-d');
// What a terminal acts on (ESC, OSC ending in BEL, a one-byte C1 CSI, a bidi override) and what a page would run.
const EVIL = 'x\u001b[31mred\u001b]0;title\u0007\u009b2J\u202e\n<script>alert(1)</script>';
const RAW_CONTROLS = /\u001b|\u009b|\u202e|\u0007/;

describe('--tree with hostile object text', () => {
  const rs = meta('apps/v1\u001b[2J', `ReplicaSet${EVIL}`, `rs${EVIL}`, `uid-rs${EVIL}`, deploy);
  const pods = [1, 2].map((i) => meta(`v1${EVIL}`, 'Pod', `p${i}${EVIL}`, `uid-p${i}${EVIL}`, rs));
  const raw = [
    ev({ ...on(deploy), reason: 'ScalingReplicaSet', message: 'Scaled up replica set web-5d4 from 0 to 2', first: 300 }),
    ev({ ...on(rs), reason: 'SuccessfulCreate', message: `Created pod: ${EVIL}`, first: 299, component: EVIL }),
    ...pods.map((p) => ev({ ...on(p), type: 'Warning', reason: `BackOff${EVIL}`, message: `m${EVIL}`, first: 298 })),
  ];
  const objects = [deploy, rs, ...pods];
  for (const argv of [[], ['-o', 'wide'], ['-o', 'stable'], ['incident'], ['incident', '--detail']]) {
    test(`${argv.join(' ') || 'the table'}: every member's kind, name and uid reach the terminal escaped`, async () => {
      const r = await run([...argv, '--for', 'deploy/web', '--tree'], objects, raw);
      assert.equal(r.code, 0, r.stderr);
      assert.doesNotMatch(r.stdout, RAW_CONTROLS);
      assert.doesNotMatch(r.stderr, RAW_CONTROLS);
      // The pods are in the tree, under their (hostile) ReplicaSet, made visible rather than dropped.
      assert.match(r.stdout, /Pod\/p1x\^\[\[31mred/);
    });
  }
  test('-o html: no markup or control character of a member gets through', async () => {
    const r = await run(['-o', 'html', '--for', 'deploy/web', '--tree'], objects, raw);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stdout, /<script>alert/);
    assert.doesNotMatch(r.stdout, RAW_CONTROLS);
  });
  for (const out of ['json', 'yaml']) test(`-o ${out} keeps the text as data, escaped`, async () => {
    const r = await run(['-o', out, '--for', 'deploy/web', '--tree'], objects, raw);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stdout, RAW_CONTROLS);
  });
  test('-o json: the chain names the hostile member exactly', async () => {
    const r = await run(['-o', 'json', '--for', 'deploy/web', '--tree'], objects, raw);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stdout, RAW_CONTROLS);
    const items = JSON.parse(r.stdout) as { tree: { name: string }[] }[];
    assert.ok(items.some((it) => it.tree.at(-1)?.name === `p1${EVIL}`));
  });
});

describe('--tree with ownership loops', () => {
  // A owns B owns A (the garbage collector has not broken it yet), and a Pod that owns itself.
  const a = meta('apps/v1', 'Deployment', 'web', 'uid-a', { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'b', uid: 'uid-b' });
  const b = meta('apps/v1', 'ReplicaSet', 'b', 'uid-b', a);
  const c = meta('v1', 'Pod', 'c', 'uid-c', { apiVersion: 'v1', kind: 'Pod', name: 'c', uid: 'uid-c' });
  const d = meta('v1', 'Pod', 'd', 'uid-d2', b);
  const raw = [ev({ ...on(a), reason: 'R', first: 10 }), ev({ ...on(b), reason: 'R', first: 9 }), ev({ ...on(c), reason: 'R', first: 8 }), ev({ ...on(d), reason: 'R', first: 7 })];
  test('each member once, from whichever end is the root', async () => {
    const fromA = await run(['--for', 'deploy/web', '--tree', '--no-headers'], [a, b, c, d], raw);
    assert.equal(fromA.code, 0, fromA.stderr);
    assert.deepEqual(fromA.stdout.trimEnd().split('\n').map((row) => row.split(/\s{2,}/)[4]), ['Deployment/web', 'Deployment/web > ReplicaSet/b', 'Deployment/web > ReplicaSet/b > Pod/d']);
    const fromB = await run(['--for', 'rs/b', '--tree', '--no-headers'], [a, b, c, d], raw);
    assert.deepEqual(fromB.stdout.trimEnd().split('\n').map((row) => row.split(/\s{2,}/)[4]), ['ReplicaSet/b > Deployment/web', 'ReplicaSet/b', 'ReplicaSet/b > Pod/d']);
    const self = await run(['incident', '--for', 'pod/c', '--tree'], [a, b, c, d], raw);
    assert.equal(self.code, 0, self.stderr);
    assert.match(self.stdout, /The tree of Pod\/c\b/);
  });
});

describe('--tree with a chain thousands deep', () => {
  const objects: ObjectMeta[] = [deploy];
  const raw: unknown[] = [ev({ ...on(deploy), reason: 'R', first: 20 })];
  for (let i = 0; i < 10_000; i += 1) {
    const o = meta('apps/v1', 'ReplicaSet', `rs-${i}`, `uid-${i}`, objects.at(-1));
    objects.push(o);
    if (i === 10 || i === 9_999) raw.push(ev({ ...on(o), reason: 'R', first: 19 }));
  }
  for (const argv of [[], ['-o', 'json'], ['-o', 'html'], ['incident'], ['incident', '-o', 'json']]) {
    test(`${argv.join(' ') || 'the table'}: the tree stops ${MAX_TREE_DEPTH} deep and says so, no stack overflow`, async () => {
      const r = await run([...argv, '--for', 'deploy/web', '--tree'], objects, raw);
      assert.equal(r.code, 0, r.code instanceof Error ? String(r.code.stack) : r.stderr);
      assert.match(r.stderr, new RegExp(`^warning: --tree stops ${MAX_TREE_DEPTH} owners deep: what is owned below that is not in the tree`, 'm'));
      assert.match(r.stdout, /rs-10\b/);
      assert.doesNotMatch(r.stdout, /rs-9999\b/);
    });
  }

  test('-w: said once, the followed tree as deep as the listed one', async () => {
    const live = memorySource({ provenance: fromCluster(), served: SERVED, ownership: objects, steps: [{ kind: 'list', items: raw as Json[], resourceVersion: '10', why: 'start' }] });
    const fake = fakeDeps({ openSource: openSources({ live }).open });
    const code = await runCli(['--for', 'deploy/web', '--tree', '-w', '--no-headers'], fake.deps);
    assert.equal(code, 0, fake.stderr());
    assert.equal(fake.stderr().match(/--tree stops 64 owners deep/g)?.length, 1, fake.stderr());
    assert.match(fake.stdout(), /rs-10\b/);
    assert.doesNotMatch(fake.stdout(), /rs-9999\b/);
  });

  test('a chain of owners\' messages ("Created pod: X" on a Pod, naming the next) stops there too', () => {
    const events = [];
    for (let i = 0; i < 5_000; i += 1) {
      events.push(normaliseEvent(ev({ apiVersion: 'v1', kind: 'Pod', objectName: `p-${i}`, objectUid: '', reason: 'SuccessfulCreate', message: `Created pod: p-${i + 1}`, first: 30 })));
    }
    const tree = buildTree({ kind: 'Pod', name: 'p-0', namespace: NS }, null, events);
    assert.equal(tree.nodes.length, MAX_TREE_DEPTH + 1);
    assert.equal(tree.tooDeep, true);
    assert.equal(tree.chainOf(events[MAX_TREE_DEPTH] as never)?.length, MAX_TREE_DEPTH + 1);
    assert.equal(tree.chainOf(events[MAX_TREE_DEPTH + 1] as never), undefined);
  });
});

describe('--tree from an input that cannot tell', () => {
  test('a stable table (no ownership, no messages): the warning says the tree is the object alone', async () => {
    const events = parseStableTable('Normal ScalingReplicaSet Deployment/web\nNormal SuccessfulCreate ReplicaSet/web-5d4\n');
    const sources = openSources({ saved: memorySource({ provenance: fromStableTable(), events }) });
    const fake = fakeDeps({ openSource: sources.open });
    const code = await runCli(['--from', 'table.txt', '--for', 'deploy/web', '--tree', '--no-headers'], fake.deps);
    assert.equal(code, 0);
    assert.equal(fake.stderr(), 'warning: a stable table holds no ownership and no messages: the tree is the object alone (its children cannot be found)\n');
    assert.match(fake.stdout(), /ScalingReplicaSet\s+Deployment\/web\s/);
    assert.doesNotMatch(fake.stdout(), /ReplicaSet\/web-5d4/);
  });
});

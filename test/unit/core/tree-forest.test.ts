// core/tree-forest.ts: the roots -l picks, and one forest of their trees (pure; built with core/tree.ts).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ObjectMeta } from '../../../src/core/ownership.ts';
import { buildTree } from '../../../src/core/tree.ts';
import { labelledRoots, plantForest } from '../../../src/core/tree-forest.ts';
import { parseLabelSelector } from '../../../src/core/selectors.ts';

const NS = 'a-ns';
function meta(apiVersion: string, kind: string, name: string, uid: string, labels?: Record<string, string>, owner?: ObjectMeta, namespace = NS): ObjectMeta {
  const owners = owner ? [{ apiVersion: owner.apiVersion, kind: owner.kind, name: owner.name, uid: owner.uid, controller: true }] : [];
  return { apiVersion, kind, namespace, name, uid, owners, created: 1_000, deleting: null, ...(labels ? { labels } : {}) };
}
const sel = (text: string) => {
  const r = parseLabelSelector(text);
  assert.ok(r.ok);
  return r.value;
};
const sts = meta('apps/v1', 'StatefulSet', 'db', 'u-sts', { app: 'db' });
const pod0 = meta('v1', 'Pod', 'db-0', 'u-p0', { app: 'db' }, sts);
const pod1 = meta('v1', 'Pod', 'db-1', 'u-p1', { app: 'db' }, sts);
const job = meta('batch/v1', 'Job', 'db-backup', 'u-job', { app: 'db', role: 'backup' });
const jobPod = meta('v1', 'Pod', 'db-backup-x', 'u-jp', { 'batch.kubernetes.io/job-name': 'db-backup' }, job);
const elsewhere = meta('v1', 'Pod', 'db-9', 'u-p9', { app: 'db' }, undefined, 'other-ns');
const OBJECTS = [pod1, pod0, sts, job, jobPod, elsewhere];
const treeOf = (root: { kind: string; name: string; group?: string; namespace: string }) => buildTree(root, OBJECTS, []);
const names = (t: { nodes: { kind: string; name: string }[] } | null) => t?.nodes.map((n) => `${n.kind}/${n.name}`);

describe('labelledRoots', () => {
  test('every matching object of the namespace, with its group; other namespaces and unlabelled objects left out', () => {
    assert.deepEqual(
      labelledRoots(OBJECTS, sel('app=db'), NS).map((r) => `${r.group}/${r.kind}/${r.name}`),
      ['/Pod/db-1', '/Pod/db-0', 'apps/StatefulSet/db', 'batch/Job/db-backup'],
    );
    assert.deepEqual(labelledRoots(OBJECTS, sel('role notin (backup)'), NS).length, 4);
    assert.deepEqual(labelledRoots([{ ...sts, labels: undefined }], sel('!app'), NS), []);
  });
});

describe('plantForest', () => {
  test('a match inside another match\'s tree is no tree of its own, whatever the order; the rest kept in order', () => {
    const forest = plantForest(labelledRoots(OBJECTS, sel('app=db'), NS).map(treeOf));
    assert.deepEqual(names(forest), ['StatefulSet/db', 'Pod/db-0', 'Pod/db-1', 'Job/db-backup', 'Pod/db-backup-x']);
  });

  test('each object\'s chain comes from the tree holding it', () => {
    const forest = plantForest([treeOf({ kind: 'Job', name: 'db-backup', group: 'batch', namespace: NS }), treeOf({ kind: 'StatefulSet', name: 'db', group: 'apps', namespace: NS })]);
    const about = (o: ObjectMeta) => ({ object: { apiVersion: o.apiVersion, kind: o.kind, name: o.name, namespace: o.namespace, uid: o.uid, fieldPath: '' }, namespace: NS }) as never;
    assert.deepEqual(forest?.chainOf(about(jobPod))?.map((n) => n.name), ['db-backup', 'db-backup-x']);
    assert.deepEqual(forest?.chainOf(about(pod1))?.map((n) => n.name), ['db', 'db-1']);
    assert.equal(forest?.chainOf(about(elsewhere)), undefined);
  });

  test('two objects a hostile file makes own each other: one tree stays, not none', () => {
    const a = meta('v1', 'ConfigMap', 'a', 'u-a', { x: 'y' });
    const b = meta('v1', 'ConfigMap', 'b', 'u-b', { x: 'y' }, a);
    a.owners.push({ apiVersion: 'v1', kind: 'ConfigMap', name: 'b', uid: 'u-b', controller: true });
    const trees = [a, b].map((o) => buildTree({ kind: o.kind, name: o.name, group: '', namespace: NS }, [a, b], []));
    assert.equal(plantForest(trees)?.nodes.length, 2);
  });

  test('no tree: null', () => {
    assert.equal(plantForest([]), null);
  });
});

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ObjectRef } from '../../../src/core/event.ts';
import { objectKey } from '../../../src/core/identity.ts';
import type { ObjectLookup } from '../../../src/core/incarnation.ts';
import { findOwners, objectMetaOf } from '../../../src/core/object-meta.ts';
import type { ObjectMeta } from '../../../src/core/ownership.ts';

const APPS = { apiVersion: 'apps/v1' };

function meta(kind: string, name: string, uid: string, owners: ObjectMeta['owners'] = [], apiVersion = kind === 'Pod' ? 'v1' : 'apps/v1'): ObjectMeta {
  return { apiVersion, kind, namespace: 'shop', name, uid, owners, created: null, deleting: null };
}
const owner = (kind: string, name: string, uid: string) => ({ ...APPS, kind, name, uid, controller: true });

describe('objectMetaOf reads an object metadata as the API server sends it', () => {
  test('keeps identity, owners and both times of a metadata-only item', () => {
    const read = objectMetaOf(
      {
        name: 'web-5d4-x2k',
        namespace: 'shop',
        uid: 'u-pod',
        creationTimestamp: '2026-11-30T12:00:00Z',
        deletionTimestamp: '2026-11-30T12:05:00Z',
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-5d4', uid: 'u-rs', controller: true, blockOwnerDeletion: true }],
      },
      { apiVersion: 'v1', kind: 'Pod' },
    );
    assert.deepEqual(read, {
      apiVersion: 'v1',
      kind: 'Pod',
      namespace: 'shop',
      name: 'web-5d4-x2k',
      uid: 'u-pod',
      owners: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-5d4', uid: 'u-rs', controller: true }],
      created: Date.parse('2026-11-30T12:00:00Z'),
      deleting: Date.parse('2026-11-30T12:05:00Z'),
    });
  });

  const cases: [string, unknown, ObjectMeta | null][] = [
    ['an object without a uid is nothing to match: null', { name: 'x' }, null],
    ['an object without a name: null', { uid: 'u' }, null],
    ['metadata that is not an object: null', 'web', null],
    [
      'a cluster-scoped object has namespace "", times that do not parse are not known, a non-controller owner says so',
      { name: 'n', uid: 'u', creationTimestamp: 'yesterday', ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'a', uid: 'o' }] },
      { apiVersion: 'v1', kind: 'Node', namespace: '', name: 'n', uid: 'u', owners: [{ apiVersion: 'v1', kind: 'Node', name: 'a', uid: 'o', controller: false }], created: null, deleting: null },
    ],
    [
      'owner entries missing a uid, kind or name are left out, as are ownerReferences that are not a list',
      { name: 'n', uid: 'u', ownerReferences: [{ kind: 'X', name: 'a' }, { uid: 'o', name: 'a' }, 7, null] },
      { apiVersion: 'v1', kind: 'Node', namespace: '', name: 'n', uid: 'u', owners: [], created: null, deleting: null },
    ],
  ];
  for (const [name, input, expected] of cases) {
    test(name, () => assert.deepEqual(objectMetaOf(input, { apiVersion: 'v1', kind: 'Node' }), expected));
  }
});

describe('findOwners walks ownerReferences up to the top, one lookup per level', () => {
  /** A cluster of objects by uid; lookUp answers by name as the live directory does, and counts its calls. */
  function cluster(objects: ObjectMeta[], fail: Record<string, ObjectLookup> = {}) {
    const calls: string[][] = [];
    const lookUp = async (refs: ObjectRef[]) => {
      calls.push(refs.map((r) => `${r.kind}/${r.name}`));
      const answers = new Map<string, ObjectLookup>();
      for (const ref of refs) {
        const failed = fail[ref.name];
        const found = objects.find((o) => o.kind === ref.kind && o.name === ref.name && o.namespace === ref.namespace);
        answers.set(objectKey(ref), failed ?? (found ? { state: 'exists', uid: found.uid, creationTimestamp: null, meta: found } : { state: 'gone' }));
      }
      return answers;
    };
    return { lookUp, calls };
  }
  const deploy = meta('Deployment', 'web', 'u-deploy');
  const rs = meta('ReplicaSet', 'web-5d4', 'u-rs', [owner('Deployment', 'web', 'u-deploy')]);
  const pods = [1, 2, 3].map((i) => meta('Pod', `web-5d4-${i}`, `u-pod-${i}`, [owner('ReplicaSet', 'web-5d4', 'u-rs')]));

  test('three pods of one ReplicaSet: the ReplicaSet once, then its Deployment, in two lookups', async () => {
    const { lookUp, calls } = cluster([deploy, rs, ...pods]);
    const found = await findOwners(pods, lookUp);
    assert.deepEqual(found, { owners: [rs, deploy], unknown: [] });
    assert.deepEqual(calls, [['ReplicaSet/web-5d4'], ['Deployment/web']]);
  });

  test('an owner already known is not asked for again, nor are its owners', async () => {
    const { lookUp, calls } = cluster([deploy, rs, ...pods]);
    assert.deepEqual(await findOwners(pods, lookUp, (uid) => uid === 'u-rs'), { owners: [], unknown: [] });
    assert.deepEqual(calls, []);
  });

  test('an owner whose name now holds another object (another uid) is gone, as is one the server lacks', async () => {
    const recreated = { ...rs, uid: 'u-rs-new' };
    const { lookUp } = cluster([recreated]);
    const found = await findOwners(pods, lookUp);
    assert.deepEqual(found.owners, []);
    assert.deepEqual(
      found.unknown.map((u) => [u.ref.kind, u.ref.name, u.ref.uid, u.ref.namespace, u.why.reason]),
      [['ReplicaSet', 'web-5d4', 'u-rs', 'shop', 'gone']],
    );
    const { lookUp: empty } = cluster([]);
    assert.deepEqual((await findOwners(pods, empty)).unknown.map((u) => u.why), [{ reason: 'gone' }]);
  });

  test('a lookup that fails is not known, with its reason, and stops that branch', async () => {
    const { lookUp } = cluster([deploy, rs], { 'web-5d4': { state: 'unknown', why: { reason: 'forbidden', step: 'get', target: 'replicasets' } } });
    const found = await findOwners(pods, lookUp);
    assert.deepEqual(found.owners, []);
    assert.deepEqual(found.unknown.map((u) => u.why), [{ reason: 'forbidden', step: 'get', target: 'replicasets' }]);
  });

  test('an ownership loop (a owns b owns a) ends: nothing is asked twice, the object itself not at all', async () => {
    const a = meta('Thing', 'a', 'u-a', [owner('Thing', 'b', 'u-b')]);
    const b = meta('Thing', 'b', 'u-b', [owner('Thing', 'a', 'u-a')]);
    const { lookUp, calls } = cluster([a, b]);
    const found = await findOwners([a], lookUp);
    assert.deepEqual(found.owners, [b]);
    assert.deepEqual(calls, [['Thing/b']]);
  });
});

// src/kube/tree-lookups.ts: object lookups answered from --tree's ownership lists give the answers
// the lookups themselves (src/kube/objects.ts) give over the same namespace, and leave to them what the
// lists do not cover (a Kind the reader may not list, another namespace, a version not served).
// Both read one namespace through a Getter double; what a real API server answers is in
// test/integration/tree.test.ts.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ObjectRef } from '../../../src/core/event.ts';
import { objectKey } from '../../../src/core/identity.ts';
import { servedResource } from '../../support/served.ts';
import { ApiError } from '../../../src/kube/http.ts';
import { answerFromListing } from '../../../src/kube/tree-lookups.ts';
import { lookUpObjects } from '../../../src/kube/objects.ts';
import { serverDiscovery } from '../../../src/kube/discovery.ts';
import { listOwnership } from '../../../src/kube/tree-listing.ts';

const r = servedResource;

const SERVED = [
  r('', 'v1', 'pods', 'Pod'),
  r('', 'v1', 'nodes', 'Node', { namespaced: false }),
  r('apps', 'v1', 'replicasets', 'ReplicaSet'),
  r('secret.example', 'v1', 'vaults', 'Vault'),
];

interface Stored {
  path: string;
  metadata: { name: string; namespace?: string; uid: string; creationTimestamp: string; ownerReferences?: unknown[] };
}

/** The objects of the double's server, by collection path. */
const STORE: Stored[] = [
  { path: '/api/v1/namespaces/shop/pods', metadata: { name: 'db-1', namespace: 'shop', uid: 'pod-new', creationTimestamp: '2026-11-30T11:00:07Z', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid: 'sts1', controller: true }] } },
  { path: '/api/v1/namespaces/shop/pods', metadata: { name: 'web-1', namespace: 'shop', uid: 'pod-web', creationTimestamp: '2026-11-30T11:00:00Z' } },
  { path: '/api/v1/namespaces/other/pods', metadata: { name: 'away', namespace: 'other', uid: 'pod-away', creationTimestamp: '2026-11-30T10:00:00Z' } },
  { path: '/apis/apps/v1/namespaces/shop/replicasets', metadata: { name: 'web', namespace: 'shop', uid: 'rs1', creationTimestamp: '2026-11-30T10:59:00Z' } },
  { path: '/apis/secret.example/v1/namespaces/shop/vaults', metadata: { name: 'keys', namespace: 'shop', uid: 'vault1', creationTimestamp: '2026-11-30T09:00:00Z' } },
  { path: '/api/v1/nodes', metadata: { name: 'node-1', uid: 'node1', creationTimestamp: '2026-11-30T08:00:00Z' } },
];

/** A server over STORE: metadata-only lists and GETs; the reader may get Vaults but not list them (RBAC can grant get without list). */
function server(asked: string[] = []) {
  return async (path: string): Promise<unknown> => {
    asked.push(path);
    const [bare = ''] = path.split('?');
    if (bare.startsWith('/apis/secret.example/') && path.includes('?')) throw new ApiError('forbidden', 403, 'Forbidden');
    const items = STORE.filter((s) => s.path === bare);
    if (path.includes('?')) return { metadata: {}, items: items.map((s) => ({ metadata: s.metadata })) };
    const one = STORE.find((s) => `${s.path}/${s.metadata.name}` === bare);
    if (one !== undefined) return { metadata: one.metadata };
    throw new ApiError('not found', 404, 'NotFound');
  };
}

const ref = (apiVersion: string, kind: string, namespace: string, name: string, uid: string): ObjectRef => ({ apiVersion, kind, namespace, name, uid, fieldPath: '' });

const REFS = [
  ref('v1', 'Pod', 'shop', 'db-1', 'pod-old'), // re-created: exists under another uid
  ref('v1', 'Pod', 'shop', 'web-1', 'pod-web'), // exists
  ref('v1', 'Pod', 'shop', 'web-2', 'pod-gone'), // gone
  ref('apps/v1', 'ReplicaSet', 'shop', 'web', 'rs1'),
  ref('apps/v1', 'ReplicaSet', 'shop', 'web-old', 'rs0'), // gone
  ref('secret.example/v1', 'Vault', 'shop', 'keys', 'vault1'), // not listable: not covered
  ref('v1', 'Pod', 'other', 'away', 'pod-away'), // another namespace: not covered
  ref('apps/v1beta1', 'ReplicaSet', 'shop', 'web', 'rs1'), // a version not served: not covered
  ref('v1', 'Node', '', 'node-1', 'node1'), // cluster-scoped: not covered
];

describe('lookups answered from the ownership lists', () => {
  test('answer as the lookups would over the same objects, and leave the rest to them', async () => {
    const read = await listOwnership(server(), SERVED, 'shop');
    assert.deepEqual(read.unlisted.map((u) => u.kind), ['Vault']);
    const { found, rest } = answerFromListing(REFS, { ...read, namespace: 'shop' }, SERVED);
    assert.deepEqual(
      rest.map((x) => `${x.apiVersion} ${x.kind} ${x.namespace}/${x.name}`),
      ['secret.example/v1 Vault shop/keys', 'v1 Pod other/away', 'apps/v1beta1 ReplicaSet shop/web', 'v1 Node /node-1'],
    );
    const asked = REFS.filter((x) => !rest.includes(x));
    const direct = await lookUpObjects(server(), asked, 4, serverDiscovery(server(), SERVED));
    assert.equal(found.size, asked.length);
    for (const x of asked) assert.deepEqual(found.get(objectKey(x)), direct.get(objectKey(x)), `${x.kind}/${x.name}`);
    assert.deepEqual(found.get(objectKey(REFS[0] as ObjectRef)), {
      state: 'exists',
      uid: 'pod-new',
      creationTimestamp: '2026-11-30T11:00:07Z',
      meta: {
        apiVersion: 'v1',
        kind: 'Pod',
        namespace: 'shop',
        name: 'db-1',
        uid: 'pod-new',
        owners: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid: 'sts1', controller: true }],
        created: Date.parse('2026-11-30T11:00:07Z'),
        deleting: null,
      },
    });
    assert.deepEqual(found.get(objectKey(REFS[2] as ObjectRef)), { state: 'gone' });
  });

  test('the Kind the reader may not list is looked up, never called gone', async () => {
    const read = await listOwnership(server(), SERVED, 'shop');
    const vault = ref('secret.example/v1', 'Vault', 'shop', 'keys', 'vault1');
    const { found, rest } = answerFromListing([vault], { ...read, namespace: 'shop' }, SERVED);
    assert.equal(found.size, 0);
    const asked: string[] = [];
    const get = server(asked);
    const looked = await lookUpObjects(get, rest, 4, serverDiscovery(get, SERVED));
    assert.equal(looked.get(objectKey(vault))?.state, 'exists');
    // discovery already known: the one request is the object's own GET
    assert.deepEqual(asked, ['/apis/secret.example/v1/namespaces/shop/vaults/keys']);
  });
});

describe("lookups answered from the facts' full list of the namespace's Pods", () => {
  /** The early list as src/kube/facts.ts startFacts keeps it: each Pod's metadata by name, read before the events. */
  const early = (): Map<string, unknown> => new Map(STORE.filter((s) => s.path === '/api/v1/namespaces/shop/pods').map((s) => [s.metadata.name, s.metadata]));
  const pods = REFS.filter((x) => x.kind === 'Pod' && x.namespace === 'shop');

  test('the Pods it holds are answered from it as the metadata-only list answers them, with no request', async () => {
    const direct = await lookUpObjects(server(), pods, 4, serverDiscovery(server(), SERVED));
    const asked: string[] = [];
    const held = pods.filter((x) => early().has(x.name));
    const get = server(asked);
    const answered = await lookUpObjects(get, held, 4, serverDiscovery(get, SERVED), new Map([['/api/v1/namespaces/shop/pods', early()]]));
    assert.deepEqual(asked, []);
    for (const x of held) assert.deepEqual(answered.get(objectKey(x)), direct.get(objectKey(x)));
  });

  test('a Pod it lacks (made after it was read, or gone) is looked up, never called gone on its word', async () => {
    const listed = new Map<string, unknown>([...early()].filter(([name]) => name !== 'web-1'));
    const asked: string[] = [];
    const get = server(asked);
    const answered = await lookUpObjects(get, pods, 4, serverDiscovery(get, SERVED), new Map([['/api/v1/namespaces/shop/pods', listed]]));
    assert.deepEqual(asked.sort(), ['/api/v1/namespaces/shop/pods/web-1', '/api/v1/namespaces/shop/pods/web-2']);
    assert.equal(answered.get(objectKey(pods[1] as ObjectRef))?.state, 'exists');
    assert.deepEqual(answered.get(objectKey(pods[2] as ObjectRef)), { state: 'gone' });
    assert.equal(answered.get(objectKey(pods[0] as ObjectRef))?.state, 'exists');
  });
});

// src/kube/tree-listing.ts over a Getter double (the port every kube read goes through): which
// resources are listed, how, and what a refusal does. What a real API server answers is in
// test/integration/tree.test.ts.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { servedResource } from '../../support/served.ts';
import { ApiError } from '../../../src/kube/http.ts';
import { listableResources, listOwnership } from '../../../src/kube/tree-listing.ts';
import { serverDiscovery } from '../../../src/kube/discovery.ts';

const r = servedResource;

const SERVED = [
  r('', 'v1', 'pods', 'Pod'),
  r('', 'v1', 'events', 'Event'),
  r('', 'v1', 'nodes', 'Node', { namespaced: false }),
  r('', 'v1', 'bindings', 'Binding', { verbs: ['create'] }),
  r('apps', 'v1', 'replicasets', 'ReplicaSet'),
  r('events.k8s.io', 'v1', 'events', 'Event'),
  r('ev.labhub.io', 'v1', 'pipelines', 'Pipeline'),
  r('ev.labhub.io', 'v1beta1', 'pipelines', 'Pipeline'),
  r('secret.example', 'v1', 'vaults', 'Vault'),
];

describe('listableResources', () => {
  test('keeps namespaced resources with list, the preferred version once, and no events', () => {
    assert.deepEqual(
      listableResources(SERVED).map((x) => `${x.resource}.${x.group}/${x.version}`),
      ['pods./v1', 'replicasets.apps/v1', 'pipelines.ev.labhub.io/v1', 'vaults.secret.example/v1'],
    );
  });
});

describe('listOwnership', () => {
  test('lists each resource once, metadata only, paging with continue; a 403 is skipped and reported', async () => {
    const asked: { path: string; accept: string | undefined }[] = [];
    const get = async (path: string, accept?: string): Promise<unknown> => {
      asked.push({ path, accept });
      if (path.startsWith('/apis/secret.example/')) throw new ApiError('forbidden', 403, 'Forbidden');
      if (path === '/api/v1/namespaces/ns1/pods?limit=500') {
        return {
          kind: 'PartialObjectMetadataList',
          metadata: { continue: 'page2' },
          items: [
            {
              kind: 'PartialObjectMetadata',
              metadata: {
                name: 'web-1',
                namespace: 'ns1',
                uid: 'p1',
                creationTimestamp: '2026-11-30T11:00:00Z',
                ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'rs1', controller: true }],
              },
            },
          ],
        };
      }
      if (path === '/api/v1/namespaces/ns1/pods?limit=500&continue=page2') {
        return { metadata: {}, items: [{ metadata: { name: 'web-2', namespace: 'ns1', uid: 'p2', deletionTimestamp: '2026-11-30T11:30:00Z' } }] };
      }
      return { metadata: {}, items: [] };
    };
    const { objects, unlisted } = await listOwnership(get, SERVED, 'ns1', 2);
    assert.deepEqual(objects, [
      {
        apiVersion: 'v1',
        kind: 'Pod',
        namespace: 'ns1',
        name: 'web-1',
        uid: 'p1',
        owners: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'rs1', controller: true }],
        created: Date.parse('2026-11-30T11:00:00Z'),
        deleting: null,
      },
      { apiVersion: 'v1', kind: 'Pod', namespace: 'ns1', name: 'web-2', uid: 'p2', owners: [], created: null, deleting: Date.parse('2026-11-30T11:30:00Z') },
    ]);
    assert.deepEqual(unlisted, [{ group: 'secret.example', resource: 'vaults', kind: 'Vault', code: 403 }]);
    assert.deepEqual(
      asked.map((a) => a.path).sort(),
      [
        '/api/v1/namespaces/ns1/pods?limit=500',
        '/api/v1/namespaces/ns1/pods?limit=500&continue=page2',
        '/apis/apps/v1/namespaces/ns1/replicasets?limit=500',
        '/apis/ev.labhub.io/v1/namespaces/ns1/pipelines?limit=500',
        '/apis/secret.example/v1/namespaces/ns1/vaults?limit=500',
      ],
    );
    for (const a of asked) assert.equal(a.accept, 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json');
  });

  test('keeps at most `concurrency` lists in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const get = async (): Promise<unknown> => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      inFlight -= 1;
      return { items: [] };
    };
    const many = Array.from({ length: 20 }, (_, i) => r('g.example', 'v1', `things${i}`, `Thing${i}`));
    await listOwnership(get, many, 'ns1', 3);
    assert.equal(most, 3);
  });

  test('an error other than 403/404/405 is the read\'s error', async () => {
    const get = async (): Promise<unknown> => {
      throw new ApiError('boom', 500, 'InternalError');
    };
    await assert.rejects(listOwnership(get, SERVED, 'ns1'), /boom/);
  });

  test('a name no path may hold (a hostile discovery document) is not listed', async () => {
    const asked: string[] = [];
    const get = async (path: string): Promise<unknown> => {
      asked.push(path);
      return { items: [] };
    };
    await listOwnership(get, [r('', 'v1', '..', 'Evil')], 'ns1');
    assert.deepEqual(asked, []);
  });
});

describe('discovery: scope and verbs', () => {
  test('reads scope and verbs from aggregated discovery', async () => {
    const get = async (path: string): Promise<unknown> => ({
      kind: 'APIGroupDiscoveryList',
      items: [
        {
          metadata: { name: path === '/api' ? '' : 'apps' },
          versions: [
            {
              version: 'v1',
              resources:
                path === '/api'
                  ? [
                      { resource: 'pods', responseKind: { kind: 'Pod' }, scope: 'Namespaced', verbs: ['get', 'list'] },
                      { resource: 'nodes', responseKind: { kind: 'Node' }, scope: 'Cluster', verbs: ['get', 'list'] },
                    ]
                  : [{ resource: 'deployments', responseKind: { kind: 'Deployment' }, scope: 'Namespaced', verbs: ['create'] }],
            },
          ],
        },
      ],
    });
    const served = await serverDiscovery(get).served();
    assert.deepEqual(
      served.map((s) => [s.resource, s.namespaced, s.verbs]),
      [
        ['pods', true, ['get', 'list']],
        ['nodes', false, ['get', 'list']],
        ['deployments', true, ['create']],
      ],
    );
  });

  test('reads namespaced and verbs from legacy discovery', async () => {
    const get = async (path: string): Promise<unknown> => {
      if (path === '/api') return { kind: 'APIVersions', versions: ['v1'] };
      if (path === '/apis') return { kind: 'APIGroupList', groups: [] };
      return {
        resources: [
          { name: 'pods', kind: 'Pod', namespaced: true, verbs: ['list'] },
          { name: 'pods/log', kind: 'Pod', namespaced: true, verbs: ['get'] },
          { name: 'namespaces', kind: 'Namespace', namespaced: false, verbs: ['list'] },
        ],
      };
    };
    const served = await serverDiscovery(get).served();
    assert.deepEqual(
      served.map((s) => [s.resource, s.namespaced, s.verbs]),
      [
        ['pods', true, ['list']],
        ['namespaces', false, ['list']],
      ],
    );
  });
});

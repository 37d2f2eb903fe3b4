// src/kube/discovery.ts: one discovery per server, its group/versions read once, through a Getter double.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { groupVersionPath, serverDiscovery } from '../../../src/kube/discovery.ts';
import { ApiError } from '../../../src/kube/http.ts';
import type { Getter } from '../../../src/kube/http.ts';

describe('groupVersionPath', () => {
  const cases: [string, string | null][] = [
    ['v1', '/api/v1'],
    ['ev.labhub.io/v1', '/apis/ev.labhub.io/v1'],
    ['apps/v1', '/apis/apps/v1'],
    ['apps', null],
    ['', null],
    ['a/b/c', null],
  ];
  for (const [apiVersion, path] of cases) test(`${JSON.stringify(apiVersion)} -> ${String(path)}`, () => assert.equal(groupVersionPath(apiVersion), path));
});


describe('serverDiscovery: one discovery for --for, --tree and the lookups', () => {
  const pods = { name: 'pods', kind: 'Pod', namespaced: true, verbs: ['get', 'list'] };
  const deployments = { name: 'deployments', kind: 'Deployment', namespaced: true, verbs: ['get', 'list'] };
  /** A server with legacy discovery only (no APIGroupDiscoveryList): v1 and apps/v1. */
  function legacy(asked: string[]): Getter {
    return async (path) => {
      asked.push(path);
      if (path === '/api') return { kind: 'APIVersions', versions: ['v1'] };
      if (path === '/apis') return { kind: 'APIGroupList', groups: [{ name: 'apps', versions: [{ version: 'v1' }], preferredVersion: { version: 'v1' } }] };
      if (path === '/api/v1') return { resources: [pods] };
      if (path === '/apis/apps/v1') return { resources: [deployments] };
      throw new ApiError(`${path} not found`, 404, 'NotFound');
    };
  }
  /** A server with aggregated discovery: the whole in two requests. */
  function aggregated(asked: string[]): Getter {
    return async (path) => {
      asked.push(path);
      const group = path === '/api' ? '' : 'apps';
      const resource = path === '/api' ? { resource: 'pods', responseKind: { kind: 'Pod' }, scope: 'Namespaced', verbs: ['get'] } : { resource: 'deployments', responseKind: { kind: 'Deployment' }, scope: 'Namespaced', verbs: ['get'] };
      if (path === '/api' || path === '/apis') return { kind: 'APIGroupDiscoveryList', items: [{ metadata: { name: group }, versions: [{ version: 'v1', resources: [resource] }] }] };
      if (path === '/apis/apps/v1') return { resources: [deployments] };
      throw new ApiError(`${path} not found`, 404, 'NotFound');
    };
  }

  test('a group/version the whole discovery holds is not asked again; one it lacks, or a Kind it lacks, is', async () => {
    const asked: string[] = [];
    const discovery = serverDiscovery(aggregated(asked));
    await discovery.served();
    const pod = await discovery.groupVersion('v1', ['Pod']);
    assert.deepEqual(pod.served && pod.resources.map((r) => r.resource), ['pods']);
    assert.deepEqual(asked, ['/api', '/apis']);
    assert.deepEqual(await discovery.groupVersion('batch/v1', ['Job']), { served: false, why: { reason: 'not-served', apiVersion: 'batch/v1' } });
    await discovery.groupVersion('apps/v1', ['ReplicaSet']);
    assert.deepEqual(asked, ['/api', '/apis', '/apis/batch/v1', '/apis/apps/v1']);
  });

  test('lookups before the whole discovery: a legacy server is asked each group/version once in all', async () => {
    const asked: string[] = [];
    const discovery = serverDiscovery(legacy(asked));
    await discovery.groupVersion('v1', ['Pod']);
    await discovery.groupVersion('v1', ['Pod']);
    assert.deepEqual(asked, ['/api/v1']);
    const served = await discovery.served();
    assert.deepEqual(served.map((r) => r.kind), ['Pod', 'Deployment']);
    await discovery.groupVersion('apps/v1', ['Deployment']);
    assert.deepEqual(asked.sort(), ['/api', '/api/v1', '/apis', '/apis/apps/v1']);
  });

  test('whole discovery handed in: lookups ask the server nothing for its group/versions', async () => {
    const asked: string[] = [];
    const discovery = serverDiscovery(legacy(asked), [{ group: 'apps', version: 'v1', resource: 'deployments', singular: '', kind: 'Deployment', shortNames: [], namespaced: true, verbs: ['get'] }]);
    const found = await discovery.groupVersion('apps/v1', ['Deployment']);
    assert.equal(found.served, true);
    assert.deepEqual(asked, []);
    assert.deepEqual(await discovery.groupVersion('../..', ['X']), { served: false, why: { reason: 'no-version', apiVersion: '../..' } });
  });
});

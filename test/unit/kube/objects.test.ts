// src/kube/objects.ts: the live objects events are about, looked up through a Getter double (what a
// real API server answers is in test/integration/lookups.test.ts).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { normaliseEvent } from '../../../src/core/event.ts';
import type { Event, ObjectRef } from '../../../src/core/event.ts';
import { objectKey } from '../../../src/core/identity.ts';
import { ApiError } from '../../../src/kube/http.ts';
import type { Getter } from '../../../src/kube/http.ts';
import { serverDiscovery } from '../../../src/kube/discovery.ts';
import { lookUpObjects } from '../../../src/kube/objects.ts';
import type { ObjectLookup } from '../../../src/core/incarnation.ts';
import { lookupFailureText } from '../../../src/render/lookup-failure.ts';
import { ev } from '../../support/builders.ts';

const NEW = 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee';
const pipeline = (o: Parameters<typeof ev>[0] = {}): Event => normaliseEvent(ev(o));

describe('lookUpObjects', () => {
  const pipelines = { resources: [{ name: 'pipelines', kind: 'Pipeline', namespaced: true, verbs: ['get', 'list', 'watch'] }] };
  const core = {
    resources: [
      { name: 'pods/status', kind: 'Pod', namespaced: true, verbs: ['get', 'patch'] },
      { name: 'pods', kind: 'Pod', namespaced: true, verbs: ['get', 'list'] },
      { name: 'nodes', kind: 'Node', namespaced: false, verbs: ['get', 'list'] },
      { name: 'bindings', kind: 'Binding', namespaced: true, verbs: ['create'] },
    ],
  };

  /** A fake API server: paths to answers (an Error is thrown); records every path asked. */
  function server(answers: Record<string, unknown>): { get: Getter; asked: string[] } {
    const asked: string[] = [];
    const get: Getter = async (path) => {
      asked.push(path);
      if (!(path in answers)) throw new ApiError(`${path} not found`, 404, 'NotFound');
      const answer = answers[path];
      if (answer instanceof Error) throw answer;
      return answer;
    };
    return { get, asked };
  }

  const ref = (o: Parameters<typeof ev>[0]) => pipeline(o).object;
  // What a lookup hands back beside the uid: the metadata as read (no namespace here: the answers name none).
  const meta = (apiVersion: string, kind: string, namespace: string, name: string, uid: string, created: number | null) =>
    ({ apiVersion, kind, namespace, name, uid, owners: [], created, deleting: null });

  test('asks discovery once per group/version and GETs each object once, from the resource (not a subresource)', async () => {
    const { get, asked } = server({
      '/apis/ev.labhub.io/v1': pipelines,
      '/api/v1': core,
      '/apis/ev.labhub.io/v1/namespaces/op-events/pipelines/build-1': { metadata: { name: 'build-1', uid: NEW, creationTimestamp: '2026-11-30T11:59:30Z' } },
      '/apis/ev.labhub.io/v1/namespaces/op-events/pipelines/build-2': { metadata: { name: 'build-2', uid: 'b2' } },
      '/api/v1/nodes/node-1': { metadata: { name: 'node-1', uid: 'n1', creationTimestamp: '2026-11-29T00:00:00Z' } },
    });
    const refs = [
      ref({}),
      ref({ objectName: 'build-2' }),
      ref({ kind: 'Pod', apiVersion: 'v1', objectName: 'hungry' }),
      ref({ kind: 'Node', apiVersion: 'v1', objectName: 'node-1', namespace: 'default' }),
    ];
    const found = await lookUpObjects(get, refs);
    assert.deepEqual(
      refs.map((r) => found.get(objectKey(r))),
      [
        { state: 'exists', uid: NEW, creationTimestamp: '2026-11-30T11:59:30Z', meta: meta('ev.labhub.io/v1', 'Pipeline', '', 'build-1', NEW, Date.parse('2026-11-30T11:59:30Z')) },
        { state: 'exists', uid: 'b2', creationTimestamp: null, meta: meta('ev.labhub.io/v1', 'Pipeline', '', 'build-2', 'b2', null) },
        { state: 'gone' },
        { state: 'exists', uid: 'n1', creationTimestamp: '2026-11-29T00:00:00Z', meta: meta('v1', 'Node', '', 'node-1', 'n1', Date.parse('2026-11-29T00:00:00Z')) },
      ],
    );
    assert.deepEqual([...asked].sort(), [
      '/api/v1',
      '/api/v1/namespaces/op-events/pods/hungry',
      '/api/v1/nodes/node-1',
      '/apis/ev.labhub.io/v1',
      '/apis/ev.labhub.io/v1/namespaces/op-events/pipelines/build-1',
      '/apis/ev.labhub.io/v1/namespaces/op-events/pipelines/build-2',
    ]);
  });

  const unknowns: [string, Record<string, unknown>, Parameters<typeof ev>[0], RegExp][] = [
    ['a group/version no longer served (404 on discovery)', {}, {}, /^ev\.labhub\.io\/v1 is no longer served$/],
    ['discovery the reader may not read (403)', { '/apis/ev.labhub.io/v1': new ApiError('forbidden', 403, 'Forbidden') }, {}, /^not allowed to discover ev\.labhub\.io\/v1$/],
    ['a Kind discovery does not list', { '/apis/ev.labhub.io/v1': { resources: [] } }, {}, /^ev\.labhub\.io\/v1 serves no kind Pipeline$/],
    [
      'an object the reader may not get (403)',
      {
        '/apis/ev.labhub.io/v1': pipelines,
        '/apis/ev.labhub.io/v1/namespaces/op-events/pipelines/build-1': new ApiError('pipelines "build-1" is forbidden', 403, 'Forbidden'),
      },
      {},
      /^not allowed to get pipelines$/,
    ],
    ['a resource without get', { '/api/v1': core }, { kind: 'Binding', apiVersion: 'v1', objectName: 'b' }, /^bindings cannot be read with get$/],
    [
      'a server error on the GET',
      { '/apis/ev.labhub.io/v1': pipelines, '/apis/ev.labhub.io/v1/namespaces/op-events/pipelines/build-1': new ApiError('etcd is down', 500, 'InternalError') },
      {},
      /^cannot get pipelines: etcd is down$/,
    ],
    ['an unreachable server', { '/apis/ev.labhub.io/v1': new Error('ECONNREFUSED') }, {}, /^cannot discover ev\.labhub\.io\/v1: ECONNREFUSED$/],
    ['an apiVersion without a version', {}, { apiVersion: 'ev.labhub.io' }, /^apiVersion ev\.labhub\.io names no version$/],
    ['an object named ..', { '/apis/ev.labhub.io/v1': pipelines }, { objectName: '..' }, /^invalid resource name "\.\.": \[may not be '\.\.'\]$/],
    ['an object in namespace .', { '/apis/ev.labhub.io/v1': pipelines }, { namespace: '.' }, /^invalid namespace "\.": \[may not be '\.'\]$/],
    [
      'an answer for another object (a path rewritten on the way)',
      { '/apis/ev.labhub.io/v1': pipelines, '/apis/ev.labhub.io/v1/namespaces/op-events/pipelines/build-1': { metadata: { name: 'op-events', uid: 'ns' } } },
      {},
      /^the server answered for Pipeline build-1 with another object$/,
    ],
    ['an answer without a uid', { '/apis/ev.labhub.io/v1': pipelines, '/apis/ev.labhub.io/v1/namespaces/op-events/pipelines/build-1': { metadata: { name: 'build-1' } } }, {}, /without a uid/],
  ];
  for (const [name, answers, o, why] of unknowns) {
    test(`${name} is unknown, not an error`, async () => {
      const r = ref(o);
      const found = (await lookUpObjects(server(answers).get, [r])).get(objectKey(r));
      assert.equal(found?.state, 'unknown');
      assert.match(found?.state === 'unknown' ? lookupFailureText(found.why) : '', why);
    });
  }

  const pods = (n: number, namespace = 'op-events') => Array.from({ length: n }, (_, i) => ref({ kind: 'Pod', apiVersion: 'v1', objectName: `pod-${i}`, namespace }));
  const podList = (names: string[], next = '') => ({
    kind: 'PartialObjectMetadataList',
    metadata: next ? { continue: next } : {},
    items: names.map((name) => ({ metadata: { name, uid: `uid-${name}`, creationTimestamp: '2026-11-30T00:00:00Z' } })),
  });
  /** A pod as a metadata-only list made 2026-11-30T00:00:00Z shows it (podList, allPods). */
  const listedPod = (namespace: string, name: string, uid: string): ObjectLookup => ({
    state: 'exists',
    uid,
    creationTimestamp: '2026-11-30T00:00:00Z',
    meta: meta('v1', 'Pod', namespace, name, uid, Date.parse('2026-11-30T00:00:00Z')),
  });
  const states = (found: Map<string, ObjectLookup>, refs: ReturnType<typeof ref>[]) => refs.map((r) => found.get(objectKey(r))?.state);

  test('LISTs a namespace once for 50 of its pods: one discovery and one metadata-only list; a pod the list lacks is gone', async () => {
    const refs = pods(50);
    const accepts: string[] = [];
    const { get, asked } = server({ '/api/v1': core, '/api/v1/namespaces/op-events/pods?limit=500': podList(refs.slice(1).map((r) => r.name)) });
    const found = await lookUpObjects(async (path, accept) => (accepts.push(accept ?? ''), get(path)), refs);
    assert.deepEqual(asked, ['/api/v1', '/api/v1/namespaces/op-events/pods?limit=500']);
    assert.equal(accepts[1], 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json');
    assert.deepEqual(found.get(objectKey(refs[0] as ObjectRef)), { state: 'gone' });
    assert.deepEqual(found.get(objectKey(refs[7] as ObjectRef)), listedPod('', 'pod-7', 'uid-pod-7'));
    assert.equal(states(found, refs).filter((s) => s === 'exists').length, 49);
  });

  test('with one discovery shared by its lookups, a group/version is discovered once; again for a Kind it did not serve; a failure is not kept', async () => {
    const { get, asked } = server({
      '/api/v1': core,
      '/api/v1/namespaces/op-events/pods/a': { metadata: { name: 'a', uid: 'ua' } },
      '/api/v1/namespaces/op-events/pods/b': { metadata: { name: 'b', uid: 'ub' } },
      '/apis/ev.labhub.io/v1': new ApiError('forbidden', 403, 'Forbidden'),
    });
    const served = serverDiscovery(get);
    const pod = (name: string) => ref({ kind: 'Pod', apiVersion: 'v1', objectName: name });
    await lookUpObjects(get, [pod('a')], 4, served);
    await lookUpObjects(get, [pod('b')], 4, served);
    await lookUpObjects(get, [ref({ kind: 'Secretish', apiVersion: 'v1', objectName: 's' })], 4, served);
    await lookUpObjects(get, [ref({}), ref({})], 4, served);
    await lookUpObjects(get, [ref({})], 4, served);
    assert.deepEqual(asked.filter((p) => !p.includes('/namespaces/')), ['/api/v1', '/api/v1', '/apis/ev.labhub.io/v1', '/apis/ev.labhub.io/v1']);
  });

  test('follows the continue token page by page', async () => {
    const refs = pods(4);
    const { get, asked } = server({
      '/api/v1': core,
      '/api/v1/namespaces/op-events/pods?limit=500': podList(['pod-0', 'pod-1'], 'next/page=='),
      '/api/v1/namespaces/op-events/pods?limit=500&continue=next%2Fpage%3D%3D': podList(['pod-3']),
    });
    assert.deepEqual(states(await lookUpObjects(get, refs), refs), ['exists', 'exists', 'gone', 'exists']);
    assert.equal(asked.length, 3);
  });

  const nodes = (n: number) => Array.from({ length: n }, (_, i) => ref({ kind: 'Node', apiVersion: 'v1', objectName: `node-${i}`, namespace: 'default' }));
  const builds = (n: number) => Array.from({ length: n }, (_, i) => ref({ objectName: `build-${i}` }));
  const getOnly = { '/apis/ev.labhub.io/v1': { resources: [{ name: 'pipelines', kind: 'Pipeline', namespaced: true, verbs: ['get'] }] } };
  const podGets = (ns: string, n: number) => Array.from({ length: n }, (_, i) => `/api/v1/namespaces/${ns}/pods/pod-${i}`);
  const buildGets = (n: number) => Array.from({ length: n }, (_, i) => `/apis/ev.labhub.io/v1/namespaces/op-events/pipelines/build-${i}`);
  const counts: [string, ObjectRef[], Record<string, unknown>, string[]][] = [
    ['2 pods are read with 2 GETs, not a list', pods(2), { '/api/v1': core }, ['/api/v1', ...podGets('op-events', 2)]],
    [
      '3 pods in each of 2 namespaces: one list across namespaces is tried, then 6 GETs when it cannot be read',
      [...pods(3, 'a'), ...pods(3, 'b')],
      { '/api/v1': core },
      ['/api/v1', '/api/v1/pods?limit=500', ...podGets('a', 3), ...podGets('b', 3)],
    ],
    ['a pod in each of 2 namespaces is 2 GETs: a list across namespaces could save none', [...pods(1, 'a'), ...pods(1, 'b')], { '/api/v1': core }, ['/api/v1', ...podGets('a', 1), ...podGets('b', 1)]],
    ['4 Nodes, cluster-scoped, are one list without a namespace', nodes(4), { '/api/v1': core }, ['/api/v1', '/api/v1/nodes?limit=500']],
    ['4 Pipelines of a resource without list are 4 GETs', builds(4), getOnly, ['/apis/ev.labhub.io/v1', ...buildGets(4)]],
  ];
  for (const [name, refs, answers, want] of counts) {
    test(name, async () => {
      const { get, asked } = server(answers);
      await lookUpObjects(get, refs);
      assert.deepEqual([...asked].sort(), [...want].sort());
    });
  }

  // A read of all namespaces: events about pods in many namespaces, as `-A` reads them.
  const spread = (namespaces: number, perNamespace: number) =>
    Array.from({ length: namespaces }, (_, n) => pods(perNamespace, `ns-${n}`)).flat();
  const allPods = (refs: ObjectRef[], o: { next?: string; remaining?: number } = {}) => ({
    kind: 'PartialObjectMetadataList',
    metadata: { ...(o.next ? { continue: o.next } : {}), ...(o.remaining !== undefined ? { remainingItemCount: o.remaining } : {}) },
    items: refs.map((r) => ({ metadata: { name: r.name, namespace: r.namespace, uid: `uid-${r.namespace}-${r.name}`, creationTimestamp: '2026-11-30T00:00:00Z' } })),
  });

  test('answers pods in 50 namespaces from one list across namespaces; a pod it lacks is gone, a same-named pod elsewhere is not it', async () => {
    const refs = spread(50, 4);
    const missing = refs[5] as ObjectRef;
    // ns-1/pod-1 is not on the server, though pod-1 of every other namespace is.
    const { get, asked } = server({ '/api/v1': core, '/api/v1/pods?limit=500': allPods(refs.filter((r) => r !== missing)) });
    const found = await lookUpObjects(get, refs);
    assert.deepEqual(asked, ['/api/v1', '/api/v1/pods?limit=500']);
    assert.deepEqual(found.get(objectKey(missing)), { state: 'gone' });
    assert.deepEqual(found.get(objectKey(refs[9] as ObjectRef)), listedPod('ns-2', 'pod-1', 'uid-ns-2-pod-1'));
    assert.equal(states(found, refs).filter((s) => s === 'exists').length, 199);
  });

  test('reads on while the whole list takes fewer requests than the namespaces one by one', async () => {
    const refs = spread(50, 4);
    const { get, asked } = server({
      '/api/v1': core,
      '/api/v1/pods?limit=500': allPods(refs.slice(0, 100), { next: 'p2', remaining: 100 }),
      '/api/v1/pods?limit=500&continue=p2': allPods(refs.slice(100)),
    });
    assert.equal(states(await lookUpObjects(get, refs), refs).filter((s) => s === 'exists').length, 200);
    assert.equal(asked.length, 3);
  });

  test('stops a list across namespaces that runs on past the requests it would save, and lists the namespaces one by one', async () => {
    // 3 namespaces of 4 pods: 3 LISTs one by one, so the list across them may take 2 pages.
    const refs = spread(3, 4);
    const answers: Record<string, unknown> = {
      '/api/v1': core,
      '/api/v1/pods?limit=500': allPods(refs.slice(0, 2), { next: 'p2', remaining: 10 }),
      '/api/v1/pods?limit=500&continue=p2': allPods(refs.slice(2, 4), { next: 'p3', remaining: 8 }),
    };
    for (const ns of ['ns-0', 'ns-1', 'ns-2']) answers[`/api/v1/namespaces/${ns}/pods?limit=500`] = podList(['pod-0']);
    const { get, asked } = server(answers);
    const found = await lookUpObjects(get, refs);
    assert.equal(asked.filter((p) => p.startsWith('/api/v1/pods')).length, 2);
    assert.equal(asked.filter((p) => p.startsWith('/api/v1/namespaces/')).length, 3);
    assert.deepEqual(states(found, refs), refs.map((_, i) => (i % 4 === 0 ? 'exists' : 'gone')));
  });

  const perNamespace = (refs: ObjectRef[]) => [...new Set(refs.map((r) => r.namespace))].map((ns) => `/api/v1/namespaces/${ns}/pods?limit=500`);
  const fallbacks: [string, unknown][] = [
    ['a cluster holding far more pods than asked about (remainingItemCount)', allPods([], { next: 'p2', remaining: 100_000 })],
    ['a list that does not say how long it is', allPods([], { next: 'p2' })],
    ['a reader who may list pods in some namespaces only (403)', new ApiError('pods is forbidden at the cluster scope', 403, 'Forbidden')],
    ['a list that fails', new ApiError('etcd is down', 500, 'InternalError')],
  ];
  for (const [name, answer] of fallbacks) {
    test(`${name}: the namespaces are listed one by one, as without it`, async () => {
      const refs = spread(5, 4);
      const answers: Record<string, unknown> = { '/api/v1': core, '/api/v1/pods?limit=500': answer };
      for (const [i, path] of perNamespace(refs).entries()) answers[path] = podList(refs.slice(i * 4, i * 4 + 3).map((r) => r.name));
      const { get, asked } = server(answers);
      const found = await lookUpObjects(get, refs);
      assert.deepEqual([...asked].sort(), ['/api/v1', '/api/v1/pods?limit=500', ...perNamespace(refs)].sort());
      assert.deepEqual(states(found, refs), refs.map((_, i) => (i % 4 === 3 ? 'gone' : 'exists')));
    });
  }

  test('falls back to a GET each when the list is forbidden (get without list), with the GET rules: 403 unknown, 404 gone', async () => {
    const refs = pods(5);
    const { get, asked } = server({
      '/api/v1': core,
      '/api/v1/namespaces/op-events/pods?limit=500': new ApiError('pods is forbidden', 403, 'Forbidden'),
      '/api/v1/namespaces/op-events/pods/pod-0': { metadata: { name: 'pod-0', uid: 'u0' } },
      '/api/v1/namespaces/op-events/pods/pod-1': { metadata: { name: 'pod-1', uid: 'u1' } },
      '/api/v1/namespaces/op-events/pods/pod-2': new ApiError('pods "pod-2" is forbidden', 403, 'Forbidden'),
      '/api/v1/namespaces/op-events/pods/pod-3': { metadata: { name: 'pod-3', uid: 'u3' } },
    });
    const found = await lookUpObjects(get, refs);
    assert.deepEqual(states(found, refs), ['exists', 'exists', 'unknown', 'exists', 'gone']);
    assert.equal(asked.length, 1 + 1 + 5);
  });

  test('a list that fails otherwise makes its objects unknown, saying why', async () => {
    const refs = pods(4);
    const found = await lookUpObjects(server({ '/api/v1': core, '/api/v1/namespaces/op-events/pods?limit=500': new ApiError('etcd is down', 500, 'InternalError') }).get, refs);
    assert.deepEqual([...new Set(refs.map((r) => JSON.stringify(found.get(objectKey(r)))))], [JSON.stringify({ state: 'unknown', why: { reason: 'failed', step: 'list', target: 'pods', detail: 'etcd is down' } })]);
  });

  test('keeps at most the given number of requests in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const get: Getter = async (path) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight -= 1;
      if (path === '/apis/ev.labhub.io/v1') return pipelines;
      if (path.includes('?')) return { items: [] };
      return { metadata: { name: path.split('/').pop(), uid: path } };
    };
    // 20 namespaces of one Pipeline each (20 GETs) and one namespace of 10 (a list).
    const refs = [...Array.from({ length: 20 }, (_, i) => ref({ namespace: `ns-${i}` })), ...Array.from({ length: 10 }, (_, i) => ref({ objectName: `build-${i}` }))];
    const found = await lookUpObjects(get, refs, 3);
    assert.equal(found.size, 30);
    assert.ok(most <= 3, `${most} in flight`);
  });
});

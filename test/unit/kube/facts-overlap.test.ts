// Issue 22's wall-time bar: the facts' reads must overlap the account's own, not queue behind the
// namespace's Pod list (the largest read of all: 400 Pods are 1.5 MB of JSON). A local server holds
// that list back until the reads that do not need it have arrived (or 2 s have passed, when the test
// then fails): the nodes' Pod lists (they need only the node names, from the events) and the
// lookups of the objects that are not the namespace's Pods.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { clusterSource } from '../../../src/kube/cluster-source.ts';
import { loadKubeTarget } from '../../../src/kube/kubeconfig.ts';
import { objectsToLookUp } from '../../../src/core/incarnation.ts';
import { objectKey } from '../../../src/core/identity.ts';
import type { NodeFacts } from '../../../src/core/facts.ts';
import { ev, NOW } from '../../support/builders.ts';
import { node, pod } from '../../support/status-objects.ts';
import { scratchDir } from '../../support/tmp.ts';
import { listenWithKubeconfig } from '../../support/local-server.ts';

const rs = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'web', namespace: 'shop', uid: 'uid-web', creationTimestamp: '2026-01-01T00:00:00Z' }, spec: { replicas: 2 }, status: { replicas: 2 } };
const owner = { kind: 'ReplicaSet', name: 'web' };
const shopPods = [
  pod({ name: 'web-1', owner, phase: 'Pending', containers: [{ requests: { cpu: '64' } }] }),
  pod({ name: 'web-2', owner, nodeName: 'node-a', containers: [{ requests: { cpu: '500m' } }] }),
];
const otherPod = pod({ name: 'db-0', namespace: 'other', nodeName: 'node-a', containers: [{ requests: { cpu: '1' } }] });
const events = [
  ev({ namespace: 'shop', kind: 'ReplicaSet', apiVersion: 'apps/v1', objectName: 'web', objectUid: 'uid-web', reason: 'SuccessfulCreate', message: 'Created pod: web-1', component: 'replicaset-controller' }),
  ev({ namespace: 'shop', kind: 'Pod', apiVersion: 'v1', objectName: 'web-1', objectUid: 'uid-web-1', type: 'Warning', reason: 'FailedScheduling', message: '0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.', component: 'default-scheduler' }),
  ev({ namespace: 'shop', kind: 'Pod', apiVersion: 'v1', objectName: 'web-2', objectUid: 'uid-web-2', reason: 'Scheduled', message: 'Successfully assigned shop/web-2 to node-a', component: 'default-scheduler' }),
];
const list = (kind: string, items: unknown[]) => ({ kind, apiVersion: 'v1', metadata: { resourceVersion: '9' }, items });
const resources = (groupVersion: string, served: { name: string; kind: string }[]) => ({
  kind: 'APIResourceList',
  groupVersion,
  resources: served.map((r) => ({ ...r, singularName: '', namespaced: true, verbs: ['get', 'list', 'watch'] })),
});

/** What the server saw, in order: each request as it arrived, and the moment it answered the namespace's Pods. */
const log: string[] = [];
let releasePods: (() => void) | undefined;
/** the reader may not list the namespace's Pods */
let forbidden = false;
const awaited = ['pods on node-a', 'pods on node-b', 'GET replicasets/web'];

function answer(res: ServerResponse, body: unknown) {
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** the Accept header of each Pod list: Protobuf first (pod-proto.ts), JSON taken when that is what the server answers */
const podListAccepts: string[] = [];

function route(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://x');
  if (url.pathname.endsWith('/pods')) podListAccepts.push(req.headers.accept ?? '');
  const selector = url.searchParams.get('fieldSelector') ?? '';
  const onNode = /spec\.nodeName=([^,]+)/.exec(selector)?.[1];
  const name = onNode !== undefined ? `pods on ${onNode}` : url.pathname === '/apis/apps/v1/namespaces/shop/replicasets/web' ? 'GET replicasets/web' : url.pathname;
  log.push(name);
  if (awaited.every((a) => log.includes(a))) releasePods?.();
  switch (url.pathname) {
    case '/api/v1/namespaces/shop/events':
      return answer(res, list('EventList', events));
    case '/api/v1/nodes':
      return answer(res, list('NodeList', [node({ name: 'node-a' }), node({ name: 'node-b' })]));
    case '/api/v1/pods': {
      // the field selector as the API server reads it: the node, the namespaces left out
      const left = [...selector.matchAll(/metadata\.namespace!=([^,]+)/g)].map((m) => m[1]);
      const on = [otherPod, ...shopPods].filter((p) => (p.spec as { nodeName?: string }).nodeName === onNode && !left.includes((p.metadata as { namespace: string }).namespace));
      return answer(res, list('PodList', on));
    }
    case '/api/v1/namespaces/shop/pods': {
      if (forbidden) {
        log.push('namespace Pods answered');
        return res.writeHead(403, { 'content-type': 'application/json' }).end(JSON.stringify({ kind: 'Status', code: 403, reason: 'Forbidden', message: 'pods is forbidden: User "u" cannot list resource "pods" in the namespace "shop"' }));
      }
      const timer = setTimeout(() => releasePods?.(), 2000);
      releasePods = () => {
        clearTimeout(timer);
        releasePods = undefined;
        log.push('namespace Pods answered');
        answer(res, list('PodList', shopPods));
      };
      if (awaited.every((a) => log.includes(a))) releasePods();
      return;
    }
    case '/apis/apps/v1/namespaces/shop/replicasets':
      return answer(res, list('ReplicaSetList', [rs]));
    case '/apis/apps/v1/namespaces/shop/replicasets/web':
      return answer(res, rs);
    case '/api/v1':
      return answer(res, resources('v1', [{ name: 'pods', kind: 'Pod' }]));
    case '/apis/apps/v1':
      return answer(res, resources('apps/v1', [{ name: 'replicasets', kind: 'ReplicaSet' }]));
    default:
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ kind: 'Status', code: 404, message: `${url.pathname} not found` }));
  }
}

const server = createServer(route);
const kubeconfig = join(scratchDir('facts-overlap'), 'config');
before(() => listenWithKubeconfig(server, kubeconfig));
after(() => server.close());

async function readBoth() {
  log.length = 0;
  const target = await loadKubeTarget({ env: { KUBECONFIG: kubeconfig } });
  const source = clusterSource(target, { namespace: 'shop', timeoutMs: 10_000 });
  // as src/app/gather.ts runs them: the facts begun before the events, then the facts and the lookups side by side
  const started = source.startFacts?.();
  assert.ok(started !== undefined);
  const read = await source.read();
  const [facts, lookups] = await Promise.all([started.facts(read.events, NOW), source.objects?.lookUp(objectsToLookUp(read.events))]);
  return { facts, lookups };
}

const nodesOf = (objects: { kind: string }[]) => objects.filter((o): o is NodeFacts => o.kind === 'Node').map((n) => [n.name, n.pods, n.requested.cpu]);

test("the nodes' Pod lists and the other objects' lookups begin before the namespace's Pod list has answered", async () => {
  const { facts, lookups } = await readBoth();
  const answeredAt = log.indexOf('namespace Pods answered');
  for (const a of awaited) assert.ok(log.indexOf(a) < answeredAt, `${a} waited for the namespace's Pods:\n${log.join('\n')}`);
  // each node's Pods listed once, as before
  assert.equal(log.filter((l) => l === 'pods on node-a').length, 1);
  assert.equal(log.filter((l) => l === 'pods on node-b').length, 1);

  // The same facts as one read after the other: node-a's requests are the other namespace's Pod and
  // shop's placed one (the Pending one holds no share of a node), in namespace/name order.
  assert.deepEqual(
    nodesOf(facts.objects),
    [
      ['node-a', ['other/db-0', 'shop/web-2'], 1.5],
      ['node-b', [], undefined],
    ],
  );
  assert.deepEqual(facts.gaps, []);
  // the Pods answered from the early list (no GET of one), the ReplicaSet by its own GET
  assert.ok(!log.some((l) => /\/namespaces\/shop\/pods\/./.test(l)), log.join('\n'));
  const state = (kind: string, name: string, apiVersion: string) => lookups?.get(objectKey({ apiVersion, kind, name, namespace: 'shop', uid: '', fieldPath: '' }))?.state;
  assert.equal(state('Pod', 'web-1', 'v1'), 'exists');
  assert.equal(state('ReplicaSet', 'web', 'apps/v1'), 'exists');
  // discovery of each group/version once, though the two lookups ran side by side
  assert.equal(log.filter((l) => l === '/api/v1').length, 1, log.join('\n'));
  // Every Pod list asked for Protobuf before JSON; this server answers JSON, and the facts above were read from it.
  assert.ok(podListAccepts.length >= 3, podListAccepts.join('\n'));
  for (const accept of podListAccepts) assert.equal(accept, 'application/vnd.kubernetes.protobuf, application/json');
});

test("a namespace whose Pods may not be listed: the nodes' lists, begun leaving it out, are read again with it", async () => {
  forbidden = true;
  try {
    const { facts } = await readBoth();
    assert.deepEqual(facts.gaps, [{ what: 'list', resource: 'pods', namespace: 'shop', reason: 'forbidden' }]);
    // shop's placed Pod still counted on node-a, from the nodes' own lists this time
    assert.deepEqual(nodesOf(facts.objects), [
      ['node-a', ['other/db-0', 'shop/web-2'], 1.5],
      ['node-b', [], undefined],
    ]);
    assert.ok(log.some((l) => l === 'pods on node-a'), log.join('\n'));
  } finally {
    forbidden = false;
  }
});

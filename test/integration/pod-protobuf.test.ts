// The facts read a namespace's Pods in Protobuf (src/kube/pod-proto.ts): against the real API
// server, every Pod of a list read that way gives the facts and the lookups what the same list in
// JSON gives them, page by page, and an error (a continue token the server no longer holds, 410
// Expired) reads as the Status kubectl prints.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import https from 'node:https';
import { startControlPlane, type ControlPlane } from '../harness/controlplane.ts';
import { freshNamespace } from '../harness/namespace.ts';
import { api, waitFor } from '../support/cluster-api.ts';
import { podListFromProtobuf, PROTOBUF, statusTextFromProtobuf } from '../../src/kube/pod-proto.ts';
import { podFacts } from '../../src/core/facts.ts';
import { objectMetaOf } from '../../src/core/object-meta.ts';

type Json = Record<string, any>;

let cp: ControlPlane;

before(async () => {
  // Compaction every few seconds: a continue token of an old version is soon one the server no longer holds.
  cp = await startControlPlane({ nodes: 2, compactionInterval: '3s' });
});

after(() => cp?.stop());

/** GET as the admin with an Accept header: the status, content type and raw body. */
function raw(path: string, accept: string): Promise<{ code: number; type: string; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = https.request(new URL(path, cp.server), { ca: cp.ca, headers: { Authorization: `Bearer ${cp.token}`, Accept: accept } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ code: res.statusCode ?? 0, type: res.headers['content-type'] ?? '', body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const HOSTILE = 'say "hi"\u001b[2J\r\n\\ 日本 😀 },{"metadata":';

/** A Pod with what the facts read: init and app containers, probes, requests and limits, a claim, tolerations, hostile text. */
function podTemplate(app: string): Json {
  const probe = { httpGet: { path: '/healthz', port: 8080 }, initialDelaySeconds: 5, periodSeconds: 7, failureThreshold: 4 };
  return {
    metadata: { labels: { app, note: 'x-y_z.1' }, annotations: { say: HOSTILE } },
    spec: {
      initContainers: [{ name: 'init', image: 'registry.k8s.io/pause:3.10', resources: { requests: { cpu: '10m', memory: '16Mi' } } }],
      containers: [
        { name: 'app', image: 'registry.k8s.io/pause:3.10', env: [{ name: 'SAY', value: HOSTILE }], resources: { requests: { cpu: '1m', memory: '8Mi' }, limits: { memory: '64Mi' } }, livenessProbe: probe, readinessProbe: { exec: { command: ['true'] } }, startupProbe: { ...probe, failureThreshold: 30 } },
        { name: 'side', image: 'registry.k8s.io/pause:3.10' },
      ],
      tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 }, { key: 'k', operator: 'Equal', value: 'v-1', effect: 'NoSchedule' }],
      volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'claim-1' } }, { name: 'tmp', emptyDir: {} }],
    },
  };
}

test('a Pod list in Protobuf gives the facts and the lookups what the same list in JSON gives them, page by page', async () => {
  const ns = await freshNamespace(cp.kubeconfig, 'pod-proto');
  const replicas = 7;
  await api(cp, 'POST', `/apis/apps/v1/namespaces/${ns}/deployments`, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas, selector: { matchLabels: { app: 'web' } }, template: podTemplate('web') } });
  // A bare Pod the scheduler cannot place (conditions with a reason and message) and one on a node.
  await api(cp, 'POST', `/api/v1/namespaces/${ns}/pods`, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'big' }, spec: { containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.10', resources: { requests: { cpu: '640' } } }] } });
  await waitFor(`${replicas} pods and the big one unschedulable`, async () => {
    const pods = (await api(cp, 'GET', `/api/v1/namespaces/${ns}/pods`)).items as Json[];
    const big = pods.find((p) => p.metadata.name === 'big');
    return pods.length === replicas + 1 && big?.status?.conditions?.some((c: Json) => c.reason === 'Unschedulable') ? true : undefined;
  });
  const path = `/api/v1/namespaces/${ns}/pods`;
  // Pages of 3: the continue token read from Protobuf asks for the next page as the JSON one does.
  const pages = async (read: (body: Buffer) => { metadata: Json; items: Json[] }, accept: string) => {
    const items: Json[] = [];
    let token = '';
    let requests = 0;
    do {
      const answer = await raw(`${path}?limit=3${token ? `&continue=${encodeURIComponent(token)}` : ''}`, accept);
      assert.equal(answer.code, 200, answer.body.toString());
      assert.ok(answer.type.startsWith(accept.split(',')[0] ?? ''), answer.type);
      const page = read(answer.body);
      items.push(...page.items);
      token = String(page.metadata.continue ?? '');
      requests += 1;
    } while (token !== '');
    return { items, requests };
  };
  const json = await pages((body) => JSON.parse(body.toString('utf8')), 'application/json');
  const proto = await pages(podListFromProtobuf, `${PROTOBUF}, application/json`);
  assert.equal(proto.requests, 3);
  assert.deepEqual(
    proto.items.map((p) => p.metadata.name),
    json.items.map((p) => p.metadata.name),
  );
  const type = { apiVersion: 'v1', kind: 'Pod' };
  // The lists were read apart: compare each Pod at the version both read (status moves between).
  for (const [i, pod] of json.items.entries()) {
    const other = proto.items[i] as Json;
    if (other.metadata.resourceVersion !== pod.metadata.resourceVersion) continue;
    assert.deepEqual(podFacts(other), podFacts(pod), pod.metadata.name);
    assert.deepEqual(objectMetaOf(other.metadata, type), objectMetaOf(pod.metadata, type));
  }
  const web = podFacts(proto.items.find((p) => p.metadata.name !== 'big') as Json);
  assert.deepEqual(web.containers.map((c) => `${c.role}/${c.name}`).sort(), ['container/app', 'container/side', 'init/init']);
  assert.deepEqual(web.containers.find((c) => c.name === 'app')?.probes.map((p) => `${p.kind} ${p.failureThreshold} ${p.periodSeconds} ${p.initialDelaySeconds}`), ['liveness 4 7 5', 'readiness 3 10 0', 'startup 30 7 5']);
  assert.deepEqual(web.claims, ['claim-1']);
  assert.equal(web.owner.startsWith('ReplicaSet/web-'), true);
  const big = podFacts(proto.items.find((p) => p.metadata.name === 'big') as Json);
  assert.equal(big.conditions.find((c) => c.type === 'PodScheduled')?.reason, 'Unschedulable');
  assert.match(big.conditions.find((c) => c.type === 'PodScheduled')?.message ?? '', /Insufficient cpu/);
});

test('a continue token the server no longer holds: 410 Expired, its Status read from Protobuf as kubectl prints it', async () => {
  // A token of a version compacted away (etcd keeps no revision 1 after compaction): the server answers 410.
  const stale = Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: 1, start: 'a\u0000' })).toString('base64url');
  const path = `/api/v1/namespaces/default/pods?limit=3&continue=${stale}`;
  const json = await waitFor('etcd compacted past the token', async () => {
    await api(cp, 'POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'rev-' } });
    const answer = await raw(path, 'application/json');
    return answer.code === 410 ? answer : undefined;
  });
  const proto = await raw(path, `${PROTOBUF}, application/json`);
  assert.equal(proto.code, 410, proto.body.toString());
  assert.ok(proto.type.startsWith(PROTOBUF), proto.type);
  const status = JSON.parse(statusTextFromProtobuf(proto.body) ?? 'null') as Json;
  const expected = JSON.parse(json.body.toString('utf8')) as Json;
  assert.equal(status.reason, 'Expired');
  assert.equal(status.code, 410);
  assert.equal(status.message, expected.message);
});

// The namespace the tree benchmark reads: about 500 objects, most of them made by the real
// controllers of the benchmark's control plane (kube-controller-manager), with their events.
//
// - Deployment `web` (the tree measured): WEB_REPLICAS pods, then rolled out to a second
//   ReplicaSet (a new image), so the first ReplicaSet's pods are gone and only events name them;
// - OTHER_DEPLOYMENTS more Deployments of OTHER_REPLICAS pods each, JOBS Jobs (a pod each), SERVICES
//   Services selecting the Deployments (the endpoint controllers add an Endpoints and an
//   EndpointSlice each);
// - ConfigMaps to make up the total, counted as `--tree` counts: every listable namespaced resource
//   but events;
// - besides the controllers' own events (ScalingReplicaSet, SuccessfulCreate/Delete, Scheduled, ...),
//   N events about the Deployments, ReplicaSets and Pods (the gone ones too), written as a busy
//   namespace's kubelets would have written them (bench-events.ts planEvents).
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { WRITE_CONCURRENCY, planEvents, type Call, type Subject } from './bench-events.ts';
import { Api, capture } from './bench-api.ts';
import { onPath } from './bench-measure.ts';
import { Workspace, readFlags } from './bench-session.ts';
import { ensureMaxRssHelper } from './maxrss.mjs';
import type { ControlPlane } from '../test/harness/controlplane.ts';
import { freshNamespace } from '../test/harness/namespace.ts';
import { eachLimited } from '../src/core/bounded.ts';
import { kubectlOk } from '../test/harness/kubectl.ts';
import { waitFor } from '../test/harness/wait.ts';
import { deploymentObject, listObjects, type KubeObject } from '../test/harness/workloads.ts';
import { PLUGIN_BINARY } from '../test/harness/plugin.ts';

/** The flags of a benchmark on this namespace (bench:tree, bench:saved). */
export interface NamespaceBenchOptions {
  objects: number;
  events: number;
  runs: number;
  kubectl: string;
  plugin: string;
}

/** `[--objects 500] [--events 2000] [--runs 5] [--kubectl PATH] [--plugin PATH]`, as scripts/<script>.ts reads them. */
export function parseNamespaceBenchArgs(argv: string[], script: string): NamespaceBenchOptions {
  const opts: Partial<NamespaceBenchOptions> & { objects: number; events: number; runs: number } = { objects: 500, events: 2000, runs: 5 };
  readFlags(argv, script, (flag, value, whole) => {
    if (flag === '--objects') opts.objects = whole(1);
    else if (flag === '--events') opts.events = whole(0);
    else if (flag === '--runs') opts.runs = whole(1);
    else if (flag === '--kubectl') opts.kubectl = resolve(value());
    else if (flag === '--plugin') opts.plugin = resolve(value());
    else return false;
    return true;
  });
  opts.kubectl ??= onPath('kubectl');
  if (!opts.kubectl) throw new Error('no kubectl on PATH: pass --kubectl PATH');
  opts.plugin ??= PLUGIN_BINARY;
  if (!existsSync(opts.plugin)) throw new Error(`${opts.plugin} is missing (npm run build makes dist/kubectl-evtimeline)`);
  return opts as NamespaceBenchOptions;
}

/** What a namespace benchmark runs in: its flags, the maxrss helper, the work folder (close it), the control plane and a fresh namespace. */
export interface NamespaceBench {
  opts: NamespaceBenchOptions;
  helper: string;
  ws: Workspace;
  cp: ControlPlane;
  api: Api;
  ns: string;
}

/** The start bench:tree and bench:saved share: the work folder with the plugin linked, a control plane of NODES nodes, a namespace named after the script. */
export async function startNamespaceBench(script: string, argv: string[]): Promise<NamespaceBench> {
  const opts = parseNamespaceBenchArgs(argv, script);
  const helper = await ensureMaxRssHelper();
  const k = opts.kubectl;
  const ws = await Workspace.open(script, k);
  try {
    await ws.link(opts.plugin, 'evtimeline', k);
    console.log(`kubectl: ${(await capture([k, 'version', '--client'], ws.env)).trim().split('\n')[0]} (${k})`);
    console.log(`runs:    ${opts.runs} interleaved per command, after one warm-up run each; medians`);
    const { cp, api } = await ws.startControlPlane(`etcd, kube-apiserver, kube-scheduler, kube-controller-manager; ${NODES} nodes`, { nodes: NODES });
    return { opts, helper, ws, cp, api, ns: await freshNamespace(cp.kubeconfig, script) };
  } catch (error) {
    await ws.close();
    throw error;
  }
}

const WEB_REPLICAS = 30;
const OTHER_DEPLOYMENTS = 9;
const OTHER_REPLICAS = 8;
const JOBS = 10;
const SERVICES = 20;
/** The pods of all of them, and the first ReplicaSet's while the rollout replaces them: two 110-pod nodes hold them. */
export const NODES = 2;

export interface BuiltNamespace {
  /** objects in the namespace, as `--tree` lists them (events excluded) */
  objects: number;
  /** by resource, for the report */
  byResource: Map<string, number>;
  /** the web Deployment's ReplicaSets, oldest first, and its pods now and gone */
  webSets: string[];
  webPods: string[];
  gonePods: string[];
  /**
   * the gone pods a ReplicaSet's event still names ("Created pod: X", "Deleted pod: X"): client-go's
   * recorder lets one source write 25 events about one object, then one per 5 minutes
   * (tools/record/events_cache.go defaultSpamBurst, defaultSpamQPS), and combines them after 10 of one
   * reason, so a ReplicaSet of 30 names only some of its pods; the others' own events tell no owner
   */
  namedGone: string[];
  /** events in the namespace when built */
  events: number;
}

const job = (ns: string, name: string) => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name, namespace: ns },
  spec: {
    backoffLimit: 0,
    template: {
      metadata: { labels: { job: name } },
      // No kubelet runs anything: the pod stays Running and the Job active.
      spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'registry.k8s.io/pause:3.10', resources: { requests: { cpu: '1m' } } }] },
    },
  },
});

const service = (ns: string, name: string, app: string) => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name, namespace: ns },
  spec: { selector: { app }, ports: [{ port: 80, targetPort: 8080 }] },
});

const configMap = (ns: string, k: number) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: `settings-${String(k).padStart(3, '0')}`, namespace: ns },
  data: { 'app.properties': `feature.${k}=on\n` },
});

/** Every namespaced resource the server lists, but events: what `--tree` lists, one list each. */
async function listableResources(kubeconfig: string): Promise<string[]> {
  const names = (await kubectlOk(kubeconfig, ['api-resources', '--namespaced=true', '--verbs=list', '-o', 'name'])).split('\n').filter(Boolean);
  return names.filter((n) => n !== 'events' && n !== 'events.events.k8s.io');
}

/** Objects of the namespace by resource (kubectl get, one list per resource). */
export async function countObjects(kubeconfig: string, ns: string): Promise<Map<string, number>> {
  const resources = await listableResources(kubeconfig);
  const names = (await kubectlOk(kubeconfig, ['-n', ns, 'get', resources.join(','), '-o', 'name'])).split('\n').filter(Boolean);
  const counts = new Map<string, number>();
  for (const name of names) {
    const resource = name.slice(0, name.indexOf('/'));
    counts.set(resource, (counts.get(resource) ?? 0) + 1);
  }
  return counts;
}

const sum = (counts: Map<string, number>): number => [...counts.values()].reduce((a, b) => a + b, 0);

/** Waits until a Deployment has rolled out (kubectl rollout status watches for it) and only its new pods are left. */
async function rolledOut(kubeconfig: string, ns: string, name: string, replicas: number): Promise<KubeObject[]> {
  await kubectlOk(kubeconfig, ['-n', ns, 'rollout', 'status', `deployment/${name}`, '--timeout=600s']);
  return waitFor(`only the new pods of ${name}`, async () => {
    const pods = await listObjects(kubeconfig, ns, 'pods', `app=${name}`);
    return pods.length === replicas && pods.every((p) => !p.metadata.deletionTimestamp) ? pods : undefined;
  }, { timeoutMs: 600_000, everyMs: 500 });
}

/**
 * Builds the namespace (which must exist, with its default ServiceAccount) to `target` objects and
 * writes `events` events besides the controllers'.
 */
export async function buildNamespace(call: Call, kubeconfig: string, ns: string, target: number, events: number, log: (line: string) => void): Promise<BuiltNamespace> {
  const others = Array.from({ length: OTHER_DEPLOYMENTS }, (_, k) => `svc-${k + 1}`);
  log(`Deployment web (${WEB_REPLICAS} pods), ${OTHER_DEPLOYMENTS} more of ${OTHER_REPLICAS}, ${JOBS} Jobs, ${SERVICES} Services...`);
  const post = (path: string, body: unknown) => call('POST', `/apis/${path}`, body);
  await post(`apps/v1/namespaces/${ns}/deployments`, deploymentObject(ns, 'web', { replicas: WEB_REPLICAS, cpu: '1m' }));
  await eachLimited(others, WRITE_CONCURRENCY, (name) => post(`apps/v1/namespaces/${ns}/deployments`, deploymentObject(ns, name, { replicas: OTHER_REPLICAS, cpu: '1m' })));
  await eachLimited(Array.from({ length: JOBS }, (_, k) => `batch-${k + 1}`), WRITE_CONCURRENCY, (name) => post(`batch/v1/namespaces/${ns}/jobs`, job(ns, name)));
  await eachLimited(Array.from({ length: SERVICES }, (_, k) => k), WRITE_CONCURRENCY, (k) =>
    call('POST', `/api/v1/namespaces/${ns}/services`, service(ns, `front-${k + 1}`, k === 0 ? 'web' : (others[k % others.length] as string))),
  );
  const first = await rolledOut(kubeconfig, ns, 'web', WEB_REPLICAS);
  for (const name of others) await rolledOut(kubeconfig, ns, name, OTHER_REPLICAS);

  log('rolling web out to a second ReplicaSet (a new image)...');
  await kubectlOk(kubeconfig, ['-n', ns, 'set', 'image', 'deployment/web', 'main=registry.k8s.io/pause:3.9']);
  const second = await rolledOut(kubeconfig, ns, 'web', WEB_REPLICAS);
  const sets = (await listObjects(kubeconfig, ns, 'replicasets', 'app=web')).sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
  const newSet = second[0]?.metadata.ownerReferences?.[0]?.name ?? '';
  const webSets = [...sets.filter((s) => s.metadata.name !== newSet), ...sets.filter((s) => s.metadata.name === newSet)].map((s) => s.metadata.name);

  await waitFor(`${JOBS} job pods`, async () => (await listObjects(kubeconfig, ns, 'pods', 'job-name')).length === JOBS, { timeoutMs: 600_000 });
  let counts = await countObjects(kubeconfig, ns);
  const missing = target - sum(counts);
  if (missing > 0) {
    log(`${missing} ConfigMaps to make ${target} objects...`);
    await eachLimited(Array.from({ length: missing }, (_, k) => k), WRITE_CONCURRENCY, (k) => call('POST', `/api/v1/namespaces/${ns}/configmaps`, configMap(ns, k)));
    counts = await countObjects(kubeconfig, ns);
  }

  // The events a busy hour adds, about the objects the controllers made and the pods they removed.
  const subjectOf = (o: KubeObject, kind: string, apiVersion: string, component: string): Subject => ({
    apiVersion, kind, name: o.metadata.name, namespace: ns, uid: o.metadata.uid, component,
  });
  const subjects = [
    ...(await listObjects(kubeconfig, ns, 'deployments')).map((d) => subjectOf(d, 'Deployment', 'apps/v1', 'deployment-controller')),
    ...(await listObjects(kubeconfig, ns, 'replicasets')).map((r) => subjectOf(r, 'ReplicaSet', 'apps/v1', 'replicaset-controller')),
    ...[...first, ...(await listObjects(kubeconfig, ns, 'pods'))].map((p) => subjectOf(p, 'Pod', 'v1', 'kubelet')),
  ];
  log(`${events} events about ${subjects.length} of them...`);
  await eachLimited(planEvents(events, subjects, Date.now()), WRITE_CONCURRENCY, (p) => call('POST', p.path, p.body));
  const written = (await call('GET', `/api/v1/namespaces/${ns}/events`)) as { items: { reason: string; message: string; involvedObject: { kind: string } }[] };
  const named = new Set(
    written.items
      .filter((e) => e.involvedObject.kind === 'ReplicaSet' && (e.reason === 'SuccessfulCreate' || e.reason === 'SuccessfulDelete'))
      .map((e) => /^(?:\(combined from similar events\): )?(?:Created|Deleted) pod: (\S+)$/.exec(e.message)?.[1]),
  );

  return {
    objects: sum(counts),
    byResource: counts,
    webSets,
    webPods: second.map((p) => p.metadata.name).sort(),
    gonePods: first.map((p) => p.metadata.name).sort(),
    namedGone: first.map((p) => p.metadata.name).filter((n) => named.has(n)).sort(),
    events: written.items.length,
  };
}

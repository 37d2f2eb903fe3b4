// Workloads that the real controllers act on (kube-controller-manager runs in the test control
// plane): a Deployment becomes a ReplicaSet and Pods with ownerReferences, the scheduler binds
// them, the node agent reports them Running. Lists are read as kubectl -o json gives them, by a
// plain GET where the kubeconfig is the harness's own (api-direct.ts says why), else by kubectl.
import { listDirect } from './api-direct.ts';
import { applyObjects, kubectlJSON } from './kubectl.ts';
import { waitFor } from './wait.ts';

export interface DeploymentOptions {
  replicas?: number;
  /** requests.cpu of the one container, e.g. '100m' or '64' (which no node can hold). */
  cpu?: string;
  /** Pin the pods to one node (nodeSelector kubernetes.io/hostname). */
  node?: string;
  image?: string;
  labels?: Record<string, string>;
}

export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: {
    name: string;
    namespace?: string;
    uid: string;
    labels?: Record<string, string>;
    ownerReferences?: { apiVersion: string; kind: string; name: string; uid: string; controller?: boolean }[];
    deletionTimestamp?: string;
  };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
}

export interface CoreEvent {
  metadata: { name: string; uid: string };
  involvedObject: { kind: string; name: string; namespace?: string; uid?: string };
  reason: string;
  message: string;
  type: string;
  count?: number;
  source?: { component?: string; host?: string };
  reportingComponent?: string;
  reportingInstance?: string;
  firstTimestamp?: string | null;
  lastTimestamp?: string | null;
  eventTime?: string | null;
  series?: { count: number; lastObservedTime: string } | null;
}

/** The Deployment object createDeployment applies: app=<name>, one container, no probes. */
export function deploymentObject(ns: string, name: string, opts: DeploymentOptions = {}): KubeObject {
  const labels = { app: name, ...opts.labels };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: ns, uid: '', labels },
    spec: {
      replicas: opts.replicas ?? 1,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels },
        spec: {
          ...(opts.node ? { nodeSelector: { 'kubernetes.io/hostname': opts.node } } : {}),
          // No kubelet runs anything: the image is never pulled.
          containers: [{ name: 'main', image: opts.image ?? 'registry.k8s.io/pause:3.10', resources: { requests: { cpu: opts.cpu ?? '10m' } } }],
        },
      },
    },
  };
}

/** Applies a Deployment and returns it as stored (uid included). */
export async function createDeployment(kubeconfig: string, ns: string, name: string, opts: DeploymentOptions = {}): Promise<KubeObject> {
  const obj = deploymentObject(ns, name, opts);
  delete (obj.metadata as { uid?: string }).uid;
  await applyObjects(kubeconfig, [obj]);
  return kubectlJSON<KubeObject>(kubeconfig, ['-n', ns, 'get', 'deployment', name]);
}

/** Objects of a kind in a namespace, optionally by label selector. */
export async function listObjects(kubeconfig: string, ns: string, resource: string, selector?: string): Promise<KubeObject[]> {
  const direct = await listDirect(kubeconfig, ns, resource, selector);
  if (direct !== null) return direct as KubeObject[];
  const args = ['-n', ns, 'get', resource, ...(selector ? ['-l', selector] : [])];
  return (await kubectlJSON<{ items: KubeObject[] }>(kubeconfig, args)).items;
}

/** core/v1 Events of a namespace (kubectl get events -o json). */
export async function listEvents(kubeconfig: string, ns: string): Promise<CoreEvent[]> {
  const direct = await listDirect(kubeconfig, ns, 'events');
  if (direct !== null) return direct as CoreEvent[];
  return (await kubectlJSON<{ items: CoreEvent[] }>(kubeconfig, ['-n', ns, 'get', 'events'])).items;
}

/** Waits until an event matching the predicate is in the namespace, and returns it. */
export function waitForEvent(kubeconfig: string, ns: string, what: string, match: (e: CoreEvent) => boolean): Promise<CoreEvent> {
  return waitFor(`event ${what} in ${ns}`, async () => (await listEvents(kubeconfig, ns)).find(match));
}

/** Waits until every pod in `names` has its FailedScheduling event. */
export async function waitForUnschedulable(kubeconfig: string, ns: string, names: string[]): Promise<void> {
  await waitFor(`FailedScheduling for ${names.join(', ')} in ${ns}`, async () => {
    const events = await listEvents(kubeconfig, ns);
    return names.every((name) => events.some((e) => e.reason === 'FailedScheduling' && e.involvedObject.name === name));
  });
}

/** The pods a Deployment's ReplicaSets own, once there are `count` of them not being deleted. */
export function waitForPods(kubeconfig: string, ns: string, app: string, count: number, ready?: (pod: KubeObject) => boolean): Promise<KubeObject[]> {
  return waitFor(`${count} pods of ${app} in ${ns}`, async () => {
    const pods = (await listObjects(kubeconfig, ns, 'pods', `app=${app}`)).filter((p) => !p.metadata.deletionTimestamp);
    const wanted = ready ? pods.filter(ready) : pods;
    return wanted.length === count ? wanted : undefined;
  });
}

/** A pod's condition status, e.g. condition(pod, 'Ready') === 'True'. */
export function condition(obj: KubeObject, type: string): string | undefined {
  const conditions = (obj.status?.conditions ?? []) as { type: string; status: string }[];
  return conditions.find((c) => c.type === type)?.status;
}

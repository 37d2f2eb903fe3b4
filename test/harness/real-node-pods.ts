// Pods for the real node (test/harness/kubelet-node.ts), and what `kubectl describe pod` says of
// their container: the kubelet's own account of a crash, an OOM kill, a probe or a pull failure.
import { getObject } from './api-direct.ts';
import { applyObjects, kubectlOk } from './kubectl.ts';
import { BUSYBOX_IMAGE, REAL_NODE_TAINT, UNPULLABLE_IMAGE, type RealNodeInfo } from './kubelet-node.ts';
import { waitFor } from './wait.ts';
import { listEvents, listObjects, type KubeObject } from './workloads.ts';

export interface Container {
  name?: string;
  image?: string;
  command?: string[];
  [field: string]: unknown;
}

/** Scheduled onto the real node by the scheduler (a toleration of its taint and its hostname). */
export function onRealNode(node: RealNodeInfo): Record<string, unknown> {
  return {
    tolerations: [{ key: REAL_NODE_TAINT.key, operator: 'Exists', effect: REAL_NODE_TAINT.effect }],
    nodeSelector: { 'kubernetes.io/hostname': node.name },
  };
}

/** A one-container Pod on the real node; its container is `main` unless named. */
export function realNodePod(node: RealNodeInfo, ns: string, name: string, container: Container, spec: Record<string, unknown> = {}): object {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: ns },
    spec: { ...onRealNode(node), terminationGracePeriodSeconds: 1, containers: [{ name: 'main', image: BUSYBOX_IMAGE, ...container }], ...spec },
  };
}

/** A Deployment on the real node whose container is killed for memory: hog touches 100 MiB under a 20Mi limit, restarts, again. */
export function oomDeployment(node: RealNodeInfo, ns: string, name: string): object {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: ns, labels: { app: name } },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          ...onRealNode(node),
          terminationGracePeriodSeconds: 1,
          containers: [{ name: 'worker', image: BUSYBOX_IMAGE, command: ['hog', '100'], resources: { limits: { memory: '20Mi' } } }],
        },
      },
    },
  };
}

/** What `kubectl describe pod` prints for one container: State, Last State, their Reason and Exit Code, Restart Count. */
export interface Described {
  state: string;
  reason?: string;
  exitCode?: number;
  lastState?: string;
  lastReason?: string;
  lastExitCode?: number;
  restartCount: number;
}

/** Parses the container's block of `kubectl describe pod` (k8s.io/kubectl/pkg/describe describeContainerState). */
export function parseDescribe(text: string, container: string): Described {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l === `  ${container}:`);
  if (start < 0) throw new Error(`no container ${container} in:\n${text}`);
  const block: string[] = [];
  for (const l of lines.slice(start + 1)) {
    if (!l.startsWith('    ')) break; // the next container (two spaces) or section (none)
    block.push(l);
  }
  const d: Described = { state: '', restartCount: -1 };
  let section: 'state' | 'last' | undefined;
  for (const l of block) {
    const m = /^ {4,6}([A-Za-z ]+):\s*(.*)$/.exec(l);
    if (!m) continue;
    const [, key, value] = m as unknown as [string, string, string];
    const top = l.startsWith('    ') && !l.startsWith('      ');
    if (top) {
      section = undefined;
      if (key === 'State') [section, d.state] = ['state', value];
      else if (key === 'Last State') [section, d.lastState] = ['last', value];
      else if (key === 'Restart Count') d.restartCount = Number(value);
      continue;
    }
    if (section === 'state' && key === 'Reason') d.reason = value;
    if (section === 'state' && key === 'Exit Code') d.exitCode = Number(value);
    if (section === 'last' && key === 'Reason') d.lastReason = value;
    if (section === 'last' && key === 'Exit Code') d.lastExitCode = Number(value);
  }
  return d;
}

interface ContainerState {
  waiting?: { reason?: string };
  running?: object;
  terminated?: { reason?: string; exitCode: number };
}
interface PodStatusJSON extends KubeObject {
  metadata: KubeObject['metadata'] & { resourceVersion: string };
  status?: { containerStatuses?: { name: string; restartCount: number; state?: ContainerState; lastState?: ContainerState }[] };
}

/** The same five facts from the Pod's status, as describe derives them. */
export function describedFromStatus(pod: PodStatusJSON, container: string): Described {
  const s = pod.status?.containerStatuses?.find((c) => c.name === container);
  const one = (st: ContainerState | undefined) =>
    st?.running ? { state: 'Running' }
    : st?.terminated ? { state: 'Terminated', reason: st.terminated.reason, exitCode: st.terminated.exitCode }
    : st?.waiting ? { state: 'Waiting', reason: st.waiting.reason }
    : { state: '' };
  const now = one(s?.state);
  const last = one(s?.lastState);
  const d: Described = { state: now.state, restartCount: s?.restartCount ?? 0 };
  if (now.reason !== undefined) d.reason = now.reason;
  if (now.exitCode !== undefined) d.exitCode = now.exitCode;
  if (last.state) {
    d.lastState = last.state;
    if (last.reason !== undefined) d.lastReason = last.reason;
    if (last.exitCode !== undefined) d.lastExitCode = last.exitCode;
  }
  return d;
}

/**
 * `kubectl describe pod` of one container, read between two reads of the Pod that agree (the
 * kubelet may be updating it), once `wanted` holds for what describe shows; both views are returned.
 */
export async function describeWhen(
  kubeconfig: string, ns: string, pod: string, container: string, wanted: (d: Described) => boolean,
): Promise<{ described: Described; status: Described }> {
  return waitFor(`${ns}/${pod} as wanted in kubectl describe`, async () => {
    const before = (await getObject(kubeconfig, 'pods', pod, ns)) as PodStatusJSON | null;
    const described = parseDescribe(await kubectlOk(kubeconfig, ['-n', ns, 'describe', 'pod', pod]), container);
    const after = (await getObject(kubeconfig, 'pods', pod, ns)) as PodStatusJSON | null;
    if (before === null || after === null || before.metadata.resourceVersion !== after.metadata.resourceVersion || !wanted(described)) return undefined;
    return { described, status: describedFromStatus(after, container) };
  });
}

/** Deletes pods and waits until they are gone, so their events stop changing. */
export async function deleteAndWait(kubeconfig: string, ns: string, what: string[]): Promise<void> {
  await kubectlOk(kubeconfig, ['-n', ns, 'delete', ...what, '--wait=true', '--timeout=120s']);
}

/**
 * Stages an OOM kill on the real node (the demo's last incident): oomDeployment, then waits until
 * its pod was killed for memory twice and the kubelet backs off restarting it.
 */
export async function stageOomKill(
  kubeconfig: string, node: RealNodeInfo, ns: string, deployment: string, log: (line: string) => void,
): Promise<{ deployment: string; pod: string }> {
  await applyObjects(kubeconfig, [oomDeployment(node, ns, deployment)]);
  log(`deployment ${deployment}: hog touches 100 MiB under a 20Mi limit`);
  const [pod] = await waitFor(`the pod of deploy/${deployment}`, async () => {
    const pods = await listObjects(kubeconfig, ns, 'pods', `app=${deployment}`);
    return pods.length === 1 ? pods : undefined;
  });
  const name = pod!.metadata.name;
  await describeWhen(kubeconfig, ns, name, 'worker', (d) => d.restartCount >= 2 && d.lastReason === 'OOMKilled');
  await waitFor('BackOff', async () => (await listEvents(kubeconfig, ns)).some((e) => e.reason === 'BackOff' && e.involvedObject.name === name));
  log(`pod ${name} OOMKilled (exit code 137) and restarted twice; the kubelet backs off`);
  return { deployment, pod: name };
}

/**
 * The Why's scenarios on the real node, one namespace each (`ns.crash`, `ns.pull`, `ns.config`,
 * `ns.probe`, `ns.job`): a container that keeps exiting with last words, an unpullable image, a missing
 * ConfigMap key, a liveness probe that fails, a Job past its back-off limit. The integration test and the
 * fixture script (scripts/capture-why-fixtures.ts) stage the same objects.
 */
export function whyScenarios(node: RealNodeInfo, ns: Record<string, string>): object[] {
  const pod = realNodePod.bind(null, node);
  return [
    // It lives 20 s before each exit, so a test looking at it between two changes of its status has
    // that long, however slow the machine (why-real-node.test.ts).
    pod(ns.crash!, 'crasher', { command: ['sh', '-c', 'echo starting; echo "fatal: cannot reach db:5432"; sleep 20; exit 3'] }),
    pod(ns.pull!, 'puller', { image: UNPULLABLE_IMAGE }),
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: ns.config }, data: { present: 'yes' } },
    pod(ns.config!, 'configured', { command: ['sleep', '3600'], env: [{ name: 'MISSING', valueFrom: { configMapKeyRef: { name: 'settings', key: 'missing' } } }] }),
    pod(ns.probe!, 'prober', { command: ['sleep', '3600'], livenessProbe: { exec: { command: ['sh', '-c', 'exit 3'] }, initialDelaySeconds: 1, periodSeconds: 1, failureThreshold: 2 } }),
    {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'migrate', namespace: ns.job },
      spec: { backoffLimit: 1, template: { spec: { ...onRealNode(node), restartPolicy: 'Never', terminationGracePeriodSeconds: 1, containers: [{ name: 'migrate', image: BUSYBOX_IMAGE, command: ['sh', '-c', 'exit 7'] }] } } },
    },
  ];
}

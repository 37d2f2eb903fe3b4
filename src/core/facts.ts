// Object facts: what an object's status and spec say beside its events, normalised once from the
// API object (a live LIST's item, a capture's copy, a record's status line) into plain values. The
// causes engine (src/core/causes.ts) reads these and nothing else, so a saved file tells the same
// causes as the live cluster. Field names follow the API (k8s.io/api core/v1, apps/v1, batch/v1).
import { parseTime } from './event.ts';
import { asInteger, asObject, asString } from './json.ts';
import type { Json } from './json.ts';
import { parseQuantity } from './quantity.ts';

export interface StateFacts {
  state: 'waiting' | 'running' | 'terminated';
  reason: string;
  message: string;
  exitCode: number | null;
  signal: number | null;
  /** epoch ms */
  startedAt: number | null;
  finishedAt: number | null;
}

export interface ProbeFacts {
  kind: 'liveness' | 'readiness' | 'startup';
  failureThreshold: number;
  periodSeconds: number;
  initialDelaySeconds: number;
}

export interface ContainerFacts {
  name: string;
  /** where it is in the spec: spec.containers, spec.initContainers, spec.ephemeralContainers */
  role: 'container' | 'init' | 'ephemeral';
  image: string;
  ready: boolean | null;
  restartCount: number;
  state: StateFacts | null;
  lastState: StateFacts | null;
  requests: Record<string, string>;
  limits: Record<string, string>;
  probes: ProbeFacts[];
  /** the last lines the instance of lastExit logged (pods/log, tailLines), when read */
  lastWords?: string[];
}

/**
 * The terminated state that tells why the container last stopped, and whose log holds its last
 * words: the current instance while it has exited and waits to be restarted (its log is
 * `pods/log` without `previous`), else the previous one (`previous=true`). In that wait the status's
 * lastState still names the instance before, which the kubelet has already removed: on each
 * ContainerDied it keeps only the newest dead container (pkg/kubelet/pod_container_deletor.go,
 * minDeadContainerInPod = 1), so `previous=true` answers "unable to retrieve container logs"
 * (pkg/kubelet/kuberuntime/kuberuntime_container.go GetContainerLogs) until the next sync, a whole
 * back-off later (pod_workers.go completeWork), rewrites lastState.
 */
export function lastExit(c: ContainerFacts): { state: StateFacts; which: 'state' | 'lastState' } | null {
  if (c.state?.state === 'terminated') return { state: c.state, which: 'state' };
  if (c.lastState?.state === 'terminated') return { state: c.lastState, which: 'lastState' };
  return null;
}

interface Condition {
  type: string;
  status: string;
  reason: string;
  message: string;
  /** epoch ms */
  lastTransitionTime: number | null;
}

export interface Taint {
  key: string;
  value: string;
  effect: string;
  /** epoch ms */
  timeAdded: number | null;
}

export interface Toleration {
  key: string;
  operator: string;
  value: string;
  effect: string;
}

interface Base {
  name: string;
  namespace: string;
  uid: string;
}

export interface PodFacts extends Base {
  kind: 'Pod';
  phase: string;
  reason: string;
  message: string;
  nodeName: string;
  qosClass: string;
  conditions: Condition[];
  containers: ContainerFacts[];
  tolerations: Toleration[];
  /** Kind/name of the controlling owner, '' when none */
  owner: string;
  /** spec.volumes[].persistentVolumeClaim.claimName */
  claims: string[];
  /** metadata.deletionTimestamp is set: the Pod is being deleted (evicted from a lost node, it stays so until the node returns) */
  terminating: boolean;
}

export interface WorkloadFacts extends Base {
  kind: string;
  conditions: Condition[];
  /** spec.replicas / status counts; null where the kind has none */
  replicas: { desired: number | null; ready: number | null; available: number | null; updated: number | null };
  /** Jobs: spec.backoffLimit and status.failed/succeeded */
  job?: { backoffLimit: number | null; failed: number; succeeded: number };
  /** Deployments: spec.progressDeadlineSeconds */
  progressDeadlineSeconds?: number | null;
}

export interface PvcFacts extends Base {
  kind: 'PersistentVolumeClaim';
  phase: string;
  storageClass: string;
}

export interface NodeFacts extends Base {
  kind: 'Node';
  conditions: Condition[];
  taints: Taint[];
  unschedulable: boolean;
  allocatable: Record<string, string>;
  /** what the Pods bound to it request (non-terminated Pods, summed as `kubectl describe node` does), by resource; `pods` counts them */
  requested: Record<string, number>;
  /** namespace/name of the non-terminated Pods bound to it, in every namespace */
  pods: string[];
}

export interface QuotaFacts extends Base {
  kind: 'ResourceQuota';
  hard: Record<string, string>;
  used: Record<string, string>;
}

export type ObjectFacts = PodFacts | WorkloadFacts | PvcFacts | NodeFacts | QuotaFacts;

/** What could not be read, said instead of guessed: a Kind in a namespace the reader may not list, a log it may not read. */
export interface FactGap {
  what: 'list' | 'log';
  /** the resource (pods, nodes, deployments.apps, pods/log) */
  resource: string;
  /** '' for a cluster-scoped resource */
  namespace: string;
  reason: 'forbidden' | 'failed';
  detail?: string;
}

/** The facts read beside the events, and what could not be read. */
export interface FactSet {
  objects: ObjectFacts[];
  gaps: FactGap[];
  /** epoch ms the facts were read (for a saved file: when its status lines were written) */
  readAt: number | null;
  /** a saved file written before status lines existed: it holds no status at all */
  noStatus?: boolean;
  /**
   * `namespace/Kind` of each list read in full (a live read): an object of these with events but not
   * in `objects` was gone before it was read. Absent for a saved file: its objects' Kinds stand in.
   */
  listed?: string[];
}

/** One saved status (a record's status line, a capture's status.json item): an object's facts or a gap, as observed at a time. */
export type SavedStatus = { observedAt: number | null } & ({ facts: ObjectFacts } | { missing: FactGap });

const WORKLOAD_KINDS = ['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job'] as const;

const int = asInteger;

function strings(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(asObject(value))) if (typeof v === 'string' || typeof v === 'number') out[k] = String(v);
  return out;
}

function stateOf(value: unknown): StateFacts | null {
  const s = asObject(value);
  for (const state of ['terminated', 'waiting', 'running'] as const) {
    if (s[state] === undefined || s[state] === null) continue;
    const d = asObject(s[state]);
    return {
      state,
      reason: asString(d.reason),
      message: asString(d.message),
      exitCode: int(d.exitCode),
      // The kubelet leaves signal 0 even for a signalled exit (kuberuntime_container.go sets only ExitCode): 0 says nothing.
      signal: int(d.signal) === 0 ? null : int(d.signal),
      startedAt: parseTime(d.startedAt),
      finishedAt: parseTime(d.finishedAt),
    };
  }
  return null;
}

function probesOf(container: Json): ProbeFacts[] {
  const out: ProbeFacts[] = [];
  for (const kind of ['liveness', 'readiness', 'startup'] as const) {
    const p = container[`${kind}Probe`];
    if (p === undefined || p === null) continue;
    const probe = asObject(p);
    // Defaults from k8s.io/api core/v1 types.go (Probe): failureThreshold 3, periodSeconds 10, initialDelaySeconds 0.
    out.push({ kind, failureThreshold: int(probe.failureThreshold) ?? 3, periodSeconds: int(probe.periodSeconds) ?? 10, initialDelaySeconds: int(probe.initialDelaySeconds) ?? 0 });
  }
  return out;
}

function conditionsOf(value: unknown): Condition[] {
  if (!Array.isArray(value)) return [];
  return value.map((c) => {
    const o = asObject(c);
    return { type: asString(o.type), status: asString(o.status), reason: asString(o.reason), message: asString(o.message), lastTransitionTime: parseTime(o.lastTransitionTime) };
  });
}

function baseOf(object: Json): Base {
  const m = asObject(object.metadata);
  return { name: asString(m.name), namespace: asString(m.namespace), uid: asString(m.uid) };
}

function controllerOf(object: Json): string {
  const refs = asObject(object.metadata).ownerReferences;
  if (!Array.isArray(refs)) return '';
  const owner = refs.map(asObject).find((r) => r.controller === true) ?? asObject(refs[0]);
  return owner.kind === undefined ? '' : `${asString(owner.kind)}/${asString(owner.name)}`;
}

function containersOf(spec: Json, status: Json): ContainerFacts[] {
  const roles = [
    ['container', 'containers', 'containerStatuses'],
    ['init', 'initContainers', 'initContainerStatuses'],
    ['ephemeral', 'ephemeralContainers', 'ephemeralContainerStatuses'],
  ] as const;
  const out: ContainerFacts[] = [];
  for (const [role, specField, statusField] of roles) {
    const statuses = Array.isArray(status[statusField]) ? (status[statusField] as unknown[]).map(asObject) : [];
    const specs = Array.isArray(spec[specField]) ? (spec[specField] as unknown[]).map(asObject) : [];
    for (const c of specs) {
      const name = asString(c.name);
      const st = statuses.find((s) => s.name === name) ?? {};
      const resources = asObject(c.resources);
      out.push({
        name,
        role,
        image: asString(c.image),
        ready: typeof st.ready === 'boolean' ? st.ready : null,
        restartCount: int(st.restartCount) ?? 0,
        state: stateOf(st.state),
        lastState: stateOf(st.lastState),
        requests: strings(resources.requests),
        limits: strings(resources.limits),
        probes: probesOf(c),
      });
    }
  }
  return out;
}

function tolerationsOf(value: unknown): Toleration[] {
  if (!Array.isArray(value)) return [];
  return value.map(asObject).map((t) => ({ key: asString(t.key), operator: asString(t.operator), value: asString(t.value), effect: asString(t.effect) }));
}

export function podFacts(object: Json): PodFacts {
  const spec = asObject(object.spec);
  const status = asObject(object.status);
  return {
    kind: 'Pod',
    ...baseOf(object),
    phase: asString(status.phase),
    reason: asString(status.reason),
    message: asString(status.message),
    nodeName: asString(spec.nodeName),
    qosClass: asString(status.qosClass),
    conditions: conditionsOf(status.conditions),
    containers: containersOf(spec, status),
    tolerations: tolerationsOf(spec.tolerations),
    owner: controllerOf(object),
    claims: (Array.isArray(spec.volumes) ? spec.volumes.map(asObject) : []).flatMap((v) => {
      const claim = asString(asObject(v.persistentVolumeClaim).claimName);
      return claim === '' ? [] : [claim];
    }),
    terminating: asString(asObject(object.metadata).deletionTimestamp) !== '',
  };
}

function workloadFacts(kind: string, object: Json): WorkloadFacts {
  const spec = asObject(object.spec);
  const status = asObject(object.status);
  const facts: WorkloadFacts = {
    kind,
    ...baseOf(object),
    conditions: conditionsOf(status.conditions),
    replicas: {
      // DaemonSets count nodes: desiredNumberScheduled, numberReady, numberAvailable, updatedNumberScheduled.
      desired: kind === 'DaemonSet' ? int(status.desiredNumberScheduled) : kind === 'Job' ? int(spec.completions) : int(spec.replicas),
      ready: int(kind === 'DaemonSet' ? status.numberReady : status.readyReplicas ?? status.ready),
      available: int(kind === 'DaemonSet' ? status.numberAvailable : status.availableReplicas),
      updated: int(kind === 'DaemonSet' ? status.updatedNumberScheduled : status.updatedReplicas),
    },
  };
  // batch/v1 JobSpec.backoffLimit defaults to 6.
  if (kind === 'Job') facts.job = { backoffLimit: int(spec.backoffLimit) ?? 6, failed: int(status.failed) ?? 0, succeeded: int(status.succeeded) ?? 0 };
  // apps/v1 DeploymentSpec.progressDeadlineSeconds defaults to 600.
  if (kind === 'Deployment') facts.progressDeadlineSeconds = int(spec.progressDeadlineSeconds) ?? 600;
  return facts;
}

function pvcFacts(object: Json): PvcFacts {
  return { kind: 'PersistentVolumeClaim', ...baseOf(object), phase: asString(asObject(object.status).phase), storageClass: asString(asObject(object.spec).storageClassName) };
}

function quotaFacts(object: Json): QuotaFacts {
  const status = asObject(object.status);
  return { kind: 'ResourceQuota', ...baseOf(object), hard: strings(status.hard), used: strings(status.used) };
}

export function nodeFacts(object: Json, bound: PodFacts[] = []): NodeFacts {
  const spec = asObject(object.spec);
  const status = asObject(object.status);
  const taints = Array.isArray(spec.taints) ? spec.taints.map(asObject) : [];
  return {
    kind: 'Node',
    ...baseOf(object),
    conditions: conditionsOf(status.conditions),
    taints: taints.map((t) => ({ key: asString(t.key), value: asString(t.value), effect: asString(t.effect), timeAdded: parseTime(t.timeAdded) })),
    unschedulable: spec.unschedulable === true,
    allocatable: strings(status.allocatable),
    requested: sumRequests(bound),
    pods: bound.map((p) => `${p.namespace}/${p.name}`).sort(),
  };
}

/** A Node's facts with what the Pods bound to it request (nodeFacts(object, bound) from facts read without them). */
export function nodeWithPods(node: NodeFacts, bound: PodFacts[]): NodeFacts {
  return { ...node, requested: sumRequests(bound), pods: bound.map((p) => `${p.namespace}/${p.name}`).sort() };
}

/** Reads one API object into facts by its Kind; null for a Kind that has none here. */
export function factsOf(kind: string, object: Json): ObjectFacts | null {
  if (kind === 'Pod') return podFacts(object);
  if ((WORKLOAD_KINDS as readonly string[]).includes(kind)) return workloadFacts(kind, object);
  if (kind === 'PersistentVolumeClaim') return pvcFacts(object);
  if (kind === 'ResourceQuota') return quotaFacts(object);
  if (kind === 'Node') return nodeFacts(object);
  return null;
}

/** `Kind/namespace/name`: one object's facts, whichever file or list they came from. */
export function factsKey(facts: { kind: string; namespace: string; name: string }): string {
  return `${facts.kind}/${facts.namespace}/${facts.name}`;
}

/**
 * What a Pod requests, as the scheduler counts it: the sum over its containers, or the largest init
 * container's request when that is more (k8s.io/component-helpers resource/helpers.go PodRequests,
 * without overhead and sidecar refinements).
 */
export function podRequests(pod: PodFacts): Record<string, number> {
  const sum: Record<string, number> = {};
  const initMax: Record<string, number> = {};
  for (const c of pod.containers) {
    if (c.role === 'ephemeral') continue;
    for (const [resource, text] of Object.entries(c.requests)) {
      const value = parseQuantity(text);
      if (value === null) continue;
      if (c.role === 'init') initMax[resource] = Math.max(initMax[resource] ?? 0, value);
      else sum[resource] = (sum[resource] ?? 0) + value;
    }
  }
  for (const [resource, value] of Object.entries(initMax)) sum[resource] = Math.max(sum[resource] ?? 0, value);
  return sum;
}

/** The requests of the Pods bound to a node that still hold their share: not Succeeded or Failed (kubectl describe node's field selector). */
function sumRequests(pods: PodFacts[]): Record<string, number> {
  const total: Record<string, number> = {};
  let count = 0;
  for (const pod of pods) {
    if (pod.phase === 'Succeeded' || pod.phase === 'Failed') continue;
    count += 1;
    for (const [resource, value] of Object.entries(podRequests(pod))) total[resource] = (total[resource] ?? 0) + value;
  }
  total.pods = count;
  return total;
}

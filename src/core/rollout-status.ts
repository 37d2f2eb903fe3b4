// Whether an object is done, as `kubectl rollout status` and `kubectl wait --for=condition=` judge
// it, in their words. Deployment, DaemonSet and StatefulSet mirror kubectl's StatusViewers
// (k8s.io/kubectl pkg/polymorphichelpers/rollout_status.go: DeploymentStatusViewer, DaemonSetStatusViewer
// and StatefulSetStatusViewer .Status): the same order of checks, the same messages. A Job is done when
// its Complete condition is True and failed when Failed is (what `kubectl wait --for=condition=`
// would wait for); a Pod when Ready, or Succeeded for one that runs to completion; anything else by
// the condition asked for, checked as kubectl wait checks it (pkg/cmd/wait/condition.go: the type
// compared case-insensitively, a condition whose observedGeneration is older than the object's
// generation not yet met).
import { asNumber, asObject, asString, isObject } from './json.ts';
import type { Json } from './json.ts';

/** What a wait waits for: the rollout of a known Kind, or a condition of any object. */
export type WaitTarget = { kind: 'rollout'; group: string; objectKind: string } | { kind: 'condition'; type: string; status: string };

export type RolloutState = 'waiting' | 'done' | 'failed';

export interface RolloutStatus {
  state: RolloutState;
  /** kubectl's line for the state, without its newline; for a failure, what failed */
  message: string;
  /** replica counts for the status line: ready/updated of desired; absent where the Kind has none */
  replicas?: { desired: number; updated: number; ready: number; available: number };
}

/** The Kinds whose rollout kubectl can tell (StatusViewerFor), plus Job and Pod; null: --for-condition is needed. */
export function rolloutTarget(group: string, kind: string): WaitTarget | null {
  const known = (group === 'apps' && ['Deployment', 'DaemonSet', 'StatefulSet'].includes(kind)) || (group === 'batch' && kind === 'Job') || (group === '' && kind === 'Pod');
  return known ? { kind: 'rollout', group, objectKind: kind } : null;
}

const num = (value: unknown): number => asNumber(value) ?? 0;
/** a pointer field left unset (spec.replicas) reads as undefined, as kubectl's `!= nil` checks */
const optionalNum = (value: unknown): number | undefined => asNumber(value) ?? undefined;

interface Condition {
  type: string;
  status: string;
  reason: string;
  message: string;
  observedGeneration?: number;
}

export function conditionsOf(object: Json): Condition[] {
  const list = asObject(object.status).conditions;
  if (!Array.isArray(list)) return [];
  return list.filter(isObject).map((c) => ({
    type: asString(c.type),
    status: asString(c.status),
    reason: asString(c.reason),
    message: asString(c.message),
    ...(optionalNum(c.observedGeneration) === undefined ? {} : { observedGeneration: num(c.observedGeneration) }),
  }));
}

const nameOf = (object: Json): string => asString(asObject(object.metadata).name);
const generationOf = (object: Json): number => num(asObject(object.metadata).generation);

export function judgeRollout(target: WaitTarget, object: Json): RolloutStatus {
  if (target.kind === 'condition') return judgeCondition(object, target.type, target.status);
  switch (target.objectKind) {
    case 'Deployment':
      return judgeDeployment(object);
    case 'DaemonSet':
      return judgeDaemonSet(object);
    case 'StatefulSet':
      return judgeStatefulSet(object);
    case 'Job':
      return judgeJob(object);
    default:
      return judgePod(object);
  }
}

function judgeDeployment(d: Json): RolloutStatus {
  const name = nameOf(d);
  const spec = asObject(d.spec);
  const status = asObject(d.status);
  const desired = optionalNum(spec.replicas);
  const updated = num(status.updatedReplicas);
  const replicas = { desired: desired ?? num(status.replicas), updated, ready: num(status.readyReplicas), available: num(status.availableReplicas) };
  if (generationOf(d) > num(status.observedGeneration)) return { state: 'waiting', message: 'Waiting for deployment spec update to be observed...', replicas };
  // deploymentutil.TimedOutReason: the controller gave up after progressDeadlineSeconds.
  const progressing = conditionsOf(d).find((c) => c.type === 'Progressing');
  if (progressing?.reason === 'ProgressDeadlineExceeded') return { state: 'failed', message: `deployment ${JSON.stringify(name)} exceeded its progress deadline`, replicas };
  if (desired !== undefined && updated < desired) {
    return { state: 'waiting', message: `Waiting for deployment ${JSON.stringify(name)} rollout to finish: ${updated} out of ${desired} new replicas have been updated...`, replicas };
  }
  const total = num(status.replicas);
  if (total > updated) return { state: 'waiting', message: `Waiting for deployment ${JSON.stringify(name)} rollout to finish: ${total - updated} old replicas are pending termination...`, replicas };
  if (replicas.available < updated) {
    return { state: 'waiting', message: `Waiting for deployment ${JSON.stringify(name)} rollout to finish: ${replicas.available} of ${updated} updated replicas are available...`, replicas };
  }
  return { state: 'done', message: `deployment ${JSON.stringify(name)} successfully rolled out`, replicas };
}

function judgeDaemonSet(ds: Json): RolloutStatus {
  const name = nameOf(ds);
  const status = asObject(ds.status);
  const desired = num(status.desiredNumberScheduled);
  const updated = num(status.updatedNumberScheduled);
  const available = num(status.numberAvailable);
  const replicas = { desired, updated, ready: num(status.numberReady), available };
  // kubectl names the StatefulSet's constant in this message; the two strings are equal.
  if (asString(asObject(asObject(ds.spec).updateStrategy).type) !== 'RollingUpdate') return { state: 'failed', message: 'rollout status is only available for RollingUpdate strategy type', replicas };
  if (generationOf(ds) > num(status.observedGeneration)) return { state: 'waiting', message: 'Waiting for daemon set spec update to be observed...', replicas };
  if (updated < desired) return { state: 'waiting', message: `Waiting for daemon set ${JSON.stringify(name)} rollout to finish: ${updated} out of ${desired} new pods have been updated...`, replicas };
  if (available < desired) return { state: 'waiting', message: `Waiting for daemon set ${JSON.stringify(name)} rollout to finish: ${available} of ${desired} updated pods are available...`, replicas };
  return { state: 'done', message: `daemon set ${JSON.stringify(name)} successfully rolled out`, replicas };
}

function judgeStatefulSet(sts: Json): RolloutStatus {
  const spec = asObject(sts.spec);
  const status = asObject(sts.status);
  const strategy = asObject(spec.updateStrategy);
  const desired = optionalNum(spec.replicas);
  const updated = num(status.updatedReplicas);
  const ready = num(status.readyReplicas);
  const replicas = { desired: desired ?? num(status.replicas), updated, ready, available: num(status.availableReplicas) };
  if (asString(strategy.type) !== 'RollingUpdate') return { state: 'failed', message: 'rollout status is only available for RollingUpdate strategy type', replicas };
  const observed = num(status.observedGeneration);
  if (observed === 0 || generationOf(sts) > observed) return { state: 'waiting', message: 'Waiting for statefulset spec update to be observed...', replicas };
  if (desired !== undefined && ready < desired) return { state: 'waiting', message: `Waiting for ${desired - ready} pods to be ready...`, replicas };
  if (isObject(strategy.rollingUpdate)) {
    const partition = optionalNum(strategy.rollingUpdate.partition);
    if (desired !== undefined && partition !== undefined && updated < desired - partition) {
      return { state: 'waiting', message: `Waiting for partitioned roll out to finish: ${updated} out of ${desired - partition} new pods have been updated...`, replicas };
    }
    return { state: 'done', message: `partitioned roll out complete: ${updated} new pods have been updated...`, replicas };
  }
  const updateRevision = asString(status.updateRevision);
  if (updateRevision !== asString(status.currentRevision)) {
    return { state: 'waiting', message: `waiting for statefulset rolling update to complete ${updated} pods at revision ${updateRevision}...`, replicas };
  }
  return { state: 'done', message: `statefulset rolling update complete ${num(status.currentReplicas)} pods at revision ${asString(status.currentRevision)}...`, replicas };
}

function judgeJob(job: Json): RolloutStatus {
  const name = nameOf(job);
  const status = asObject(job.status);
  const completions = optionalNum(asObject(job.spec).completions) ?? 1;
  const replicas = { desired: completions, updated: num(status.active), ready: num(status.ready), available: num(status.succeeded) };
  const conditions = conditionsOf(job).filter((c) => c.status === 'True');
  const failed = conditions.find((c) => c.type === 'Failed');
  if (failed !== undefined) return { state: 'failed', message: `job ${JSON.stringify(name)} failed: ${failed.reason}${failed.message ? `: ${failed.message}` : ''}`, replicas };
  if (conditions.some((c) => c.type === 'Complete')) return { state: 'done', message: `job ${JSON.stringify(name)} complete: ${num(status.succeeded)} of ${completions} succeeded`, replicas };
  return { state: 'waiting', message: `Waiting for job ${JSON.stringify(name)} to complete: ${num(status.succeeded)} of ${completions} succeeded, ${num(status.active)} active, ${num(status.failed)} failed...`, replicas };
}

function judgePod(pod: Json): RolloutStatus {
  const name = nameOf(pod);
  const status = asObject(pod.status);
  const phase = asString(status.phase);
  const containers = Array.isArray(status.containerStatuses) ? status.containerStatuses.filter(isObject) : [];
  const ready = containers.filter((c) => c.ready === true).length;
  const total = Array.isArray(asObject(pod.spec).containers) ? (asObject(pod.spec).containers as unknown[]).length : containers.length;
  const replicas = { desired: total, updated: containers.length, ready, available: ready };
  if (phase === 'Succeeded') return { state: 'done', message: `pod ${JSON.stringify(name)} succeeded`, replicas };
  // Failed is terminal: the kubelet restarts nothing more (restartPolicy Never or OnFailure exhausted, evicted).
  if (phase === 'Failed') return { state: 'failed', message: `pod ${JSON.stringify(name)} failed${status.reason ? `: ${asString(status.reason)}` : ''}`, replicas };
  // A Pod that runs to completion (restartPolicy Never or OnFailure; the API server defaults it to
  // Always) is Ready while it runs: only Succeeded is done for it.
  const completes = ['Never', 'OnFailure'].includes(asString(asObject(pod.spec).restartPolicy));
  if (completes) return { state: 'waiting', message: `Waiting for pod ${JSON.stringify(name)} to complete (${phase || 'no phase yet'})...`, replicas };
  if (conditionsOf(pod).some((c) => c.type === 'Ready' && c.status === 'True')) return { state: 'done', message: `pod ${JSON.stringify(name)} is ready`, replicas };
  return { state: 'waiting', message: `Waiting for pod ${JSON.stringify(name)} to be ready: ${ready} of ${total} containers ready (${phase || 'no phase yet'})...`, replicas };
}

function judgeCondition(object: Json, type: string, wanted: string): RolloutStatus {
  const generation = generationOf(object);
  const found = conditionsOf(object).find((c) => c.type.toLowerCase() === type.toLowerCase());
  // kubectl wait: a condition written for an older generation is not met yet.
  const current = found !== undefined && (found.observedGeneration === undefined || found.observedGeneration >= generation);
  if (current && found.status.toLowerCase() === wanted.toLowerCase()) return { state: 'done', message: `condition ${type}=${found.status} met` };
  const now = found === undefined ? 'not set' : current ? `${found.status}${found.reason ? ` (${found.reason})` : ''}` : `${found.status} for generation ${found.observedGeneration ?? 0} of ${generation}`;
  return { state: 'waiting', message: `Waiting for condition ${type}=${wanted}: it is ${now}...` };
}

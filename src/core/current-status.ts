// The timeline's -o wide STATUS column: what an event's object is doing now (or, from a saved file,
// when its status was last saved), in the words `kubectl get` uses: a container's waiting or
// terminated reason (CrashLoopBackOff, OOMKilled) with the last one it ended with, a Pod's reason or
// phase, a Node's readiness, a workload's failing condition. '' where nothing is known.
import type { Event, ObjectRef } from './event.ts';
import type { ContainerFacts, FactSet, NodeFacts, ObjectFacts, PodFacts, WorkloadFacts } from './facts.ts';
import { containerOfEvent } from './causes-pod.ts';

function containerStatus(c: ContainerFacts): string {
  const now = c.state === null ? '' : c.state.state === 'running' ? 'Running' : c.state.reason || c.state.state;
  const last = c.lastState?.state === 'terminated' ? `${c.lastState.reason || 'Terminated'}, exit ${c.lastState.exitCode ?? '?'}` : '';
  const exit = c.state?.state === 'terminated' && c.state.exitCode !== null ? ` (exit ${c.state.exitCode})` : '';
  return `${now}${exit}${last === '' ? '' : ` (last ${last})`}`;
}

/** As `kubectl get pods` STATUS says it (printers PrintPod): the Pod's reason, else a container's, else the phase. */
function podStatus(pod: PodFacts): string {
  if (pod.terminating) return 'Terminating';
  if (pod.reason !== '') return pod.reason;
  for (const c of pod.containers) {
    if (c.role === 'ephemeral') continue;
    if (c.state?.state === 'waiting' && c.state.reason !== '') return c.role === 'init' ? `Init:${c.state.reason}` : c.state.reason;
    if (c.state?.state === 'terminated' && c.state.exitCode !== 0 && c.state.reason !== '') return c.role === 'init' ? `Init:${c.state.reason}` : c.state.reason;
  }
  return pod.phase;
}

function nodeStatus(node: NodeFacts): string {
  const ready = node.conditions.find((c) => c.type === 'Ready');
  const state = ready === undefined ? 'Unknown' : ready.status === 'True' ? 'Ready' : `NotReady${ready.reason === '' ? '' : ` (${ready.reason})`}`;
  return node.unschedulable ? `${state},SchedulingDisabled` : state;
}

function workloadStatus(w: WorkloadFacts): string {
  const failing = w.conditions.find(
    (c) => (c.type === 'Progressing' && c.status === 'False') || (c.type === 'ReplicaFailure' && c.status === 'True') || (c.type === 'Failed' && c.status === 'True'),
  );
  return failing?.reason ?? '';
}

function statusOf(o: ObjectFacts, ev: Event): string {
  if (o.kind === 'Pod') {
    const pod = o as PodFacts;
    const name = containerOfEvent(ev);
    const c = name === null ? undefined : pod.containers.find((x) => x.name === name);
    return c === undefined ? podStatus(pod) : `${c.name}: ${containerStatus(c)}`;
  }
  if (o.kind === 'Node') return nodeStatus(o as NodeFacts);
  if (o.kind === 'PersistentVolumeClaim' || o.kind === 'ResourceQuota') return 'phase' in o ? o.phase : '';
  return workloadStatus(o as WorkloadFacts);
}

/** The STATUS of each event's object by the facts read; '' where none is held. */
export function currentStatus(facts: FactSet): (ev: Event) => string {
  const byKey = new Map(facts.objects.map((o) => [`${o.kind}/${o.namespace}/${o.name}`, o]));
  // Found once per ObjectRef (the events about one object share one: core/compact.ts), not a key joined per row.
  const found = new Map<ObjectRef, ObjectFacts | null>();
  const factsOf = (ref: ObjectRef): ObjectFacts | null => {
    let o = found.get(ref);
    if (o === undefined) {
      const held = byKey.get(`${ref.kind}/${ref.kind === 'Node' ? '' : ref.namespace}/${ref.name}`);
      o = held === undefined || (held.uid !== '' && ref.uid !== '' && held.uid !== ref.uid) ? null : held;
      found.set(ref, o);
    }
    return o;
  };
  return (ev) => {
    const o = factsOf(ev.object);
    return o === null ? '' : statusOf(o, ev);
  };
}

// Causes about where Pods run: a Pod the scheduler cannot place, and a node that stopped reporting
// joined to the Pods it lost. Formats, k8s.io/kubernetes v1.36.3:
//   FailedScheduling "0/%v nodes are available: <reasons>. preemption: ..."   pkg/scheduler/framework/types.go:903,925-975
//     reasons "Insufficient cpu" (noderesources/fit.go:702, `Insufficient %v` :755 for extended resources),
//     "Too many pods" (fit.go:685), "node(s) had untolerated taint(s)" (tainttoleration/taint_toleration.go:131,
//     v1.26 and older: "node(s) had untolerated taint {key: value}"), "node(s) were unschedulable"
//     (nodeunschedulable/node_unschedulable.go:51), "pod has unbound immediate PersistentVolumeClaims"
//     (volumebinding/volume_binding.go:378)
//   Scheduled   "Successfully assigned %v/%v to %v"                  pkg/scheduler/schedule_one.go:1186
//   NodeNotReady on a Node "Node %s status is now: %s"              pkg/controller/util/node/controller_utils.go:189
//   NodeNotReady on a Pod  "Node is not ready"                      pkg/controller/util/node/controller_utils.go:155
//   TaintManagerEviction   "Marking for deletion Pod %s"            pkg/controller/tainteviction/taint_eviction.go:600
import type { Event } from './event.ts';
import type { Cause, Evidence, ResourceShortfall } from './cause-types.ts';
import type { NodeFacts, PodFacts, PvcFacts, Taint, Toleration } from './facts.ts';
import { podRequests } from './facts.ts';
import { parseQuantity } from './quantity.ts';
import type { PodEvents } from './causes-pod.ts';

/** The taints the node lifecycle controller puts on a node that stopped reporting (k8s.io/api core/v1 well_known_taints.go). */
const LOST_TAINTS = ['node.kubernetes.io/unreachable', 'node.kubernetes.io/not-ready'];

function eventEvidence(ev: Event): Evidence {
  return { from: 'event', object: `${ev.object.kind}/${ev.object.name}`, namespace: ev.namespace, path: ev.name, value: `${ev.reason}: ${ev.message}` };
}

/** The scheduler's message read into its node count and reasons; null when it is not in that form. */
export function parseFailedScheduling(message: string): { nodes: number; reasons: { count: number | null; text: string }[] } | null {
  const match = /^0\/(\d+) nodes are available: ([\s\S]*)$/.exec(message);
  if (match === null) return null;
  // The filter's reasons end at the first ". "; PostFilter's words follow (v1.36: "no new claims to
  // deallocate, preemption: 0/1 nodes are available: ..."), and no reason holds ". " itself.
  const body = /^([\s\S]*?)(?:\.(?: |$)|$)/.exec(match[2] ?? '')?.[1] ?? '';
  const reasons = body
    .split(/, (?=\d+ )/)
    .filter((part) => part !== '')
    .map((part) => {
      const counted = /^(\d+) ([\s\S]*)$/.exec(part);
      return counted === null ? { count: null, text: part } : { count: Number(counted[1]), text: counted[2] ?? '' };
    });
  return { nodes: Number(match[1]), reasons };
}

/** Whether a toleration tolerates a taint (k8s.io/api core/v1 toleration.go ToleratesTaint). */
function tolerates(t: Toleration, taint: Taint): boolean {
  if (t.effect !== '' && t.effect !== taint.effect) return false;
  if (t.key === '' && t.operator === 'Exists') return true;
  if (t.key !== taint.key) return false;
  return t.operator === 'Exists' || t.value === taint.value;
}

/** The node with the most of a resource free: the same for every Pod, so worked out once per resource. */
type MostFree = (resource: string) => ResourceShortfall['best'];

function mostFreeOf(nodes: NodeFacts[]): MostFree {
  const known = new Map<string, ResourceShortfall['best']>();
  return (resource) => {
    if (known.has(resource)) return known.get(resource);
    let best: ResourceShortfall['best'];
    for (const node of nodes) {
      const allocatable = parseQuantity(node.allocatable[resource] ?? '');
      if (allocatable === null) continue;
      const free = allocatable - (node.requested[resource] ?? 0);
      if (best === undefined || free > best.free) best = { node: node.name, free, allocatable };
    }
    known.set(resource, best);
    return best;
  };
}

function shortfall(resource: string, requested: number | null, mostFree: MostFree): ResourceShortfall {
  const best = mostFree(resource);
  return best === undefined ? { resource, requested } : { resource, requested, best: { ...best } };
}

function unschedulable(pod: PodFacts | null, ref: { name: string; namespace: string }, ev: Event, nodes: NodeFacts[], mostFree: MostFree, claims: PvcFacts[], parse: typeof parseFailedScheduling): Cause {
  const parsed = parse(ev.message);
  const reasons = parsed?.reasons ?? [{ count: null, text: ev.message }];
  const requests = pod === null ? {} : podRequests(pod);
  const shortfalls = reasons.flatMap((r): ResourceShortfall[] => {
    const insufficient = /^Insufficient (\S+)$/.exec(r.text);
    if (insufficient !== null) {
      const resource = insufficient[1] ?? '';
      return [shortfall(resource, requests[resource] ?? null, mostFree)];
    }
    return r.text === 'Too many pods' ? [shortfall('pods', 1, mostFree)] : [];
  });
  const tainted = reasons.some((r) => r.text.includes('taint'));
  const taints = tainted
    ? nodes.flatMap((node) =>
        node.taints
          .filter((taint) => (taint.effect === 'NoSchedule' || taint.effect === 'NoExecute') && !(pod?.tolerations ?? []).some((t) => tolerates(t, taint)))
          .map((taint) => ({ node: node.name, key: taint.key, value: taint.value, effect: taint.effect })),
      )
    : [];
  // Older schedulers named the taint in the message: `node(s) had untolerated taint {key: value}`.
  for (const r of reasons) {
    const named = /untolerated taint \{([^:}]*): ?([^}]*)\}/.exec(r.text);
    if (named !== null && !taints.some((t) => t.key === named[1])) taints.push({ node: '', key: named[1] ?? '', value: named[2] ?? '', effect: '' });
  }
  const evidence: Evidence[] = [eventEvidence(ev)];
  const ns = ref.namespace;
  for (const s of shortfalls) {
    if (pod !== null && s.requested !== null && s.resource !== 'pods') evidence.push({ from: 'field', object: `Pod/${ref.name}`, namespace: ns, path: `spec.containers[*].resources.requests.${s.resource}`, value: String(s.requested) });
    if (s.best !== undefined) {
      evidence.push({ from: 'field', object: `Node/${s.best.node}`, namespace: '', path: `status.allocatable.${s.resource}`, value: String(s.best.allocatable) });
      evidence.push({ from: 'field', object: `Node/${s.best.node}`, namespace: '', path: `requests of the Pods on the node (${s.resource})`, value: String(s.best.allocatable - s.best.free) });
    }
  }
  for (const t of taints) if (t.node !== '') evidence.push({ from: 'field', object: `Node/${t.node}`, namespace: '', path: `spec.taints[${t.key}]`, value: `${t.key}${t.value === '' ? '' : `=${t.value}`}:${t.effect}` });
  const unschedulableNodes = reasons.some((r) => r.text.includes('were unschedulable')) ? nodes.filter((n) => n.unschedulable).map((n) => n.name) : [];
  for (const n of unschedulableNodes) evidence.push({ from: 'field', object: `Node/${n}`, namespace: '', path: 'spec.unschedulable', value: 'true' });
  const unboundClaims = reasons.some((r) => r.text.includes('PersistentVolumeClaim') || r.text.includes('persistent volume'))
    ? claims.filter((c) => c.namespace === ns && (pod?.claims ?? []).includes(c.name) && c.phase !== 'Bound').map((c) => ({ name: c.name, phase: c.phase, storageClass: c.storageClass }))
    : [];
  for (const c of unboundClaims) evidence.push({ from: 'field', object: `PersistentVolumeClaim/${c.name}`, namespace: ns, path: 'status.phase', value: c.phase });
  return {
    certainty: 'stated',
    object: { kind: 'Pod', name: ref.name, namespace: ns },
    alike: [],
    at: ev.lastSeen,
    events: [ev.name],
    detail: { kind: 'unschedulable', nodes: parsed?.nodes ?? null, reasons, shortfalls, taints, unschedulableNodes, unboundClaims },
    evidence,
  };
}

/** A Pod still waiting for a node: its latest FailedScheduling, read with the nodes' numbers. */
export function schedulingCauses(podRefs: { name: string; namespace: string; uid: string }[], pods: Map<string, PodFacts>, eventsOf: PodEvents, nodes: NodeFacts[], claims: PvcFacts[]): Cause[] {
  const causes: Cause[] = [];
  const mostFree = mostFreeOf(nodes);
  // The Pods of one owner wait for the same reasons, in the same words: each message read once.
  const parsed = new Map<string, ReturnType<typeof parseFailedScheduling>>();
  const parse = (message: string) => {
    if (!parsed.has(message)) parsed.set(message, parseFailedScheduling(message));
    return parsed.get(message) ?? null;
  };
  for (const ref of podRefs) {
    const pod = pods.get(`${ref.namespace}/${ref.name}`) ?? null;
    const mine = eventsOf(ref);
    const failed = mine.filter((ev) => ev.reason === 'FailedScheduling').at(-1);
    if (failed === undefined) continue;
    // Placed since (bound to a node, or a Scheduled event after it): the scheduler's complaint is over.
    if (pod !== null && pod.nodeName !== '') continue;
    if (pod === null && mine.some((ev) => ev.reason === 'Scheduled' && (ev.lastSeen ?? 0) >= (failed.lastSeen ?? 0))) continue;
    causes.push(unschedulable(pod, ref, failed, nodes, mostFree, claims, parse));
  }
  return causes;
}

/** The node a Pod was bound to: its spec.nodeName, else its Scheduled event. */
function nodeOfPod(ref: { name: string; namespace: string; uid: string }, pod: PodFacts | undefined, mine: Event[]): string {
  if (pod !== undefined && pod.nodeName !== '') return pod.nodeName;
  const scheduled = mine.filter((ev) => ev.reason === 'Scheduled').at(-1);
  return scheduled === undefined ? '' : (/ to (\S+)$/.exec(scheduled.message)?.[1] ?? '');
}

function readyOf(node: NodeFacts | undefined) {
  return node?.conditions.find((c) => c.type === 'Ready');
}

/**
 * A node that stopped reporting, joined to the Pods it lost (in every namespace the facts reach):
 * the time it went NotReady, the taint that evicted its Pods, and which Pods those were.
 */
export function nodeLostCauses(podRefs: { name: string; namespace: string; uid: string }[], pods: Map<string, PodFacts>, events: Event[], eventsOf: PodEvents, nodes: NodeFacts[]): Cause[] {
  const byName = new Map(nodes.map((n) => [n.name, n]));
  const lost = new Map<string, { pods: Set<string>; events: Event[] }>();
  const add = (node: string, pod: string | null, evs: Event[]) => {
    const entry = lost.get(node) ?? { pods: new Set(), events: [] };
    if (pod !== null) entry.pods.add(pod);
    entry.events.push(...evs);
    lost.set(node, entry);
  };
  for (const node of nodes) {
    const ready = readyOf(node);
    if (ready !== undefined && ready.status !== 'True') add(node.name, null, []);
  }
  for (let i = 0; i < events.length; i += 1) {
    const ev = events[i] as Event;
    if (ev.object.kind === 'Node' && ev.reason === 'NodeNotReady') add(ev.object.name, null, [ev]);
  }
  for (const ref of podRefs) {
    const all = eventsOf(ref);
    const mine = all.filter((ev) => ev.reason === 'NodeNotReady' || ev.reason === 'TaintManagerEviction' || ev.reason === 'NodeControllerEviction');
    if (mine.length === 0) continue;
    add(nodeOfPod(ref, pods.get(`${ref.namespace}/${ref.name}`), all), `${ref.namespace}/${ref.name}`, mine);
  }
  const causes: Cause[] = [];
  for (const [name, entry] of lost) {
    const node = byName.get(name);
    const ready = readyOf(node);
    const notReadyNow = ready !== undefined && ready.status !== 'True';
    // A Pod on the node, terminating: evicted and waiting for the kubelet that will not answer.
    for (const pod of node?.pods ?? []) {
      const facts = pods.get(pod);
      if (facts === undefined || facts.terminating) entry.pods.add(pod);
    }
    if (!notReadyNow && entry.events.length === 0) continue;
    const taint = node?.taints.filter((t) => LOST_TAINTS.includes(t.key)).sort((a, b) => (a.effect === 'NoExecute' ? -1 : b.effect === 'NoExecute' ? 1 : 0))[0];
    const nodeEvent = entry.events.filter((ev) => ev.object.kind === 'Node').sort((a, b) => (a.firstSeen ?? 0) - (b.firstSeen ?? 0))[0];
    const firstPodEvent = entry.events.filter((ev) => ev.object.kind === 'Pod').sort((a, b) => (a.firstSeen ?? 0) - (b.firstSeen ?? 0))[0];
    const since = notReadyNow ? (ready?.lastTransitionTime ?? null) : (nodeEvent?.firstSeen ?? firstPodEvent?.firstSeen ?? null);
    const evidence: Evidence[] = [];
    if (notReadyNow && ready !== undefined) {
      evidence.push({ from: 'field', object: `Node/${name}`, namespace: '', path: 'status.conditions[Ready].status', value: ready.status });
      if (ready.reason !== '') evidence.push({ from: 'field', object: `Node/${name}`, namespace: '', path: 'status.conditions[Ready].reason', value: ready.reason });
      if (ready.lastTransitionTime !== null) evidence.push({ from: 'field', object: `Node/${name}`, namespace: '', path: 'status.conditions[Ready].lastTransitionTime', value: new Date(ready.lastTransitionTime).toISOString() });
    }
    if (taint !== undefined) evidence.push({ from: 'field', object: `Node/${name}`, namespace: '', path: `spec.taints[${taint.key}]`, value: `${taint.key}:${taint.effect}` });
    const seen = new Set<string>();
    for (const ev of entry.events) if (!seen.has(ev.name)) (seen.add(ev.name), evidence.push(eventEvidence(ev)));
    causes.push({
      // Without the Node's status or its own event, only the Pods' events say a node was lost, and the node they ran on is inferred.
      certainty: notReadyNow || nodeEvent !== undefined ? 'stated' : 'probably',
      object: { kind: 'Node', name, namespace: '' },
      alike: [],
      at: since,
      events: [...seen],
      detail: {
        kind: 'node-lost',
        node: name,
        since,
        status: ready?.status ?? '',
        conditionReason: notReadyNow ? (ready?.reason ?? '') : '',
        taint: taint === undefined ? null : { key: taint.key, effect: taint.effect, timeAdded: taint.timeAdded },
        pods: [...entry.pods].sort(),
        ready: ready !== undefined && ready.status === 'True',
      },
      evidence,
    });
  }
  return causes;
}

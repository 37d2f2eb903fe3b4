// The causes engine: object facts (src/core/facts.ts) and events in, causes with their evidence
// out, most decisive first. Events are symptoms; the cause is mostly written in a status (an
// OOMKilled container writes no event at all: kubernetes#69676), in a spec (the limit, the
// probe's threshold) or in another object (the Node, the ResourceQuota).
import type { Event } from './event.ts';
import { keyedByRef } from './identity.ts';
import type { Cause, CauseKind } from './cause-types.ts';
import type { FactSet, NodeFacts, PodFacts, PvcFacts, QuotaFacts, WorkloadFacts } from './facts.ts';
import { podCauses, podEventCauses, podEventIndex } from './causes-pod.ts';
import { nodeLostCauses, schedulingCauses } from './causes-nodes.ts';
import { backoffLimitCauses, createRefusedCauses, progressDeadlineCauses } from './causes-workloads.ts';
import { compareBytes } from './timeline.ts';

/** Most decisive first: what takes Pods away or keeps them from running before what follows from it. */
const RANK: Record<CauseKind, number> = {
  'node-lost': 0,
  'oom-killed': 1,
  'missing-config': 2,
  'image-pull': 3,
  'create-refused': 4,
  unschedulable: 5,
  'backoff-limit': 6,
  exits: 7,
  probe: 8,
  'progress-deadline': 9,
};

/** Causes and the text of "expected" ones (a probe still below its threshold), which the account folds. */
export interface Causes {
  causes: Cause[];
  /** below threshold while starting: said only with --detail */
  expected: Cause[];
}

// Index loops over the events here: a for-of makes an iterator result per event in code that runs once (0.8 MB a pass at 20,000 events).
function podRefsOf(events: Event[], pods: PodFacts[]): { name: string; namespace: string; uid: string }[] {
  const refs = new Map<string, { name: string; namespace: string; uid: string }>();
  for (const p of pods) refs.set(`${p.namespace}/${p.name}`, p);
  const keyOf = keyedByRef((o) => `${o.namespace}/${o.name}`);
  for (let i = 0; i < events.length; i += 1) {
    const ev = events[i] as Event;
    if (ev.object.kind !== 'Pod') continue;
    const key = keyOf(ev.object);
    if (!refs.has(key)) refs.set(key, { name: ev.object.name, namespace: ev.object.namespace, uid: ev.object.uid });
  }
  return [...refs.values()];
}

/** What makes two causes the same story, for folding siblings of one owner. */
function signature(cause: Cause): string {
  const d = cause.detail;
  switch (d.kind) {
    case 'oom-killed':
      return `${d.container}\u0000${d.limit}`;
    case 'exits':
      return `${d.container}\u0000${d.exitCode}\u0000${d.reason}`;
    case 'image-pull':
      return `${d.container}\u0000${d.image}`;
    case 'missing-config':
      return `${d.missing}\u0000${d.name}\u0000${d.key}`;
    case 'probe':
      return `${d.container}\u0000${d.probe}\u0000${d.killed}`;
    case 'unschedulable':
      return d.reasons.map((r) => r.text).join('\u0000');
    default:
      return `${cause.object.kind}/${cause.object.name}`;
  }
}

/** Pods of one owner with the same cause are one line: the first, and the others named in `alike`. */
function foldSiblings(causes: Cause[], ownerOf: (cause: Cause) => string): Cause[] {
  const folded = new Map<string, Cause>();
  const out: Cause[] = [];
  for (const cause of causes) {
    const owner = ownerOf(cause);
    if (owner === '') {
      out.push(cause);
      continue;
    }
    const key = `${cause.detail.kind}\u0000${owner}\u0000${signature(cause)}`;
    const first = folded.get(key);
    if (first === undefined) {
      folded.set(key, cause);
      out.push(cause);
    } else {
      first.alike.push(`${cause.object.kind}/${cause.object.name}`);
      first.events.push(...cause.events);
      if ((cause.at ?? 0) > (first.at ?? 0)) first.at = cause.at;
    }
  }
  return out;
}

/** Orders by RANK, then newest first, then by object: a stable order for the same input. */
function sortCauses(causes: Cause[]): Cause[] {
  return [...causes].sort(
    (a, b) =>
      RANK[a.detail.kind] - RANK[b.detail.kind] ||
      (b.at ?? 0) - (a.at ?? 0) ||
      compareBytes(`${a.object.namespace}/${a.object.kind}/${a.object.name}`, `${b.object.namespace}/${b.object.kind}/${b.object.name}`),
  );
}

/** Causes of what the events show, from the facts read beside them. */
export function findCauses(facts: FactSet, events: Event[]): Causes {
  const pods = facts.objects.filter((o): o is PodFacts => o.kind === 'Pod');
  const nodes = facts.objects.filter((o): o is NodeFacts => o.kind === 'Node');
  const claims = facts.objects.filter((o): o is PvcFacts => o.kind === 'PersistentVolumeClaim');
  const quotas = facts.objects.filter((o): o is QuotaFacts => o.kind === 'ResourceQuota');
  const workloads = facts.objects.filter((o): o is WorkloadFacts => o.kind !== 'Pod' && o.kind !== 'Node' && o.kind !== 'PersistentVolumeClaim' && o.kind !== 'ResourceQuota');
  const byKey = new Map(pods.map((p) => [`${p.namespace}/${p.name}`, p]));
  const refs = podRefsOf(events, pods);
  const eventsOf = podEventIndex(events);
  const all: Cause[] = [];
  for (const ref of refs) {
    const pod = byKey.get(`${ref.namespace}/${ref.name}`);
    all.push(...(pod === undefined ? podEventCauses(ref, eventsOf(ref)) : podCauses(pod, eventsOf(ref))));
  }
  all.push(...schedulingCauses(refs, byKey, eventsOf, nodes, claims));
  all.push(...nodeLostCauses(refs, byKey, events, eventsOf, nodes));
  all.push(...createRefusedCauses(events, workloads, quotas));
  all.push(...progressDeadlineCauses(workloads));
  all.push(...backoffLimitCauses(workloads, pods, events));
  const ownerOf = (cause: Cause): string => {
    if (cause.object.kind !== 'Pod') return '';
    const owner = byKey.get(`${cause.object.namespace}/${cause.object.name}`)?.owner;
    if (owner !== undefined) return owner === '' ? '' : `${cause.object.namespace}/${owner}`;
    // Status unread: a generated name (`<owner>-<5 random>`, apiserver names.SimpleNameGenerator) tells its siblings.
    const generated = /^(.+)-[bcdfghjklmnpqrstvwxz2456789]{5}$/.exec(cause.object.name);
    return generated === null ? '' : `${cause.object.namespace}/~${generated[1]}`;
  };
  const sorted = sortCauses(all);
  const isExpected = (c: Cause): boolean => c.detail.kind === 'probe' && c.detail.expected;
  return { causes: foldSiblings(sorted.filter((c) => !isExpected(c)), ownerOf), expected: foldSiblings(sorted.filter(isExpected), ownerOf) };
}

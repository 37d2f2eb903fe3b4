// Causes of workloads: a controller that cannot create Pods, a rollout past its deadline, a Job past
// its back-off limit. Formats, k8s.io/kubernetes v1.36.3 / k8s.io/apiserver v0.36.3:
//   FailedCreate "Error creating: %v"                                  pkg/controller/controller_utils.go:600
//     (after 10 different messages: "(combined from similar events): " first, client-go tools/record/events_cache.go)
//   quota  "exceeded quota: %s, requested: %s, used: %s, limited: %s"  apiserver pkg/admission/plugin/resourcequota/controller.go:622
//   Progressing=False ProgressDeadlineExceeded `ReplicaSet %q has timed out progressing.`  pkg/controller/deployment/progress.go:89-91
//   Failed=True BackoffLimitExceeded "Job has reached the specified backoff limit"  pkg/controller/job/job_controller.go:1089, event :1666
import type { Event } from './event.ts';
import type { Cause, Evidence } from './cause-types.ts';
import type { PodFacts, QuotaFacts, WorkloadFacts } from './facts.ts';
import { COMBINED_PREFIX } from './recorder-notes.ts';

function eventEvidence(ev: Event): Evidence {
  return { from: 'event', object: `${ev.object.kind}/${ev.object.name}`, namespace: ev.namespace, path: ev.name, value: `${ev.reason}: ${ev.message}` };
}

export function parseQuotaRefusal(message: string): { name: string; requested: string; used: string; limited: string } | null {
  const m = /exceeded quota: ([^,]*), requested: (.*?), used: (.*?), limited: (.*)$/.exec(message);
  return m === null ? null : { name: m[1] ?? '', requested: m[2] ?? '', used: m[3] ?? '', limited: m[4] ?? '' };
}

/** A controller whose Pod creations the API server refused (quota, admission), from its FailedCreate events and ReplicaFailure condition. */
export function createRefusedCauses(events: Event[], workloads: WorkloadFacts[], quotas: QuotaFacts[]): Cause[] {
  const latest = new Map<string, Event>();
  for (let i = 0; i < events.length; i += 1) {
    const ev = events[i] as Event;
    if (ev.reason === 'FailedCreate') latest.set(`${ev.object.kind}/${ev.namespace}/${ev.object.name}`, ev);
  }
  const causes: Cause[] = [];
  for (const ev of latest.values()) {
    // After ten refusals with different Pod names the recorder combines them (its prefix first).
    const message = (ev.message.startsWith(COMBINED_PREFIX) ? ev.message.slice(COMBINED_PREFIX.length) : ev.message).replace(/^Error creating: /, '');
    const quota = parseQuotaRefusal(message);
    const hard = quota === null ? undefined : quotas.find((q) => q.namespace === ev.namespace && q.name === quota.name);
    const evidence: Evidence[] = [eventEvidence(ev)];
    const workload = workloads.find((w) => w.kind === ev.object.kind && w.namespace === ev.namespace && w.name === ev.object.name);
    const failure = workload?.conditions.find((c) => c.type === 'ReplicaFailure' && c.status === 'True');
    if (failure !== undefined) evidence.push({ from: 'field', object: `${ev.object.kind}/${ev.object.name}`, namespace: ev.namespace, path: 'status.conditions[ReplicaFailure].message', value: failure.message });
    if (hard !== undefined) {
      for (const [resource, value] of Object.entries(hard.hard)) evidence.push({ from: 'field', object: `ResourceQuota/${hard.name}`, namespace: hard.namespace, path: `status.hard.${resource}`, value });
      for (const [resource, value] of Object.entries(hard.used)) evidence.push({ from: 'field', object: `ResourceQuota/${hard.name}`, namespace: hard.namespace, path: `status.used.${resource}`, value });
    }
    causes.push({
      certainty: 'stated',
      object: { kind: ev.object.kind, name: ev.object.name, namespace: ev.namespace },
      alike: [],
      at: ev.lastSeen,
      events: [ev.name],
      detail: { kind: 'create-refused', message, quota, hard: hard === undefined ? null : hard.hard },
      evidence,
    });
  }
  return causes;
}

export function progressDeadlineCauses(workloads: WorkloadFacts[]): Cause[] {
  return workloads.flatMap((w): Cause[] => {
    const c = w.conditions.find((c) => c.type === 'Progressing' && c.status === 'False' && c.reason === 'ProgressDeadlineExceeded');
    if (c === undefined) return [];
    const ref = `${w.kind}/${w.name}`;
    return [
      {
        certainty: 'stated',
        object: { kind: w.kind, name: w.name, namespace: w.namespace },
        alike: [],
        at: c.lastTransitionTime,
        events: [],
        detail: { kind: 'progress-deadline', message: c.message, deadlineSeconds: w.progressDeadlineSeconds ?? null },
        evidence: [
          { from: 'field', object: ref, namespace: w.namespace, path: 'status.conditions[Progressing].reason', value: c.reason },
          { from: 'field', object: ref, namespace: w.namespace, path: 'status.conditions[Progressing].message', value: c.message },
          ...(w.progressDeadlineSeconds === undefined || w.progressDeadlineSeconds === null ? [] : [{ from: 'field' as const, object: ref, namespace: w.namespace, path: 'spec.progressDeadlineSeconds', value: String(w.progressDeadlineSeconds) }]),
        ],
      },
    ];
  });
}

/** A Job that gave up: its Failed condition (or, status unread, its BackoffLimitExceeded event) with its Pods' exit codes. */
export function backoffLimitCauses(workloads: WorkloadFacts[], pods: PodFacts[], events: Event[]): Cause[] {
  const causes: Cause[] = [];
  const jobs = new Map<string, { job?: WorkloadFacts; event?: Event; namespace: string; name: string }>();
  for (const w of workloads) {
    if (w.kind === 'Job' && w.conditions.some((c) => c.type === 'Failed' && c.status === 'True' && c.reason === 'BackoffLimitExceeded')) jobs.set(`${w.namespace}/${w.name}`, { job: w, namespace: w.namespace, name: w.name });
  }
  for (let i = 0; i < events.length; i += 1) {
    const ev = events[i] as Event;
    if (ev.object.kind !== 'Job' || ev.reason !== 'BackoffLimitExceeded') continue;
    const key = `${ev.namespace}/${ev.object.name}`;
    jobs.set(key, { ...(jobs.get(key) ?? { namespace: ev.namespace, name: ev.object.name }), event: ev });
  }
  for (const { job, event, namespace, name } of jobs.values()) {
    const condition = job?.conditions.find((c) => c.type === 'Failed');
    const evidence: Evidence[] = [];
    const ref = `Job/${name}`;
    if (condition !== undefined) evidence.push({ from: 'field', object: ref, namespace, path: 'status.conditions[Failed].reason', value: condition.reason });
    if (job?.job !== undefined) {
      evidence.push({ from: 'field', object: ref, namespace, path: 'spec.backoffLimit', value: String(job.job.backoffLimit) });
      evidence.push({ from: 'field', object: ref, namespace, path: 'status.failed', value: String(job.job.failed) });
    }
    if (event !== undefined) evidence.push(eventEvidence(event));
    const exits = pods
      .filter((p) => p.namespace === namespace && p.owner === ref)
      .flatMap((p) =>
        p.containers.flatMap((c) => {
          const t = c.state?.state === 'terminated' ? c.state : c.lastState?.state === 'terminated' ? c.lastState : null;
          if (t === null) return [];
          evidence.push({ from: 'field', object: `Pod/${p.name}`, namespace, path: `status.containerStatuses[${c.name}].${t === c.state ? 'state' : 'lastState'}.terminated.exitCode`, value: String(t.exitCode) });
          return [{ pod: p.name, container: c.name, exitCode: t.exitCode, reason: t.reason }];
        }),
      );
    causes.push({
      certainty: 'stated',
      object: { kind: 'Job', name, namespace },
      alike: [],
      at: condition?.lastTransitionTime ?? event?.lastSeen ?? null,
      events: event === undefined ? [] : [event.name],
      detail: { kind: 'backoff-limit', backoffLimit: job?.job?.backoffLimit ?? null, failed: job?.job?.failed ?? 0, message: condition?.message ?? event?.message ?? '', exits },
      evidence,
    });
  }
  return causes;
}

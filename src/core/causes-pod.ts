// Causes read from a Pod's containers and the kubelet's events about them. Message formats are the
// kubelet's own, k8s.io/kubernetes v1.36.3:
//   Unhealthy  "%s probe failed: %s"                        pkg/kubelet/prober/prober.go:123
//   Killing    "Container %s failed liveness probe, will be restarted"  pkg/kubelet/kuberuntime/kuberuntime_manager.go:1345,1364
//   Failed     "Failed to pull image %q: %v"                pkg/kubelet/images/image_manager.go:362
//   Failed     "Error: %v" (CreateContainerConfigError)     pkg/kubelet/kuberuntime/kuberuntime_container.go:250
//   FailedMount "MountVolume.SetUp failed for volume %q : %v" pkg/volume/util/operationexecutor/operation_executor.go:306,524
//   missing objects: `configmap "x" not found` (watch_based_manager.go:336 with Resource("configmap"), configmap_manager.go:158),
//   `couldn't find key %v in ConfigMap %v/%v`                pkg/kubelet/kubelet_pods.go:895,922
import type { Event } from './event.ts';
import { keyedByRef } from './identity.ts';
import type { Cause, Evidence } from './cause-types.ts';
import { lastExit } from './facts.ts';
import type { ContainerFacts, PodFacts, ProbeFacts } from './facts.ts';

const IMAGE_REASONS = new Set(['ErrImagePull', 'ImagePullBackOff', 'InvalidImageName', 'ErrImageNeverPull', 'RegistryUnavailable', 'SignatureValidationFailed']);

const CONTAINER_PATHS = ['spec.containers{', 'spec.initContainers{', 'spec.ephemeralContainers{'];

/** The container an event's fieldPath names: `spec.containers{app}` (also initContainers, ephemeralContainers). */
export function containerOfEvent(ev: Event): string | null {
  // What /^spec\.(?:initC|ephemeralC|c)ontainers\{(.*)\}$/ captures, without a match array per
  // event: asked of each of a Pod's events, 20,000 of them made 3 MB.
  const path = ev.object.fieldPath;
  if (!path.endsWith('}')) return null;
  const prefix = CONTAINER_PATHS.find((p) => path.startsWith(p));
  if (prefix === undefined) return null;
  const name = path.slice(prefix.length, -1);
  // `.` matches no line terminator.
  return /[\n\r\u2028\u2029]/.test(name) ? null : name;
}

function statusField(c: ContainerFacts): string {
  return c.role === 'init' ? 'initContainerStatuses' : c.role === 'ephemeral' ? 'ephemeralContainerStatuses' : 'containerStatuses';
}

function specField(c: ContainerFacts): string {
  return c.role === 'init' ? 'initContainers' : c.role === 'ephemeral' ? 'ephemeralContainers' : 'containers';
}

const podRef = (pod: { name: string }): string => `Pod/${pod.name}`;

function field(pod: PodFacts, path: string, value: string | number | null): Evidence {
  return { from: 'field', object: podRef(pod), namespace: pod.namespace, path, value: value === null ? '' : String(value) };
}

function eventEvidence(ev: Event): Evidence {
  return { from: 'event', object: `${ev.object.kind}/${ev.object.name}`, namespace: ev.namespace, path: ev.name, value: `${ev.reason}: ${ev.message}` };
}

function base(pod: PodFacts, at: number | null): Pick<Cause, 'object' | 'alike' | 'at' | 'events'> {
  return { object: { kind: 'Pod', name: pod.name, namespace: pod.namespace }, alike: [], at, events: [] };
}

/** The events of one Pod, in the order given (see podEventIndex); the same array each time asked: not to be changed. */
export type PodEvents = (pod: { name: string; namespace: string; uid: string }) => Event[];

/**
 * Events about each Pod (by uid when both carry one, else by namespace and name), grouped once: the
 * causes ask for every Pod's events, and filtering all the events for each of 400 Pods was most of their cost.
 */
export function podEventIndex(events: Event[]): PodEvents {
  const byPod = new Map<string, Event[]>();
  // Index loops over the events here: a for-of makes an iterator result per event in code that runs once (0.8 MB a pass at 20,000 events).
  const keyOf = keyedByRef((o) => `${o.namespace}\u0000${o.name}`);
  for (let i = 0; i < events.length; i += 1) {
    const ev = events[i] as Event;
    if (ev.object.kind !== 'Pod') continue;
    const key = keyOf(ev.object);
    const mine = byPod.get(key);
    if (mine === undefined) byPod.set(key, [ev]);
    else mine.push(ev);
  }
  // Asked three times per Pod (its own causes, scheduling, a lost node): each Pod's events sorted out once.
  const mineOf = new Map<string, Event[]>();
  return (pod) => {
    const key = `${pod.namespace}\u0000${pod.name}\u0000${pod.uid}`;
    let mine = mineOf.get(key);
    if (mine === undefined) {
      const all = byPod.get(`${pod.namespace}\u0000${pod.name}`) ?? [];
      const ofPod = (ev: Event): boolean => ev.object.uid === '' || pod.uid === '' || ev.object.uid === pod.uid;
      // Most often all of them (one incarnation): the array itself, not a copy of it.
      mine = all.every(ofPod) ? all : all.filter(ofPod);
      mineOf.set(key, mine);
    }
    return mine;
  };
}

const SIGNALS: Record<number, string> = { 1: 'SIGHUP', 2: 'SIGINT', 6: 'SIGABRT', 9: 'SIGKILL', 11: 'SIGSEGV', 15: 'SIGTERM' };
export const signalName = (n: number): string => SIGNALS[n] ?? `signal ${n}`;

function probeOfKind(c: ContainerFacts, kind: string): ProbeFacts | undefined {
  return c.probes.find((p) => p.kind === kind);
}

/** Liveness, readiness and startup probe failures of one container, from its Unhealthy and Killing events. */
function probeCauses(pod: PodFacts | null, podName: { name: string; namespace: string }, container: string, c: ContainerFacts | null, events: Event[]): Cause[] {
  const causes: Cause[] = [];
  for (const kind of ['liveness', 'readiness', 'startup'] as const) {
    const label = `${kind[0]?.toUpperCase()}${kind.slice(1)} probe`;
    const failed = events.filter((ev) => ev.reason === 'Unhealthy' && ev.message.startsWith(`${label} failed`));
    if (failed.length === 0) continue;
    const killed = kind === 'readiness' ? [] : events.filter((ev) => ev.reason === 'Killing' && ev.message.includes(`failed ${kind} probe`));
    const failures = failed.reduce((n, ev) => n + ev.count, 0);
    const probe = c === null ? undefined : probeOfKind(c, kind);
    const threshold = probe?.failureThreshold ?? null;
    const restarts = c?.restartCount ?? 0;
    // The kubelet acts only after failureThreshold failures in a row (pkg/kubelet/prober/worker.go):
    // fewer, with no kill, is a container still starting.
    const expected = killed.length === 0 && threshold !== null && failures < threshold && (kind !== 'readiness' || c?.ready !== false || restarts === 0);
    const last = failed[failed.length - 1] as Event;
    const evidence: Evidence[] = [...failed, ...killed].map(eventEvidence);
    if (probe !== undefined && pod !== null && c !== null) {
      evidence.push(field(pod, `spec.${specField(c)}[${container}].${kind}Probe.failureThreshold`, probe.failureThreshold));
      if (kind !== 'readiness') evidence.push(field(pod, `status.${statusField(c)}[${container}].restartCount`, restarts));
      else if (c.ready !== null) evidence.push(field(pod, `status.${statusField(c)}[${container}].ready`, String(c.ready)));
    }
    // Below the threshold the kubelet has not acted: that is stated by the threshold itself.
    const stated = expected || killed.length > 0 || (kind === 'readiness' && c?.ready === false);
    causes.push({
      object: { kind: 'Pod', name: podName.name, namespace: podName.namespace },
      alike: [],
      at: Math.max(...[...failed, ...killed].map((ev) => ev.lastSeen ?? 0)) || null,
      events: [...failed, ...killed].map((ev) => ev.name),
      certainty: stated ? 'stated' : 'probably',
      detail: { kind: 'probe', container, probe: kind, failures, threshold, restarts, killed: killed.length > 0, expected, output: last.message.replace(/^[A-Za-z]+ probe failed: ?/, '') },
      evidence,
    });
  }
  return causes;
}

function missingConfig(message: string): { missing: 'configmap' | 'secret'; name: string; key: string | null } | null {
  const notFound = /\b(configmap|secret)s? "([^"]*)" not found/.exec(message);
  if (notFound !== null) return { missing: notFound[1] as 'configmap' | 'secret', name: notFound[2] ?? '', key: null };
  const noKey = /couldn't find key (.*) in (ConfigMap|Secret) [^/\s]*\/(\S*)/.exec(message);
  if (noKey !== null) return { missing: noKey[2] === 'Secret' ? 'secret' : 'configmap', name: noKey[3] ?? '', key: noKey[1] ?? '' };
  return null;
}

function containerCauses(pod: PodFacts, c: ContainerFacts, events: Event[]): Cause[] {
  const mine = events.filter((ev) => containerOfEvent(ev) === c.name);
  const sf = `status.${statusField(c)}[${c.name}]`;
  const causes: Cause[] = [];
  const waiting = c.state?.state === 'waiting' ? c.state : null;
  const latest = (reason: string, test: (ev: Event) => boolean = () => true) => mine.filter((ev) => ev.reason === reason && test(ev)).at(-1);
  if (waiting !== null && IMAGE_REASONS.has(waiting.reason)) {
    const pulled = latest('Failed', (ev) => ev.message.startsWith('Failed to pull image'));
    const evidence = [field(pod, `${sf}.state.waiting.reason`, waiting.reason), field(pod, `spec.${specField(c)}[${c.name}].image`, c.image)];
    if (waiting.message !== '') evidence.push(field(pod, `${sf}.state.waiting.message`, waiting.message));
    if (pulled !== undefined) evidence.push(eventEvidence(pulled));
    causes.push({ ...base(pod, pulled?.lastSeen ?? null), events: pulled === undefined ? [] : [pulled.name], certainty: 'stated', detail: { kind: 'image-pull', container: c.name, image: c.image, reason: waiting.reason, message: pulled?.message ?? waiting.message }, evidence });
  }
  if (waiting !== null && waiting.reason === 'CreateContainerConfigError') {
    const missing = missingConfig(waiting.message);
    const failedEv = latest('Failed', (ev) => ev.message.startsWith('Error: '));
    const evidence = [field(pod, `${sf}.state.waiting.reason`, waiting.reason), field(pod, `${sf}.state.waiting.message`, waiting.message)];
    if (failedEv !== undefined) evidence.push(eventEvidence(failedEv));
    if (missing !== null) causes.push({ ...base(pod, failedEv?.lastSeen ?? null), events: failedEv === undefined ? [] : [failedEv.name], certainty: 'stated', detail: { kind: 'missing-config', container: c.name, ...missing, message: waiting.message }, evidence });
  }
  const probes = probeCauses(pod, pod, c.name, c, mine);
  causes.push(...probes);
  const exit = lastExit(c);
  if (exit !== null) {
    const t = exit.state;
    const path = `${sf}.${exit.which}.terminated`;
    const backOff = mine.filter((ev) => ev.reason === 'BackOff' && ev.message.startsWith('Back-off restarting'));
    const at = t.finishedAt;
    if (t.reason === 'OOMKilled') {
      const limit = c.limits.memory ?? null;
      const evidence = [field(pod, `${path}.reason`, t.reason), field(pod, `${path}.exitCode`, t.exitCode), field(pod, `spec.${specField(c)}[${c.name}].resources.limits.memory`, limit), field(pod, `${sf}.restartCount`, c.restartCount), ...backOff.map(eventEvidence)];
      causes.push({ ...base(pod, at), events: backOff.map((ev) => ev.name), certainty: 'stated', detail: { kind: 'oom-killed', container: c.name, exitCode: t.exitCode, limit, restarts: c.restartCount, finishedAt: t.finishedAt }, evidence: limit === null ? evidence.filter((e) => !e.path.endsWith('limits.memory')) : evidence });
    } else if (t.exitCode !== null && t.exitCode !== 0) {
      // A container a failed probe had killed exits 137 or 143: the probe is the cause, said above.
      const probeKilled = probes.some((p) => p.detail.kind === 'probe' && p.detail.killed) && (t.exitCode === 137 || t.exitCode === 143);
      if (!probeKilled) {
        const evidence = [field(pod, `${path}.exitCode`, t.exitCode), field(pod, `${path}.reason`, t.reason), field(pod, `${sf}.restartCount`, c.restartCount)];
        if (t.signal !== null) evidence.push(field(pod, `${path}.signal`, t.signal));
        if (t.message !== '') evidence.push(field(pod, `${path}.message`, t.message));
        if (waiting?.reason === 'CrashLoopBackOff') evidence.push(field(pod, `${sf}.state.waiting.reason`, waiting.reason));
        evidence.push(...backOff.map(eventEvidence));
        const words = c.lastWords ?? [];
        if (words.length > 0) evidence.push({ from: 'log', object: podRef(pod), namespace: pod.namespace, path: `pods/log?container=${c.name}&previous=${exit.which === 'lastState'}`, value: words.join('\n') });
        causes.push({
          ...base(pod, at),
          events: backOff.map((ev) => ev.name),
          certainty: 'stated',
          detail: { kind: 'exits', container: c.name, exitCode: t.exitCode, signal: t.signal, signalFromCode: t.signal === null && t.exitCode > 128 && t.exitCode < 160 ? t.exitCode - 128 : null, reason: t.reason, message: t.message, restarts: c.restartCount, crashLoop: waiting?.reason === 'CrashLoopBackOff', lastWords: words },
          evidence,
        });
      }
    }
  }
  return causes;
}

/** Causes from a Pod's status and spec, joined with its events (`mine`: those about it, podEventIndex). */
export function podCauses(pod: PodFacts, mine: Event[]): Cause[] {
  const causes = pod.containers.flatMap((c) => containerCauses(pod, c, mine));
  // A volume's ConfigMap or Secret missing keeps every container from being created: no container status says so, only FailedMount.
  causes.push(...mountCauses(pod, mine));
  return causes;
}

function mountCauses(pod: { name: string; namespace: string }, events: Event[]): Cause[] {
  const mounts = events.filter((ev) => ev.reason === 'FailedMount');
  const seen = new Set<string>();
  const causes: Cause[] = [];
  for (const ev of mounts.reverse()) {
    const missing = missingConfig(ev.message);
    if (missing === null || seen.has(`${missing.missing}/${missing.name}`)) continue;
    seen.add(`${missing.missing}/${missing.name}`);
    const volume = /for volume "([^"]*)"/.exec(ev.message)?.[1] ?? '';
    causes.push({ object: { kind: 'Pod', ...pod }, alike: [], at: ev.lastSeen, events: [ev.name], certainty: 'stated', detail: { kind: 'missing-config', container: volume === '' ? '' : `volume ${volume}`, ...missing, message: ev.message }, evidence: [eventEvidence(ev)] });
  }
  return causes;
}

/** The reasons podEventCauses reads of a container's events: probeCauses' Unhealthy and Killing, and Failed (a pull, a config). */
const CONTAINER_EVENT_REASONS = new Set(['Unhealthy', 'Killing', 'Failed']);

/**
 * Causes from the kubelet's events alone, for a Pod whose status was not read (gone, or not
 * readable): what the events state is said; what only the status could tell (OOMKilled, exit codes) is not guessed.
 */
export function podEventCauses(pod: { name: string; namespace: string; uid: string }, mine: Event[]): Cause[] {
  const causes: Cause[] = [];
  const byContainer = new Map<string, Event[]>();
  for (let i = 0; i < mine.length; i += 1) {
    const ev = mine[i] as Event;
    const c = containerOfEvent(ev);
    if (c === null) continue;
    // Pushed, not copied: a Pod with hundreds of events made a new array per event (12 MiB at 20,000 events).
    let evs = byContainer.get(c);
    // Every container in the order its events name it, but only the events read below: each is
    // filtered up to seven times, and a busy Pod's Pulled, Started, BackOff... are most of them.
    if (evs === undefined) byContainer.set(c, (evs = []));
    if (CONTAINER_EVENT_REASONS.has(ev.reason)) evs.push(ev);
  }
  for (const [container, evs] of byContainer) {
    causes.push(...probeCauses(null, pod, container, null, evs));
    const pulled = evs.filter((ev) => ev.reason === 'Failed' && ev.message.startsWith('Failed to pull image')).at(-1);
    if (pulled !== undefined) {
      const image = /^Failed to pull image "((?:[^"\\]|\\.)*)"/.exec(pulled.message)?.[1] ?? '';
      causes.push({ object: { kind: 'Pod', name: pod.name, namespace: pod.namespace }, alike: [], at: pulled.lastSeen, events: [pulled.name], certainty: 'stated', detail: { kind: 'image-pull', container, image, reason: 'ErrImagePull', message: pulled.message }, evidence: [eventEvidence(pulled)] });
    }
    const config = evs.filter((ev) => ev.reason === 'Failed' && ev.message.startsWith('Error: ') && missingConfig(ev.message) !== null).at(-1);
    if (config !== undefined) {
      const missing = missingConfig(config.message);
      if (missing !== null) causes.push({ object: { kind: 'Pod', name: pod.name, namespace: pod.namespace }, alike: [], at: config.lastSeen, events: [config.name], certainty: 'stated', detail: { kind: 'missing-config', container, ...missing, message: config.message }, evidence: [eventEvidence(config)] });
    }
  }
  causes.push(...mountCauses(pod, mine));
  return causes;
}

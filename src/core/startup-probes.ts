// A start-up probe's Unhealthy below its failure threshold: the noise of a container that is slow to
// start, not a failure. The threshold (spec.containers[].startupProbe.failureThreshold) is not in
// the event, and a saved file has no Pod spec; what the events do say is whether the threshold was
// reached: the kubelet then kills the container and says why in a Killing event about the same
// container. So an Unhealthy is "below threshold" while no such Killing is among the events read.
//
// The kubelet's words (kubernetes v1.36.3):
//   pkg/kubelet/prober/prober.go:107,123   Unhealthy: "%s probe errored and resulted in %s state: %s",
//                                          "%s probe failed: %s", where %s is "Startup" (prober_manager.go:169)
//   pkg/kubelet/kuberuntime/kuberuntime_manager.go:1349   "Container %s failed startup probe" (+ ", will be restarted"),
//                                          the message of its Killing event (events.KillingContainer)
// Both name the container in involvedObject.fieldPath (`spec.containers{NAME}`).
import type { Event } from './event.ts';
import { eventIdentity } from './identity.ts';
import { SaidKeys } from './said-keys.ts';

const STARTUP_UNHEALTHY = /^Startup probe (failed|errored)/;
const KILLED_FOR_STARTUP = / failed startup probe/;

/** The container an event is about: its object and fieldPath (uid when known, else namespace/kind/name). */
function containerKey(ev: Event): string {
  const o = ev.object;
  const object = o.uid !== '' ? o.uid : `${o.namespace}\u0000${o.kind}\u0000${o.name}`;
  return `${object}\u0000${o.fieldPath}`;
}

/** A Killing event's identity; one with neither uid nor name stands for its container, never let go. */
function killingId(ev: Event): string {
  return eventIdentity(ev) || `container:${containerKey(ev)}`;
}

function isStartupUnhealthy(ev: Event): boolean {
  return ev.reason === 'Unhealthy' && STARTUP_UNHEALTHY.test(ev.message);
}

function isStartupKilling(ev: Event): boolean {
  return ev.reason === 'Killing' && KILLED_FOR_STARTUP.test(ev.message);
}

/**
 * Which containers the kubelet killed for failing their start-up probe, learnt from the events as
 * they come (all at once for a list, one by one under -w: an Unhealthy shown before its Killing
 * arrived was below the threshold when it was shown).
 */
export class StartupProbeEvidence {
  /** per Killing event held (identity) the container it names: -w and record run for days, so a
   * container is let go once the server deleted its Killing events, as a list would no longer see them */
  private readonly killed = new SaidKeys();

  learn(events: Iterable<Event>): this {
    for (const ev of events) if (isStartupKilling(ev)) this.killed.say(killingId(ev), containerKey(ev));
    return this;
  }

  /** Events the server deleted: a container none of whose Killing events is held any more is let go. */
  forget(events: Iterable<Event>): void {
    for (const ev of events) if (isStartupKilling(ev)) this.killed.forget(killingId(ev));
  }

  /** How many containers a held Killing event names. */
  get size(): number {
    return this.killed.size;
  }

  /** A start-up probe's Unhealthy about a container never killed for it. */
  belowThreshold = (ev: Event): boolean => isStartupUnhealthy(ev) && !this.killed.has(containerKey(ev));
}

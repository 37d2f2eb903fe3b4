// The incident over several contexts read together (--context a,b, --contexts, --all-contexts):
// which clusters share a story, and where each cluster stands. A story is shared when its events
// fall in one group of siblings (src/core/grouping.ts: type, reason, kind, name template, message
// template) and come from more than one context. Pure data; epoch ms; no English.
import type { Event } from './event.ts';
import type { EventGroup } from './grouping.ts';
import type { FleetMember, Unanswered } from './source.ts';

/** One context's standing: whether it answered, how many events it holds and how far back they go. */
export interface ClusterStanding {
  context: string;
  server: string;
  /** null: all namespaces */
  namespace: string | null;
  /** why it did not answer (its error's one line); absent when it answered */
  unanswered?: string;
  /** its events in the account (after --for and the other criteria) */
  events: number;
  /** epoch ms of its oldest first seen: how far back what it still holds goes; null with no events */
  oldest: number | null;
  /** the TTL assumed for its API server (--event-ttl; the API does not tell a server's own) */
  eventTTLms: number;
}

/** A story told in more than one cluster: `FailedScheduling on Pod/web-<hash>-<id>: in 3 of 5 clusters`. */
interface SharedStory {
  group: EventGroup;
  /** the contexts it was told in, in the order the contexts were asked for */
  clusters: string[];
}

export interface FleetAccount {
  /** in the order the contexts were asked for */
  standing: ClusterStanding[];
  /** contexts that answered: what "in 3 of N clusters" counts */
  answered: number;
  /** stories of more than one cluster, the account's order of groups (Warnings first, then the latest) */
  shared: SharedStory[];
}

export function fleetAccount(members: FleetMember[], unanswered: Unanswered[], events: Event[], groups: EventGroup[], eventTTLms: number): FleetAccount {
  const missing = new Map(unanswered.map((u) => [u.context, u.reason]));
  const counts = new Map<string, { events: number; oldest: number | null }>();
  for (const ev of events) {
    const context = ev.cluster?.context;
    if (context === undefined) continue;
    const held = counts.get(context) ?? { events: 0, oldest: null };
    held.events++;
    if (ev.firstSeen !== null && (held.oldest === null || ev.firstSeen < held.oldest)) held.oldest = ev.firstSeen;
    counts.set(context, held);
  }
  const standing = members.map((m): ClusterStanding => {
    const reason = missing.get(m.context);
    const held = counts.get(m.context) ?? { events: 0, oldest: null };
    return { context: m.context, server: m.server, namespace: m.namespace, ...(reason === undefined ? {} : { unanswered: reason }), ...held, eventTTLms };
  });
  const order = new Map(members.map((m, i) => [m.context, i]));
  const shared = groups.flatMap((group): SharedStory[] => {
    const clusters = [...(group.clusters ?? [])].sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
    return clusters.length > 1 ? [{ group, clusters }] : [];
  });
  return { standing, answered: standing.filter((s) => s.unanswered === undefined).length, shared };
}

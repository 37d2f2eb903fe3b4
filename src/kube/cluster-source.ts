// The live cluster as an EventSource (src/core/source.ts).
import { eventCompactor } from '../core/compact.ts';
import { normaliseClusterEvent, normaliseEvent } from '../core/event.ts';
import { isObject } from '../core/json.ts';
import { LIVE_CLUSTER_TELLS } from '../core/source.ts';
import type { EventSource, ReadOptions, SourceRead } from '../core/source.ts';
import type { ObjectRef } from '../core/event.ts';
import { listEvents } from './events-api.ts';
import { ApiError, targetGetter } from './http.ts';
import { serverDiscovery } from './discovery.ts';
import type { KubeTarget } from './kubeconfig.ts';
import { lookUpObjects } from './objects.ts';
import { answerFromListing } from './tree-lookups.ts';
import type { OwnershipListing } from './tree-lookups.ts';
import { followEvents } from './watch.ts';
import { followObject, listOwned } from './object-follow.ts';
import { readFacts, startFacts } from './facts.ts';
import type { StartedFacts } from './facts.ts';
import { listOwnership } from './tree-listing.ts';
import type { UnlistedResource } from './tree-listing.ts';

interface ClusterScope {
  /** null = all namespaces */
  namespace: string | null;
  timeoutMs: number;
  /** told once per ownership() the resources it had to leave out (not allowed to list, no longer served) */
  onUnlisted?: (unlisted: UnlistedResource[]) => void;
}

/** A view the server refused (403) or does not serve (404, a cluster older than 1.19): why, in its words. */
function unreadView(error: unknown): { unread: string } {
  if (error instanceof ApiError && (error.code === 403 || error.code === 404)) return { unread: error.message };
  throw error;
}

export function clusterSource(target: KubeTarget, scope: ClusterScope): EventSource {
  const { namespace, timeoutMs } = scope;
  // One discovery for the run: --for, --tree's lists and the lookups (a recorder's owners, batch
  // after batch, -w --tree) share what the server answered, each group/version asked once.
  const discovery = serverDiscovery(targetGetter(target, timeoutMs));
  let gaps: UnlistedResource[] = [];
  let listing: OwnershipListing | undefined;
  /** The facts begun beside the events: their full list of the namespace's Pods answers the first lookups too. */
  let started: StartedFacts | undefined;
  const lookUp = async (refs: ObjectRef[]) => {
    const get = targetGetter(target, timeoutMs);
    // Once: a later batch (a watch's) must not be answered from a list read before it.
    const early = started;
    started = undefined;
    if (early === undefined) return lookUpObjects(get, refs, undefined, discovery);
    // Only the namespace's Pods wait for the early list (the largest read of all); the rest are looked up at once, beside it.
    const waits = (ref: ObjectRef) => ref.kind === 'Pod' && ref.apiVersion === 'v1' && ref.namespace === namespace;
    const [pods, rest] = await Promise.all([
      early.listedPods().then((listed) => lookUpObjects(get, refs.filter(waits), undefined, discovery, listed === null ? new Map() : new Map([[listed.path, listed.metadata]]))),
      lookUpObjects(get, refs.filter((ref) => !waits(ref)), undefined, discovery),
    ]);
    return new Map([...pods, ...rest]);
  };
  return {
    provenance: { kind: 'cluster', context: target.context, server: target.server, namespace, tells: LIVE_CLUSTER_TELLS },
    async read(opts: ReadOptions = {}): Promise<SourceRead> {
      const list = { timeoutMs, onPage: opts.progress, ...(opts.fieldSelector === undefined ? {} : { fieldSelector: opts.fieldSelector }) };
      const { cluster } = opts;
      const normalise = cluster === undefined ? normaliseEvent : (item: unknown) => normaliseClusterEvent(item, cluster);
      if (!opts.raw) {
        // Each page normalised as it arrives, its raw objects (managedFields is most of them) let
        // go before the next: a 20,000-event read keeps 20,000 small values, not 40 pages of JSON.
        const compact = eventCompactor();
        return { events: (await listEvents(target, 'core', namespace, { ...list, keep: (item) => compact(normalise(item)) })).items };
      }
      // core/v1 already returns events written through events.k8s.io/v1: one store, so one read;
      // the events.k8s.io/v1 view is read only for those who keep the raw objects (capture).
      // Rights to core events only (a Role on `events` of the "" group) are enough for every other
      // report: a refused or unserved events.k8s.io/v1 view is said, not fatal.
      const [core, eventsK8sIo] = await Promise.all([
        listEvents(target, 'core', namespace, list),
        opts.eventsK8sIo ? listEvents(target, 'events.k8s.io', namespace, list).catch(unreadView) : undefined,
      ]);
      const unread = eventsK8sIo !== undefined && 'unread' in eventsK8sIo ? { eventsK8sIoUnread: eventsK8sIo.unread } : {};
      const newView = eventsK8sIo !== undefined && 'items' in eventsK8sIo ? eventsK8sIo.items : null;
      return { events: core.items.map((item) => normalise(item)), raw: { core: core.items, eventsK8sIo: newView, ...unread } };
    },
    // One version each: the API server keeps only an event's latest.
    async versions() {
      const core = await listEvents(target, 'core', namespace, { timeoutMs });
      return core.items.filter(isObject).map((event) => ({ event, observedAt: null }));
    },
    objects: {
      async lookUp(refs, opts = {}) {
        if (!opts.fromOwnership || listing === undefined) return lookUp(refs);
        const { found, rest } = answerFromListing(refs, listing, await discovery.served());
        if (rest.length > 0) for (const [key, answer] of await lookUp(rest)) found.set(key, answer);
        return found;
      },
    },
    facts: (events, now) => readFacts(target, events, now, { timeoutMs }),
    startFacts: () => (started = startFacts(target, namespace, { timeoutMs })),
    discovery,
    async ownership(ns) {
      const read = await listOwnership(targetGetter(target, timeoutMs), await discovery.served(), ns);
      const { objects, unlisted } = read;
      listing = { ...read, namespace: ns };
      gaps = unlisted;
      if (unlisted.length > 0) scope.onUnlisted?.(unlisted);
      return objects;
    },
    ownershipGaps: () => gaps.map(({ group, kind }) => ({ group, kind })),
    follow: (opts) => followEvents(target, { ...opts, namespace, requestTimeoutMs: timeoutMs }),
    followObject: (object, opts) => followObject(target, object, opts, timeoutMs),
    ownedBy: (of, ns, ownerUid) => listOwned(target, of, ns, ownerUid, timeoutMs),
  };
}

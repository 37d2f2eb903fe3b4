// Several kubeconfig contexts read as one source (--context a,b, --contexts REGEX, --all-contexts):
// each context's own source is read at the same time as the others, at most FLEET_READS_AT_ONCE
// at a time, and their events handed back as one list labelled with where each came from. A context
// that does not answer (down, refused, timed out after its own --request-timeout) is left out and
// named; only when none answers is the read an error, the first context's.
import { mapBounded } from './bounded.ts';
import { followMerged } from './fleet-follow.ts';
import type { FollowedMember } from './fleet-follow.ts';
import type { Event, EventCluster } from './event.ts';
import type { ServedResource } from './resources.ts';
import { LIVE_CLUSTER_TELLS } from './source.ts';
import type { EventSource, FleetMember, ReadOptions, SourceRead, Unanswered } from './source.ts';

/**
 * How many contexts are read at once. Each read is one paged LIST to its own API server, so the
 * wait is the network's and the servers': ten contexts at once cost about the slowest one. The bound
 * keeps --all-contexts over a kubeconfig of hundreds from opening hundreds of connections.
 */
export const FLEET_READS_AT_ONCE = 16;

/** A context to read: its source, or why it could not even be opened (its kubeconfig entry, its credentials). */
export type FleetEntry = FleetMember & ({ source: EventSource } | { unopened: unknown });

function reasonOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0] ?? '';
}

/** The contexts whose read failed, each with the first line of why. */
function unansweredOf(answers: { entry: FleetMember; error?: unknown }[]): Unanswered[] {
  return answers.flatMap((a) => ('error' in a ? [{ context: a.entry.context, server: a.entry.server, reason: reasonOf(a.error) }] : []));
}

/** The namespace the fleet reads: one when every context reads the same, else null (the table then shows NAMESPACE). */
function sharedNamespace(members: FleetMember[]): string | null {
  const namespaces = new Set(members.map((m) => m.namespace));
  return namespaces.size === 1 ? ([...namespaces][0] ?? null) : null;
}

/** Union of what each answering context serves: a Kind one cluster serves resolves --for even where another does not. */
async function servedByAny(entries: FleetEntry[]): Promise<ServedResource[]> {
  const answers = await mapBounded(entries, FLEET_READS_AT_ONCE, async (entry) => {
    if (!('source' in entry) || entry.source.discovery === undefined) return { error: 'unopened' in entry ? entry.unopened : new Error('no discovery') };
    try {
      return { served: await entry.source.discovery.served() };
    } catch (error) {
      return { error };
    }
  });
  const served: ServedResource[][] = answers.flatMap((a) => ('served' in a && a.served !== undefined ? [a.served] : []));
  if (served.length === 0) throw answers.map((a) => ('error' in a ? a.error : undefined)).find((e) => e !== undefined);
  const seen = new Set<string>();
  return served.flat().filter((r) => {
    const key = `${r.group}/${r.version}/${r.resource}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function fleetSource(entries: FleetEntry[]): EventSource {
  const members: FleetMember[] = entries.map(({ context, server, namespace }) => ({ context, server, namespace }));
  let served: Promise<ServedResource[]> | undefined;
  return {
    provenance: {
      kind: 'cluster',
      context: members.map((m) => m.context).join(','),
      server: [...new Set(members.map((m) => m.server))].join(','),
      namespace: sharedNamespace(members),
      tells: LIVE_CLUSTER_TELLS,
      clusters: members,
    },
    async read(opts: ReadOptions = {}): Promise<SourceRead> {
      const counts = entries.map(() => 0);
      const answers = await mapBounded(entries, FLEET_READS_AT_ONCE, async (entry) => {
        if (!('source' in entry)) return { entry, error: entry.unopened };
        const at = entries.indexOf(entry);
        const progress = opts.progress;
        const each: ReadOptions = {
          ...opts,
          cluster: { context: entry.context, server: entry.server },
          ...(progress === undefined
            ? {}
            : {
                progress: (n: number) => {
                  counts[at] = n;
                  progress(counts.reduce((a, b) => a + b, 0));
                },
              }),
        };
        try {
          return { entry, read: await entry.source.read(each) };
        } catch (error) {
          return { entry, error };
        }
      });
      const read = answers.flatMap((a) => ('read' in a && a.read !== undefined ? [{ entry: a.entry, read: a.read }] : []));
      if (read.length === 0) throw answers[0]?.error ?? new Error('no context to read');
      const unanswered = unansweredOf(answers);
      // A live source labelled its events as it made them (ReadOptions.cluster); any other is
      // labelled in place: each read made its events for this run alone (a copy each would hold
      // 20,000 events twice at the peak, measured by npm run bench:fleet).
      for (const { entry, read: one } of read) {
        const cluster: EventCluster = { context: entry.context, server: entry.server };
        for (const ev of one.events) ev.cluster ??= cluster;
      }
      // One array of the exact length: pushed one by one it grew by copies, each left for the GC.
      const events: Event[] = ([] as Event[]).concat(...read.map((r) => r.read.events));
      const raws = read.map((r) => r.read.raw);
      const raw =
        opts.raw === true && raws.every((r) => r !== undefined && r !== null)
          ? {
              raw: {
                core: raws.flatMap((r) => r?.core ?? []),
                eventsK8sIo: raws.every((r) => r?.eventsK8sIo !== null) ? raws.flatMap((r) => r?.eventsK8sIo ?? []) : null,
                // Which context each object came from: a capture keeps it beside them (capture.ts).
                coreContexts: read.flatMap((r) => (r.read.raw?.core ?? []).map(() => r.entry.context)),
                eventsK8sIoContexts: read.flatMap((r) => (r.read.raw?.eventsK8sIo ?? []).map(() => r.entry.context)),
              },
            }
          : {};
      return { events, ...raw, ...(unanswered.length > 0 ? { unanswered } : {}) };
    },
    async versions(opts = {}) {
      const answers = await mapBounded(entries, FLEET_READS_AT_ONCE, async (entry) => {
        if (!('source' in entry)) return { entry, error: entry.unopened };
        const cluster: EventCluster = { context: entry.context, server: entry.server };
        try {
          return { entry, versions: ((await entry.source.versions()) ?? []).map((version) => ({ ...version, cluster })) };
        } catch (error) {
          return { entry, error };
        }
      });
      const answered = answers.flatMap((a) => ('versions' in a && a.versions !== undefined ? [a.versions] : []));
      if (answered.length === 0) throw answers[0]?.error ?? new Error('no context to read');
      const unanswered = unansweredOf(answers);
      if (unanswered.length > 0) opts.unanswered?.(unanswered);
      return answered.flat();
    },
    // Which incarnation an event is about is asked of its own cluster; a reference names no cluster,
    // so a fleet's events go without the (gone)/(previous) marks rather than be looked up in the wrong one.
    objects: null,
    discovery: { served: () => (served ??= servedByAny(entries)) },
    members: entries.flatMap((entry) => ('source' in entry ? [{ context: entry.context, source: entry.source }] : [])),
    follow(opts) {
      const gaveUp = opts.gaveUp ?? (() => {});
      const followed: FollowedMember[] = [];
      for (const entry of entries) {
        const { context, server, namespace } = entry;
        const follow = 'source' in entry ? entry.source.follow?.bind(entry.source) : undefined;
        if (follow !== undefined) followed.push({ context, server, namespace, follow });
        else if (entries.length > 1) gaveUp({ context, server, reason: reasonOf('unopened' in entry ? entry.unopened : 'it cannot be followed') });
      }
      if (followed.length === 0) {
        const first = entries[0];
        throw first !== undefined && 'unopened' in first ? first.unopened : new Error('no context to follow');
      }
      return followMerged(followed, opts, gaveUp);
    },
  };
}

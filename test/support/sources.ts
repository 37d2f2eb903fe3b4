import type { ServedResource } from '../../src/core/resources.ts';
// The EventSource port's doubles for unit tests: provenance builders and an in-memory source.
// A port double hands a verb events as an adapter would; it is never a fake API server.
import type { Deps, SourceRequest } from '../../src/deps.ts';
import { normaliseEvent } from '../../src/core/event.ts';
import type { Event, ObjectRef } from '../../src/core/event.ts';
import type { Json } from '../../src/core/json.ts';
import { objectKey } from '../../src/core/identity.ts';
import type { ObjectLookup } from '../../src/core/incarnation.ts';
import type { ObjectMeta } from '../../src/core/ownership.ts';
import { EVENT_OBJECTS_TELL, LIVE_CLUSTER_TELLS, STABLE_TABLE_TELLS } from '../../src/core/source.ts';
import type {
  CaptureProvenance,
  ClusterProvenance,
  EventSource,
  EventVersion,
  FollowOptions,
  FollowStep,
  ReadOptions,
  Provenance,
  ListProvenance,
  RecordProvenance,
  StableTableProvenance,
} from '../../src/core/source.ts';

const WHERE = { namespace: 'op-events', context: 'lab', server: 'https://127.0.0.1:6443' };

export function fromCluster(o: Partial<ClusterProvenance> = {}): ClusterProvenance {
  return { kind: 'cluster', ...WHERE, tells: LIVE_CLUSTER_TELLS, ...o };
}

export function fromCapture(o: Partial<CaptureProvenance> = {}): CaptureProvenance {
  return { kind: 'capture', ...WHERE, capturedAt: null, tells: EVENT_OBJECTS_TELL, ...o };
}

export function fromList(o: Partial<ListProvenance> = {}): ListProvenance {
  return { kind: 'list', namespace: null, context: '', server: '', tells: EVENT_OBJECTS_TELL, ...o };
}

export function fromRecord(o: Partial<RecordProvenance> = {}): RecordProvenance {
  return { kind: 'record', ...WHERE, firstObserved: null, lastObserved: null, tells: EVENT_OBJECTS_TELL, ...o };
}

export function fromStableTable(o: Partial<StableTableProvenance> = {}): StableTableProvenance {
  return { kind: 'stable-table', namespace: null, context: '', server: '', tells: STABLE_TABLE_TELLS, ...o };
}

/** Lookups keyed as the port answers them, from [ref, answer] pairs. */
export function lookupsOf(pairs: [ObjectRef, ObjectLookup][]): Map<string, ObjectLookup> {
  return new Map(pairs.map(([ref, answer]) => [objectKey(ref), answer]));
}

/** An in-memory EventSource: raw event objects (or a stable table's events) and, for a live one, object lookups. */
export function memorySource(o: {
  provenance: Provenance;
  /** raw core/v1 objects, normalised as an adapter would */
  raw?: unknown[];
  /** the events.k8s.io/v1 view, where the input has one */
  eventsK8sIo?: unknown[] | null;
  /** every version the input holds (a record's observations); absent: one unobserved version per raw object */
  versions?: EventVersion[];
  /** events with no raw objects behind them (a stable table) */
  events?: Event[];
  /** answers of the live cluster's objects; absent: a saved input, with nothing live to ask */
  lookups?: ReadonlyMap<string, ObjectLookup>;
  /** what following the source yields, in order, before it ends as if stopped; absent: it cannot be followed */
  steps?: Iterable<FollowStep> | AsyncIterable<FollowStep>;
  /** what the live server serves (its discovery); absent: a saved input, no discovery */
  served?: ServedResource[];
  /** what ownership() answers (objects and owners); absent: the source has no ownership() */
  ownership?: ObjectMeta[] | null;
}): EventSource & { looked: ObjectRef[][]; followed: FollowOptions[]; reads: ReadOptions[] } {
  const looked: ObjectRef[][] = [];
  const reads: ReadOptions[] = [];
  const followed: FollowOptions[] = [];
  const steps = o.steps;
  const raw = o.raw === undefined ? null : { core: o.raw, eventsK8sIo: o.eventsK8sIo ?? null };
  const events = o.events ?? (o.raw ?? []).map(normaliseEvent);
  const lookups = o.lookups;
  return {
    provenance: o.provenance,
    looked,
    followed,
    reads,
    ...(steps === undefined
      ? {}
      : {
          follow: async function* (opts: FollowOptions) {
            followed.push(opts);
            yield* steps;
          },
        }),
    ...(o.served === undefined ? {} : { discovery: { served: async () => o.served ?? [] } }),
    ...(o.ownership === undefined ? {} : { ownership: async (namespace: string) => o.ownership?.filter((m) => m.namespace === namespace) ?? null }),
    read: async (opts = {}) => {
      reads.push(opts);
      opts.progress?.(events.length); // one page
      return opts.raw ? { events, raw } : { events };
    },
    versions: async () => o.versions ?? (o.raw === undefined ? null : (o.raw as Json[]).map((event) => ({ event, observedAt: null }))),
    objects:
      lookups === undefined
        ? null
        : {
            lookUp: async (refs) => {
              looked.push(refs);
              return new Map(refs.flatMap((ref) => (lookups.has(objectKey(ref)) ? [[objectKey(ref), lookups.get(objectKey(ref)) as ObjectLookup]] : [])));
            },
          },
  };
}

/** Deps.openSource over in-memory sources: `saved` for --from, `live` for the cluster; every request is kept. */
export function openSources(o: { saved?: EventSource; live?: EventSource }): { open: Deps['openSource']; requests: SourceRequest[] } {
  const requests: SourceRequest[] = [];
  const open: Deps['openSource'] = async (request) => {
    requests.push(request);
    const source = request.kind === 'file' ? o.saved : o.live;
    if (source === undefined) throw new Error(`no ${request.kind} source in this test`);
    return source;
  };
  return { open, requests };
}

// The EventSource port's doubles for unit tests: provenance builders and an in-memory source.
// A port double hands a verb events as an adapter would; it is never a fake API server.
import type { Event, ObjectRef } from '../../src/core/event.ts';
import { objectKey } from '../../src/core/incarnation.ts';
import type { ObjectLookup } from '../../src/core/incarnation.ts';
import { EVENT_OBJECTS_TELL, LIVE_CLUSTER_TELLS, STABLE_TABLE_TELLS } from '../../src/core/source.ts';
import type {
  CaptureProvenance,
  ClusterProvenance,
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

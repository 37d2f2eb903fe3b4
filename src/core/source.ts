// The EventSource port: where a verb's events come from. Verbs receive a source (Deps.openSource),
// never build one; adapters implement it: the live cluster (src/kube/cluster-source.ts), saved files
// (src/io/file-source.ts: a capture, a list, a record, a stable table), and unit tests' in-memory
// doubles (test/support/sources.ts).
//
// A source hands back normalised events and, for those who keep them (capture), the raw objects as
// read. Its provenance says what it is and what it can tell; verbs ask the provenance ("does it
// carry uids?", "what window does it cover?"), never a file name or a format string.
//
// Adding a kind of input (say OTLP logs): add a variant to Provenance with what only it knows,
// give it a `tells` that is true only for what its records really hold, write the adapter in
// src/io or src/kube, and open it in src/system.ts. Core and render switch on `kind` where the
// wording or the wire shape differs; the compiler lists every switch that misses the new kind.

import type { Event, EventCluster, ObjectRef } from './event.ts';
import type { FactSet } from './facts.ts';
import type { WatchNotice } from './notices.ts';
import type { ObjectLookup } from './incarnation.ts';
import type { Json } from './json.ts';
import type { ObjectMeta } from './ownership.ts';
import type { ServedResource } from './resources.ts';
import type { RetryPolicy } from './retry.ts';
import type { Unanswered } from './unanswered.ts';

export type { Unanswered };

/** What an input can tell at all. A field it cannot tell is never guessed: the account says so. */
export interface Tells {
  /** first and last seen times */
  times: boolean;
  /** occurrence counts */
  counts: boolean;
  /** who reported each event (reportingController, source.component) */
  reporters: boolean;
  messages: boolean;
  /** the Event's and its object's metadata.uid: identity, incarnations, --compare */
  uids: boolean;
  /** whether each object's owners can be read (ownerReferences of the live objects) */
  ownership: boolean;
}

/** Event objects as the API server wrote them: every field but the objects' owners. */
export const EVENT_OBJECTS_TELL: Tells = { times: true, counts: true, reporters: true, messages: true, uids: true, ownership: false };

/** A live cluster: its events, and its objects for lookups (incarnations, owners). */
export const LIVE_CLUSTER_TELLS: Tells = { ...EVENT_OBJECTS_TELL, ownership: true };

/** `<type> <reason> <Kind>/<name>` a line: nothing else. */
export const STABLE_TABLE_TELLS: Tells = { times: false, counts: false, reporters: false, messages: false, uids: false, ownership: false };

/** What every kind of input states. */
interface Common {
  /** the namespace read, or the one a file was taken from (or narrowed to with -n); null: all namespaces, or the file does not say */
  namespace: string | null;
  /** the kubeconfig context and the API server's URL the events came from; '' when the input does not say */
  context: string;
  server: string;
  tells: Tells;
  /** saved objects (a capture's objects.json, a record's object lines) refused as no API server could have written them: why, one each */
  refusedObjects?: string[];
}

/** The live API server, read now. */
export interface ClusterProvenance extends Common {
  kind: 'cluster';
  /** several contexts read as one (core/fleet.ts): each, in the order asked; absent for one context */
  clusters?: FleetMember[];
}

/** One context of several read together, and the namespace read in it (null: all). */
export interface FleetMember {
  context: string;
  server: string;
  namespace: string | null;
}


/** A capture's events.json: both API views, taken at one moment. */
export interface CaptureProvenance extends Common {
  kind: 'capture';
  /** epoch ms the capture was taken; null when the file does not say */
  capturedAt: number | null;
  /** several contexts captured together (capture --context a,b): each */
  clusters?: FleetMember[];
}

/** `kubectl get events -o json`, a bare array or one Event: no time, server or context of its own. */
export interface ListProvenance extends Common {
  kind: 'list';
}

/** A record's JSON Lines: every version its recorder observed. */
export interface RecordProvenance extends Common {
  kind: 'record';
  /** epoch ms of the first and last observation; null when the record holds none */
  firstObserved: number | null;
  lastObserved: number | null;
  /** every API server its sessions name, when more than one: a record that spans clusters */
  servers?: string[];
  /** torn fragments skipped before its last line (a writer stopped mid-line), when there were any */
  tornLines?: number;
  /** several contexts recorded together (record --context a,b): each, as its headers name them */
  clusters?: FleetMember[];
}

/** A saved `-o stable` table: types, reasons and objects only. */
export interface StableTableProvenance extends Common {
  kind: 'stable-table';
}

/**
 * An OpenTelemetry Collector's file of OTLP logs (src/otlp/collector-file.ts): the events the writers in it
 * (our export, the k8sobjects or k8s_events receivers) carried, latest version each.
 */
export interface OtlpProvenance extends Common {
  kind: 'otlp';
  /** who wrote its events: our export, or the contrib k8sobjects or k8s_events receivers (each keeps less) */
  writers: OtlpWriter[];
  /** log records in the file that are not events */
  skipped: number;
  /** log records that could not be read at all (a time past 64 bits, values nested too deep): how many, and the first's line and why */
  unreadable: UnreadableRecords | null;
  /** epoch ms of the first and last observation (observedTimeUnixNano); null when no record says */
  firstObserved: number | null;
  lastObserved: number | null;
  /**
   * the clusters its resources name (k8s.cluster.name, as our export of several contexts writes it),
   * each as a context with no server, in the order first named; absent when none is named
   */
  clusters?: FleetMember[];
}

export interface UnreadableRecords {
  count: number;
  /** 1-based line of the first */
  line: number;
  why: string;
}

/** Who wrote Kubernetes events into a collector: our export, or one of the contrib receivers. */
export type OtlpWriter = 'evtimeline' | 'k8sobjects' | 'k8s_events';

/** What each writer leaves out (field names as in the Event API), for the provenance of --from. */
export const MISSING_BY_WRITER: Record<OtlpWriter, string[]> = {
  evtimeline: [],
  k8sobjects: [],
  k8s_events: [
    'series',
    'reportingController',
    'reportingInstance',
    'source.component',
    'firstTimestamp',
    'metadata.resourceVersion',
    // k8s.namespace.name is the involved object's: '' for a Node, whose events live in default or kube-system (validation/events.go).
    'the namespace of events about cluster-scoped objects',
    'types other than Normal and Warning (newer releases also keep Error and Critical)',
  ],
};

/**
 * The times OTLP's time_unix_nano can hold (fixed64 nanoseconds since the epoch, 0 meaning unknown:
 * opentelemetry-proto logs/v1/logs.proto); an event dated outside goes out with 0 (src/otlp/logs.ts).
 */
export const UNIX_NANOS_RANGE = ['1970-01-01T00:00:00Z', '2554-07-21T23:34:33Z'] as const;


/** Where a log store kept events: a VictoriaLogs server read now, or a file another store wrote out. */
export type LogStore = 'victorialogs' | 'cloud-logging' | 'elasticsearch' | 'loki';

/**
 * Events a log store kept (src/stores/): whatever wrote them
 * there, one log line per version. What the writers did not keep is named, never guessed.
 */
export interface StoreProvenance extends Common {
  kind: 'store';
  store: LogStore;
  /** who wrote the events into the store, in words ("the k8s_events receiver") */
  writers: string[];
  /** the fields some of its writers did not keep ("uid", "series", "reporter"), read as empty */
  unkept: string[];
  /** stored lines that are not about a Kubernetes event */
  skipped: number;
}

export type Provenance = ClusterProvenance | CaptureProvenance | ListProvenance | RecordProvenance | StableTableProvenance | OtlpProvenance | StoreProvenance;

/** Epoch ms, start inclusive, end exclusive; null: unbounded on that side. */
export interface TimeWindow {
  start: number | null;
  end: number | null;
}

/** Several contexts read together, live or from their record: each; undefined for one. */
export function fleetOf(p: Provenance): FleetMember[] | undefined {
  return p.kind === 'cluster' || p.kind === 'record' || p.kind === 'capture' || p.kind === 'otlp' ? p.clusters : undefined;
}

/** When a saved input was observed (a record's first .. last observation, a capture's moment); nulls where it does not say. */
export function observedWindow(p: Provenance): { first: number | null; last: number | null } {
  switch (p.kind) {
    case 'capture':
      return { first: p.capturedAt, last: p.capturedAt };
    case 'record':
    case 'otlp':
      return { first: p.firstObserved, last: p.lastObserved };
    case 'cluster':
    case 'list':
    case 'stable-table':
    // A store is read now; it keeps when each event happened, not when a writer observed it.
    case 'store':
      return { first: null, last: null };
  }
}

/** The raw objects as read, where the input holds any. */
export interface RawEvents {
  /** core/v1 view: every event in scope (it already includes those written through events.k8s.io/v1) */
  core: unknown[];
  /** the events.k8s.io/v1 view of the same events (capture's both-apis report); null where the input has none */
  eventsK8sIo: unknown[] | null;
  /** why the events.k8s.io/v1 view was asked for and not read (the API server's words: forbidden, not served) */
  eventsK8sIoUnread?: string;
  /** several contexts read together: the context each item of `core` came from, in the same order */
  coreContexts?: string[];
  /** several contexts: the context each item of `eventsK8sIo` came from */
  eventsK8sIoContexts?: string[];
}

export interface SourceRead {
  /** normalised, one per object read (a record: the latest version of each); not yet de-duplicated, filtered or sorted */
  events: Event[];
  /** with `raw: true`: the objects as read; null when the input holds no event objects (a stable table) */
  raw?: RawEvents | null;
  /** true when `events` already hold one version of each event (a record's): de-duplicating them would find nothing */
  distinct?: boolean;
  /** several contexts read together: those that did not answer (absent when all did) */
  unanswered?: Unanswered[];
}

/** One version of an event as the input observed it. */
export interface EventVersion {
  event: Json;
  /** epoch ms the input observed it; null: it does not say (a live list, a capture, a saved list) */
  observedAt: number | null;
  /** several contexts, read together or recorded together: the one it came from */
  cluster?: EventCluster;
}

export interface ReadOptions {
  /** also hand back the raw objects (core/v1) */
  raw?: boolean;
  /** with raw: the events.k8s.io/v1 view too, where a live source must read it separately */
  eventsK8sIo?: boolean;
  /** called as a long read progresses, with the number of events read so far */
  progress?: (count: number) => void;
  /** a live source sends it to the server (`--field-selector`); a saved input ignores it */
  fieldSelector?: string;
  /** several contexts read together (core/fleet.ts): a live source labels each event with its context as it makes it */
  cluster?: EventCluster;
}

/** The live cluster's objects: whether each still exists, and under which uid. */
interface ObjectDirectory {
  /**
   * Answers by objectKey (core/incarnation.ts); never throws: an object that cannot be looked up is
   * 'unknown'. `fromOwnership`: the objects the last ownership() lists cover are answered from them
   * (read moments ago, in the same run: --tree), not asked again; a follower, later, must not.
   */
  lookUp(refs: ObjectRef[], opts?: { fromOwnership?: boolean }): Promise<ReadonlyMap<string, ObjectLookup>>;
}

/** What the live server serves (its discovery documents), read at most once per run. */
export interface ResourceDiscovery {
  /** every resource of every group and version, preferred versions first; throws when discovery fails */
  served(): Promise<ServedResource[]>;
}

// -- Following a live source: a list, then its changes -----------------------------------------

/** A watch event's type; also a record line's type (a re-list writes what a watch would have said). */
type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** every event in scope at one resourceVersion: at the start, or after the watch expired (410 Gone) */
interface ListStep {
  kind: 'list';
  items: Json[];
}

/** one change, as the server sent it */
interface ChangeStep {
  kind: 'change';
  type: ChangeType;
  object: Json;
}

/** resume: the server has reached that version; ahead: it has not; unknown: the versions are not numbers. */
export type ResumeVerdict = 'resume' | 'ahead' | 'unknown';

/** before a watch resumes from `from`: the server's current resourceVersion; unless the verdict is 'resume', a list follows */
export interface ResumeStep {
  kind: 'resume';
  from: string;
  current: string;
  verdict: ResumeVerdict;
}

/** A step that may add events: a list or a change. */
export type ObservedStep = ListStep | ChangeStep;

/** `cluster`: several contexts followed together (core/fleet-follow.ts), the one the step came from. */
export type FollowStep = ((ListStep & { resourceVersion: string; why: 'start' | 'expired' }) | ResumeStep | ChangeStep) & { cluster?: EventCluster };

export interface FollowOptions {
  /** resume from here (once the server is known to have reached it); '' lists first */
  resourceVersion: string;
  /** several contexts followed together: each one's own version to resume from (a record of them); resourceVersion when absent */
  resourceVersionOf?(context: string): string;
  /** stops following: the iteration ends */
  signal: AbortSignal;
  /** what it meets and carries on from (a watch that expired, a retry), for stderr */
  notice(notice: WatchNotice): void;
  /** why the last attempt failed, before it is tried again (a recorder that never reached its server says why) */
  failed?(why: string, context?: string): void;
  /** the adapter's own policy when absent */
  retry?: RetryPolicy;
  /** sent to the server with the list and every watch (`--field-selector`) */
  fieldSelector?: string;
  /** several contexts followed together: one that stopped (refused, gave up retrying) while others go on */
  gaveUp?(member: Unanswered): void;
}

/** One object `wait` follows: its resource as discovery serves it, and its name. */
export interface WatchedObject {
  group: string;
  version: string;
  /** the plural: `deployments` */
  resource: string;
  kind: string;
  namespaced: boolean;
  /** ignored when not namespaced */
  namespace: string;
  name: string;
}

/** Facts whose reading has begun (EventSource.startFacts). */
export interface FactsReading {
  facts(events: Event[], now: number): Promise<FactSet>;
}

export interface EventSource {
  readonly provenance: Provenance;
  read(opts?: ReadOptions): Promise<SourceRead>;
  /**
   * Every version of every event the input holds, in the order observed (export back-fills a
   * collector with them): a record's every observation but its DELETED lines (they repeat a version
   * already written), a collector's every log record; one each for the live cluster, a capture or a
   * list. Narrowed to the source's namespace as read() is. Null: the input holds no event objects (a
   * stable table). Several contexts: `unanswered` is told those that did not answer (their versions
   * are missing); it throws only when none answers.
   */
  versions(opts?: { unanswered?: (who: Unanswered[]) => void }): Promise<EventVersion[] | null>;
  /** the live objects the events are about; null for a saved input (nothing live to ask) */
  readonly objects: ObjectDirectory | null;
  /**
   * The objects of a namespace and their owners (src/core/ownership.ts), for `--tree`: the live
   * cluster lists every listable namespaced resource, metadata only, one list per resource; a capture
   * or a record hands back what it saved. Absent, or null: the input cannot tell (tells.ownership false).
   */
  ownership?(namespace: string): Promise<ObjectMeta[] | null>;
  /**
   * The Kinds the last ownership() left out (the reader may not list them, or they were no longer
   * served): an object of one of them, absent from its answer, is not known to be gone. Absent: none.
   */
  ownershipGaps?(): { group: string; kind: string }[];
  /**
   * What the objects' status and spec say beside the events (src/core/facts.ts): the live cluster
   * reads them now; a record or capture hands back the status lines it saved. Absent: the input
   * holds none (a list, a stable table, a collector's file).
   */
  facts?(events: Event[], now: number): Promise<FactSet>;
  /**
   * A live source begins, before its events are read, the facts' reads that do not depend on them
   * (the namespace's Pods, the Nodes); the reading's facts() then reads the rest. Absent: facts() alone.
   */
  startFacts?(): FactsReading;
  /** the live server's resources, which resolve `--for TYPE/NAME` as kubectl does; absent for a saved input */
  readonly discovery?: ResourceDiscovery;
  /**
   * A live source's list, then every change, until the signal aborts (src/kube/watch.ts). Each step
   * is handed over only once the previous one was taken, and resuming from the resourceVersion of the
   * last step taken loses nothing. Absent for a saved input.
   */
  follow?(opts: FollowOptions): AsyncIterable<FollowStep>;
  /**
   * One object's list (by name: none or one item), then its every change, resumed and relisted as
   * follow() is (`wait`). Absent for a saved input.
   */
  followObject?(object: WatchedObject, opts: FollowOptions): AsyncIterable<FollowStep>;
  /** The objects of a resource in a namespace that `ownerUid` owns, metadata only (a rollout's ReplicaSets). */
  ownedBy?(of: { group: string; version: string; resource: string; kind: string }, namespace: string, ownerUid: string): Promise<ObjectMeta[]>;
  /** several contexts read together (core/fleet.ts): each context's own source (--tree is built in each cluster) */
  readonly members?: readonly { context: string; source: EventSource }[];
}

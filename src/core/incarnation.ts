// Which incarnation of its object an event is about. A Pipeline deleted and created again under the
// same name is a new object with a new metadata.uid; its old events name the old uid. Comparing the
// event's involvedObject.uid with the live object's tells the stories apart. The lookups themselves
// happen in src/kube/objects.ts; this module only reads their answers.

import type { Event, ObjectRef } from './event.ts';
import type { ObjectMeta } from './ownership.ts';
import { keyedByRef, objectKey } from './identity.ts';
import { canonical } from './server.ts';
import type { Unanswered } from './unanswered.ts';

/**
 * current: the live object has the uid the event names. previous: an object of that name exists,
 * with another uid (the named one was deleted and the name re-used). gone: no object of that name
 * exists. unknown: the event names no uid, or the object could not be looked up.
 */
export type Incarnation = 'current' | 'previous' | 'gone' | 'unknown';

/** What a lookup of one Kind/namespace/name on the live cluster found. */
export type ObjectLookup =
  /** meta: the object's metadata and owners, where the answer carried them (a metadata-only GET or LIST) */
  | { state: 'exists'; uid: string; creationTimestamp: string | null; meta?: ObjectMeta }
  | { state: 'gone' }
  | { state: 'unknown'; why: LookupFailure };

/**
 * Why an object could not be looked up, as a value: render words it (src/render/lookup-failure.ts).
 * The API server's own text (an error message, a name's validation errors) travels as `detail`.
 */
export type LookupFailure =
  | { reason: 'not-looked-up' }
  /** the apiVersion names no version (`apps/`) */
  | { reason: 'no-version'; apiVersion: string }
  /** discovery of the group/version answered 404 */
  | { reason: 'not-served'; apiVersion: string }
  | { reason: 'no-kind'; apiVersion: string; kind: string }
  /** the resource does not list `get` among its verbs */
  | { reason: 'no-get'; resource: string }
  | { reason: 'no-namespace'; kind: string; name: string }
  /** a name no server can hold (`..`, a slash): never put in a path */
  | { reason: 'invalid-name'; detail: string }
  /** the answer's metadata names another object (a proxy that rewrote the path) */
  | { reason: 'another-object'; kind: string; name: string }
  | { reason: 'no-uid'; kind: string; name: string }
  /** 403 on discovery of `target` (an apiVersion), or on list or get of `target` (a resource) */
  | { reason: 'forbidden'; step: 'discover' | 'list' | 'get'; target: string }
  | { reason: 'failed'; step: 'discover' | 'list' | 'get'; target: string; detail: string };

/** What the live cluster says about one event (absent fields: not checked). */
export interface EventStanding {
  incarnation?: Incarnation;
  /** false: the event is in the saved file but the server no longer has it (--compare) */
  onServer?: boolean;
}

/** What was learnt from the live cluster beside the events themselves. */
export interface LiveFacts {
  /** object lookups by objectKey; absent when objects were not looked up */
  lookups?: ReadonlyMap<string, ObjectLookup>;
  /** uids of every event the server still holds in the scope read, whatever the filters; absent without --compare */
  liveUids?: ReadonlySet<string>;
  /** the live events that pass the filters, each once (--compare) */
  liveEvents?: Event[];
  /**
   * Several contexts (a record of several, --compare): the servers whose live events were read
   * (canonical URLs); an event of another server (its context did not answer) is not compared.
   * liveUids then holds liveKey()s: each server's events are paired with the same server's.
   */
  comparedServers?: ReadonlySet<string>;
  /** several contexts: those that did not answer the live read (said on stderr; the verb exits 4) */
  unanswered?: Unanswered[];
}

/** What --compare pairs a saved event with a live one by: its uid, and with several contexts its server too. */
export function liveKey(ev: Event): string {
  return ev.cluster === undefined ? ev.uid : `${canonical(ev.cluster.server)}\u0000${ev.uid}`;
}

/** Whether the server still holds the event (--compare); undefined when that cannot be told (no uid, its cluster not read). */
export function onServer(ev: Event, facts: LiveFacts): boolean | undefined {
  if (facts.liveUids === undefined || ev.uid === '') return undefined;
  if (ev.cluster !== undefined && facts.comparedServers !== undefined && !facts.comparedServers.has(canonical(ev.cluster.server))) return undefined;
  return facts.liveUids.has(liveKey(ev));
}

/** An event whose object can be looked up and compared: it names a uid, an apiVersion, a Kind and a name. */
function comparable(ref: ObjectRef): boolean {
  return ref.uid !== '' && ref.apiVersion !== '' && ref.kind !== '' && ref.name !== '';
}

/** The distinct objects to look up, once each, in the order first named. */
export function objectsToLookUp(events: Event[]): ObjectRef[] {
  const refs = new Map<string, ObjectRef>();
  const keyOf = keyedByRef(objectKey);
  // An index loop: a for-of makes an iterator result per event in code that runs once.
  for (let i = 0; i < events.length; i += 1) {
    const ev = events[i] as Event;
    if (!comparable(ev.object)) continue;
    const key = keyOf(ev.object);
    if (!refs.has(key)) refs.set(key, ev.object);
  }
  return [...refs.values()];
}

export function classifyIncarnation(ev: Event, lookups: ReadonlyMap<string, ObjectLookup>): Incarnation {
  if (!comparable(ev.object)) return 'unknown';
  return incarnationOf(lookups.get(objectKey(ev.object)), ev.object.uid);
}

/** What a lookup of an object says of the incarnation with this uid. */
function incarnationOf(found: ObjectLookup | undefined, uid: string): Incarnation {
  if (found === undefined || found.state === 'unknown') return 'unknown';
  if (found.state === 'gone') return 'gone';
  return found.uid === uid ? 'current' : 'previous';
}

/** Everything the live facts say about one event. */
export function standingOf(ev: Event, facts: LiveFacts): EventStanding {
  const standing: EventStanding = {};
  if (facts.lookups !== undefined) standing.incarnation = classifyIncarnation(ev, facts.lookups);
  const held = onServer(ev, facts);
  if (held !== undefined) standing.onServer = held;
  return standing;
}

/**
 * standingOf for each event of a read. Without --compare what is said of an event depends on its
 * object alone, and the events about one object share one ObjectRef (core/compact.ts): worked out
 * once per object, not once per row (the table asks twice per row: 40,000 object keys joined for
 * 20,000 events about 400 objects). The standings handed out are shared: read them, never change them.
 */
export function standingsOf(facts: LiveFacts): (ev: Event) => EventStanding {
  if (facts.liveUids !== undefined) return (ev) => standingOf(ev, facts);
  const made = new Map<ObjectRef, EventStanding>();
  return (ev) => {
    let standing = made.get(ev.object);
    if (standing === undefined) made.set(ev.object, (standing = standingOf(ev, facts)));
    return standing;
  };
}

/** One Kind/namespace/name whose events name a uid the live object does not have. */
export interface Recreation {
  apiVersion: string;
  kind: string;
  name: string;
  namespace: string;
  /** uids the events name that are not the live object's, in the order first named */
  previousUids: string[];
  currentUid: string;
  /** the live object's creationTimestamp: when it was (last) re-created */
  recreatedAt: string | null;
  previousEvents: number;
  currentEvents: number;
}

/** One Kind/namespace/name that no longer exists on the server. */
export interface Disappearance {
  apiVersion: string;
  kind: string;
  name: string;
  namespace: string;
  /** the uids its events name, in the order first named */
  uids: string[];
  events: number;
}

/** One object whose incarnation could not be told, and why. */
export interface Unchecked {
  apiVersion: string;
  kind: string;
  name: string;
  namespace: string;
  why: LookupFailure;
  events: number;
}

interface IncarnationSummary {
  recreated: Recreation[];
  gone: Disappearance[];
  unchecked: Unchecked[];
}

interface Tally {
  ref: ObjectRef;
  uids: string[];
  byIncarnation: Record<Incarnation, number>;
}

/**
 * Per object (by name), in the order first named: which were re-created, which are gone, which
 * could not be checked. Events without a uid or an object are left out: there is nothing to compare.
 */
export function summariseIncarnations(events: Event[], lookups: ReadonlyMap<string, ObjectLookup>): IncarnationSummary {
  const tallies = new Map<string, Tally>();
  const keyOf = keyedByRef(objectKey);
  // An index loop: a for-of makes an iterator result per event in code that runs once.
  for (let i = 0; i < events.length; i += 1) {
    const ev = events[i] as Event;
    if (!comparable(ev.object)) continue;
    const key = keyOf(ev.object);
    const tally = tallies.get(key) ?? { ref: ev.object, uids: [], byIncarnation: { current: 0, previous: 0, gone: 0, unknown: 0 } };
    if (!tally.uids.includes(ev.object.uid)) tally.uids.push(ev.object.uid);
    tally.byIncarnation[incarnationOf(lookups.get(key), ev.object.uid)] += 1;
    tallies.set(key, tally);
  }
  const summary: IncarnationSummary = { recreated: [], gone: [], unchecked: [] };
  for (const [key, { ref, uids, byIncarnation }] of tallies) {
    const found = lookups.get(key) ?? { state: 'unknown', why: { reason: 'not-looked-up' } };
    const where = { apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name, namespace: ref.namespace };
    if (found.state === 'exists' && byIncarnation.previous > 0) {
      summary.recreated.push({
        ...where,
        previousUids: uids.filter((uid) => uid !== found.uid),
        currentUid: found.uid,
        recreatedAt: found.creationTimestamp,
        previousEvents: byIncarnation.previous,
        currentEvents: byIncarnation.current,
      });
    } else if (found.state === 'gone') {
      summary.gone.push({ ...where, uids, events: byIncarnation.gone });
    } else if (found.state === 'unknown') {
      summary.unchecked.push({ ...where, why: found.why, events: byIncarnation.unknown });
    }
  }
  return summary;
}

// -- A saved file against the live cluster (--compare) ------------------------------------------

export interface Comparison {
  /** events of the saved file that name a uid (the others cannot be compared) */
  savedEvents: number;
  /** of those, the ones the server no longer has: expired after --event-ttl, or deleted */
  onlyInSaved: Event[];
  /** events in scope on the server that the file does not hold (written after it, or outside its filters) */
  onlyOnServer: number;
}

/** Null when the live events were not read (no --compare). */
export function compareWithLive(saved: Event[], facts: LiveFacts): Comparison | null {
  if (facts.liveUids === undefined) return null;
  const compared = saved.filter((ev) => onServer(ev, facts) !== undefined);
  const savedKeys = new Set(compared.map(liveKey));
  return {
    savedEvents: compared.length,
    onlyInSaved: compared.filter((ev) => onServer(ev, facts) === false),
    onlyOnServer: (facts.liveEvents ?? []).filter((ev) => ev.uid !== '' && !savedKeys.has(liveKey(ev))).length,
  };
}

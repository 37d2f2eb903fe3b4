// Which object an event is about, as one identity string: the object's uid, or, when the event
// names none, the uid of the incarnation of the same group/Kind/namespace/name that the other
// events name. Some controllers build the involvedObject themselves and leave the uid out: the
// taint eviction controller (k8s.io/kubernetes pkg/controller/tainteviction, emitPodDeletionEvent
// and emitCancelPodDeletionEvent) writes TaintManagerEviction with only apiVersion, Kind, namespace
// and name. Keyed by uid alone, such an event would tell a story of its own beside the pod's,
// while `kubectl events` shows one object.

import type { Event, ObjectRef } from './event.ts';

/** The API group of an apiVersion ("apps/v1" -> "apps", "v1" -> ""): versions of one group are one object. */
export function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/**
 * A key of an object made once per ObjectRef: the events about one object share one ObjectRef
 * (core/compact.ts), so 20,000 events about 400 objects join 400 keys, not 20,000 (each a new string).
 */
export function keyedByRef(key: (ref: ObjectRef) => string): (ref: ObjectRef) => string {
  const made = new Map<ObjectRef, string>();
  return (ref) => {
    let k = made.get(ref);
    if (k === undefined) made.set(ref, (k = key(ref)));
    return k;
  };
}

/** One object by name, whatever its uid: group, Kind, namespace and name. NUL cannot appear in a Kubernetes name. */
export function nameKey(ref: ObjectRef): string {
  return [groupOf(ref.apiVersion), ref.kind, ref.namespace, ref.name].join('\u0000');
}

interface Lifetime {
  uid: string;
  /** earliest firstSeen and latest lastSeen of the events naming this uid; null when none has a time */
  first: number | null;
  last: number | null;
}

/** The time an event happened at: when it was first seen, else last. */
function timeOf(ev: Event): number | null {
  return ev.firstSeen ?? ev.lastSeen;
}

/** Incarnations newest last: by first time (no time sorts first), then in the order first named. */
function byAge(a: Lifetime, b: Lifetime): number {
  return (a.first ?? -Infinity) - (b.first ?? -Infinity);
}

function pick(lifetimes: Lifetime[], at: number | null): string {
  if (lifetimes.length === 1) return (lifetimes[0] as Lifetime).uid;
  const sorted = [...lifetimes].sort(byAge);
  const holding = at === null ? [] : sorted.filter((l) => l.first !== null && l.last !== null && l.first <= at && at <= l.last);
  // Overlapping lifetimes (an old pod still terminating beside its replacement): the newest holding one.
  const chosen = holding.length > 0 ? holding[holding.length - 1] : sorted[sorted.length - 1];
  return (chosen as Lifetime).uid;
}

/**
 * A function giving each of these events the uid of the object it is about: its own involvedObject
 * uid, else the one incarnation of the same group/Kind/namespace/name the events name, else (several
 * incarnations) the one whose lifetime (first..last event time) holds the event's time, else the
 * newest. '' when no event names a uid for that object.
 */
export function objectUids(events: readonly Event[]): (ev: Event) => string {
  const nameKeyOf = keyedByRef(nameKey);
  // Made when an event naming no uid first asks: most reads name a uid in every event, and then
  // a pass over all of them (20,000 for a busy namespace) would tell nothing.
  let byName: Map<string, Map<string, Lifetime>> | undefined;
  return (ev) => {
    if (ev.object.uid !== '') return ev.object.uid;
    byName ??= lifetimesByName(events, nameKeyOf);
    const lifetimes = byName.get(nameKeyOf(ev.object));
    return lifetimes === undefined ? '' : pick([...lifetimes.values()], timeOf(ev));
  };
}

/** The incarnations each group/Kind/namespace/name has among the events, with their lifetimes. */
function lifetimesByName(events: readonly Event[], nameKeyOf: (ref: ObjectRef) => string): Map<string, Map<string, Lifetime>> {
  const byName = new Map<string, Map<string, Lifetime>>();
  for (const ev of events) {
    const uid = ev.object.uid;
    if (uid === '') continue;
    const key = nameKeyOf(ev.object);
    let lifetimes = byName.get(key);
    if (lifetimes === undefined) byName.set(key, (lifetimes = new Map()));
    const life = lifetimes.get(uid) ?? { uid, first: null, last: null };
    const first = timeOf(ev);
    const last = ev.lastSeen ?? ev.firstSeen;
    if (first !== null && (life.first === null || first < life.first)) life.first = first;
    if (last !== null && (life.last === null || last > life.last)) life.last = last;
    lifetimes.set(uid, life);
  }
  return byName;
}

/**
 * A function giving each of these events one identity string for its object: `uid:<uid>` (the uid
 * settled by objectUids), else the object's group/Kind/namespace/name.
 */
export function objectIdentities(events: readonly Event[]): (ev: Event) => string {
  const uidOf = objectUids(events);
  return (ev) => {
    const uid = uidOf(ev);
    return uid !== '' ? `uid:${uid}` : `name:${nameKey(ev.object)}`;
  };
}

// The other keys of an object, each where one rule cannot serve:

/**
 * An object as a lookup asks for it: apiVersion (not group: a lookup asks one version), Kind,
 * namespace and name; not uid, which is what the lookup answers and the events are compared with.
 */
export function objectKey(ref: ObjectRef): string {
  return [ref.apiVersion, ref.kind, ref.namespace, ref.name].join('\u0000');
}

/**
 * An object by group, Kind and name inside one namespace: the tree's rule (core/tree-index.ts). An
 * ownerReference names no namespace (an owner is always in its child's), and an event about a
 * namespaced object may leave involvedObject.namespace empty, so the namespace is left out.
 */
export function nameKeyInNamespace(o: { apiVersion: string; kind: string; name: string }): string {
  return [groupOf(o.apiVersion), o.kind, o.name].join('\u0000');
}

/**
 * Which Event an Event object is (not the object it is about): metadata.uid, else namespace/name;
 * '' when it has neither (nothing to tell it apart by). core/versions.ts keeps the newest of each.
 */
export function eventIdentity(ev: { uid: string; namespace: string; name: string }): string {
  if (ev.uid !== '') return `uid:${ev.uid}`;
  return ev.name === '' ? '' : `name:${ev.namespace}/${ev.name}`;
}

// Which object an event is about, as one identity string: the object's uid, or, when the event
// names none, the uid of the incarnation of the same group/Kind/namespace/name that the other
// events name. Some controllers build the involvedObject themselves and leave the uid out: the
// taint eviction controller (k8s.io/kubernetes pkg/controller/tainteviction, emitPodDeletionEvent
// and emitCancelPodDeletionEvent) writes TaintManagerEviction with only apiVersion, Kind, namespace
// and name. Keyed by uid alone, such an event would tell a story of its own beside the pod's,
// while `kubectl events` shows one object.

import type { Event, ObjectRef } from './event.ts';

/** The API group of an apiVersion ("apps/v1" -> "apps", "v1" -> ""): versions of one group are one object. */
function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/** One object by name, whatever its uid. NUL cannot appear in a Kubernetes name. */
function nameKey(ref: ObjectRef): string {
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
  const byName = new Map<string, Map<string, Lifetime>>();
  for (const ev of events) {
    const uid = ev.object.uid;
    if (uid === '') continue;
    const key = nameKey(ev.object);
    let lifetimes = byName.get(key);
    if (lifetimes === undefined) byName.set(key, (lifetimes = new Map()));
    const life = lifetimes.get(uid) ?? { uid, first: null, last: null };
    const first = timeOf(ev);
    const last = ev.lastSeen ?? ev.firstSeen;
    if (first !== null && (life.first === null || first < life.first)) life.first = first;
    if (last !== null && (life.last === null || last > life.last)) life.last = last;
    lifetimes.set(uid, life);
  }
  return (ev) => {
    if (ev.object.uid !== '') return ev.object.uid;
    const lifetimes = byName.get(nameKey(ev.object));
    return lifetimes === undefined ? '' : pick([...lifetimes.values()], timeOf(ev));
  };
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

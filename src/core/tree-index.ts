// The tree's first step (src/core/tree.ts): what is known of the namespace, indexed once. The
// objects (live, or seen in a saved file and absent now) by uid and by the owner they name, by uid
// and by group, Kind and name; the namespace's events by the object they name. kubectl-tree's
// newObjectDirectory (cmd/kubectl-tree/relationship.go) is this step for live objects alone.
import type { Event } from './event.ts';
import { objectUids } from './identity.ts';
import type { ObjectSelector } from './filter.ts';
import type { ObjectMeta } from './ownership.ts';
import { groupOf, nameKeyInNamespace } from './identity.ts';

/** The object of `--for`, in the namespace it lives in. */
export interface TreeRoot extends ObjectSelector {
  namespace: string;
}

/** What else tells who exists, beyond the objects. */
export interface TreeEvidence {
  /** objects a saved file saw (capture, record) that are absent from the objects: members when a member owned them */
  seen?: readonly ObjectMeta[];
  /** Kinds the objects leave out (the reader may not list them): a child of one, absent, is not known to be gone */
  untold?: readonly { group: string; kind: string }[];
}

/** A known object: live now, or seen in a saved file and absent now. */
export interface Known {
  meta: ObjectMeta;
  gone: boolean;
}

export function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

export interface TreeIndex {
  ns: string;
  /** the namespace's objects now; null when the input cannot tell who owns what */
  objects: readonly ObjectMeta[] | null;
  /** `${group}\u0000${kind}` of the Kinds the objects cannot speak for */
  untold: ReadonlySet<string>;
  /** absent from the objects, and the objects would hold it: gone */
  absentIsGone(o: { apiVersion: string; kind: string }): boolean;
  known: Known[];
  knownByUid: ReadonlyMap<string, Known>;
  byOwnerUid: ReadonlyMap<string, Known[]>;
  byOwnerName: ReadonlyMap<string, Known[]>;
  liveByName: ReadonlyMap<string, ObjectMeta[]>;
  nsEvents: Event[];
  /** the uid of the incarnation an event is about (core/identity.ts), '' when none */
  uidOf(ev: Event): string;
  eventsByName: ReadonlyMap<string, Event[]>;
}

export function indexTree(root: TreeRoot, objects: readonly ObjectMeta[] | null, events: readonly Event[], evidence: TreeEvidence): TreeIndex {
  const ns = root.namespace;
  const seen = evidence.seen ?? [];
  const untold = new Set((evidence.untold ?? []).map((u) => `${u.group}\u0000${u.kind}`));
  /** absent from the objects, and the objects would hold it: gone */
  const absentIsGone = (o: { apiVersion: string; kind: string }) => objects !== null && !untold.has(`${groupOf(o.apiVersion)}\u0000${o.kind}`);
  const inNs = (o: { namespace: string }) => o.namespace === ns;
  const live = (objects ?? []).filter(inNs);
  const liveUids = new Set(live.map((o) => o.uid));
  const known: Known[] = [...live.map((meta) => ({ meta, gone: false })), ...seen.filter((o) => inNs(o) && !liveUids.has(o.uid)).map((meta) => ({ meta, gone: absentIsGone(meta) }))];
  const knownByUid = new Map(known.map((k) => [k.meta.uid, k]));
  const byOwnerUid = new Map<string, Known[]>();
  const byOwnerName = new Map<string, Known[]>();
  for (const k of known) {
    for (const o of k.meta.owners) {
      push(byOwnerUid, o.uid, k);
      push(byOwnerName, nameKeyInNamespace(o), k);
    }
  }
  const liveByName = new Map<string, ObjectMeta[]>();
  for (const o of live) push(liveByName, nameKeyInNamespace(o), o);

  const nsEvents = events.filter((ev) => (ev.object.namespace || ev.namespace) === ns);
  const uidOf = objectUids(nsEvents);
  const eventsByName = new Map<string, Event[]>();
  for (const ev of nsEvents) push(eventsByName, nameKeyInNamespace(ev.object), ev);
  return { ns, objects, untold, absentIsGone, known, knownByUid, byOwnerUid, byOwnerName, liveByName, nsEvents, uidOf, eventsByName };
}

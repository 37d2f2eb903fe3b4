// What a capture saves of ownership (objects.json, src/io/objects-file.ts): the objects its events
// are about and their owners up to the top, read from the live cluster; with one namespace captured
// and a source that lists ownership, the rest of those objects' trees too (the siblings and children
// a later offline `--tree` needs), and with --all-objects every object of the namespace. A capture is
// made to be shared: by default it does not name every Secret and RoleBinding of the namespace. From
// a saved input, what it saved. Null: the input cannot tell.
import type { Event, ObjectRef } from '../core/event.ts';
import { objectKey } from '../core/identity.ts';
import type { LiveFacts } from '../core/incarnation.ts';
import type { ObjectMeta } from '../core/ownership.ts';
import { MAX_OWNER_DEPTH } from '../core/object-meta.ts';
import type { EventSource } from '../core/source.ts';
import type { SavedObject } from '../core/object-meta.ts';
import { savedObjectsOf } from './owner-lookups.ts';

/** The namespaces whose objects are listed whole: the one captured. With -A, listing every namespace is not cheap: chains only. */
function namespacesToList(source: EventSource, events: Event[]): string[] {
  const named = source.provenance.namespace;
  if (named !== null) return [named];
  if (source.objects !== null) return [];
  // A saved input hands back what it saved, however many namespaces its events are in.
  return [...new Set(events.map((ev) => ev.namespace))].sort();
}

/** Each event object once (by uid and name), as the lookups were asked for them (core/incarnation.ts objectsToLookUp). */
function distinctObjects(events: Event[], live: LiveFacts | undefined): ObjectRef[] {
  const refs = new Map<string, ObjectRef>();
  for (const ev of events) {
    const key = `${ev.object.uid}\u0000${objectKey(ev.object)}`;
    if (live?.lookups?.has(objectKey(ev.object)) && !refs.has(key)) refs.set(key, ev.object);
  }
  return [...refs.values()];
}

/** The tops of an object's owner chains, by uid: an owner not known (gone, never read) is a top too. */
function topsOf(uid: string, byUid: ReadonlyMap<string, ObjectMeta>): Set<string> {
  const tops = new Set<string>();
  const seen = new Set<string>();
  let level = [uid];
  for (let depth = 0; depth <= MAX_OWNER_DEPTH && level.length > 0; depth += 1) {
    const next: string[] = [];
    for (const u of level) {
      if (seen.has(u)) continue;
      seen.add(u);
      const owners = byUid.get(u)?.owners ?? [];
      if (owners.length === 0) tops.add(u);
      else next.push(...owners.map((o) => o.uid));
    }
    level = next;
  }
  // A chain longer than any the garbage collector leaves is cut where it was left.
  for (const u of level) tops.add(u);
  return tops;
}

/** The listed objects in the trees of the events' objects: those whose owner chains end where one of theirs does. */
function inEventTrees(listed: ObjectMeta[], events: Event[], byUid: ReadonlyMap<string, ObjectMeta>): ObjectMeta[] {
  const roots = new Set<string>();
  for (const uid of new Set(events.map((ev) => ev.object.uid))) if (uid !== '') for (const top of topsOf(uid, byUid)) roots.add(top);
  return listed.filter((m) => [...topsOf(m.uid, byUid)].some((top) => roots.has(top)));
}

interface CapturedObjects {
  /** null: the input cannot tell */
  saved: SavedObject[] | null;
  /** objects of the namespace listed but left out: in no tree of an event's object (0 with --all-objects) */
  leftOut: number;
}

export async function capturedObjects(source: EventSource, events: Event[], live: LiveFacts | undefined, allObjects = false): Promise<CapturedObjects> {
  const byUid = new Map<string, ObjectMeta>();
  const saved: SavedObject[] = [];
  const lookUp = source.objects?.lookUp;
  if (lookUp !== undefined) {
    const found = await savedObjectsOf(distinctObjects(events, live), live?.lookups ?? new Map(), (refs) => lookUp(refs));
    for (const meta of found.objects) byUid.set(meta.uid, meta);
    saved.push(...found.saved.filter((s) => 'unknown' in s));
  }
  let listed = false;
  const inventory: ObjectMeta[] = [];
  if (source.ownership !== undefined && source.provenance.tells.ownership) {
    for (const namespace of namespacesToList(source, events)) {
      // Extra, not essential: a listing that fails (discovery refused, a server gone quiet) leaves the chains.
      const objects = await source.ownership(namespace).catch(() => null);
      if (objects === null) continue;
      listed = true;
      inventory.push(...objects);
    }
  }
  if (lookUp === undefined && !listed) return { saved: null, leftOut: 0 };
  const everything = new Map(byUid);
  for (const meta of inventory) everything.set(meta.uid, meta);
  const kept = allObjects ? inventory : inEventTrees(inventory, events, everything);
  for (const meta of kept) byUid.set(meta.uid, meta);
  const leftOut = new Set(inventory.map((m) => m.uid).filter((uid) => !byUid.has(uid))).size;
  // Known objects first, in a stable order; then those that could not be read.
  const order = (m: ObjectMeta): string => [m.namespace, m.kind, m.name, m.uid].join('\u0000');
  const known = [...byUid.values()].sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
  return { saved: [...known.map((meta) => ({ meta })), ...saved.filter((s) => !('unknown' in s) || !byUid.has(s.unknown.ref.uid))], leftOut };
}

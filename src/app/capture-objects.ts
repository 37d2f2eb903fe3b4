// What a capture saves of ownership (objects.json, src/io/objects-file.ts): the objects its events
// are about and their owners up to the top, read from the live cluster; with one namespace captured
// and a source that lists ownership, every object of the namespace too (the siblings and children a
// later offline `--tree` needs). From a saved input, what it saved. Null: the input cannot tell.
import type { Event, ObjectRef } from '../core/event.ts';
import { objectKey } from '../core/incarnation.ts';
import type { LiveFacts } from '../core/incarnation.ts';
import type { ObjectMeta } from '../core/ownership.ts';
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

export async function capturedObjects(source: EventSource, events: Event[], live: LiveFacts | undefined): Promise<SavedObject[] | null> {
  const byUid = new Map<string, ObjectMeta>();
  const saved: SavedObject[] = [];
  const lookUp = source.objects?.lookUp;
  if (lookUp !== undefined) {
    const found = await savedObjectsOf(distinctObjects(events, live), live?.lookups ?? new Map(), (refs) => lookUp(refs));
    for (const meta of found.objects) byUid.set(meta.uid, meta);
    saved.push(...found.saved.filter((s) => 'unknown' in s));
  }
  let listed = false;
  if (source.ownership !== undefined && source.provenance.tells.ownership) {
    for (const namespace of namespacesToList(source, events)) {
      // Extra, not essential: a listing that fails (discovery refused, a server gone quiet) leaves the chains.
      const objects = await source.ownership(namespace).catch(() => null);
      if (objects === null) continue;
      listed = true;
      for (const meta of objects) byUid.set(meta.uid, meta);
    }
  }
  if (lookUp === undefined && !listed) return null;
  // Known objects first, in a stable order; then those that could not be read.
  const order = (m: ObjectMeta): string => [m.namespace, m.kind, m.name, m.uid].join('\u0000');
  const known = [...byUid.values()].sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
  return [...known.map((meta) => ({ meta })), ...saved.filter((s) => !('unknown' in s) || !byUid.has(s.unknown.ref.uid))];
}

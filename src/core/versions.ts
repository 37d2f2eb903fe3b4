// Which event an object is, and which of its versions is the newest: one rule for a list of both
// APIs (every event twice: one store), a watch or re-list (later versions of the same object), and a
// record's replay (every version its recorder saw).
import type { Event } from './event.ts';
import { asString, compareResourceVersions, metadataOf } from './json.ts';
import { eventIdentity } from './identity.ts';

/** eventIdentity of a raw event object, as the server sent it. */
export function rawIdentity(object: unknown): string {
  const meta = metadataOf(object);
  return eventIdentity({ uid: asString(meta.uid), namespace: asString(meta.namespace), name: asString(meta.name) });
}

/** What tells two versions of an event apart. */
type VersionStamp = Pick<Event, 'resourceVersion' | 'lastSeen' | 'count'>;

/**
 * Positive when `a` is a newer version of the event than `b`, negative when older, 0 when they cannot
 * be told apart: the higher resourceVersion (when both are numbers), else the later lastSeen, else the
 * higher count.
 */
export function compareVersions(a: VersionStamp, b: VersionStamp): number {
  const rv = compareResourceVersions(a.resourceVersion, b.resourceVersion) ?? 0;
  if (rv !== 0) return rv;
  const last = (a.lastSeen ?? -Infinity) - (b.lastSeen ?? -Infinity);
  if (last !== 0 && !Number.isNaN(last)) return last;
  return a.count - b.count;
}

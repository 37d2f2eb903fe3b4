// The saved objects of a set of event objects: each as the live lookups found it (read, gone, or
// not readable and why), then the owners of those read, up to the top. capture (objects.json) and
// record (object lines) both save what this returns.
import type { ObjectRef } from '../core/event.ts';
import { objectKey } from '../core/identity.ts';
import type { ObjectLookup } from '../core/incarnation.ts';
import { findOwners } from '../core/object-meta.ts';
import type { LookUp } from '../core/object-meta.ts';
import type { ObjectMeta } from '../core/ownership.ts';
import { unknownObject } from '../core/object-meta.ts';
import type { SavedObject } from '../core/object-meta.ts';

/**
 * `refs` (distinct objects, with the uids their events name) as `lookups` answered them, and their
 * owners through `lookUp`; owners whose uid `known` holds are not asked for again. A name that now
 * holds another object (another uid) saves both: the one the event named as gone, the current one read.
 */
export async function savedObjectsOf(
  refs: ObjectRef[],
  lookups: ReadonlyMap<string, ObjectLookup>,
  lookUp: LookUp,
  known: (uid: string) => boolean = () => false,
): Promise<{ objects: ObjectMeta[]; saved: SavedObject[] }> {
  const objects: ObjectMeta[] = [];
  const saved: SavedObject[] = [];
  const read = new Set<string>();
  for (const ref of refs) {
    const found = lookups.get(objectKey(ref)) ?? { state: 'unknown', why: { reason: 'not-looked-up' } };
    if (found.state === 'unknown') saved.push(unknownObject({ ref, why: found.why }));
    else if (found.state === 'gone' || found.uid !== ref.uid) saved.push(unknownObject({ ref, why: { reason: 'gone' } }));
    if (found.state === 'exists' && found.meta !== undefined && !read.has(found.uid) && !known(found.uid)) {
      read.add(found.uid);
      objects.push(found.meta);
    }
  }
  const owners = await findOwners(objects, lookUp, (uid) => read.has(uid) || known(uid));
  objects.push(...owners.owners);
  saved.push(...owners.unknown.map(unknownObject));
  return { objects, saved: [...objects.map((meta) => ({ meta })), ...saved] };
}

// An object's metadata as the API server sends it (a metadata-only list's item, a GET of
// PartialObjectMetadata, a saved file's copy) read into the ownership contract's ObjectMeta, and the
// owners of a set of objects found transitively, up to the top, through the live objects' lookups.
import type { ObjectRef } from './event.ts';
import type { LookupFailure, ObjectLookup } from './incarnation.ts';
import { objectKey } from './identity.ts';
import { asObject, asString } from './json.ts';
import type { Json } from './json.ts';
import type { ObjectMeta, OwnerRef } from './ownership.ts';

/** What a metadata-only item does not carry itself: its items say `meta.k8s.io/v1 PartialObjectMetadata`. */
interface ObjectType {
  apiVersion: string;
  kind: string;
}

function timeOrNull(value: unknown): number | null {
  const text = asString(value);
  const ms = text === '' ? Number.NaN : Date.parse(text);
  return Number.isNaN(ms) ? null : ms;
}

/** metadata.ownerReferences; entries without a uid, kind or name are left out (nothing can match them). */
function ownersOf(value: unknown): OwnerRef[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry): OwnerRef[] => {
    const ref = asObject(entry);
    const owner = { apiVersion: asString(ref.apiVersion), kind: asString(ref.kind), name: asString(ref.name), uid: asString(ref.uid), controller: ref.controller === true };
    return owner.uid === '' || owner.kind === '' || owner.name === '' ? [] : [owner];
  });
}

/**
 * An object's `metadata` (of the given apiVersion and Kind) as ObjectMeta; null without a name or a
 * uid (an object the server has not created: nothing can be matched to it).
 */
export function objectMetaOf(metadata: unknown, type: ObjectType): ObjectMeta | null {
  const m = asObject(metadata);
  const name = asString(m.name);
  const uid = asString(m.uid);
  if (name === '' || uid === '') return null;
  return {
    apiVersion: type.apiVersion,
    kind: type.kind,
    namespace: asString(m.namespace),
    name,
    uid,
    owners: ownersOf(m.ownerReferences),
    created: timeOrNull(m.creationTimestamp),
    deleting: timeOrNull(m.deletionTimestamp),
    ...labelsOf(m.labels),
  };
}

/** metadata.labels: string values only (hostile input may hold anything); nothing when there are none. */
function labelsOf(value: unknown): { labels?: Record<string, string> } {
  const entries = Object.entries(asObject(value)).filter((e): e is [string, string] => typeof e[1] === 'string');
  return entries.length === 0 ? {} : { labels: Object.fromEntries(entries) };
}

// -- Owners, transitively ------------------------------------------------------------------------

/** An object (an owner, an event's object) that could not be read: gone (or its name now holds another object), or the lookup failed. */
interface UnknownObject {
  ref: ObjectRef;
  why: { reason: 'gone' } | LookupFailure;
}

interface OwnersFound {
  /** the owners found, each once, nearest first */
  owners: ObjectMeta[];
  unknown: UnknownObject[];
}

/** Looks up objects by ref and answers by objectKey (the live source's ObjectDirectory.lookUp). */
export type LookUp = (refs: ObjectRef[]) => Promise<ReadonlyMap<string, ObjectLookup>>;

/**
 * Ownership chains are short (Pod < ReplicaSet < Deployment < an operator's resource); a longer one
 * is a loop the garbage collector has not broken yet, or a hostile cluster: stop there.
 */
export const MAX_OWNER_DEPTH = 10;

/** An owner as a ref to look up: ownerReferences name objects of the child's namespace, or cluster-scoped ones. */
function ownerRef(child: ObjectMeta, owner: OwnerRef): ObjectRef {
  return { apiVersion: owner.apiVersion, kind: owner.kind, name: owner.name, namespace: child.namespace, uid: owner.uid, fieldPath: '' };
}

/**
 * The owners of `objects`, their owners, and so on up to the top, one lookUp per level (a level's
 * owners are asked together, so a lookup can list a collection rather than get each). An owner is
 * matched by uid, as the garbage collector does: an object of its name with another uid is not it.
 * Owners whose uid `known` holds are not looked up again (nor are their owners).
 */
export async function findOwners(objects: ObjectMeta[], lookUp: LookUp, known: (uid: string) => boolean = () => false): Promise<OwnersFound> {
  const found: OwnersFound = { owners: [], unknown: [] };
  // The objects themselves count as asked: a loop back to one of them ends there.
  const asked = new Set<string>(objects.map((o) => o.uid));
  let level = objects;
  for (let depth = 0; depth < MAX_OWNER_DEPTH && level.length > 0; depth += 1) {
    const refs = new Map<string, ObjectRef>();
    for (const child of level) {
      for (const owner of child.owners) {
        if (known(owner.uid) || asked.has(owner.uid)) continue;
        asked.add(owner.uid);
        const ref = ownerRef(child, owner);
        refs.set(objectKey(ref), ref);
      }
    }
    if (refs.size === 0) break;
    const answers = await lookUp([...refs.values()]);
    level = [];
    for (const [key, ref] of refs) {
      const answer = answers.get(key) ?? { state: 'unknown', why: { reason: 'not-looked-up' } };
      if (answer.state === 'exists' && answer.meta !== undefined && answer.uid === ref.uid) {
        found.owners.push(answer.meta);
        level.push(answer.meta);
      } else if (answer.state === 'unknown') {
        found.unknown.push({ ref, why: answer.why });
      } else {
        // 404, or the name now holds another object: the owner the child names is gone.
        found.unknown.push({ ref, why: { reason: 'gone' } });
      }
    }
  }
  return found;
}

/** One object a saved file holds: its metadata, or why it could not be read (as written: readers only skip it). */
export type SavedObject = { meta: ObjectMeta } | { unknown: { ref: ObjectRef; why: Json } };

/** An object a lookup could not read, as saved. */
export function unknownObject(u: UnknownObject): SavedObject {
  return { unknown: { ref: u.ref, why: { ...u.why } } };
}

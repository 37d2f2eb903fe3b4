// Who owned what, as saved files keep it: a capture's objects.json and a record's object lines
// (src/io/record-line.ts) hold the same item per object, shaped as the API server's
// PartialObjectMetadata (so `jq .items[].metadata.ownerReferences` reads as it does on a live list):
//
//   {"apiVersion":"apps/v1","kind":"ReplicaSet",
//    "metadata":{"namespace":"shop","name":"web-5d4","uid":"...","creationTimestamp":"2026-11-30T12:00:00Z",
//                "ownerReferences":[{"apiVersion":"apps/v1","kind":"Deployment","name":"web","uid":"...","controller":true}]}}
//
// deletionTimestamp is there when the object was being deleted. An object that was looked up but
// could not be read carries "unknown" instead of owners: {"reason":"gone"} (the server no longer had
// it, or its name held another object), or why the lookup failed ({"reason":"forbidden",...}, the
// LookupFailure of src/core/incarnation.ts). Nothing about its owners is known then.
//
// objects.json: {"kind":"EvtimelineObjects","version":1,"capturedAt":...,"items":[item...]}; its
// capturedAt is events.json's, so a file from another capture is not taken for this one's.
import type { ObjectRef } from '../core/event.ts';
import { asObject, asString, isObject } from '../core/json.ts';
import type { Json } from '../core/json.ts';
import { objectMetaOf } from '../core/object-meta.ts';
import { namespaceProblem, objectNameProblem } from '../core/object-names.ts';
import type { SavedObject } from '../core/object-meta.ts';
import type { ObjectMeta } from '../core/ownership.ts';

const OBJECTS_KIND = 'EvtimelineObjects';
export const OBJECTS_FILE = 'objects.json';


/** Kubernetes writes metadata times to the second (metav1.Time, RFC 3339); milliseconds only when there are some. */
function timeText(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

/** The saved item of one object (see the top of this file). */
export function formatSavedObject(saved: SavedObject): Json {
  if ('unknown' in saved) {
    const { ref, why } = saved.unknown;
    return { apiVersion: ref.apiVersion, kind: ref.kind, metadata: { namespace: ref.namespace, name: ref.name, uid: ref.uid }, unknown: why };
  }
  const m = saved.meta;
  const metadata: Json = { namespace: m.namespace, name: m.name, uid: m.uid };
  if (m.created !== null) metadata.creationTimestamp = timeText(m.created);
  if (m.deleting !== null) metadata.deletionTimestamp = timeText(m.deleting);
  if (m.labels !== undefined) metadata.labels = m.labels;
  metadata.ownerReferences = m.owners.map((o) => ({ apiVersion: o.apiVersion, kind: o.kind, name: o.name, uid: o.uid, controller: o.controller }));
  return { apiVersion: m.apiVersion, kind: m.kind, metadata };
}

/** A saved item back as what it says; null when it is not one (no kind, or no name and uid). */
export function parseSavedObject(item: unknown): SavedObject | null {
  if (!isObject(item)) return null;
  const type = { apiVersion: asString(item.apiVersion), kind: asString(item.kind) };
  if (type.kind === '') return null;
  if (isObject(item.unknown)) {
    const m = asObject(item.metadata);
    const ref: ObjectRef = { ...type, namespace: asString(m.namespace), name: asString(m.name), uid: asString(m.uid), fieldPath: '' };
    if (ref.name === '') return null;
    return { unknown: { ref, why: item.unknown } };
  }
  const meta = objectMetaOf(item.metadata, type);
  return meta === null ? null : { meta };
}

/** `Pod "p" in shop`, `ReplicaSet.apps "web" in shop`: an object as a refusal names it (raw: the printer escapes). */
function describeObject(o: { apiVersion: string; kind: string; name: string; namespace: string }): string {
  const group = o.apiVersion.includes('/') ? `.${o.apiVersion.slice(0, o.apiVersion.indexOf('/'))}` : '';
  return `${o.kind}${group} ${JSON.stringify(o.name)}${o.namespace === '' ? '' : ` in ${o.namespace}`}`;
}

/** Why no API server could have written this saved object, or null. */
function savedObjectProblem(saved: SavedObject): string | null {
  const o = 'meta' in saved ? saved.meta : saved.unknown.ref;
  const name = objectNameProblem(o.name);
  if (name !== null) return `${describeObject(o)}: its name ${name}`;
  const namespace = namespaceProblem(o.namespace);
  if (namespace !== null) return `${describeObject(o)}: its namespace ${namespace}`;
  for (const owner of 'meta' in saved ? saved.meta.owners : []) {
    const problem = objectNameProblem(owner.name);
    if (problem !== null) return `${describeObject(o)}: the name of its owner ${owner.kind} ${problem}`;
  }
  return null;
}

/** What one object is, whichever version of its group was saved: a uid names exactly one of these. */
function identityOf(saved: SavedObject): string {
  const o = 'meta' in saved ? saved.meta : saved.unknown.ref;
  const group = o.apiVersion.includes('/') ? o.apiVersion.slice(0, o.apiVersion.indexOf('/')) : '';
  return JSON.stringify([group, o.kind, o.namespace, o.name]);
}

/**
 * Saved ownership is taken as written only where an API server could have written it: an object
 * whose name, namespace or owner's name no server allows (`x > Pod/spoof` would read as a longer
 * chain) is refused, and so is every object of a uid that two different objects claim (a uid names
 * one object, cluster-wide: either claim could pull the other's events into a tree). The same object
 * saved twice (a record's object lines over time) is no conflict. `refused` says why, one line each.
 */
export function vetSavedObjects(saved: SavedObject[]): { kept: SavedObject[]; refused: string[] } {
  const refused: string[] = [];
  const valid = saved.filter((s) => {
    const problem = savedObjectProblem(s);
    if (problem !== null) refused.push(problem);
    return problem === null;
  });
  // Refused or not, every item's claim counts: a refused object's uid is not free for another to take.
  const claims = new Map<string, Map<string, SavedObject>>();
  for (const s of saved) {
    const uid = 'meta' in s ? s.meta.uid : s.unknown.ref.uid;
    if (uid === '') continue;
    const byIdentity = claims.get(uid) ?? new Map<string, SavedObject>();
    byIdentity.set(identityOf(s), s);
    claims.set(uid, byIdentity);
  }
  const contested = new Set<string>();
  for (const [uid, byIdentity] of claims) {
    if (byIdentity.size < 2) continue;
    contested.add(uid);
    const names = [...byIdentity.values()].map((s) => describeObject('meta' in s ? s.meta : s.unknown.ref));
    refused.push(`uid ${uid} is claimed by ${names.join(' and by ')}: none of them is taken`);
  }
  const kept = valid.filter((s) => !contested.has('meta' in s ? s.meta.uid : s.unknown.ref.uid));
  return { kept, refused };
}

/** The objects whose owners a saved file knows (its unknown ones left out), one per uid, the last one saved winning. */
export function knownObjects(saved: Iterable<SavedObject>): ObjectMeta[] {
  const byUid = new Map<string, ObjectMeta>();
  for (const s of saved) if ('meta' in s) byUid.set(s.meta.uid, s.meta);
  return [...byUid.values()];
}

/**
 * A saved input's EventSource.ownership: the objects it knows in a namespace, with the
 * cluster-scoped ones (namespace '') that may own them.
 */
export function ownershipOf(saved: SavedObject[]): (namespace: string) => Promise<ObjectMeta[]> {
  const known = knownObjects(saved);
  return async (namespace) => known.filter((m) => m.namespace === namespace || m.namespace === '');
}

/** objects.json of a capture taken at `capturedAt` (ISO, as events.json says it). */
export function formatObjectsFile(capturedAt: string, saved: SavedObject[]): string {
  return `${JSON.stringify({ kind: OBJECTS_KIND, version: 1, capturedAt, items: saved.map(formatSavedObject) }, null, 2)}\n`;
}

/** Why an objects.json is not taken: the words after `objects.json ` in a warning. */
type ObjectsFileRefusal = 'is not JSON' | 'is not an objects.json' | 'belongs to another capture';

/**
 * objects.json's objects, when it is one of the capture taken at `capturedAt` (epoch ms, as
 * events.json says it); else why not (not JSON, another kind, another capture): the capture
 * then tells no ownership. Items that are not objects are skipped, one by one.
 */
export function readObjectsFile(text: string, capturedAt: number | null): { objects: SavedObject[] } | { refused: ObjectsFileRefusal } {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return { refused: 'is not JSON' };
  }
  if (!isObject(doc) || doc.kind !== OBJECTS_KIND || !Array.isArray(doc.items)) return { refused: 'is not an objects.json' };
  if (capturedAt === null || Date.parse(asString(doc.capturedAt)) !== capturedAt) return { refused: 'belongs to another capture' };
  return {
    objects: doc.items.flatMap((item) => {
      const saved = parseSavedObject(item);
      return saved === null ? [] : [saved];
    }),
  };
}

/** readObjectsFile's objects, null when refused. */
export function parseObjectsFile(text: string, capturedAt: number | null): SavedObject[] | null {
  const read = readObjectsFile(text, capturedAt);
  return 'objects' in read ? read.objects : null;
}

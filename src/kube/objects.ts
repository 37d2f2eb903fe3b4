// Looks up the live objects events are about, once per distinct object: discovery of the Kind's
// resource (src/kube/discovery.ts, once per group/version and run), then one metadata-only LIST per collection (a resource in one
// namespace, or a cluster-scoped resource) that holds more than a few of them, else a GET each: with
// -A on a busy cluster, thousands of GETs would come before the first row. A resource asked about
// in several namespaces is first tried as one LIST across all of them (see listAcrossNamespaces). Whatever stops a lookup
// (a Kind the reader may not get, a group/version no longer served, a Kind discovery does not list,
// an unreachable server) makes that object "unknown": an incarnation that cannot be told is not an error.
import type { ObjectRef } from '../core/event.ts';
import { objectKey } from '../core/identity.ts';
import { objectMetaOf } from '../core/object-meta.ts';
import type { LookupFailure, ObjectLookup } from '../core/incarnation.ts';
import type { ServedResource } from '../core/resources.ts';
import { InvalidNameError, pathSegment } from './api-names.ts';
import { ApiError, PAGE_SIZE } from './http.ts';
import type { Getter } from './http.ts';
import { continueTokens } from './paging.ts';
import { eachLimited } from '../core/bounded.ts';
import { groupVersionPath, lookupFailure, serverDiscovery } from './discovery.ts';
import type { GroupVersionDiscovery, ServerDiscovery } from './discovery.ts';

// Only the object's uid and creationTimestamp matter: ask for its metadata alone, so a lookup never
// pulls a Secret's data or a large spec (plain JSON remains the fallback for servers that can't).
const METADATA_ONLY = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json';
const METADATA_LIST = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';

/** The objects of one resource in one namespace (all of a cluster-scoped resource): one LIST can answer them all. */
interface Collection {
  resource: ServedResource;
  /** `/api/v1/namespaces/NS/pods`, `/api/v1/nodes` */
  path: string;
  /** the resource in all namespaces: `/api/v1/pods` */
  everywhere: string;
  refs: ObjectRef[];
}

function collectionPath(apiVersion: string, resource: ServedResource, namespace: string): string {
  const root = groupVersionPath(apiVersion) ?? '';
  const scope = resource.namespaced ? `/namespaces/${pathSegment('namespace', namespace)}` : '';
  return `${root}${scope}/${pathSegment('resource', resource.resource)}`;
}

/** The resource a ref's object is read from, or why it cannot be. */
function resourceOf(ref: ObjectRef, discovery: GroupVersionDiscovery): ServedResource | { state: 'unknown'; why: LookupFailure } {
  if (!discovery.served) return { state: 'unknown', why: discovery.why };
  // Discovery leaves out pods/status, pods/log, ... (the Kind of their parent too): only the resource itself can be read.
  const resource = discovery.resources.find((r) => r.kind === ref.kind);
  if (resource === undefined) return { state: 'unknown', why: { reason: 'no-kind', apiVersion: ref.apiVersion, kind: ref.kind } };
  if (!resource.verbs.includes('get')) return { state: 'unknown', why: { reason: 'no-get', resource: resource.resource } };
  if (resource.namespaced && ref.namespace === '') return { state: 'unknown', why: { reason: 'no-namespace', kind: ref.kind, name: ref.name } };
  // An event may name any object, `..` included: a name no server can hold is never put in a path.
  try {
    pathSegment('resource name', ref.name);
    if (resource.namespaced) pathSegment('namespace', ref.namespace);
  } catch (error) {
    if (error instanceof InvalidNameError) return { state: 'unknown', why: { reason: 'invalid-name', detail: error.message } };
    throw error;
  }
  return resource;
}

type Metadata = { uid?: unknown; creationTimestamp?: unknown; name?: unknown; namespace?: unknown; ownerReferences?: unknown } | undefined;

function fromMetadata(metadata: Metadata, ref: ObjectRef): ObjectLookup {
  // Only the object asked for answers for it (a path a proxy rewrote must not lend another's uid).
  if (metadata?.name !== ref.name || (typeof metadata.namespace === 'string' && metadata.namespace !== '' && metadata.namespace !== ref.namespace)) {
    return { state: 'unknown', why: { reason: 'another-object', kind: ref.kind, name: ref.name } };
  }
  const uid = metadata?.uid;
  if (typeof uid !== 'string' || uid === '') return { state: 'unknown', why: { reason: 'no-uid', kind: ref.kind, name: ref.name } };
  const created = metadata?.creationTimestamp;
  // The metadata-only answer carries ownerReferences too: the owners come with the lookup, free.
  const meta = objectMetaOf(metadata, ref) ?? undefined;
  return { state: 'exists', uid, creationTimestamp: typeof created === 'string' && created !== '' ? created : null, ...(meta ? { meta } : {}) };
}

async function getOne(get: Getter, collection: Collection, ref: ObjectRef): Promise<ObjectLookup> {
  try {
    const object = (await get(`${collection.path}/${pathSegment('resource name', ref.name)}`, METADATA_ONLY)) as { metadata?: Metadata } | null;
    return fromMetadata(object?.metadata, ref);
  } catch (error) {
    if (error instanceof ApiError && error.code === 404) return { state: 'gone' };
    return { state: 'unknown', why: lookupFailure(error, 'get', collection.resource.resource) };
  }
}

/**
 * Whether to read another page, after `pages` of them, given how many items the list holds in all
 * by its first page (null: it did not say).
 */
type ReadOn = (pages: number, total: number | null) => boolean;

/**
 * Pages through a list; the metadata of each object by `keyOf`. Throws what the Getter throws;
 * null when `goOn` stops it before its last page.
 */
async function listAll(get: Getter, path: string, keyOf: (metadata: Metadata) => string, goOn?: ReadOn): Promise<Map<string, Metadata> | null> {
  const byKey = new Map<string, Metadata>();
  let token: string | undefined = '';
  const tokens = continueTokens(path);
  let pages = 0;
  let total: number | null = null;
  do {
    const page = (await get(`${path}?limit=${PAGE_SIZE}${token ? `&continue=${encodeURIComponent(token)}` : ''}`, METADATA_LIST)) as {
      items?: unknown;
      metadata?: { continue?: unknown; remainingItemCount?: unknown };
    } | null;
    const items = Array.isArray(page?.items) ? (page.items as { metadata?: Metadata }[]) : [];
    for (const item of items) if (typeof item?.metadata?.name === 'string') byKey.set(keyOf(item.metadata), item.metadata);
    token = tokens.next(page?.metadata?.continue);
    pages += 1;
    if (pages === 1) {
      const remaining = page?.metadata?.remainingItemCount;
      total = typeof remaining === 'number' ? items.length + remaining : null;
    }
    if (goOn !== undefined && token !== undefined && !goOn(pages, total)) return null;
  } while (token !== undefined);
  return byKey;
}

/**
 * Answers every ref of the collection from one LIST: an object absent from it is gone. False when
 * the reader may not list (403: RBAC can grant get without list): the refs are then read one by one.
 */
async function listCollection(get: Getter, collection: Collection, found: Map<string, ObjectLookup>): Promise<boolean> {
  let byName: Map<string, Metadata>;
  try {
    byName = (await listAll(get, collection.path, (metadata) => metadata?.name as string)) as Map<string, Metadata>;
  } catch (error) {
    if (error instanceof ApiError && error.code === 403) return false;
    const unknown: ObjectLookup = { state: 'unknown', why: lookupFailure(error, 'list', collection.resource.resource) };
    for (const ref of collection.refs) found.set(objectKey(ref), unknown);
    return true;
  }
  for (const ref of collection.refs) {
    const metadata = byName.get(ref.name);
    found.set(objectKey(ref), metadata === undefined ? { state: 'gone' } : fromMetadata(metadata, ref));
  }
  return true;
}

/**
 * How many requests may be in flight at once: enough to be quick, few enough not to stampede a
 * server (kube-apiserver's --max-requests-inflight is 400). 400 objects in 50 namespaces took 152
 * requests one namespace at a time (a LIST of each namespace's Pods, a GET each for the rest):
 * about 0.3 s at 32 in flight, 0.5 to 1.1 s at 8, on a loaded 2-core machine, 0.1 s CPU either way;
 * listed across namespaces, they take 5.
 */
const LOOKUP_CONCURRENCY = 16;
/** A collection holding more objects to look up than this is LISTed rather than read with a GET each. */
const LIST_ABOVE = 3;

/** Groups the refs by the collection they are read from; refs that cannot be read are answered unknown at once. */
function collect(refs: ObjectRef[], discoveries: Map<string, GroupVersionDiscovery>, found: Map<string, ObjectLookup>): Collection[] {
  const collections = new Map<string, Collection>();
  for (const ref of refs) {
    const resource = resourceOf(ref, discoveries.get(ref.apiVersion) as GroupVersionDiscovery);
    if ('state' in resource) {
      found.set(objectKey(ref), resource);
      continue;
    }
    const path = collectionPath(ref.apiVersion, resource, ref.namespace);
    const everywhere = collectionPath(ref.apiVersion, { ...resource, namespaced: false }, '');
    const collection = collections.get(path) ?? { resource, path, everywhere, refs: [] };
    collection.refs.push(ref);
    collections.set(path, collection);
  }
  return [...collections.values()];
}

/**
 * One resource's collections in several namespaces (a read of all namespaces: pods in fifty of
 * them), which one LIST across all namespaces may answer in fewer requests than a LIST or GETs in
 * each namespace would take.
 */
interface Spread {
  /** `/api/v1/pods`, `/apis/apps/v1/replicasets` */
  path: string;
  collections: Collection[];
  /** the requests the collections would take one namespace at a time */
  requests: number;
}

const listable = (collection: Collection): boolean => collection.refs.length > LIST_ABOVE && collection.resource.verbs.includes('list');

/** The collections of a namespaced resource in more namespaces than one, when going one by one would take more than two requests. */
function spreads(collections: Collection[]): { spread: Spread[]; alone: Collection[] } {
  const byResource = new Map<string, Spread>();
  const alone: Collection[] = [];
  for (const c of collections) {
    if (!c.resource.namespaced || !c.resource.verbs.includes('list')) {
      alone.push(c);
      continue;
    }
    const spread = byResource.get(c.everywhere) ?? { path: c.everywhere, collections: [], requests: 0 };
    spread.collections.push(c);
    spread.requests += listable(c) ? 1 : c.refs.length;
    byResource.set(c.everywhere, spread);
  }
  const spread: Spread[] = [];
  for (const s of byResource.values()) {
    if (s.collections.length > 1 && s.requests > 2) spread.push(s);
    else alone.push(...s.collections);
  }
  return { spread, alone };
}

/** Items of the whole list per object asked, past one page, above which a list across namespaces reads too much it was not asked. */
const ITEMS_PER_REF = 4;

/**
 * Answers a spread's refs from one LIST across all namespaces, when the list's first page shows it
 * takes fewer requests than the namespaces one by one and holds at most one page or ITEMS_PER_REF
 * items per ref (remainingItemCount, an estimate: a list that runs past the requests it was
 * allowed stops). False when it was not worth it, not allowed (RBAC may grant list in some
 * namespaces only) or failed: the namespaces are then read one by one, as without it.
 */
async function listAcrossNamespaces(get: Getter, spread: Spread, found: Map<string, ObjectLookup>): Promise<boolean> {
  const refs = spread.collections.flatMap((c) => c.refs);
  const keyOf = (namespace: unknown, name: unknown): string => `${String(namespace)}/${String(name)}`;
  const pagesFor = (items: number): number => Math.max(1, Math.ceil(items / PAGE_SIZE));
  const tooMuch = (total: number | null): boolean =>
    total === null || pagesFor(total) >= spread.requests || total > Math.max(PAGE_SIZE, ITEMS_PER_REF * refs.length);
  // The estimate decides after the first page; a list that runs on past the requests saved stops.
  const worthIt: ReadOn = (pages, total) => !tooMuch(total) && pages < spread.requests - 1;
  let byKey: Map<string, Metadata> | null;
  try {
    byKey = await listAll(get, spread.path, (metadata) => keyOf(metadata?.namespace, metadata?.name), worthIt);
  } catch {
    return false;
  }
  if (byKey === null) return false;
  for (const ref of refs) {
    const metadata = byKey.get(keyOf(ref.namespace, ref.name));
    found.set(objectKey(ref), metadata === undefined ? { state: 'gone' } : fromMetadata(metadata, ref));
  }
  return true;
}

type Lookup = { list: Collection } | { get: ObjectRef; from: Collection };

function getsOf(collection: Collection): Lookup[] {
  return collection.refs.map((ref) => ({ get: ref, from: collection }));
}

/** Collections already read in full by another reader (the facts' Pods of the namespace), by collection path: each object's metadata by name. */
export type Listed = Map<string, Map<string, unknown>>;

/**
 * Answers from `listed` the refs it holds, and returns the collections with the refs it does not.
 * A listing read before the events were (src/kube/facts.ts startFacts) may lack an object made since:
 * one it lacks is looked up as usual, never called gone on its word.
 */
function answerFromListed(collections: Collection[], listed: Listed, found: Map<string, ObjectLookup>): Collection[] {
  return collections.flatMap((collection) => {
    const byName = listed.get(collection.path);
    if (byName === undefined) return [collection];
    const rest = collection.refs.filter((ref) => {
      const metadata = byName.get(ref.name);
      if (metadata !== undefined) found.set(objectKey(ref), fromMetadata(metadata as Metadata, ref));
      return metadata === undefined;
    });
    return rest.length === 0 ? [] : [{ ...collection, refs: rest }];
  });
}

/**
 * Looks up each ref (callers pass distinct objects: see objectsToLookUp) and answers by objectKey.
 * Each group/version's resources come from `discovery` (src/kube/discovery.ts: asked of the server
 * once per group/version and run, not at all when the whole discovery already holds every Kind
 * asked of it), each collection is LISTed once when it holds more than LIST_ABOVE of the refs (and
 * its resource can be listed), every other ref is read with a GET; at most `concurrency` requests
 * are in flight; refs a collection in `listed` holds are answered from it. Never throws.
 */
export async function lookUpObjects(
  get: Getter,
  refs: ObjectRef[],
  concurrency = LOOKUP_CONCURRENCY,
  discovery: ServerDiscovery = serverDiscovery(get),
  listed: Listed = new Map(),
): Promise<Map<string, ObjectLookup>> {
  const found = new Map<string, ObjectLookup>();
  const discoveries = new Map<string, GroupVersionDiscovery>();
  await eachLimited([...new Set(refs.map((r) => r.apiVersion))], concurrency, async (apiVersion) => {
    const kinds = refs.filter((r) => r.apiVersion === apiVersion).map((r) => r.kind);
    discoveries.set(apiVersion, await discovery.groupVersion(apiVersion, kinds));
  });

  const { spread, alone } = spreads(answerFromListed(collect(refs, discoveries, found), listed, found));
  await eachLimited(spread, concurrency, async (s) => {
    if (!(await listAcrossNamespaces(get, s, found))) alone.push(...s.collections);
  });
  const lookups = alone.flatMap((c): Lookup[] => (listable(c) ? [{ list: c }] : getsOf(c)));
  const unlisted: Lookup[] = [];
  const run = async (lookup: Lookup): Promise<void> => {
    if (!('list' in lookup)) found.set(objectKey(lookup.get), await getOne(get, lookup.from, lookup.get));
    else if (!(await listCollection(get, lookup.list, found))) unlisted.push(...getsOf(lookup.list));
  };
  await eachLimited(lookups, concurrency, run);
  await eachLimited(unlisted, concurrency, run);
  return found;
}

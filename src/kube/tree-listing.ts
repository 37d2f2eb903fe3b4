// Who owns what in one namespace, listed the way kubectl-tree lists it (ahmetb/kubectl-tree
// cmd/kubectl-tree/apis.go findAPIs and query.go getAllResources): every namespaced resource the
// server lets be listed, in its preferred version (once per group/resource), as metadata-only lists,
// so a Secret's data or a big spec never travels. One paginated LIST per resource, a few at a time,
// never one request per object. Events are skipped (core and events.k8s.io: thousands of objects
// that own nothing). A resource the reader may not list (403), or that went away between discovery
// and the list (404, 405: an aggregated API's resource without list) is skipped and reported, not fatal.
import { asArray, asObject } from '../core/json.ts';
import { objectMetaOf } from '../core/object-meta.ts';
import type { ObjectMeta } from '../core/ownership.ts';
import type { ServedResource } from '../core/resources.ts';
import { InvalidNameError, pathSegment } from './api-names.ts';
import { mapBounded } from '../core/bounded.ts';
import { ApiError, PAGE_SIZE } from './http.ts';
import type { Getter } from './http.ts';
import { continueTokens } from './paging.ts';

const METADATA_LIST = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';

/**
 * LISTs in flight at once. kubectl-tree runs them all at once (one goroutine per resource: ~60 on
 * a bare cluster, hundreds with CRDs); client-go's default client-side limit is QPS 5 burst 10.
 * Eight keeps a 2-core API server responsive and a 60-resource namespace under a second.
 */
const LIST_CONCURRENCY = 8;

/** Why a resource was left out of the ownership: the reader may not list it, or the server no longer serves it. */
export interface UnlistedResource {
  group: string;
  resource: string;
  kind: string;
  /** 403 forbidden, 404 not found, 405 method not allowed */
  code: number;
}

export interface NamespaceOwnership {
  objects: ObjectMeta[];
  unlisted: UnlistedResource[];
  /** the resources listed in full: an object of one, absent from `objects`, did not exist when it was listed */
  listed: ServedResource[];
  /** each object's metadata.creationTimestamp as the server sent it (lookups answered from the lists pass it on unchanged) */
  createdText: ReadonlyMap<ObjectMeta, string>;
}

/** Events own nothing and are by far the most numerous objects of a busy namespace. */
function isEvents(r: ServedResource): boolean {
  return r.resource === 'events' && (r.group === '' || r.group === 'events.k8s.io');
}

/** What to list: namespaced, listable, not events; one version per group/resource, the preferred (discovery lists it first). */
export function listableResources(served: ServedResource[]): ServedResource[] {
  const seen = new Set<string>();
  return served.filter((r) => {
    const key = `${r.group}\u0000${r.resource}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return r.namespaced && r.verbs.includes('list') && !isEvents(r);
  });
}

const apiVersionOf = (r: ServedResource): string => (r.group === '' ? r.version : `${r.group}/${r.version}`);

function listPath(r: ServedResource, namespace: string): string {
  const root = r.group === '' ? `/api/${pathSegment('version', r.version)}` : `/apis/${pathSegment('group', r.group)}/${pathSegment('version', r.version)}`;
  return `${root}/namespaces/${pathSegment('namespace', namespace)}/${pathSegment('resource', r.resource)}`;
}

/** One item of a PartialObjectMetadataList (or of a full list, from a server that ignored the Accept). */
function toObjectMeta(item: unknown, r: ServedResource, namespace: string, createdText: Map<ObjectMeta, string>): ObjectMeta | null {
  // The items of a metadata-only list are PartialObjectMetadata: the Kind is discovery's.
  const metadata = asObject(asObject(item).metadata);
  const found = objectMetaOf(metadata, { apiVersion: apiVersionOf(r), kind: r.kind });
  const meta = found === null || found.namespace !== '' ? found : { ...found, namespace };
  if (meta !== null && typeof metadata.creationTimestamp === 'string' && metadata.creationTimestamp !== '') createdText.set(meta, metadata.creationTimestamp);
  return meta;
}

async function listResource(get: Getter, r: ServedResource, namespace: string, createdText: Map<ObjectMeta, string>): Promise<ObjectMeta[]> {
  const path = listPath(r, namespace);
  const tokens = continueTokens(path);
  const out: ObjectMeta[] = [];
  let token: string | undefined = '';
  do {
    const page = asObject(await get(`${path}?limit=${PAGE_SIZE}${token ? `&continue=${encodeURIComponent(token)}` : ''}`, METADATA_LIST));
    for (const item of asArray(page.items)) {
      const meta = toObjectMeta(item, r, namespace, createdText);
      if (meta !== null) out.push(meta);
    }
    token = tokens.next(asObject(page.metadata).continue);
  } while (token !== undefined);
  return out;
}

const SKIPPED_CODES = new Set([403, 404, 405]);

/** The metadata and owners of every listable object of `namespace`. Throws what the Getter throws but 403/404/405. */
export async function listOwnership(get: Getter, served: ServedResource[], namespace: string, concurrency = LIST_CONCURRENCY): Promise<NamespaceOwnership> {
  const unlisted: UnlistedResource[] = [];
  const listed: ServedResource[] = [];
  const createdText = new Map<ObjectMeta, string>();
  const lists = await mapBounded(listableResources(served), concurrency, async (r) => {
    try {
      const objects = await listResource(get, r, namespace, createdText);
      listed.push(r);
      return objects;
    } catch (error) {
      // A name discovery handed over that no path may hold (a hostile aggregated API): nothing to list.
      if (error instanceof InvalidNameError) return [];
      if (error instanceof ApiError && SKIPPED_CODES.has(error.code)) {
        unlisted.push({ group: r.group, resource: r.resource, kind: r.kind, code: error.code });
        return [];
      }
      throw error;
    }
  });
  return { objects: lists.flat(), unlisted, listed, createdText };
}

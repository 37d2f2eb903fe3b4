// Looks up the live objects events are about, once per distinct object: discovery of the Kind's
// resource (cached per group/version), then a GET. Whatever stops a lookup (a Kind the reader may
// not get, a group/version no longer served, a Kind discovery does not list, an unreachable server)
// makes that object "unknown": an incarnation that cannot be told is not an error.
import type { ObjectRef } from '../core/event.ts';
import { objectKey } from '../core/incarnation.ts';
import type { ObjectLookup } from '../core/incarnation.ts';
import { ApiError, apiRequest } from './http.ts';
import type { KubeTarget } from './kubeconfig.ts';

/** GET one path and return its JSON; throws ApiError on a non-2xx answer. */
export type Getter = (path: string, accept?: string) => Promise<unknown>;

// Only the object's uid and creationTimestamp matter: ask for its metadata alone, so a lookup never
// pulls a Secret's data or a large spec (plain JSON remains the fallback for servers that can't).
export const METADATA_ONLY = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json';

export function targetGetter(target: KubeTarget, timeoutMs: number): Getter {
  return (path, accept) => apiRequest(target, { method: 'GET', path, timeoutMs, accept });
}

interface ApiResource {
  name: string;
  kind: string;
  namespaced: boolean;
  verbs: string[];
}

type Discovery = { served: true; resources: ApiResource[] } | { served: false; why: string };

/** `/api/v1` for the core group, `/apis/<group>/<version>` for the others; null for an apiVersion with no version. */
export function groupVersionPath(apiVersion: string): string | null {
  if (apiVersion === 'v1') return '/api/v1';
  const parts = apiVersion.split('/');
  if (parts.length !== 2 || parts[0] === '' || parts[1] === '') return null;
  return `/apis/${parts.map(encodeURIComponent).join('/')}`;
}

function whyFailed(error: unknown, what: string): string {
  if (error instanceof ApiError) {
    if (error.code === 403) return `not allowed to ${what}`;
    return `cannot ${what}: ${error.message}`;
  }
  return `cannot ${what}: ${error instanceof Error ? error.message : String(error)}`;
}

function toResources(list: unknown): ApiResource[] {
  const resources = (list as { resources?: unknown } | null)?.resources;
  if (!Array.isArray(resources)) return [];
  return resources.flatMap((r: Record<string, unknown>) =>
    typeof r.name === 'string' && typeof r.kind === 'string'
      ? [{ name: r.name, kind: r.kind, namespaced: r.namespaced === true, verbs: Array.isArray(r.verbs) ? r.verbs.map(String) : [] }]
      : [],
  );
}

async function discover(get: Getter, apiVersion: string): Promise<Discovery> {
  const path = groupVersionPath(apiVersion);
  if (path === null) return { served: false, why: `apiVersion ${apiVersion} names no version` };
  try {
    return { served: true, resources: toResources(await get(path)) };
  } catch (error) {
    if (error instanceof ApiError && error.code === 404) return { served: false, why: `${apiVersion} is no longer served` };
    return { served: false, why: whyFailed(error, `discover ${apiVersion}`) };
  }
}

function objectPath(apiVersion: string, resource: ApiResource, ref: ObjectRef): string {
  const root = groupVersionPath(apiVersion) ?? '';
  const scope = resource.namespaced ? `/namespaces/${encodeURIComponent(ref.namespace)}` : '';
  return `${root}${scope}/${resource.name}/${encodeURIComponent(ref.name)}`;
}

async function lookUp(get: Getter, ref: ObjectRef, discovery: Discovery): Promise<ObjectLookup> {
  if (!discovery.served) return { state: 'unknown', why: discovery.why };
  // pods/status, pods/log, ... have the Kind of their parent too: only the resource itself can be read.
  const resource = discovery.resources.find((r) => r.kind === ref.kind && !r.name.includes('/'));
  if (resource === undefined) return { state: 'unknown', why: `${ref.apiVersion} serves no kind ${ref.kind}` };
  if (!resource.verbs.includes('get')) return { state: 'unknown', why: `${resource.name} cannot be read with get` };
  if (resource.namespaced && ref.namespace === '') return { state: 'unknown', why: `the event names no namespace for ${ref.kind} ${ref.name}` };
  try {
    const object = (await get(objectPath(ref.apiVersion, resource, ref), METADATA_ONLY)) as { metadata?: { uid?: unknown; creationTimestamp?: unknown } } | null;
    const uid = object?.metadata?.uid;
    if (typeof uid !== 'string' || uid === '') return { state: 'unknown', why: `the server sent ${ref.kind} ${ref.name} without a uid` };
    const created = object?.metadata?.creationTimestamp;
    return { state: 'exists', uid, creationTimestamp: typeof created === 'string' && created !== '' ? created : null };
  } catch (error) {
    if (error instanceof ApiError && error.code === 404) return { state: 'gone' };
    return { state: 'unknown', why: whyFailed(error, `get ${resource.name}`) };
  }
}

/** Runs `work` on every item with at most `limit` at a time. */
async function eachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next] as T;
      next += 1;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** How many GETs may be in flight at once: enough to be quick, few enough not to stampede a server. */
export const LOOKUP_CONCURRENCY = 8;

/**
 * Looks up each ref (callers pass distinct objects: see objectsToLookUp) and answers by objectKey.
 * Discovery is asked once per group/version however many objects share it. Never throws.
 */
export async function lookUpObjects(get: Getter, refs: ObjectRef[], concurrency = LOOKUP_CONCURRENCY): Promise<Map<string, ObjectLookup>> {
  const discoveries = new Map<string, Promise<Discovery>>();
  const found = new Map<string, ObjectLookup>();
  await eachLimited(refs, concurrency, async (ref) => {
    let discovery = discoveries.get(ref.apiVersion);
    if (discovery === undefined) {
      discovery = discover(get, ref.apiVersion);
      discoveries.set(ref.apiVersion, discovery);
    }
    found.set(objectKey(ref), await lookUp(get, ref, await discovery));
  });
  return found;
}

// What the API server serves: one discovery per server, one cache, read for `--for TYPE/NAME`
// (core/resources.ts), for --tree's ownership lists and for object lookups, as kubectl does.
// The whole server: aggregated discovery first (GET /api and /apis as APIGroupDiscoveryList,
// apidiscovery.k8s.io/v2, GA since Kubernetes 1.30), two requests; a server that answers with the
// legacy documents instead (APIVersions, APIGroupList) gets one GET per group/version, a few at a
// time. One group/version (an object lookup's): answered from the whole server's discovery when it
// was read and holds the Kinds asked, else from a GET of that group/version alone, kept for the
// run. Read-only; every answer is kept (the promise of the whole, each group/version served).
import type { ServedResource } from '../core/resources.ts';
import type { ResourceDiscovery } from '../core/source.ts';
import type { LookupFailure } from '../core/incarnation.ts';
import { asArray, asObject, asStrings, stringOnly } from '../core/json.ts';
import type { Json } from '../core/json.ts';
import { mapBounded } from '../core/bounded.ts';
import { dns1123LabelProblems, dns1123SubdomainProblems } from '../core/object-names.ts';
import { ApiError } from './http.ts';
import type { Getter } from './http.ts';

const AGGREGATED =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';

/** group/version documents read at once when the server has no aggregated discovery */
const CONCURRENCY = 4;

/** An APIGroupDiscoveryList's resources (apidiscovery.k8s.io/v2 APIResourceDiscovery), versions in the server's order of preference. */
function fromAggregated(list: Json): ServedResource[] {
  return asArray(list.items).flatMap((item) => {
    const group = stringOnly(asObject(asObject(item).metadata).name);
    return asArray(asObject(item).versions).flatMap((v) => {
      const version = stringOnly(asObject(v).version);
      return asArray(asObject(v).resources).flatMap((r) => {
        const res = asObject(r);
        const kind = stringOnly(asObject(res.responseKind).kind);
        if (stringOnly(res.resource) === '' || kind === '') return [];
        return [
          {
            group,
            version,
            resource: stringOnly(res.resource),
            singular: stringOnly(res.singularResource),
            kind,
            shortNames: asStrings(res.shortNames),
            namespaced: stringOnly(res.scope) === 'Namespaced',
            verbs: asStrings(res.verbs),
          },
        ];
      });
    });
  });
}

/** An APIResourceList (legacy per group/version discovery), subresources (`pods/log`) left out. */
function fromResourceList(group: string, version: string, list: unknown): ServedResource[] {
  return asArray(asObject(list).resources).flatMap((r) => {
    const res = asObject(r);
    const name = stringOnly(res.name);
    if (name === '' || name.includes('/') || stringOnly(res.kind) === '') return [];
    return [
      {
        group,
        version,
        resource: name,
        singular: stringOnly(res.singularName),
        kind: stringOnly(res.kind),
        shortNames: asStrings(res.shortNames),
        namespaced: res.namespaced === true,
        verbs: asStrings(res.verbs),
      },
    ];
  });
}

/** `apps/v1`, `v1` */
const apiVersionOf = (group: string, version: string): string => (group === '' ? version : `${group}/${version}`);

/** The group/versions a legacy APIGroupList (or /api's APIVersions) names, preferred version first. */
function groupVersions(doc: Json): { group: string; version: string }[] {
  if (stringOnly(doc.kind) === 'APIVersions') return asStrings(doc.versions).map((version) => ({ group: '', version }));
  return asArray(doc.groups).flatMap((g) => {
    const group = stringOnly(asObject(g).name);
    const preferred = stringOnly(asObject(asObject(g).preferredVersion).version);
    const versions = asArray(asObject(g).versions).map((v) => stringOnly(asObject(v).version)).filter((v) => v !== '');
    versions.sort((a, b) => Number(b === preferred) - Number(a === preferred));
    return versions.map((version) => ({ group, version }));
  });
}

/**
 * `/api/v1` for the core group, `/apis/<group>/<version>` for the others; null for an apiVersion that
 * names no group and version a server could serve (a group is a DNS subdomain, a version a DNS label:
 * an event's involvedObject.apiVersion is free text, `../..` included).
 */
export function groupVersionPath(apiVersion: string): string | null {
  if (apiVersion === 'v1') return '/api/v1';
  const [group, version, ...rest] = apiVersion.split('/');
  if (group === undefined || version === undefined || rest.length > 0) return null;
  if (dns1123SubdomainProblems(group).length > 0 || dns1123LabelProblems(version).length > 0) return null;
  return `/apis/${group}/${version}`;
}

/** Why a request of an object lookup failed: 403 is the reader's rights, anything else the server's answer. */
export function lookupFailure(error: unknown, step: 'discover' | 'list' | 'get', target: string): LookupFailure {
  if (error instanceof ApiError && error.code === 403) return { reason: 'forbidden', step, target };
  return { reason: 'failed', step, target, detail: error instanceof Error ? error.message : String(error) };
}

/** What one group/version serves (subresources left out), or why that cannot be told. */
export type GroupVersionDiscovery = { served: true; resources: ServedResource[] } | { served: false; why: LookupFailure };

/** One server's discovery: the whole of it (ResourceDiscovery), and one group/version at a time. */
export interface ServerDiscovery extends ResourceDiscovery {
  /** what the whole discovery found, if it was read (never reads it, never throws) */
  known(): Promise<ServedResource[] | undefined>;
  /**
   * The group/version's resources, asked of the server (GET of the group/version) only when neither
   * an earlier answer nor the whole discovery holds every Kind in `kinds`: a CRD's version may have
   * changed since. A failure is not kept: the group may be served, or allowed, when asked again.
   */
  groupVersion(apiVersion: string, kinds: readonly string[]): Promise<GroupVersionDiscovery>;
}

/** The discovery of the server `get` reads, read at most once; `whole`: the whole of it, already known. */
export function serverDiscovery(get: Getter, whole?: readonly ServedResource[]): ServerDiscovery {
  let served: Promise<ServedResource[]> | undefined = whole === undefined ? undefined : Promise.resolve([...whole]);
  /** each group/version the server answered for, by apiVersion: the lookups' and the legacy whole discovery's */
  const byVersion = new Map<string, ServedResource[]>();

  /** a group/version being read: lookups running side by side (src/kube/cluster-source.ts) ask it once */
  const reading = new Map<string, Promise<ServedResource[]>>();
  const readGroupVersion = (group: string, version: string): Promise<ServedResource[]> => {
    const apiVersion = apiVersionOf(group, version);
    const inFlight = reading.get(apiVersion);
    if (inFlight !== undefined) return inFlight;
    // Begun after it is kept, so its end (either way) always finds it to drop: a failure is not kept.
    const read = Promise.resolve().then(async () => {
      try {
        const resources = fromResourceList(group, version, await get(group === '' ? `/api/${version}` : `/apis/${group}/${version}`));
        byVersion.set(apiVersion, resources);
        return resources;
      } finally {
        reading.delete(apiVersion);
      }
    });
    reading.set(apiVersion, read);
    return read;
  };
  const readRoot = async (path: '/api' | '/apis'): Promise<ServedResource[]> => {
    const doc = asObject(await get(path, AGGREGATED));
    if (stringOnly(doc.kind) === 'APIGroupDiscoveryList') return fromAggregated(doc);
    // A group/version a lookup already read is not read again.
    const lists = await mapBounded(groupVersions(doc), CONCURRENCY, async ({ group, version }) => byVersion.get(apiVersionOf(group, version)) ?? readGroupVersion(group, version));
    return lists.flat();
  };
  /** The server's resources: the core group (/api) first, then the named groups (/apis) in discovery order. */
  const readWhole = async (): Promise<ServedResource[]> => {
    const [core, named] = await Promise.all([readRoot('/api'), readRoot('/apis')]);
    return [...core, ...named];
  };
  const known = async (): Promise<ServedResource[] | undefined> => (served === undefined ? undefined : served.catch(() => undefined));

  return {
    served: () => (served ??= readWhole()),
    known,
    async groupVersion(apiVersion, kinds) {
      if (groupVersionPath(apiVersion) === null) return { served: false, why: { reason: 'no-version', apiVersion } };
      const all = await known();
      const kept = byVersion.get(apiVersion) ?? all?.filter((r) => apiVersionOf(r.group, r.version) === apiVersion);
      if (kept !== undefined && kept.length > 0 && kinds.every((kind) => kept.some((r) => r.kind === kind))) return { served: true, resources: kept };
      try {
        const [group, version] = apiVersion.includes('/') ? (apiVersion.split('/') as [string, string]) : ['', apiVersion];
        return { served: true, resources: await readGroupVersion(group, version) };
      } catch (error) {
        if (error instanceof ApiError && error.code === 404) return { served: false, why: { reason: 'not-served', apiVersion } };
        return { served: false, why: lookupFailure(error, 'discover', apiVersion) };
      }
    },
  };
}

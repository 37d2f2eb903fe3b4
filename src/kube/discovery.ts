// What the API server serves, for resolving `--for TYPE/NAME` (core/resources.ts) as kubectl does.
// Aggregated discovery first (GET /api and /apis as APIGroupDiscoveryList, apidiscovery.k8s.io/v2,
// GA since Kubernetes 1.30): two requests for the whole server. A server that answers with the
// legacy documents instead (APIVersions, APIGroupList) gets one GET per group/version, a few at a
// time. Read-only, and read once per run (the promise is kept).
import type { ServedResource } from '../core/resources.ts';
import type { ResourceDiscovery } from '../core/source.ts';
import type { Getter } from './objects.ts';
import { mapBounded } from '../core/bounded.ts';

const AGGREGATED =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';

/** group/version documents read at once when the server has no aggregated discovery */
const CONCURRENCY = 4;

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const strings = (v: unknown): string[] => arr(v).filter((x): x is string => typeof x === 'string');

/** An APIGroupDiscoveryList's resources (apidiscovery.k8s.io/v2 APIResourceDiscovery), versions in the server's order of preference. */
function fromAggregated(list: Obj): ServedResource[] {
  return arr(list.items).flatMap((item) => {
    const group = str(obj(obj(item).metadata).name);
    return arr(obj(item).versions).flatMap((v) => {
      const version = str(obj(v).version);
      return arr(obj(v).resources).flatMap((r) => {
        const res = obj(r);
        const kind = str(obj(res.responseKind).kind);
        if (str(res.resource) === '' || kind === '') return [];
        return [
          {
            group,
            version,
            resource: str(res.resource),
            singular: str(res.singularResource),
            kind,
            shortNames: strings(res.shortNames),
            namespaced: str(res.scope) === 'Namespaced',
            verbs: strings(res.verbs),
          },
        ];
      });
    });
  });
}

/** An APIResourceList (legacy per group/version discovery), subresources (`pods/log`) left out. */
function fromResourceList(group: string, version: string, list: unknown): ServedResource[] {
  return arr(obj(list).resources).flatMap((r) => {
    const res = obj(r);
    const name = str(res.name);
    if (name === '' || name.includes('/') || str(res.kind) === '') return [];
    return [
      {
        group,
        version,
        resource: name,
        singular: str(res.singularName),
        kind: str(res.kind),
        shortNames: strings(res.shortNames),
        namespaced: res.namespaced === true,
        verbs: strings(res.verbs),
      },
    ];
  });
}

/** The group/versions a legacy APIGroupList (or /api's APIVersions) names, preferred version first. */
function groupVersions(doc: Obj): { group: string; version: string; path: string }[] {
  if (str(doc.kind) === 'APIVersions') return strings(doc.versions).map((version) => ({ group: '', version, path: `/api/${version}` }));
  return arr(doc.groups).flatMap((g) => {
    const group = str(obj(g).name);
    const preferred = str(obj(obj(g).preferredVersion).version);
    const versions = arr(obj(g).versions).map((v) => str(obj(v).version)).filter((v) => v !== '');
    versions.sort((a, b) => Number(b === preferred) - Number(a === preferred));
    return versions.map((version) => ({ group, version, path: `/apis/${group}/${version}` }));
  });
}

async function readRoot(get: Getter, path: '/api' | '/apis'): Promise<ServedResource[]> {
  const doc = obj(await get(path, AGGREGATED));
  if (str(doc.kind) === 'APIGroupDiscoveryList') return fromAggregated(doc);
  const lists = await mapBounded(groupVersions(doc), CONCURRENCY, async (gv) => fromResourceList(gv.group, gv.version, await get(gv.path)));
  return lists.flat();
}

/** The server's resources: the core group (/api) first, then the named groups (/apis) in discovery order. */
async function discoverResources(get: Getter): Promise<ServedResource[]> {
  const [core, named] = await Promise.all([readRoot(get, '/api'), readRoot(get, '/apis')]);
  return [...core, ...named];
}

/** The ResourceDiscovery port over one server, read at most once. */
export function serverDiscovery(get: Getter): ResourceDiscovery & { known(): Promise<ServedResource[] | undefined> } {
  let served: Promise<ServedResource[]> | undefined;
  return {
    served: () => (served ??= discoverResources(get)),
    /** what discovery found, if it was read (never reads it, never throws): object lookups reuse it */
    known: async () => (served === undefined ? undefined : served.catch(() => undefined)),
  };
}

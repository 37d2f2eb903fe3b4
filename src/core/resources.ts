// Which resource a `--for TYPE/NAME` names, the way kubectl's REST mapper answers it
// (k8s.io/kubectl v0.36.3 pkg/cmd/events decodeResourceTypeName; apimachinery's
// schema.ParseResourceArg and DefaultRESTMapper.ResourcesFor; client-go's shortcut expander):
// the text is lower-cased, then tried as `resource.version.group`, else as `resource.group`
// (`resource` alone: any group); `resource` may be the plural, the singular, the Kind or a short name.
// Pure: the served resources (discovery) are handed in.

/** One resource the API server serves, as discovery lists it (subresources left out). */
export interface ServedResource {
  group: string;
  version: string;
  /** the plural: `pods`, `pipelines` */
  resource: string;
  /** `pod`; discovery may leave it empty (then the lower-cased Kind stands in, as the REST mapper does) */
  singular: string;
  kind: string;
  shortNames: string[];
  /** served per namespace (aggregated discovery's scope "Namespaced", legacy discovery's namespaced) */
  namespaced: boolean;
  /** `get`, `list`, `watch`, ...: what the server lets be asked of the resource */
  verbs: string[];
}

/** What `--for` names once resolved: every event about a `kind` object of `group` matches. */
interface ResolvedKind {
  group: string;
  kind: string;
  resource: string;
}

export type Resolution =
  | { outcome: 'resolved'; target: ResolvedKind }
  /** nothing served matches; `group` is the group the text asked for ('' when it named none) */
  | { outcome: 'unknown'; resource: string; group: string }
  /** several groups serve it: `choices` are `resource.group`, sorted, each a valid --for type */
  | { outcome: 'ambiguous'; resource: string; choices: string[] };

function namesOf(r: ServedResource): string[] {
  const singular = r.singular === '' ? r.kind.toLowerCase() : r.singular.toLowerCase();
  return [r.resource.toLowerCase(), singular, r.kind.toLowerCase(), ...r.shortNames.map((s) => s.toLowerCase())];
}

function matching(resources: ServedResource[], resource: string, group: string | null, version: string | null): ServedResource[] {
  return resources.filter((r) => namesOf(r).includes(resource) && (group === null || r.group === group) && (version === null || r.version === version));
}

// Kubernetes' own groups: the core group, then the API server's (no dot, or *.k8s.io); anything else is a custom resource's.
function rank(group: string): number {
  if (group === '') return 0;
  return !group.includes('.') || group.endsWith('.k8s.io') ? 1 : 2;
}

/**
 * kubectl's discovery mapper prefers groups in discovery order (core, the API server's own, then
 * custom resources) and so silently picks one of two CRDs sharing a Kind; we keep that order between
 * the levels (`events` is the core Event, not events.k8s.io's) but refuse to choose within one.
 */
function choose(found: ServedResource[], resource: string): Resolution {
  // One group may serve a resource in several versions: discovery lists the preferred version first.
  const byGroup = new Map<string, ServedResource>();
  for (const r of found) if (!byGroup.has(r.group)) byGroup.set(r.group, r);
  const best = Math.min(...[...byGroup.keys()].map(rank));
  const top = [...byGroup.values()].filter((r) => rank(r.group) === best);
  const [first] = top;
  if (top.length === 1 && first !== undefined) {
    return { outcome: 'resolved', target: { group: first.group, kind: first.kind, resource: first.resource } };
  }
  const choices = top.map((r) => `${r.resource}.${r.group}`).sort();
  return { outcome: 'ambiguous', resource, choices };
}

/** Resolves the TYPE of `--for TYPE/NAME` against what the server serves. */
export function resolveResource(text: string, resources: ServedResource[]): Resolution {
  const dots = text.toLowerCase().split('.');
  // schema.ParseResourceArg: two dots or more may be resource.version.group ...
  if (dots.length >= 3) {
    const [resource = '', version = '', ...group] = dots;
    const found = matching(resources, resource, group.join('.'), version);
    if (found.length > 0) return choose(found, resource);
  }
  // ... else resource.group (schema.ParseGroupResource), or a bare resource of any group.
  const [resource = '', ...rest] = dots;
  const group = rest.length === 0 ? null : rest.join('.');
  const found = matching(resources, resource, group, null);
  if (found.length === 0) return { outcome: 'unknown', resource, group: group ?? '' };
  return choose(found, resource);
}

/** The group part of an apiVersion: `apps/v1` is apps, `v1` (or nothing) is the core group ''. */
export function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

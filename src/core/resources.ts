// Which resource a `--for TYPE/NAME` names, the way kubectl's REST mapper answers it
// (k8s.io/kubectl v0.36.3 pkg/cmd/events decodeResourceTypeName; apimachinery's
// schema.ParseResourceArg and DefaultRESTMapper.ResourcesFor; client-go's shortcut expander):
// the text is lower-cased, then tried as `resource.version.group`, else as `resource.group`
// (`resource` alone: any group); `resource` may be the plural, the singular, the Kind or a short name.
// Pure: the served resources (discovery) are handed in.
import { groupOf } from './identity.ts';

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

// The Kinds every API server serves, by group (kubectl api-resources, Kubernetes v1.36): offline, a
// bare `--for pod/x` names the core Pod, as kubectl's discovery order has it, even where a saved file
// holds no core Pod's events (then it finds none, as kubectl would), never a custom resource's Pod.
const BUILT_IN_GROUPS: Record<string, string> = {
  Binding: '', ComponentStatus: '', ConfigMap: '', Endpoints: '', Event: '', LimitRange: '', Namespace: '', Node: '',
  PersistentVolume: '', PersistentVolumeClaim: '', Pod: '', PodTemplate: '', ReplicationController: '', ResourceQuota: '',
  Secret: '', Service: '', ServiceAccount: '',
  ControllerRevision: 'apps', DaemonSet: 'apps', Deployment: 'apps', ReplicaSet: 'apps', StatefulSet: 'apps',
  CronJob: 'batch', Job: 'batch',
  HorizontalPodAutoscaler: 'autoscaling',
  PodDisruptionBudget: 'policy',
  CertificateSigningRequest: 'certificates.k8s.io',
  Lease: 'coordination.k8s.io',
  EndpointSlice: 'discovery.k8s.io',
  Ingress: 'networking.k8s.io', IngressClass: 'networking.k8s.io', IPAddress: 'networking.k8s.io', NetworkPolicy: 'networking.k8s.io', ServiceCIDR: 'networking.k8s.io',
  RuntimeClass: 'node.k8s.io',
  ClusterRole: 'rbac.authorization.k8s.io', ClusterRoleBinding: 'rbac.authorization.k8s.io', Role: 'rbac.authorization.k8s.io', RoleBinding: 'rbac.authorization.k8s.io',
  PriorityClass: 'scheduling.k8s.io',
  CSIDriver: 'storage.k8s.io', CSINode: 'storage.k8s.io', CSIStorageCapacity: 'storage.k8s.io', StorageClass: 'storage.k8s.io', VolumeAttachment: 'storage.k8s.io', VolumeAttributesClass: 'storage.k8s.io',
  CustomResourceDefinition: 'apiextensions.k8s.io',
  APIService: 'apiregistration.k8s.io',
  MutatingWebhookConfiguration: 'admissionregistration.k8s.io', ValidatingAdmissionPolicy: 'admissionregistration.k8s.io', ValidatingAdmissionPolicyBinding: 'admissionregistration.k8s.io', ValidatingWebhookConfiguration: 'admissionregistration.k8s.io',
  FlowSchema: 'flowcontrol.apiserver.k8s.io', PriorityLevelConfiguration: 'flowcontrol.apiserver.k8s.io',
  DeviceClass: 'resource.k8s.io', ResourceClaim: 'resource.k8s.io', ResourceClaimTemplate: 'resource.k8s.io', ResourceSlice: 'resource.k8s.io',
};

/**
 * Offline (a saved file has no discovery), a bare TYPE (`pod`, `po`, `pipelines`) resolved as online:
 * the groups the file's objects of a matching Kind are in, with the built-in Kind every server serves,
 * stand in for discovery, and are chosen between in kubectl's order (core, the API server's own
 * groups, then custom resources; two custom groups are ambiguous). `matches` is the Kind test of
 * offline matching (core/filter.ts matchesKind). Null for a TYPE that names its group, or where the
 * candidates are all of one group: there the TYPE is matched as typed, as before (any case of the Kind).
 */
export function resolveOffline(token: string, objects: { apiVersion: string; kind: string }[], matches: (token: string, kind: string) => boolean): Resolution | null {
  if (token.includes('.')) return null;
  const found = new Map<string, ServedResource>();
  const add = (group: string, kind: string): void => {
    const key = `${group}\u0000${kind}`;
    if (!found.has(key)) found.set(key, { group, version: '', resource: kind.toLowerCase(), singular: kind.toLowerCase(), kind, shortNames: [], namespaced: true, verbs: [] });
  };
  for (const [kind, group] of Object.entries(BUILT_IN_GROUPS)) if (matches(token, kind)) add(group, kind);
  for (const o of objects) if (matches(token, o.kind)) add(groupOf(o.apiVersion), o.kind);
  const groups = new Set([...found.values()].map((r) => r.group));
  return groups.size < 2 ? null : choose([...found.values()], token.toLowerCase());
}

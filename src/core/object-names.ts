// The names an API server lets an object have, for checking names that come from elsewhere: a flag
// (src/kube/api-names.ts, before a request path is built) or a saved file that claims to hold what a
// server said (a capture's objects.json, a record's object lines). Ported from k8s.io/apimachinery
// v0.36.3 pkg/api/validate/content: path.go (IsPathSegmentName: every object's name is one segment
// of its REST path, whatever its kind's own rules) and dns.go (IsDNS1123Label: a namespace's name).

/** content.IsPathSegmentName: what may be one segment of a REST path (client-go checks it before any request). */
export function pathSegmentProblems(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  return ['/', '%'].filter((bad) => name.includes(bad)).map((bad) => `may not contain '${bad}'`);
}

const NAMESPACE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** Why no server could have an object of this name ('' is refused: a saved object has one), or null. */
export function objectNameProblem(name: string): string | null {
  if (name === '') return 'may not be empty';
  return pathSegmentProblems(name)[0] ?? null;
}

/** Why no server could have this namespace ('' is a cluster-scoped object's), or null. */
export function namespaceProblem(namespace: string): string | null {
  if (namespace === '') return null;
  return namespace.length <= 63 && NAMESPACE.test(namespace) ? null : 'is not a DNS-1123 label';
}

// The API server's rules for names, checked before a name goes anywhere near a request path
// (src/kube/api-names.ts) or is believed from a saved file that claims to hold what a server said
// (a capture's objects.json, a record's object lines). Ported from k8s.io/apimachinery v0.36.3
// pkg/api/validate/content (path.go: IsPathSegmentName, every object's name is one segment of its
// REST path whatever its kind's own rules; dns.go: IsDNS1123Label and IsDNS1123Subdomain; errors.go):
// the same tests and the same words. A name that breaks them cannot name an object on any server,
// and some (`.`, `..`) would otherwise be resolved as dot segments by the URL parser and reach
// another path (`-n ..` lists every namespace's events; `aggregate-patch ..` patches the Namespace).

const LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const SUBDOMAIN_FMT = `${LABEL_FMT}(\\.${LABEL_FMT})*`;
const LABEL = new RegExp(`^${LABEL_FMT}$`);
const SUBDOMAIN = new RegExp(`^${SUBDOMAIN_FMT}$`);
const LABEL_MAX = 63;
const SUBDOMAIN_MAX = 253;

/** content.RegexError: the message, examples, and the regex quoted. */
function regexError(msg: string, re: string, ...examples: string[]): string {
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join('or ')}regex used for validation is '${re}')`;
}

/** Go's len(): bytes of the UTF-8 text. */
function byteLength(value: string): number {
  return new TextEncoder().encode(value).length;
}

/** content.IsDNS1123Label: a namespace's name (ValidateNamespaceName). */
export function dns1123LabelProblems(value: string): string[] {
  const problems: string[] = [];
  if (byteLength(value) > LABEL_MAX) problems.push(`must be no more than ${LABEL_MAX} bytes`);
  if (!LABEL.test(value)) {
    // It was a valid subdomain and not a valid label: since length was checked, it must be dots.
    problems.push(
      SUBDOMAIN.test(value)
        ? 'must not contain dots'
        : regexError(
            "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
            LABEL_FMT,
            'my-name',
            '123-abc',
          ),
    );
  }
  return problems;
}

/** content.IsDNS1123Subdomain: an Event's name (pkg/apis/core/validation/events.go, NameIsDNSSubdomain). */
export function dns1123SubdomainProblems(value: string): string[] {
  const problems: string[] = [];
  if (byteLength(value) > SUBDOMAIN_MAX) problems.push(`must be no more than ${SUBDOMAIN_MAX} bytes`);
  if (!SUBDOMAIN.test(value)) {
    problems.push(
      regexError(
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
        SUBDOMAIN_FMT,
        'example.com',
      ),
    );
  }
  return problems;
}

/** Go's %q of a string, close enough for the names we quote (JSON's quoting, which agrees on ASCII). */
function quote(value: string): string {
  return JSON.stringify(value);
}

/** client-go's wording for an empty name (rest/request.go:337 `resource name may not be empty`), for any segment. */
export function describeEmptyName(what: string): string {
  return `${what} may not be empty`;
}

/** client-go's wording (rest/request.go): `invalid namespace "a/b": [may not contain '/']`. */
export function describeNameProblems(what: string, value: string, problems: string[]): string {
  return `invalid ${what} ${quote(value)}: [${problems.join(' ')}]`;
}

/** Why a namespace cannot exist on any API server, or null when it can. */
export function namespaceError(namespace: string): string | null {
  if (namespace === '') return describeEmptyName('namespace');
  const problems = pathSegmentProblems(namespace);
  if (problems.length === 0) problems.push(...dns1123LabelProblems(namespace));
  return problems.length === 0 ? null : describeNameProblems('namespace', namespace, problems);
}

/** Why an Event name cannot exist on any API server, or null when it can. */
export function eventNameError(name: string): string | null {
  if (name === '') return describeEmptyName('resource name');
  const problems = pathSegmentProblems(name);
  if (problems.length === 0) problems.push(...dns1123SubdomainProblems(name));
  return problems.length === 0 ? null : describeNameProblems('resource name', name, problems);
}

/** content.IsPathSegmentName: what may be one segment of a REST path (client-go checks it before any request). */
export function pathSegmentProblems(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  return ['/', '%'].filter((bad) => name.includes(bad)).map((bad) => `may not contain '${bad}'`);
}

/** Why no server could have an object of this name ('' is refused: a saved object has one), or null. */
export function objectNameProblem(name: string): string | null {
  if (name === '') return 'may not be empty';
  return pathSegmentProblems(name)[0] ?? null;
}

/** Why no server could have this namespace ('' is a cluster-scoped object's), or null. */
export function namespaceProblem(namespace: string): string | null {
  if (namespace === '') return null;
  return dns1123LabelProblems(namespace).length === 0 ? null : 'is not a DNS-1123 label';
}

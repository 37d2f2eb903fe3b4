// Every flag of the plugin, declared once: src/cli.ts builds commander's options from these, and
// src/commands/complete.ts derives its grammar (which flags a verb has, which take a value, what
// values to offer) from the same list. A new flag is one entry here, then its parsing in the verb.
import { DEFAULT_EVENT_TTL_MS } from '../core/event-ttl.ts';
import { formatTTL } from '../render/time.ts';
import { AUDIT_OUTPUTS, INCIDENT_OUTPUTS, TIMELINE_OUTPUTS, outputValues } from './output-values.ts';
import type { Verb } from './verbs.ts';

/** What completion offers for a flag's value: fixed words, a cluster lookup, or the shell's file names. */
type FlagValues = readonly string[] | 'namespaces' | 'contexts' | 'context-patterns' | 'clusters' | 'users' | 'files';

/** aggregate-patch --dry-run, as kubectl's. */
export const DRY_RUN_MODES = ['none', 'server', 'client'] as const;

export interface FlagSpec {
  /** `--namespace` */
  long: string;
  /** `-n` */
  short?: string;
  /** the value's placeholder in help: `<name>` (required) or `[bool]` (optional); absent for a switch */
  value?: string;
  description: string;
  default?: string | boolean;
  /** commander refuses any other value */
  choices?: readonly string[];
  /** may be given again; the values are collected */
  repeatable?: boolean;
  /** read as kubectl reads a boolean flag: absent or `true`, or `false` */
  bool?: boolean;
  /** completion of the value (none: nothing to offer) */
  values?: FlagValues;
  /** the help group (src/options/help.ts); absent: the verb's own */
  group?: 'reading' | 'output' | 'connection';
  /** the default help shows where commander holds none (the verb settles it) */
  shown?: string;
}

const COLOR_MODES = ['auto', 'always', 'never'] as const;

/** Flags of the program, recognised before and after the verb. */
export const GLOBAL_FLAGS: readonly FlagSpec[] = [
  { long: '--namespace', short: '-n', value: '<name>', description: "namespace to read; without it, the context's namespace, else default", values: 'namespaces', group: 'reading' },
  { long: '--all-namespaces', short: '-A', description: 'read every namespace', group: 'reading' },
  { long: '--context', value: '<name>', description: 'kubeconfig context to use; several (comma-separated or repeated) are read together', repeatable: true, values: 'contexts', group: 'connection' },
  { long: '--contexts', value: '<regex>', description: 'read every kubeconfig context whose name matches this regular expression, together', values: 'context-patterns', group: 'connection' },
  { long: '--all-contexts', description: 'read every kubeconfig context together', group: 'connection' },
  { long: '--kubeconfig', value: '<path>', description: 'kubeconfig file to use; without it, $KUBECONFIG, else ~/.kube/config', values: 'files', group: 'connection' },
  { long: '--request-timeout', value: '<duration>', description: 'give up on a request after this long, e.g. 30s (0: never)', default: '0', group: 'connection' },
  {
    long: '--from',
    value: '<file|url>',
    description:
      'read a saved capture, event list, record, stable table, collector file (OTLP JSON lines), Cloud Logging, Elasticsearch or Loki output (- for stdin), or a VictoriaLogs server (victorialogs+http(s)://HOST:PORT[?query=LogsQL][&page-rows=N]) instead of the cluster',
    values: 'files',
    group: 'reading',
  },
  { long: '--from-ca', value: '<file>', description: 'PEM file of the CAs to trust for a victorialogs+https store', values: 'files', group: 'reading' },
  { long: '--from-client-cert', value: '<file>', description: 'PEM client certificate for a victorialogs+https store that asks for one (with --from-client-key)', values: 'files', group: 'reading' },
  { long: '--from-client-key', value: '<file>', description: 'PEM private key of --from-client-cert', values: 'files', group: 'reading' },
  { long: '--from-header', value: '<name=value>', description: "an HTTP header for every request to the store, e.g. Authorization=Bearer... or AccountID=12 (repeatable)", repeatable: true, group: 'reading' },
  { long: '--for', value: '<kind/name>', description: 'only events about this object, e.g. Pod/hungry or po/hungry (kind, plural or short name, any case)', group: 'reading' },
  { long: '--types', value: '<types>', description: 'only these types, comma-separated; any value, e.g. Critical (repeatable)', repeatable: true, values: ['Normal', 'Warning'], group: 'reading' },
  { long: '--reason', value: '<reasons>', description: 'only these reasons, comma-separated (repeatable)', repeatable: true, group: 'reading' },
  { long: '--exclude-reason', value: '<reasons>', description: 'hide these reasons, comma-separated, any case (repeatable)', repeatable: true, group: 'reading' },
  { long: '--exclude-type', value: '<types>', description: 'hide these types, comma-separated, any case (repeatable)', repeatable: true, values: ['Normal', 'Warning'], group: 'reading' },
  { long: '--message', value: '<regex>', description: 'only events whose message matches this JavaScript regular expression (unanchored, case-sensitive)', group: 'reading' },
  { long: '--exclude-message', value: '<regex>', description: 'hide events whose message matches this JavaScript regular expression', group: 'reading' },
  { long: '--selector', short: '-l', value: '<selector>', description: 'only events about objects whose labels match, e.g. app=web,tier in (a,b) (live: the objects are listed; --from: the labels a capture or record kept)', group: 'reading' },
  { long: '--field-selector', value: '<selector>', description: "only events whose fields match, e.g. reason=Unhealthy,type!=Normal; sent to the server as kubectl get events sends it (supports '=', '==' and '!=')", group: 'reading' },
  { long: '--since', value: '<duration>', description: 'only events last seen within this long, e.g. 15m; only one of --since and --since-time', group: 'reading' },
  { long: '--since-time', value: '<time>', description: 'only events last seen at or after this time (RFC 3339, e.g. 2026-11-30T10:00:00Z)', group: 'reading' },
  { long: '--until', value: '<time>', description: 'only events first seen at or before this time (RFC 3339)', group: 'reading' },
  { long: '--exclude-startup-probes', description: "hide a start-up probe's Unhealthy while the kubelet has not killed its container for it (below the failure threshold)", group: 'reading' },
  { long: '--color', value: '<when>', description: 'colour output: auto, always or never', choices: COLOR_MODES, default: 'auto', values: COLOR_MODES, group: 'output' },
  // kubectl's global connection flags, as client-go reads them (src/kube/overrides.ts).
  { long: '--server', short: '-s', value: '<address>', description: 'the address and port of the Kubernetes API server', group: 'connection' },
  { long: '--token', value: '<string>', description: 'bearer token for authentication to the API server', group: 'connection' },
  { long: '--user', value: '<string>', description: 'the name of the kubeconfig user to use', values: 'users', group: 'connection' },
  { long: '--cluster', value: '<string>', description: 'the name of the kubeconfig cluster to use', values: 'clusters', group: 'connection' },
  { long: '--certificate-authority', value: '<path>', description: 'path to a cert file for the certificate authority', values: 'files', group: 'connection' },
  { long: '--client-certificate', value: '<path>', description: 'path to a client certificate file for TLS', values: 'files', group: 'connection' },
  { long: '--client-key', value: '<path>', description: 'path to a client key file for TLS', values: 'files', group: 'connection' },
  {
    long: '--insecure-skip-tls-verify',
    value: '[bool]',
    description: "if true, the server's certificate will not be checked for validity. This will make your HTTPS connections insecure",
    bool: true,
    values: ['true', 'false'],
    group: 'connection',
  },
  {
    long: '--tls-server-name',
    value: '<string>',
    description: 'server name to use for server certificate validation. If it is not provided, the hostname used to contact the server is used',
    group: 'connection',
  },
  {
    long: '--disable-compression',
    value: '[bool]',
    description: 'if true, opt-out of response compression for all requests to the server',
    bool: true,
    values: ['true', 'false'],
    group: 'connection',
  },
  { long: '--as', value: '<string>', description: 'username to impersonate for the operation. User could be a regular user or a service account in a namespace', group: 'connection' },
  { long: '--as-group', value: '<string>', description: 'group to impersonate for the operation, this flag can be repeated to specify multiple groups', repeatable: true, group: 'connection' },
  { long: '--as-uid', value: '<string>', description: 'UID to impersonate for the operation', group: 'connection' },
  { long: '--v', short: '-v', value: '<level>', description: 'number for the log level verbosity (6: each request and its status)', group: 'connection' },
  {
    long: '--template',
    value: '<string>',
    description: 'template string or path to template file to use when -o=jsonpath, -o=jsonpath-file (kubectl jsonpath: http://kubernetes.io/docs/user-guide/jsonpath)',
    group: 'output',
  },
  {
    long: '--allow-missing-template-keys',
    value: '[bool]',
    description: 'if true, ignore any errors in templates when a field or map key is missing in the template',
    default: true,
    bool: true,
    values: ['true', 'false'],
    group: 'output',
  },
];

/** Commander's own flags, which completion offers too. */
export const BUILTIN_FLAGS = ['--help', '--version'] as const;

const EVENT_TTL: FlagSpec = {
  long: '--event-ttl',
  value: '<duration>',
  description: `the API server's --event-ttl, when it is not the default`,
  shown: formatTTL(DEFAULT_EVENT_TTL_MS),
};

const TREE: FlagSpec = {
  long: '--tree',
  description: 'with --for: the object and everything it owns (ownerReferences, and children its events name though gone), each row showing its owner chain; with -l and no --for: the tree of every object whose labels match',
};

/** -o: the verb's own formats, then the documents of output.ts (json, yaml, name where the verb has names, jsonpath). */
function output(formats: readonly string[], withName: boolean, description: string): FlagSpec {
  return { long: '--output', short: '-o', value: '<format>', description, default: formats[0], values: outputValues(formats, withName), group: 'output' };
}

/** --otlp and its companions, for export and record. */
function otlpFlags(urlHelp: string): FlagSpec[] {
  return [
    { long: '--otlp', value: '<url>', description: urlHelp },
    { long: '--otlp-json', description: 'send OTLP JSON instead of protobuf' },
    { long: '--otlp-header', value: '<name=value>', description: 'an HTTP header for every request, e.g. Authorization=Bearer... (repeatable)', repeatable: true },
    { long: '--otlp-ca', value: '<file>', description: 'PEM file of the CAs to trust for an https endpoint', values: 'files' },
    { long: '--otlp-client-cert', value: '<file>', description: 'PEM client certificate for an https endpoint that asks for one (mutual TLS, with --otlp-client-key)', values: 'files' },
    { long: '--otlp-client-key', value: '<file>', description: 'PEM private key of --otlp-client-cert', values: 'files' },
    { long: '--otlp-timeout', value: '<duration>', description: 'give up on one request after this long', shown: '30s' },
    { long: '--otlp-batch', value: '<n>', description: 'log records per request', shown: '1000' },
  ];
}

export const VERB_FLAGS: Record<Verb, readonly FlagSpec[]> = {
  timeline: [
    output(TIMELINE_OUTPUTS, true, 'table, wide, stable, html (a self-contained page), json, yaml, name, jsonpath=TEMPLATE, jsonpath-file=FILE or jsonpath-as-json=TEMPLATE'),
    { long: '--no-headers', description: 'omit the header row', group: 'output' },
    { long: '--absolute-times', description: 'print RFC 3339 times instead of ages (table and wide)', group: 'output' },
    { long: '--watch', short: '-w', description: 'after listing the requested events, watch for more: each new occurrence once' },
    { long: '--watch-only', description: 'watch for new occurrences without listing the events there are now' },
    { long: '--compare', description: 'with --from: also read the live cluster and mark the events it no longer has' },
    TREE,
    { ...EVENT_TTL, description: `-o html: ${EVENT_TTL.description}` },
    { long: '--output-file', value: '<file>', description: 'write the output to this file (whole or not at all) instead of stdout', values: 'files', group: 'output' },
  ],
  incident: [
    output(INCIDENT_OUTPUTS, false, 'text, json, yaml, jsonpath=TEMPLATE, jsonpath-file=FILE or jsonpath-as-json=TEMPLATE'),
    EVENT_TTL,
    { long: '--compare', description: 'with --from: also read the live cluster and say which events it no longer has' },
    TREE,
    { long: '--absolute-times', description: 'print RFC 3339 times instead of ages', group: 'output' },
    { long: '--detail', description: 'tell every object and list everything; by default siblings with the same story are told once and each section is capped' },
    { long: '--no-status', description: 'tell the causes from the events alone: read no object status, spec or container logs' },
  ],
  'type-audit': [output(AUDIT_OUTPUTS, true, 'text, json, yaml, name, jsonpath=TEMPLATE, jsonpath-file=FILE or jsonpath-as-json=TEMPLATE')],
  'aggregate-patch': [
    { long: '--add', value: '<n>', description: 'occurrences to add', shown: '1' },
    { long: '--count', value: '<n>', description: 'set the total count instead' },
    { long: '--at', value: '<time>', description: 'when the last occurrence was, RFC 3339; without it, now' },
    { long: '--dry-run', value: '<mode>', description: 'none, server or client', default: 'none', values: DRY_RUN_MODES },
  ],
  capture: [
    { long: '--force', description: 'replace a folder that is not empty' },
    { long: '--all-objects', description: "save in objects.json every object of the captured namespace (every Secret's and RoleBinding's name), not only the trees of the objects the events are about" },
    EVENT_TTL,
  ],
  record: [
    { long: '--duration', value: '<duration>', description: 'stop after this long; without it, at Ctrl-C' },
    ...otlpFlags('also ship each observation, as it is recorded, to this OTLP/HTTP logs endpoint (the file stays the source of truth)'),
  ],
  export: otlpFlags("the collector's OTLP/HTTP logs endpoint, e.g. http://localhost:4318/v1/logs"),
  wait: [
    { long: '--output', short: '-o', value: '<format>', description: 'text, or json: one result object (outcome, durations, causes, the events of this rollout)', default: 'text', values: ['text', 'json'], group: 'output' },
    { long: '--output-file', value: '<file>', description: 'also write the JSON result to this file (whole or not at all)', values: 'files', group: 'output' },
    { long: '--timeout', value: '<duration>', description: 'give up after this long (exit 6); 0: wait for ever', shown: '5m' },
    { long: '--for-condition', value: '<type[=status]>', description: 'wait for this condition of any object (custom resources too) instead of its rollout, as kubectl wait --for=condition=', },
    { long: '--settle', value: '<duration>', description: 'after success, keep watching this long and fail (exit 5) if a Warning fires' },
    { long: '--wait-for-create', description: 'an object that does not exist yet is waited for (without it: exit 1 at once)' },
    { long: '--quiet', short: '-q', description: 'print nothing until the end' },
  ],
};

/**
 * Every flag of every verb, once (as first declared): what argv's scanner needs to tell a flag's
 * value from a verb. One pass, not a findIndex per flag: thousands of calls at start-up made V8
 * compile the callback with Maglev on a worker thread, 3 MiB more peak memory for every run.
 */
export const ALL_FLAGS: readonly FlagSpec[] = firstOfEach([...GLOBAL_FLAGS, ...Object.values(VERB_FLAGS).flat()]);

function firstOfEach(flags: readonly FlagSpec[]): FlagSpec[] {
  const first = new Map<string, FlagSpec>();
  for (const f of flags) if (!first.has(f.long)) first.set(f.long, f);
  return [...first.values()];
}

/** The flag a word names (`-n`, `--namespace`) among the program's and the verb's. */
export function findFlag(word: string, verb: Verb): FlagSpec | undefined {
  return [...GLOBAL_FLAGS, ...VERB_FLAGS[verb]].find((f) => f.long === word || f.short === word);
}

/** `-n, --namespace <name>`: the flags as commander reads them. */
export function commanderFlags(f: FlagSpec): string {
  return `${f.short ? `${f.short}, ` : ''}${f.long}${f.value ? ` ${f.value}` : ''}`;
}

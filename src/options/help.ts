// Help as kubectl writes it (k8s.io/kubectl pkg/util/templates: a short line, an indented long
// description, "Examples:" with `# comment` lines, the flags as `    -n, --namespace='':` with the
// default once, the description on the next line after a tab, then "Usage:"). `help VERB` and
// `VERB --help` print the same text. The flags come in groups: reading, output, the verb's own,
// then kubectl's connection flags.
import type { FlagSpec } from './flags.ts';

interface VerbHelp {
  /** one line, as in the list of verbs */
  short: string;
  /** what the verb does, in a few sentences */
  long: string;
  /** [comment, command] */
  examples: readonly (readonly [string, string])[];
  /** the arguments after the flags in Usage, e.g. `NAME` */
  args?: string;
}

const PROGRAM = 'kubectl evtimeline';

export const VERB_HELP: Record<string, VerbHelp> = {
  timeline: {
    short: 'The story of a namespace in time order (the default verb)',
    long: 'Prints every event once, although both Events APIs return it, in time order, with LAST SEEN as kubectl events writes it. Unconventional types (Critical, an empty type) stay visible and are marked. The footer says what each selection flag hid, and where client-go\'s recorders may have dropped, merged or not yet sent events.',
    examples: [
      ['Show the events of a namespace', 'kubectl evtimeline -n op-events'],
      ['Only Warnings, without the start-up probes still below their threshold', 'kubectl evtimeline -n shop --types Warning --exclude-startup-probes'],
      ["A Deployment's story with everything it owns, then follow it", 'kubectl evtimeline -n shop --for deploy/web --tree -w'],
      ['The trees of every object labelled app in (web,cart): each one and everything it owns', "kubectl evtimeline -n shop -l 'app in (web,cart)' --tree"],
      ['Events about the objects labelled app=web, within an absolute window', 'kubectl evtimeline -n shop -l app=web --since-time 2026-11-30T10:00:00Z --until 2026-11-30T11:00:00Z'],
      ['The lab table, sorted and unique, and a self-contained page', 'kubectl evtimeline -n op-events -o stable > timeline.txt\n  kubectl evtimeline -n op-events -o html --output-file timeline.html'],
    ],
  },
  incident: {
    short: 'A written account of what happened, from events alone',
    long: 'Tells each object\'s story in time order with who reported what, every unconventional type and which tools never show it, and what the events cannot tell: their window, the TTL, and where client-go\'s recorders may have dropped, merged or not yet sent events.',
    examples: [
      ['Account for a namespace', 'kubectl evtimeline incident -n op-events'],
      ['Account for a Deployment and everything it owns', 'kubectl evtimeline incident -n shop --for deploy/checkout --tree'],
      ['Account for a saved record, leaving out a noisy reason', 'kubectl evtimeline incident --from events.jsonl --exclude-reason Pulled'],
    ],
  },
  'type-audit': {
    short: 'Events whose type is not Normal or Warning, reasons that defeat aggregation, events with no object uid (exit 3 on findings)',
    long: 'Lists every event whose type is not exactly Normal or Warning, every reason that is not a short CamelCase word, and every event without an involved object uid, with what kubectl does with each offending type. Exits 3 when it finds any, so it can gate CI.',
    examples: [
      ['Audit a namespace', 'kubectl evtimeline type-audit -n op-events'],
      ['Audit every namespace, as data', 'kubectl evtimeline type-audit -A -o json'],
      ['Fail a CI step on findings in a capture', 'kubectl evtimeline type-audit --from capture/events.json || echo "unconventional events found"'],
    ],
  },
  'aggregate-patch': {
    short: 'Record that an event happened again, as the event recorder does (the only verb that writes)',
    long: 'Adds occurrences to an event as client-go\'s recorders do: count and lastTimestamp through core/v1, or series.count and series.lastObservedTime through events.k8s.io/v1. The patch carries the resourceVersion, so a concurrent writer is never overwritten.',
    examples: [
      ['Set the count of an event to 5', 'kubectl evtimeline aggregate-patch build-1-started -n op-events --count 5'],
      ['Add two occurrences', 'kubectl evtimeline aggregate-patch build-1-done -n op-events --add 2'],
      ['See what the server would store', 'kubectl evtimeline aggregate-patch build-1-started -n op-events --dry-run=server'],
    ],
    args: 'NAME',
  },
  capture: {
    short: "Write the lab's reports and a replayable events.json into a new folder, atomically",
    long: "Writes events.json (both API views, replayable with --from), the lab's text reports, timeline.html and objects.json (who owned what) into a new folder, whole or not at all.",
    examples: [
      ['Capture a namespace', 'kubectl evtimeline capture -n op-events ./incident-2026-11-30'],
      ['Replace a capture', 'kubectl evtimeline capture -n op-events ./out --force'],
      ['Read it back later', 'kubectl evtimeline --from ./out/events.json'],
    ],
    args: 'DIR',
  },
  record: {
    short: 'Watch events and append every version to a JSON Lines file that outlives the TTL',
    long: 'Lists, then watches, and appends every version of every event to FILE; a record that exists is resumed. Every read verb reads it back with --from.',
    examples: [
      ['Record a namespace until Ctrl-C', 'kubectl evtimeline record -n op-events events.jsonl'],
      ['Record every namespace for a working day', 'kubectl evtimeline record -A all-events.jsonl --duration 8h'],
      ['Also ship each observation to a collector', 'kubectl evtimeline record -n op-events events.jsonl --otlp http://localhost:4318/v1/logs'],
    ],
    args: 'FILE',
  },
  export: {
    short: 'Send the events in scope (live, or --from any saved file) to an OpenTelemetry Collector as OTLP logs',
    long: "Sends the events the flags select, live or from a saved file, to a collector's OTLP/HTTP logs endpoint, in the k8s_events receiver's shape.",
    examples: [
      ['Export a namespace', 'kubectl evtimeline export -n op-events --otlp http://localhost:4318/v1/logs'],
      ['Back-fill a collector from a record', 'kubectl evtimeline export --from events.jsonl --otlp https://otel.example.com/v1/logs --otlp-header Authorization="Bearer $TOKEN"'],
    ],
  },
  wait: {
    short: 'A rollout gate: wait as kubectl rollout status does, and on failure tell why (exit 5 failed, 6 timed out)',
    long: "Waits for a Deployment, StatefulSet or DaemonSet as kubectl rollout status judges it, a Job to complete, a Pod to be ready or succeed, or any object's --for-condition. Prints each event of this rollout as it comes; on success one line, on failure the incident account of this rollout alone with its Why. Exit 0 done, 1 API error or not found, 2 usage, 5 failed, 6 timed out, 7 deleted or re-created, 8 superseded by a newer change, 130 Ctrl-C.",
    examples: [
      ['Gate a deploy on its rollout', 'kubectl apply -f web.yaml && kubectl evtimeline wait deployment/web -n shop --timeout 5m'],
      ['Then keep watching 90 s and fail if a Warning fires', 'kubectl evtimeline wait deploy/web -n shop --settle 90s'],
      ['A custom resource ready, as data for CI', 'kubectl evtimeline wait widgets.example.com/w1 --for-condition Ready -o json --output-file wait.json'],
    ],
    args: 'TYPE/NAME',
  },
};

const GROUP_TITLES = { reading: 'Reading flags', output: 'Output flags', connection: "kubectl's connection flags" } as const;

function sentence(text: string): string {
  const first = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(first) ? first : `${first}.`;
}

/** `=false`, `=''`, `=[]`, `='table'`: the default as kubectl prints it after the flag, once. */
function shownDefault(f: FlagSpec): string {
  if (f.value === undefined) return '=false';
  if (f.bool === true) return `=${String(f.default ?? false)}`;
  if (f.repeatable === true) return '=[]';
  return `='${f.shown ?? (typeof f.default === 'string' ? f.default : '')}'`;
}

function flagLines(flags: readonly FlagSpec[]): string[] {
  return flags.flatMap((f) => [`    ${f.short ? `${f.short}, ` : ''}${f.long}${shownDefault(f)}:`, `\t${sentence(f.description)}`, '']);
}

function section(title: string, flags: readonly FlagSpec[]): string[] {
  return flags.length === 0 ? [] : [`${title}:`, ...flagLines(flags)];
}

/** A verb's help: description, examples, its flags in groups, usage. */
export function verbHelpText(verb: string, global: readonly FlagSpec[], own: readonly FlagSpec[]): string {
  const help = VERB_HELP[verb];
  if (help === undefined) return programHelpText(Object.keys(VERB_HELP), global);
  const all = [...global, ...own];
  const inGroup = (g: keyof typeof GROUP_TITLES) => all.filter((f) => f.group === g);
  const lines = [
    `${help.short}.`,
    '',
    ` ${help.long}`,
    '',
    'Examples:',
    ...help.examples.flatMap(([comment, command], i) => [...(i > 0 ? ['  '] : []), `  # ${comment}`, `  ${command}`]),
    '',
    ...section(GROUP_TITLES.reading, inGroup('reading')),
    ...section(GROUP_TITLES.output, inGroup('output')),
    ...section(`${verb} flags`, own.filter((f) => f.group === undefined)),
    ...section(GROUP_TITLES.connection, inGroup('connection')),
    'Usage:',
    `  ${PROGRAM} ${verb} [flags]${help.args ? ` ${help.args}` : ''}`,
    '',
    `Flags go before or after the verb, in any order.`,
    '',
  ];
  return lines.join('\n');
}

/** The program's help: the verbs, then how to ask for one's flags. */
export function programHelpText(verbs: readonly string[], global: readonly FlagSpec[]): string {
  const width = Math.max(...verbs.map((v) => v.length)) + 2;
  const lines = [
    'Kubernetes Events as a timeline, an incident account, a type audit, and a record that outlives the TTL.',
    '',
    ' Reads both Events APIs once, shows each event once, keeps unconventional types visible, and says what the events cannot tell.',
    '',
    'Examples:',
    '  # The story of a namespace',
    '  kubectl evtimeline -n op-events',
    '  ',
    '  # An account of an incident, for a Deployment and everything it owns',
    '  kubectl evtimeline incident -n shop --for deploy/checkout --tree',
    '',
    'Verbs:',
    ...verbs.map((v) => `  ${v.padEnd(width)}${VERB_HELP[v]?.short ?? ''}`),
    '',
    ...section(GROUP_TITLES.reading, global.filter((f) => f.group === 'reading')),
    'Usage:',
    `  ${PROGRAM} [verb] [flags]`,
    '',
    `Use "${PROGRAM} <verb> --help" (or "${PROGRAM} help <verb>") for a verb's examples and all its flags.`,
    `Use "${PROGRAM} --version" for the version.`,
    '',
  ];
  return lines.join('\n');
}

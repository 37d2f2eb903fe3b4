// Shell completion through kubectl: `kubectl __complete evtimeline ...` runs kubectl_complete-evtimeline,
// which runs `kubectl-evtimeline __complete <words>`. We answer in cobra's __complete protocol:
// one candidate per line, then `:<directive>` as the last line.
import type { Deps } from '../deps.ts';
import { SUCCESS } from '../errors.ts';
import type { CommandResult } from '../errors.ts';
import { loadKubeTarget } from '../kube/kubeconfig.ts';
import { eventNames, namespaceNames } from '../kube/names.ts';
import { AUDIT_OUTPUTS } from './type-audit.ts';
import { DRY_RUN_MODES } from './aggregate-patch.ts';
import { INCIDENT_OUTPUTS } from './incident.ts';
import { TIMELINE_OUTPUTS } from './timeline.ts';
import { outputValues } from './output.ts';
import { VERBS } from './verbs.ts';

// cobra's ShellCompDirective values.
export const DIRECTIVE = { default: 0, noFileComp: 4 } as const;


const GLOBAL_FLAGS = [
  '--namespace', '-n', '--all-namespaces', '-A', '--context', '--kubeconfig', '--request-timeout',
  '--from', '--for', '--types', '--reason', '--since', '--color', '--help', '--version',
];

const VERB_FLAGS: Record<string, string[]> = {
  timeline: ['--output', '-o', '--no-headers', '--compare'],
  incident: ['--output', '-o', '--event-ttl', '--compare'],
  'type-audit': ['--output', '-o'],
  'aggregate-patch': ['--add', '--count', '--at', '--dry-run'],
  capture: ['--force', '--event-ttl'],
  record: ['--duration'],
};

const OUTPUTS: Record<string, readonly string[]> = {
  timeline: outputValues(TIMELINE_OUTPUTS, true),
  incident: outputValues(INCIDENT_OUTPUTS, false),
  'type-audit': outputValues(AUDIT_OUTPUTS, true),
};

/** Flags that take a value, so the word after them is that value, not a verb or argument. */
const VALUE_FLAGS = new Set([
  '-n', '--namespace', '--context', '--kubeconfig', '--request-timeout', '--from', '--for', '--types', '--reason',
  '--since', '--color', '-o', '--output', '--event-ttl', '--add', '--count', '--at', '--dry-run', '--duration',
]);

export interface Lookups {
  namespaces(): Promise<string[]>;
  events(namespace: string | null): Promise<string[]>;
  contexts(): Promise<string[]>;
}

export interface Completion {
  candidates: string[];
  directive: number;
}

interface Parsed {
  verb: string;
  namespace: string | null;
  /** --kubeconfig and --context typed so far: lookups use the cluster the command will use */
  kubeconfig?: string;
  context?: string;
  positionals: string[];
}

export function parseWords(words: string[]): Parsed {
  let verb = '';
  let namespace: string | null = null;
  let kubeconfig: string | undefined;
  let context: string | undefined;
  const positionals: string[] = [];
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i] ?? '';
    const [flag, inline] = word.split('=', 2) as [string, string | undefined];
    const value = inline ?? words[i + 1];
    if (flag === '-n' || flag === '--namespace') namespace = value ?? null;
    if (flag === '--kubeconfig') kubeconfig = value;
    if (flag === '--context') context = value;
    if (word.startsWith('-')) {
      if (VALUE_FLAGS.has(flag) && inline === undefined) i += 1;
      continue;
    }
    if (verb === '' && (VERBS as readonly string[]).includes(word)) verb = word;
    else positionals.push(word);
  }
  return { verb: verb || 'timeline', namespace, kubeconfig, context, positionals };
}

function withPrefix(prefix: string, values: readonly string[], directive: number = DIRECTIVE.noFileComp): Completion {
  return { candidates: values.filter((v) => v.startsWith(prefix)), directive };
}

async function flagValues(flag: string, prefix: string, parsed: Parsed, lookups: Lookups): Promise<Completion> {
  switch (flag) {
    case '-o':
    case '--output':
      return withPrefix(prefix, OUTPUTS[parsed.verb] ?? []);
    case '-n':
    case '--namespace':
      return withPrefix(prefix, await lookups.namespaces());
    case '--context':
      return withPrefix(prefix, await lookups.contexts());
    case '--color':
      return withPrefix(prefix, ['auto', 'always', 'never']);
    case '--types':
      return withPrefix(prefix, ['Normal', 'Warning']);
    case '--dry-run':
      return withPrefix(prefix, DRY_RUN_MODES);
    case '--kubeconfig':
    case '--from':
      return { candidates: [], directive: DIRECTIVE.default };
    default:
      return { candidates: [], directive: DIRECTIVE.noFileComp };
  }
}

/** What to offer for the last word, given the words before it. */
export async function complete(words: string[], lookups: Lookups): Promise<Completion> {
  const current = words.at(-1) ?? '';
  const before = words.slice(0, -1);
  const parsed = parseWords(before);
  const previous = before.at(-1) ?? '';
  if (VALUE_FLAGS.has(previous)) return flagValues(previous, current, parsed, lookups);
  if (current.startsWith('-')) {
    const [flag, inline] = current.split('=', 2) as [string, string | undefined];
    if (inline !== undefined) {
      const values = await flagValues(flag, inline, parsed, lookups);
      return { ...values, candidates: values.candidates.map((v) => `${flag}=${v}`) };
    }
    return withPrefix(current, [...(VERB_FLAGS[parsed.verb] ?? []), ...GLOBAL_FLAGS]);
  }
  const verbGiven = before.some((word) => (VERBS as readonly string[]).includes(word));
  if (!verbGiven && parsed.positionals.length === 0) return withPrefix(current, VERBS);
  if (parsed.verb === 'aggregate-patch' && parsed.positionals.length === 0) {
    return withPrefix(current, await lookups.events(parsed.namespace));
  }
  if ((parsed.verb === 'capture' || parsed.verb === 'record') && parsed.positionals.length === 0) {
    return { candidates: [], directive: DIRECTIVE.default };
  }
  return { candidates: [], directive: DIRECTIVE.noFileComp };
}

/** A lookup must answer while the user waits at TAB. */
const LOOKUP_TIMEOUT_MS = 5000;

/** Cluster lookups that never fail: completion offers nothing rather than an error. */
function clusterLookups(deps: Deps, words: string[]): Lookups {
  const { kubeconfig, context } = parseWords(words);
  const target = () => loadKubeTarget({ env: deps.env, kubeconfig, context });
  const quietly = async (fn: () => Promise<string[]>) => fn().catch(() => []);
  return {
    namespaces: () => quietly(async () => namespaceNames(await target(), LOOKUP_TIMEOUT_MS)),
    events: (namespace) =>
      quietly(async () => {
        const t = await target();
        return eventNames(t, namespace ?? t.namespace, LOOKUP_TIMEOUT_MS);
      }),
    contexts: () => quietly(async () => (await target()).config.getContexts().map((c) => c.name)),
  };
}

export async function runComplete(words: string[], deps: Deps): Promise<CommandResult> {
  const { candidates, directive } = await complete(words.length === 0 ? [''] : words, clusterLookups(deps, words));
  // A candidate goes to the shell as typed input: one with a control character is dropped, not escaped.
  const safe = candidates.filter((c) => !/[\u0000-\u001f\u007f-\u009f]/.test(c));
  deps.stdout.write(safe.map((c) => `${c}\n`).join('') + `:${directive}\n`);
  return SUCCESS;
}

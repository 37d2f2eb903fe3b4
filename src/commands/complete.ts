// Shell completion through kubectl: `kubectl __complete evtimeline ...` runs kubectl_complete-evtimeline,
// which runs `kubectl-evtimeline __complete <words>`. We answer in cobra's __complete protocol:
// one candidate per line, then `:<directive>` as the last line.
import type { Deps } from '../deps.ts';
import { SUCCESS } from '../errors.ts';
import type { CommandResult } from '../errors.ts';
import type { NameLookups } from '../core/names.ts';
import type { NameLookupTarget } from '../core/connection.ts';
import { BUILTIN_FLAGS, findFlag, GLOBAL_FLAGS, VERB_FLAGS } from '../options/flags.ts';
import type { FlagSpec } from '../options/flags.ts';
import { parseConnectionOverrides } from '../options/connection.ts';
import type { RawOptions } from '../options/raw.ts';
import { VERBS } from '../options/verbs.ts';
import type { Verb } from '../options/verbs.ts';

function isVerb(word: string): word is Verb {
  return (VERBS as readonly string[]).includes(word);
}

// cobra's ShellCompDirective values.
export const DIRECTIVE = { default: 0, noFileComp: 4 } as const;

/** A flag's spellings, long first (`--namespace`, `-n`). */
function spellings(f: FlagSpec): string[] {
  return f.short ? [f.long, f.short] : [f.long];
}

/** Flags that need a value, under any verb: the word after them is that value, not a verb or argument. */
const VALUE_FLAGS = new Set([GLOBAL_FLAGS, ...Object.values(VERB_FLAGS)].flat().filter((f) => f.value?.startsWith('<')).flatMap(spellings));


export interface Completion {
  candidates: string[];
  directive: number;
}

interface Parsed {
  verb: Verb;
  namespace: string | null;
  /** --kubeconfig, --context and the connection flags typed so far: lookups use the cluster the command will use */
  target: NameLookupTarget;
  positionals: string[];
}

/** kubectl's connection flags, which completion's lookups honour as the command itself will. */
const CONNECTION_FLAGS = new Set(['--server', '--token', '--user', '--cluster', '--certificate-authority', '--client-certificate', '--client-key', '--insecure-skip-tls-verify', '--tls-server-name', '--disable-compression', '--as', '--as-group', '--as-uid']);

/** commander's option key for a long flag: `--as-group` -> `asGroup`. */
function optionKey(long: string): string {
  return long.slice(2).replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

function parseWords(words: string[]): Parsed {
  let verb: Verb | '' = '';
  let namespace: string | null = null;
  let kubeconfig: string | undefined;
  let context: string | undefined;
  const connection: RawOptions = {};
  const positionals: string[] = [];
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i] ?? '';
    const [flag, inline] = word.split('=', 2) as [string, string | undefined];
    const value = inline ?? words[i + 1];
    if (flag === '-n' || flag === '--namespace') namespace = value ?? null;
    if (flag === '--kubeconfig') kubeconfig = value;
    // Several contexts: names are looked up in the first.
    if (flag === '--context') context = value?.split(',')[0];
    const spec = word.startsWith('-') ? findFlag(flag, 'timeline') : undefined;
    if (spec !== undefined && CONNECTION_FLAGS.has(spec.long)) {
      const key = optionKey(spec.long);
      if (spec.bool) connection[key] = inline === undefined ? true : inline === 'true';
      else if (value !== undefined && spec.repeatable) connection[key] = [...((connection[key] as string[] | undefined) ?? []), value];
      else if (value !== undefined) connection[key] = value;
    }
    if (word.startsWith('-')) {
      if (VALUE_FLAGS.has(flag) && inline === undefined) i += 1;
      continue;
    }
    if (verb === '' && isVerb(word)) verb = word;
    else positionals.push(word);
  }
  const overrides = parseConnectionOverrides(connection);
  const target: NameLookupTarget = { kubeconfig, context, ...(Object.keys(overrides).length > 0 ? { overrides } : {}) };
  return { verb: verb || 'timeline', namespace, target, positionals };
}

function withPrefix(prefix: string, values: readonly string[], directive: number = DIRECTIVE.noFileComp): Completion {
  return { candidates: values.filter((v) => v.startsWith(prefix)), directive };
}

/** --context a,b: the name after the last comma is completed; the names already typed are not offered again. */
function commaList(prefix: string, values: readonly string[]): Completion {
  const typed = prefix.split(',');
  const last = typed.pop() ?? '';
  const head = typed.map((t) => `${t},`).join('');
  const offered = withPrefix(last, values.filter((v) => !typed.includes(v)));
  return { ...offered, candidates: offered.candidates.map((v) => `${head}${v}`) };
}

/** A context name as a regular expression that matches it alone: `^prod\.eu$`. */
function exactPattern(name: string): string {
  return `^${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`;
}

/**
 * --contexts REGEX: each context as the pattern that matches it alone (`^prod\.eu$`, its regex
 * characters escaped), those that begin with what was typed; typed without the `^`, offered without
 * it (`prod` -> `prod\.eu$`). A pattern of one's own (`prod|stage`) is then typed past them.
 */
function contextPatterns(prefix: string, contexts: readonly string[]): Completion {
  const bare = prefix.replace(/^\^/, '');
  const literal = contexts.filter((c) => exactPattern(c).startsWith(`^${bare}`)).map(exactPattern);
  return { candidates: prefix.startsWith('^') || prefix === '' ? literal : literal.map((p) => p.slice(1)), directive: DIRECTIVE.noFileComp };
}

async function flagValues(flag: string, prefix: string, parsed: Parsed, lookups: NameLookups): Promise<Completion> {
  const values = findFlag(flag, parsed.verb)?.values;
  if (values === undefined) return { candidates: [], directive: DIRECTIVE.noFileComp };
  if (values === 'files') return { candidates: [], directive: DIRECTIVE.default };
  if (values === 'namespaces') return withPrefix(prefix, await lookups.namespaces());
  if (values === 'contexts') return commaList(prefix, await lookups.contexts());
  if (values === 'context-patterns') return contextPatterns(prefix, await lookups.contexts());
  if (values === 'clusters') return withPrefix(prefix, await lookups.clusters());
  if (values === 'users') return withPrefix(prefix, await lookups.users());
  return withPrefix(prefix, values);
}

/** What to offer for the last word, given the words before it. */
export async function complete(words: string[], lookups: NameLookups): Promise<Completion> {
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
    return withPrefix(current, [...VERB_FLAGS[parsed.verb].flatMap(spellings), ...GLOBAL_FLAGS.flatMap(spellings), ...BUILTIN_FLAGS]);
  }
  const verbGiven = before.some(isVerb);
  if (!verbGiven && parsed.positionals.length === 0) return withPrefix(current, VERBS);
  if (parsed.verb === 'aggregate-patch' && parsed.positionals.length === 0) {
    return withPrefix(current, await lookups.events(parsed.namespace));
  }
  if ((parsed.verb === 'capture' || parsed.verb === 'record') && parsed.positionals.length === 0) {
    return { candidates: [], directive: DIRECTIVE.default };
  }
  return { candidates: [], directive: DIRECTIVE.noFileComp };
}

export async function runComplete(words: string[], deps: Deps): Promise<CommandResult> {
  const { candidates, directive } = await complete(words.length === 0 ? [''] : words, deps.nameLookups(parseWords(words).target));
  // A candidate goes to the shell as typed input: one with a control character is dropped, not escaped.
  const safe = candidates.filter((c) => !/[\u0000-\u001f\u007f-\u009f]/.test(c));
  deps.stdout.write(safe.map((c) => `${c}\n`).join('') + `:${directive}\n`);
  return SUCCESS;
}

// Options -> typed values, once. Raw commander strings never reach core.
import { UsageError } from '../errors.ts';
import { parseDuration } from '../core/duration.ts';
import { parseObjectRef } from '../core/filter.ts';
import type { EventFilter } from '../core/filter.ts';
import { DEFAULT_EVENT_TTL_MS } from '../core/event-ttl.ts';
import { namespaceError } from '../core/object-names.ts';
import { parseDurationFlag, splitList, str } from './raw.ts';
import type { RawOptions } from './raw.ts';
import { parseSelection } from './selection.ts';
import { parseConnectionOverrides } from './connection.ts';
import type { ConnectionOverrides } from '../core/connection.ts';
import { parseStoreFrom } from './store.ts';
import type { StoreAddress } from './store.ts';

export type ColorMode = 'auto' | 'always' | 'never';

export interface ScopeOptions {
  /** -n; null means "the context's namespace" */
  namespace: string | null;
  allNamespaces: boolean;
  context?: string;
  /** several contexts read together: named (--context a,b), by a pattern (--contexts), or all (--all-contexts) */
  fleet?: FleetChoice;
  kubeconfig?: string;
  /** 0 = no limit */
  requestTimeoutMs: number;
  /** kubectl's global connection flags: --server, --token, --user, --cluster, --as, ... */
  overrides: ConnectionOverrides;
  /** -v/--v: 6 logs each request on stderr */
  verbosity: number;
}

export type FleetChoice = { names: string[] } | { pattern: RegExp; text: string } | { all: true };

/**
 * --context repeatable and comma-separated, --contexts REGEX (kubectl-mc's flag: a context whose
 * name the expression matches anywhere, as Go's regexp.MatchString), --all-contexts. One context
 * named once is the plain --context it always was.
 */
function parseContexts(raw: RawOptions): { context?: string; fleet?: FleetChoice } {
  const names = [...new Set(splitList(raw.context) ?? [])];
  const pattern = str(raw, 'contexts');
  const all = raw.allContexts === true;
  const given = [names.length > 0 ? '--context' : '', pattern !== undefined ? '--contexts' : '', all ? '--all-contexts' : ''].filter((f) => f !== '');
  if (given.length > 1) throw new UsageError(`${given.join(' and ')} both choose contexts: use one`);
  const fleet: FleetChoice | undefined =
    pattern !== undefined ? { pattern: compileContexts(pattern), text: pattern } : all ? { all: true } : names.length > 1 ? { names } : undefined;
  if (fleet === undefined) return names.length === 1 ? { context: names[0] as string } : {};
  // --from FILE --compare reads the live clusters beside the file: a record of several is compared with them.
  if (str(raw, 'from') !== undefined && raw.compare !== true) throw new UsageError('several contexts are read from live clusters: they do not apply to --from (but to --from RECORD --compare)');
  for (const flag of ['server', 'cluster', 'user', 'token'] as const) {
    if (str(raw, flag) !== undefined) throw new UsageError(`--${flag} names one cluster or user: it does not apply to several contexts`);
  }
  return { fleet };
}

function compileContexts(text: string): RegExp {
  if (text === '') throw new UsageError('--contexts needs a regular expression');
  try {
    return new RegExp(text, 'u');
  } catch (error) {
    throw new UsageError(`--contexts ${JSON.stringify(text)}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * A report that tells one tree (incident --tree, -w --tree) refuses several contexts: each cluster has
 * a tree of its own, which the timeline shows side by side (--context a,b --for X --tree).
 */
export function oneTree(common: CommonOptions, what: string): void {
  if (common.scope.fleet !== undefined && common.tree === true) {
    throw new UsageError(`${what} --tree tells one tree, and each of several contexts has its own: pass one --context, or read them with the timeline (--for X --tree)`);
  }
}

/** A verb that reads or writes one cluster refuses several contexts in one line (exit 2). */
export function oneContext(common: CommonOptions, what: string): CommonOptions {
  if (common.scope.fleet !== undefined) throw new UsageError(`${what} reads one context: several (--context a,b, --contexts, --all-contexts) are read by the timeline (-w, -o html too), incident, type-audit, record, capture and export`);
  return common;
}

export interface CommonOptions {
  scope: ScopeOptions;
  filter: EventFilter;
  /** --from FILE ('-' for stdin) or a store's URL, or null for the live cluster */
  from: string | null;
  /** --from victorialogs+http(s)://...: the store, its query and TLS */
  store?: StoreAddress;
  color: ColorMode;
  /** --tree: the --for object (else each object -l matches) and everything it owns (src/app/tree.ts) */
  tree?: boolean;
  /** --field-selector as typed: a live read sends it to the server (filter.fields applies it elsewhere) */
  fieldSelector?: string;
}

/** kubectl's --request-timeout: a bare number is seconds, else a duration; 0 means none. */
export function parseRequestTimeout(text: string | undefined): number {
  if (text === undefined || text === '0') return 0;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const ms = parseDuration(text);
  if (ms === null || ms < 0) throw new UsageError(`--request-timeout ${JSON.stringify(text)}: want a duration such as 30s or 1m`);
  return ms;
}

function parseColor(text: string | undefined): ColorMode {
  if (text === undefined) return 'auto';
  if (text === 'auto' || text === 'always' || text === 'never') return text;
  throw new UsageError(`--color ${JSON.stringify(text)}: want auto, always or never`);
}

/** -v/--v: a log level, 0 to 10. */
export function parseVerbosity(text: string | undefined): number {
  if (text === undefined) return 0;
  // pflag reads -v=6 as 6; commander hands a short flag's `=6` over whole.
  if (text.startsWith('=')) text = text.slice(1);
  if (!/^\d+$/.test(text)) throw new UsageError(`-v ${JSON.stringify(text)}: want a number for the log level verbosity, e.g. -v=6`);
  return Number(text);
}

export function parseCommonOptions(raw: RawOptions): CommonOptions {
  const namespace = str(raw, 'namespace') ?? null;
  const allNamespaces = raw.allNamespaces === true;
  if (namespace !== null && namespace === '') throw new UsageError('--namespace needs a name');
  // Before any request, as client-go does, and in its words: `-n ..` must never become a path.
  const invalid = namespace === null ? null : namespaceError(namespace);
  if (invalid !== null) throw new UsageError(invalid);
  const forText = str(raw, 'for');
  const object = forText === undefined ? undefined : parseObjectRef(forText);
  if (object === null) throw new UsageError(`--for ${JSON.stringify(forText)}: want KIND/NAME, e.g. Pod/hungry`);
  const tree = raw.tree === true;
  const filter: EventFilter = {
    object,
    types: splitList(raw.types),
    reasons: splitList(raw.reason),
    sinceMs: parseDurationFlag('--since', str(raw, 'since')),
  };
  const selection = parseSelection(raw, splitList);
  Object.assign(filter, selection.filter);
  if (tree && object === undefined && filter.labels === undefined) throw new UsageError('--tree needs --for KIND/NAME or -l SELECTOR: the objects whose trees to show');
  const from = str(raw, 'from') ?? null;
  const store = parseStoreFrom(from, raw);
  return {
    scope: {
      namespace,
      allNamespaces,
      ...parseContexts(raw),
      kubeconfig: str(raw, 'kubeconfig'),
      requestTimeoutMs: parseRequestTimeout(str(raw, 'requestTimeout')),
      overrides: parseConnectionOverrides(raw),
      verbosity: parseVerbosity(str(raw, 'v')),
    },
    filter,
    from,
    ...(store !== null ? { store } : {}),
    color: parseColor(str(raw, 'color')),
    ...(tree ? { tree } : {}),
    ...(selection.fieldSelector === null ? {} : { fieldSelector: selection.fieldSelector }),
  };
}

/** --event-ttl: what the user says the cluster's TTL is, else the default. */
export function parseEventTTL(raw: RawOptions): number {
  return parseDurationFlag('--event-ttl', str(raw, 'eventTtl')) ?? DEFAULT_EVENT_TTL_MS;
}

/** --compare sets a saved file beside the live cluster, so it needs --from. */
export function parseCompare(raw: RawOptions, common: CommonOptions): boolean {
  if (raw.compare !== true) return false;
  if (common.from === null) throw new UsageError('--compare needs --from FILE: it compares a saved file with the live cluster');
  return true;
}

/** --output-file: a path to write the output to, whole or not at all; null means stdout. */
export function parseOutputFile(raw: RawOptions): string | null {
  const path = str(raw, 'outputFile');
  if (path === undefined) return null;
  if (path.trim() === '') throw new UsageError('--output-file needs a file name');
  return path;
}

/**
 * `-l SELECTOR --tree` without --for is several trees: refused where one tree is told (incident owner
 * first, the page's lanes, the tree -w grows from one root), exit 2.
 */
export function refuseForest(common: CommonOptions, where: string): void {
  if (common.tree === true && common.filter.object === undefined) {
    throw new UsageError(`-l SELECTOR --tree without --for is several trees, and ${where} tells one: add --for KIND/NAME`);
  }
}

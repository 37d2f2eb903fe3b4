// Options -> typed values, once. Raw commander strings never reach core.
import { UsageError } from '../errors.ts';
import { parseDuration } from '../core/duration.ts';
import { parseObjectRef } from '../core/filter.ts';
import type { EventFilter } from '../core/filter.ts';
import { namespaceError } from '../kube/api-names.ts';

export type ColorMode = 'auto' | 'always' | 'never';

export interface ScopeOptions {
  /** -n; null means "the context's namespace" */
  namespace: string | null;
  allNamespaces: boolean;
  context?: string;
  kubeconfig?: string;
  /** 0 = no limit */
  requestTimeoutMs: number;
}

export interface CommonOptions {
  scope: ScopeOptions;
  filter: EventFilter;
  /** --from FILE ('-' for stdin), or null for the live cluster */
  from: string | null;
  color: ColorMode;
}

/** What commander hands us: the program's options merged with the verb's (optsWithGlobals). */
export type RawOptions = Record<string, unknown>;

function str(raw: RawOptions, key: string): string | undefined {
  const value = raw[key];
  return typeof value === 'string' ? value : undefined;
}

/** Repeatable, comma-separated list flags (--types=Normal,Critical --types Warning). */
export function splitList(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  const parts = (Array.isArray(value) ? value : [value])
    .flatMap((v) => String(v).split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
  return parts;
}

/** kubectl's --request-timeout: a bare number is seconds, else a duration; 0 means none. */
export function parseRequestTimeout(text: string | undefined): number {
  if (text === undefined || text === '0') return 0;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const ms = parseDuration(text);
  if (ms === null || ms < 0) throw new UsageError(`--request-timeout ${JSON.stringify(text)}: want a duration such as 30s or 1m`);
  return ms;
}

export function parseDurationFlag(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const ms = parseDuration(text);
  if (ms === null || ms <= 0) throw new UsageError(`${flag} ${JSON.stringify(text)}: want a positive duration such as 90s, 15m or 2h`);
  return ms;
}

function parseColor(text: string | undefined): ColorMode {
  if (text === undefined) return 'auto';
  if (text === 'auto' || text === 'always' || text === 'never') return text;
  throw new UsageError(`--color ${JSON.stringify(text)}: want auto, always or never`);
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
  const filter: EventFilter = {
    object,
    types: splitList(raw.types),
    reasons: splitList(raw.reason),
    sinceMs: parseDurationFlag('--since', str(raw, 'since')),
  };
  return {
    scope: {
      namespace,
      allNamespaces,
      context: str(raw, 'context'),
      kubeconfig: str(raw, 'kubeconfig'),
      requestTimeoutMs: parseRequestTimeout(str(raw, 'requestTimeout')),
    },
    filter,
    from: str(raw, 'from') ?? null,
    color: parseColor(str(raw, 'color')),
  };
}

export function parseOutput<T extends string>(text: unknown, allowed: readonly T[]): T {
  const value = typeof text === 'string' ? text : allowed[0];
  if (!allowed.includes(value as T)) {
    throw new UsageError(`-o ${JSON.stringify(value)}: want one of ${allowed.join(', ')}`);
  }
  return value as T;
}

/** kube-apiserver's --event-ttl default. */
export const DEFAULT_EVENT_TTL_MS = 60 * 60 * 1000;

/** --event-ttl: what the user says the cluster's TTL is, else the default. */
export function parseEventTTL(raw: RawOptions): number {
  return parseDurationFlag('--event-ttl', str(raw, 'eventTtl')) ?? DEFAULT_EVENT_TTL_MS;
}

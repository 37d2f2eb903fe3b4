// The words commander hands over, and the parsers every room of options shares: a leaf, so the
// verbs' and the flags' parsers (common.ts, otlp.ts, store.ts) import it and not each other.
import { UsageError } from '../errors.ts';
import { parseDuration } from '../core/duration.ts';

/** What commander hands us: the program's options merged with the verb's (optsWithGlobals). */
export type RawOptions = Record<string, unknown>;

/** A flag's value, if commander handed a string. */
export function str(raw: RawOptions, key: string): string | undefined {
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

export function parseDurationFlag(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const ms = parseDuration(text);
  if (ms === null || ms <= 0) throw new UsageError(`${flag} ${JSON.stringify(text)}: want a positive duration such as 90s, 15m or 2h`);
  return ms;
}

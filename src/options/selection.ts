// The selection flags -> typed criteria (src/core/filter.ts), each bad value a usage error naming it.
import { UsageError } from '../errors.ts';
import type { Criterion, EventFilter, Hidden } from '../core/filter.ts';
import { parseFieldSelector, parseLabelSelector } from '../core/selectors.ts';

type Raw = Record<string, unknown>;

function str(raw: Raw, key: string): string | undefined {
  const value = raw[key];
  return typeof value === 'string' ? value : undefined;
}

/**
 * --message and --exclude-message: JavaScript (ECMAScript) regular expressions with the `u` flag,
 * unanchored and case-sensitive, as Go's regexp is in kubectl's and stern's filters. The dialect is
 * the runtime's own (no second engine shipped); RE2's common syntax (classes, alternation,
 * repetition, anchors) means the same in both; `(?i)` is not JavaScript: write `(?i:...)` or a class.
 */
function parseRegexFlag(flag: string, text: string | undefined): RegExp | undefined {
  if (text === undefined) return undefined;
  try {
    return new RegExp(text, 'u');
  } catch (error) {
    const why = error instanceof Error ? error.message.replace(/^Invalid regular expression: /, '') : String(error);
    throw new UsageError(`${flag} ${JSON.stringify(text)}: not a valid regular expression (JavaScript syntax): ${why}`);
  }
}

// RFC 3339 as Go's time.RFC3339 reads it: a date, T, a time, optional fractions, Z or an offset.
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function parseTimeFlag(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const ms = RFC3339.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(ms)) throw new UsageError(`${flag} ${JSON.stringify(text)}: want an RFC 3339 time such as 2026-11-30T10:00:00Z`);
  return ms;
}

/** The criteria beside --for, --types, --reason and --since, and the field selector's text for the server. */
export function parseSelection(raw: Raw, split: (value: unknown) => string[] | undefined): { filter: Partial<EventFilter>; fieldSelector: string | null } {
  const sinceTime = parseTimeFlag('--since-time', str(raw, 'sinceTime'));
  // kubectl logs refuses both in its flag help's words (logs.go:202-203, Validate :330).
  if (sinceTime !== undefined && str(raw, 'since') !== undefined) throw new UsageError('only one of --since-time / --since may be used');
  const until = parseTimeFlag('--until', str(raw, 'until'));
  if (sinceTime !== undefined && until !== undefined && until < sinceTime) {
    throw new UsageError(`--until ${str(raw, 'until')} is before --since-time ${str(raw, 'sinceTime')}: no event can be in that window`);
  }
  const labelText = str(raw, 'selector');
  const labels = labelText === undefined ? undefined : parseLabelSelector(labelText);
  if (labels !== undefined && !labels.ok) throw new UsageError(`-l ${JSON.stringify(labelText)}: ${labels.error}`);
  const fieldText = str(raw, 'fieldSelector');
  const fields = fieldText === undefined ? undefined : parseFieldSelector(fieldText);
  if (fields !== undefined && !fields.ok) throw new UsageError(`--field-selector ${JSON.stringify(fieldText)}: ${fields.error}`);
  const filter: Partial<EventFilter> = {
    excludeReasons: split(raw.excludeReason),
    excludeTypes: split(raw.excludeType),
    message: parseRegexFlag('--message', str(raw, 'message')),
    excludeMessage: parseRegexFlag('--exclude-message', str(raw, 'excludeMessage')),
    labels: labels?.value,
    fields: fields?.value,
    sinceTime,
    until,
    hideStartupProbes: raw.excludeStartupProbes === true ? true : undefined,
  };
  for (const key of Object.keys(filter) as (keyof EventFilter)[]) if (filter[key] === undefined) delete filter[key];
  return { filter, fieldSelector: fieldText === undefined || fieldText === '' ? null : fieldText };
}

/** The flag behind each criterion, as the footer names it. */
export function criterionFlag(c: Criterion): string {
  return CRITERION_FLAGS[c];
}

const CRITERION_FLAGS: Record<Criterion, string> = {
  types: '--types',
  excludeTypes: '--exclude-type',
  reasons: '--reason',
  excludeReasons: '--exclude-reason',
  message: '--message',
  excludeMessage: '--exclude-message',
  fields: '--field-selector',
  labels: '-l',
  since: '--since',
  sinceTime: '--since-time',
  until: '--until',
  startupProbes: '--exclude-startup-probes (start-up probes below their failure threshold)',
};

/** -o json: `[{"flag": "--exclude-reason", "events": 12}, ...]`. */
export function hiddenJson(hidden: readonly Hidden[]): { flag: string; events: number }[] {
  return hidden.map((h) => ({ flag: CRITERION_FLAGS[h.criterion].split(' ')[0] ?? '', events: h.events }));
}

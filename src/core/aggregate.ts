// The plan behind `aggregate-patch`: do what an event recorder does when the same event happens again.
// A repeat is not a new object: the legacy (core/v1) recorder bumps count and lastTimestamp; the
// events.k8s.io/v1 recorder bumps series.count and series.lastObservedTime (through events.k8s.io/v1
// every other field, count and lastTimestamp included, is immutable on update).

import type { Event } from './event.ts';
import { normaliseEvent } from './event.ts';
import { isObject } from './json.ts';
import type { Json } from './json.ts';

export interface AggregateRequest {
  /** occurrences to add, or the total to set instead; a whole number of 1 or more */
  change: { add: number } | { count: number };
  /** epoch ms of the latest occurrence */
  at: number;
}

/** Why a repeat cannot be planned; the command says it in the user's words. */
export type AggregateProblem =
  | { kind: 'count-below-current'; count: number; current: number }
  | { kind: 'series-too-small'; count: number }
  | { kind: 'not-an-event' }
  | { kind: 'new-api-view' }
  | { kind: 'invalid-time' };

export class AggregateError extends Error {
  constructor(readonly problem: AggregateProblem) {
    super(`cannot plan the repeat: ${problem.kind}`);
  }
}

type AggregateStyle = 'legacy' | 'series';

export interface AggregatePlan {
  /** JSON merge patch for the core/v1 Event endpoint */
  patch: Record<string, unknown>;
  style: AggregateStyle;
  before: Event;
  after: Event;
}

function currentCount(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null;
}

/** metav1.Time: RFC 3339 in whole seconds (Go truncates the fraction). */
function formatRfc3339(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** metav1.MicroTime: RFC 3339 with six fractional digits; we only have milliseconds. */
function formatMicroTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** RFC 7386 JSON merge patch: objects merge, null deletes, anything else replaces. */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const result: Json = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = applyMergePatch(result[key], value);
  }
  return result;
}

/**
 * The new total. A recorder never decreases a count, so a total below the current one is refused;
 * equal is allowed so that re-running the same command only moves the last time (the lab's step 5
 * is `count: 5` twice).
 */
function nextCount(current: number, change: AggregateRequest['change'], style: AggregateStyle): number {
  const next = 'count' in change ? change.count : current + change.add;
  if (next < current) throw new AggregateError({ kind: 'count-below-current', count: next, current });
  // validateV1EventSeries: events.k8s.io/v1 rejects a series with count < 2 ("should be at least 2").
  if (style === 'series' && next < 2) throw new AggregateError({ kind: 'series-too-small', count: next });
  return next;
}

/**
 * Plans the patch for one repeat (or N repeats, or a new total) of `raw`, a core/v1 Event as the API returns it.
 * Legacy style (no eventTime, no series): `count` and `lastTimestamp`. Series style (eventTime or
 * series present): `series.count` and `series.lastObservedTime`; the count starts from series.count,
 * or 1 when there is no series yet (the event itself was the first occurrence).
 * metadata.resourceVersion is included when known so the server refuses the patch (409) if the event
 * changed since it was read, instead of losing a recorder's concurrent bump.
 */
export function planAggregate(raw: unknown, req: AggregateRequest): AggregatePlan {
  if (!isObject(raw)) throw new AggregateError({ kind: 'not-an-event' });
  // Through events.k8s.io/v1 the deprecated* counters are immutable; the plan targets core/v1.
  if (String(raw.apiVersion ?? '').startsWith('events.k8s.io/')) throw new AggregateError({ kind: 'new-api-view' });
  if (!Number.isFinite(req.at)) throw new AggregateError({ kind: 'invalid-time' });

  const before = normaliseEvent(raw);
  const style: AggregateStyle = before.seriesStyle ? 'series' : 'legacy';
  const metadata = isObject(raw.metadata) ? raw.metadata : {};
  const rv = typeof metadata.resourceVersion === 'string' && metadata.resourceVersion !== '' ? metadata.resourceVersion : null;

  const patch: Json = rv === null ? {} : { metadata: { resourceVersion: rv } };
  if (style === 'legacy') {
    patch.count = nextCount(currentCount(raw.count) ?? 1, req.change, style);
    patch.lastTimestamp = formatRfc3339(req.at);
  } else {
    const series = isObject(raw.series) ? raw.series : {};
    patch.series = { count: nextCount(currentCount(series.count) ?? 1, req.change, style), lastObservedTime: formatMicroTime(req.at) };
  }

  const after = normaliseEvent(applyMergePatch(raw, patch));
  return { patch, style, before, after };
}

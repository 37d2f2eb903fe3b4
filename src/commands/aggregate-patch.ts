// `kubectl evtimeline aggregate-patch NAME`: what the event recorder does when an event repeats.
// The only verb that writes to a cluster. The patch carries metadata.resourceVersion, so a
// concurrent writer is never overwritten: on a conflict we re-read and plan again.
import type { Deps } from '../deps.ts';
import { RuntimeError, SUCCESS, UsageError } from '../errors.ts';
import type { CommandResult } from '../errors.ts';
import { planAggregate } from '../core/aggregate.ts';
import { normaliseEvent } from '../core/event.ts';
import { parseTime } from '../core/event.ts';
import { escapeTerminal } from '../render/escape.ts';
import { choosePalette } from '../render/color.ts';
import { renderTimelineTable } from '../render/timeline-table.ts';
import { ApiError } from '../kube/http.ts';
import { getEvent, mergePatchEvent } from '../kube/events-api.ts';
import { eventNameError } from '../kube/api-names.ts';
import { parseCommonOptions } from './options.ts';
import type { ColorMode, RawOptions, ScopeOptions } from './options.ts';
import { resolveTarget } from './source.ts';

export const DRY_RUN_MODES = ['none', 'server', 'client'] as const;
export type DryRun = (typeof DRY_RUN_MODES)[number];

/** How many times a conflicting write is re-read and re-planned before giving up. */
export const MAX_ATTEMPTS = 5;

export interface AggregateOptions {
  name: string;
  scope: ScopeOptions;
  add?: number;
  count?: number;
  /** epoch ms of the last occurrence, or undefined for now */
  at?: number;
  dryRun: DryRun;
  color: ColorMode;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Event.count and EventSeries.count are int32 in the API (k8s.io/api core/v1, events/v1). */
export const MAX_COUNT = 2_147_483_647;

function positiveInteger(flag: string, text: unknown): number | undefined {
  if (text === undefined) return undefined;
  const value = String(text);
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > MAX_COUNT) {
    throw new UsageError(`${flag} ${JSON.stringify(value)}: want a whole number from 1 to ${MAX_COUNT} (the API's int32 count)`);
  }
  return Number(value);
}

export function parseAggregateOptions(name: string, raw: RawOptions): AggregateOptions {
  const common = parseCommonOptions(raw);
  const invalidName = eventNameError(name);
  if (invalidName !== null) throw new UsageError(invalidName);
  if (common.from !== null) throw new UsageError('aggregate-patch writes to a cluster: --from does not apply');
  if (common.scope.allNamespaces) throw new UsageError('aggregate-patch patches one event: use -n, not -A');
  // It patches the one event it names: a read filter would be silently ignored, or worse, read as a guard.
  const ignored = [
    ['--for', raw.for],
    ['--types', raw.types],
    ['--reason', raw.reason],
    ['--since', raw.since],
  ].find(([, value]) => value !== undefined);
  if (ignored !== undefined) throw new UsageError(`aggregate-patch patches the one event it names: ${String(ignored[0])} does not apply`);
  const add = positiveInteger('--add', raw.add);
  const count = positiveInteger('--count', raw.count);
  if (add !== undefined && count !== undefined) throw new UsageError('--add and --count exclude each other');
  let at: number | undefined;
  if (raw.at !== undefined) {
    const text = String(raw.at);
    // RFC 3339 only, with its zone: Date.parse alone would take "1" or a zone-less local time.
    const parsed = RFC3339.test(text) ? parseTime(text) : null;
    if (parsed === null) throw new UsageError(`--at ${JSON.stringify(text)}: want an RFC 3339 time, e.g. 2026-11-30T12:00:00Z`);
    at = parsed;
  }
  const dryRun = String(raw.dryRun ?? 'none');
  if (!(DRY_RUN_MODES as readonly string[]).includes(dryRun)) {
    throw new UsageError(`--dry-run ${JSON.stringify(dryRun)}: want none, server or client`);
  }
  return { name, scope: common.scope, add, count, at, dryRun: dryRun as DryRun, color: common.color };
}

function isConflict(error: unknown): boolean {
  return error instanceof ApiError && error.code === 409;
}

export async function runAggregatePatch(opts: AggregateOptions, deps: Deps): Promise<CommandResult> {
  const now = deps.now();
  const { target, namespace } = await resolveTarget(opts.scope, deps);
  if (namespace === null) throw new UsageError('aggregate-patch needs a namespace');
  const timeoutMs = opts.scope.requestTimeoutMs;
  for (let attempt = 1; ; attempt += 1) {
    const raw = await getEvent(target, namespace, opts.name, timeoutMs).catch((error: unknown) => {
      if (error instanceof ApiError && error.code === 404) {
        throw new RuntimeError(`event "${opts.name}" not found in namespace "${namespace}"`);
      }
      throw error;
    });
    const plan = planAggregate(raw, { add: opts.add, count: opts.count, at: opts.at ?? now });
    if (plan.after.count > MAX_COUNT) {
      throw new UsageError(`--add ${opts.add ?? 1} would take the count of event ${opts.name} from ${plan.before.count} past ${MAX_COUNT} (the API's int32 count)`);
    }
    // A recorder never moves an event's last occurrence back in time.
    if (opts.at !== undefined && plan.before.lastSeen !== null && opts.at < plan.before.lastSeen) {
      throw new UsageError(`--at is before the event's last occurrence (${new Date(plan.before.lastSeen).toISOString()})`);
    }
    let after = plan.after;
    if (opts.dryRun !== 'client') {
      try {
        // A series-style event's count and lastTimestamp are immutable through events.k8s.io/v1;
        // its recorder patches series there, so we do the same.
        const api = plan.style === 'series' ? 'events.k8s.io' : 'core';
        const patched = await mergePatchEvent(target, api, namespace, opts.name, plan.patch, {
          dryRun: opts.dryRun === 'server',
          timeoutMs,
        });
        after = normaliseEvent(patched);
      } catch (error) {
        if (isConflict(error) && attempt < MAX_ATTEMPTS) continue;
        if (isConflict(error)) throw new RuntimeError(`event "${opts.name}" kept changing under us: gave up after ${MAX_ATTEMPTS} attempts`);
        throw error;
      }
    }
    const what = plan.style === 'series' ? 'series.count and series.lastObservedTime (events.k8s.io/v1)' : 'count and lastTimestamp (core/v1)';
    const dry = opts.dryRun === 'none' ? '' : ` [dry run: ${opts.dryRun}, nothing stored]`;
    deps.stdout.write(
      `event ${escapeTerminal(opts.name)} in ${escapeTerminal(namespace)}: count ${plan.before.count} -> ${after.count}, patched ${what}${dry}\n`,
    );
    const palette = choosePalette({ flag: opts.color, isTTY: deps.stdout.isTTY, env: deps.env });
    const table = { now, wide: false, allNamespaces: false, noHeaders: false, palette };
    deps.stdout.write(`before:\n${renderTimelineTable([plan.before], table)}after:\n${renderTimelineTable([after], table)}`);
    return SUCCESS;
  }
}

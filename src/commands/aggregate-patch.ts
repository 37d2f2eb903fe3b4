// `kubectl evtimeline aggregate-patch NAME`: what the event recorder does when an event repeats.
// The only verb that writes to a cluster. The patch carries metadata.resourceVersion, so a
// concurrent writer is never overwritten: on a conflict we re-read and plan again.
import type { Deps } from '../deps.ts';
import { RuntimeError, SUCCESS, UsageError } from '../errors.ts';
import type { CommandResult } from '../errors.ts';
import { planAggregate } from '../core/aggregate.ts';
import type { AggregatePlan, AggregateRequest } from '../core/aggregate.ts';
import type { Event } from '../core/event.ts';
import { normaliseEvent } from '../core/event.ts';
import { parseTime } from '../core/event.ts';
import { escapeTerminal } from '../render/escape.ts';
import { choosePalette } from '../render/color.ts';
import { renderTimelineTable } from '../render/timeline-table.ts';
import type { TimelineTableOptions } from '../render/timeline-table.ts';
import type { EventStore } from '../core/event-store.ts';
import { eventNameError } from '../core/object-names.ts';
import { DRY_RUN_MODES } from '../options/flags.ts';
import { parseCommonOptions } from '../options/common.ts';
import type { ColorMode, ScopeOptions } from '../options/common.ts';
import type { RawOptions } from '../options/raw.ts';

type DryRun = (typeof DRY_RUN_MODES)[number];

/** How many times a conflicting write is re-read and re-planned before giving up. */
const MAX_ATTEMPTS = 5;

interface AggregateOptions {
  name: string;
  scope: ScopeOptions;
  /** --add N or --count N; neither means add 1 */
  change: AggregateRequest['change'];
  /** epoch ms of the last occurrence, or undefined for now */
  at?: number;
  dryRun: DryRun;
  color: ColorMode;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Event.count and EventSeries.count are int32 in the API (k8s.io/api core/v1, events/v1). */
const MAX_COUNT = 2_147_483_647;

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
  // The one writer: it patches one event of one cluster, read and written with its resourceVersion.
  if (common.scope.fleet !== undefined) throw new UsageError('aggregate-patch writes to one cluster at a time: pass one --context (several are read by the timeline, incident, record, capture and export)');
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
  const change = count !== undefined ? { count } : { add: add ?? 1 };
  return { name, scope: common.scope, change, at, dryRun: dryRun as DryRun, color: common.color };
}

/** The plan for the event as read, refused when it breaks a rule only the command knows (the flags it came from). */
function planRepeat(raw: unknown, opts: AggregateOptions, now: number): AggregatePlan {
  const plan = planAggregate(raw, { change: opts.change, at: opts.at ?? now });
  if (plan.after.count > MAX_COUNT) {
    const add = 'add' in opts.change ? opts.change.add : 1;
    throw new UsageError(`--add ${add} would take the count of event ${opts.name} from ${plan.before.count} past ${MAX_COUNT} (the API's int32 count)`);
  }
  // A recorder never moves an event's last occurrence back in time.
  if (opts.at !== undefined && plan.before.lastSeen !== null && opts.at < plan.before.lastSeen) {
    throw new UsageError(`--at is before the event's last occurrence (${new Date(plan.before.lastSeen).toISOString()})`);
  }
  return plan;
}

/**
 * Reads the event, plans the repeat and patches it with its resourceVersion; on a conflict (another
 * writer got there first) reads and plans again, MAX_ATTEMPTS times at most. The event after the
 * patch as the server answered (as planned, for --dry-run=client, which sends nothing).
 */
async function patchRepeat(store: EventStore, namespace: string, opts: AggregateOptions, now: number): Promise<{ plan: AggregatePlan; after: Event }> {
  for (let attempt = 1; ; attempt += 1) {
    const raw = await store.get(opts.name);
    if (raw === null) throw new RuntimeError(`event "${opts.name}" not found in namespace "${namespace}"`);
    const plan = planRepeat(raw, opts, now);
    if (opts.dryRun === 'client') return { plan, after: plan.after };
    // A series-style event's count and lastTimestamp are immutable through events.k8s.io/v1;
    // its recorder patches series there, so we do the same.
    const api = plan.style === 'series' ? 'events.k8s.io' : 'core';
    const outcome = await store.mergePatch(api, opts.name, plan.patch, { dryRun: opts.dryRun === 'server' });
    if (outcome.kind === 'patched') return { plan, after: normaliseEvent(outcome.event) };
    if (attempt >= MAX_ATTEMPTS) throw new RuntimeError(`event "${opts.name}" kept changing under us: gave up after ${MAX_ATTEMPTS} attempts`);
  }
}

/** What was patched, then the event before and after as timeline rows. */
function renderPatched(namespace: string, opts: AggregateOptions, result: { plan: AggregatePlan; after: Event }, table: TimelineTableOptions): string {
  const { plan, after } = result;
  const what = plan.style === 'series' ? 'series.count and series.lastObservedTime (events.k8s.io/v1)' : 'count and lastTimestamp (core/v1)';
  const dry = opts.dryRun === 'none' ? '' : ` [dry run: ${opts.dryRun}, nothing stored]`;
  const head = `event ${escapeTerminal(opts.name)} in ${escapeTerminal(namespace)}: count ${plan.before.count} -> ${after.count}, patched ${what}${dry}\n`;
  return `${head}before:\n${renderTimelineTable([plan.before], table)}after:\n${renderTimelineTable([after], table)}`;
}

export async function runAggregatePatch(opts: AggregateOptions, deps: Deps): Promise<CommandResult> {
  const now = deps.now();
  const store = await deps.openEventStore(opts.scope);
  const { namespace } = store;
  if (namespace === null) throw new UsageError('aggregate-patch needs a namespace');
  const result = await patchRepeat(store, namespace, opts, now);
  const palette = choosePalette({ flag: opts.color, isTTY: deps.stdout.isTTY, env: deps.env });
  deps.stdout.write(renderPatched(namespace, opts, result, { now, wide: false, allNamespaces: false, noHeaders: false, palette }));
  return SUCCESS;
}

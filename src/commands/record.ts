// `kubectl evtimeline record FILE`: watch events and append every observed version to FILE as
// JSON Lines (src/io/record-file.ts), so the story outlives the API server's --event-ttl.
// A list first, then a watch (src/kube/watch.ts); a FILE that already holds a record of the same
// scope is continued from its newest resourceVersion, if the server has reached it. Nothing is
// written twice: an event version is its uid + resourceVersion, and a uid is DELETED once.
import type { Deps } from '../deps.ts';
import { SUCCESS, UsageError } from '../errors.ts';
import type { CommandResult } from '../errors.ts';
import { normaliseEvent } from '../core/event.ts';
import { filterEvents } from '../core/filter.ts';
import type { EventFilter } from '../core/filter.ts';
import {
  RECORD_KIND,
  RecordAppender,
  RecordIndex,
  formatHeader,
  formatObservation,
  readRecordFile,
  uidOf,
} from '../io/record-file.ts';
import type { Observation, RecordHeader } from '../io/record-file.ts';
import { escapeTerminal } from '../render/escape.ts';
import { compareResourceVersions, resourceVersionOf } from '../core/json.ts';
import { DEFAULT_RETRY, followEvents } from '../kube/watch.ts';
import type { FollowStep, RetryPolicy } from '../kube/watch.ts';
import { parseCommonOptions, parseDurationFlag } from './options.ts';
import type { CommonOptions, RawOptions } from './options.ts';
import { resolveTarget } from './source.ts';

import type { Json } from '../core/json.ts';

/** A step that may add lines to the record. */
type ObservedStep = Exclude<FollowStep, { kind: 'resume' }>;
type ResumeStep = Extract<FollowStep, { kind: 'resume' }>;

export interface RecordOptions {
  file: string;
  common: CommonOptions;
  /** stop after this long; undefined: until interrupted */
  durationMs?: number;
  /** how long to wait between failed watches, and after how many in a row to give up (no flag: tests shorten it) */
  retry: RetryPolicy;
}

export function parseRecordOptions(file: string, raw: RawOptions): RecordOptions {
  if (file.trim() === '') throw new UsageError('record needs a file name, e.g. record -n op-events events.jsonl');
  if (file === '-') throw new UsageError('record writes to a file, not to stdout: give a file name');
  const common = parseCommonOptions(raw);
  if (common.from !== null) throw new UsageError('record reads the live cluster: --from does not apply (replay a record with timeline --from FILE)');
  const duration = typeof raw.duration === 'string' ? raw.duration : undefined;
  return { file, common, durationMs: parseDurationFlag('--duration', duration), retry: DEFAULT_RETRY };
}

// -- The pure part: which lines a step from the cluster adds to the record ----------------------

/** The filters as the header records them; undefined ones are left out so equal filters compare equal. */
export function describeFilter(filter: EventFilter): Json {
  const described: Json = {};
  if (filter.object) described.for = `${filter.object.kind}/${filter.object.name}`;
  if (filter.types && filter.types.length > 0) described.types = filter.types;
  if (filter.reasons && filter.reasons.length > 0) described.reasons = filter.reasons;
  if (filter.sinceMs !== undefined) described.sinceMs = filter.sinceMs;
  return described;
}

/**
 * A watch may resume from the record's newest resourceVersion only when the record was made of
 * the same server, namespace and filters: otherwise the events before that version were never
 * looked at, and only a list finds them.
 */
export function canResume(previous: RecordHeader | undefined, current: RecordHeader): boolean {
  return (
    previous !== undefined &&
    previous.server === current.server &&
    previous.namespace === current.namespace &&
    JSON.stringify(previous.filter) === JSON.stringify(current.filter)
  );
}

/** List items oldest version first: a recorder killed half-way through leaves every version up to its last line. */
export function byResourceVersion(items: Json[]): Json[] {
  return [...items].sort((a, b) => compareResourceVersions(resourceVersionOf(a), resourceVersionOf(b)) ?? 0);
}

function inNamespace(event: Json, namespace: string | null): boolean {
  if (namespace === null) return true;
  const meta = event.metadata as { namespace?: unknown } | undefined;
  return meta?.namespace === namespace;
}

export interface PlanContext {
  index: RecordIndex;
  namespace: string | null;
  /** the filters: which events are written */
  keep(event: Json): boolean;
  observedAt: string;
}

/**
 * The observations one step adds, in the order to write them; `index` learns them. A list writes
 * each event version the record lacks, as ADDED or, when the record holds an earlier version of
 * that event, as MODIFIED (what a watch would have said); then a DELETED (inferred) for each event
 * the record holds in this namespace that the list no longer has. A watch change is written when
 * the filters keep it; a DELETED also when the record holds the event.
 */
export function planStep(step: ObservedStep, ctx: PlanContext): Observation[] {
  const { index, observedAt } = ctx;
  const planned: Observation[] = [];
  if (step.kind === 'change') {
    const { type, object } = step;
    const wanted = ctx.keep(object) || (type === 'DELETED' && index.holds(uidOf(object)));
    if (wanted && index.admit(type, object)) planned.push({ observedAt, type, event: object });
    return planned;
  }
  const listed = new Set<string>();
  for (const item of byResourceVersion(step.items)) {
    const uid = uidOf(item);
    listed.add(uid);
    const type = index.knows(uid) ? 'MODIFIED' : 'ADDED';
    if (ctx.keep(item) && index.admit(type, item)) planned.push({ observedAt, type, event: item });
  }
  for (const [uid, event] of index.liveEvents()) {
    if (listed.has(uid) || !inNamespace(event, ctx.namespace)) continue;
    if (index.admit('DELETED', event)) planned.push({ observedAt, type: 'DELETED', event, inferred: true });
  }
  return planned;
}

export interface RecordCounts {
  added: number;
  modified: number;
  deleted: number;
}

export function countObservation(counts: RecordCounts, observation: Observation): void {
  if (observation.type === 'ADDED') counts.added += 1;
  else if (observation.type === 'MODIFIED') counts.modified += 1;
  else counts.deleted += 1;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function countsText(counts: RecordCounts): string {
  const lines = counts.added + counts.modified + counts.deleted;
  return `${plural(lines, 'line')} (${counts.added} added, ${counts.modified} modified, ${counts.deleted} deleted)`;
}

/** The live count on a terminal. */
export function progressLine(file: string, counts: RecordCounts): string {
  return `recording to ${file}: ${countsText(counts)}`;
}

/** What a record about to be continued says, once the server has told its current resourceVersion. */
export function resumeNotice(file: string, observations: number, step: ResumeStep): string {
  const { from, current } = step;
  if (step.verdict === 'resume') return `continuing ${file} (${plural(observations, 'observation')}) from resourceVersion ${from}`;
  if (step.verdict === 'ahead') {
    return `${file}: its last resourceVersion ${from} is ahead of the server's ${current} (a different or re-created cluster?): listing again`;
  }
  return `${file}: cannot tell whether the server (at resourceVersion ${current === '' ? 'unknown' : current}) has reached its last resourceVersion ${from}: listing again`;
}

/** The one line printed at the end, when recording stopped as asked (--duration, Ctrl-C, SIGTERM). */
export function summaryLine(file: string, counts: RecordCounts, totalLines: number): string {
  return `recorded ${countsText(counts)} to ${file}; it holds ${plural(totalLines, 'observation')}`;
}

// -- The verb -----------------------------------------------------------------------------------

/**
 * stderr: notices as lines, escaped (they carry the server's words: Status messages, resourceVersions),
 * and on a terminal that can redraw a line (not TERM=dumb) a live count that notices are printed above.
 */
export function statusWriter(deps: Deps, file: string) {
  const tty = deps.stderr.isTTY && deps.env.TERM !== 'dumb';
  let shown = '';
  const draw = (text: string): void => {
    shown = text;
    deps.stderr.write(`\r\u001b[K${text}`);
  };
  return {
    notice(text: string): void {
      if (tty && shown) deps.stderr.write('\r\u001b[K');
      deps.stderr.write(`${escapeTerminal(text)}\n`);
      if (tty && shown) draw(shown);
    },
    update(counts: RecordCounts): void {
      if (tty) draw(progressLine(file, counts));
    },
    done(): void {
      if (tty && shown) deps.stderr.write('\r\u001b[K');
      shown = '';
    },
  };
}

function untilStopped(deps: Deps, durationMs: number | undefined): { signal: AbortSignal; clear(): void } {
  const controller = new AbortController();
  void deps.interrupted().then(() => controller.abort());
  const timer = durationMs === undefined ? undefined : setTimeout(() => controller.abort(), durationMs);
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}

export async function runRecord(opts: RecordOptions, deps: Deps): Promise<CommandResult> {
  const existing = await readRecordFile(opts.file);
  const { target, namespace } = await resolveTarget(opts.common.scope, deps);
  const file = escapeTerminal(opts.file);
  const status = statusWriter(deps, file);
  const { record } = existing;
  const header: RecordHeader = {
    kind: RECORD_KIND,
    version: 1,
    context: target.context,
    server: target.server,
    namespace,
    filter: describeFilter(opts.common.filter),
    startedAt: new Date(deps.now()).toISOString(),
  };
  const index = RecordIndex.from(record.observations);
  const previous = record.headers.at(-1);
  // Events recorded from another server cannot be judged gone by this one's lists.
  if (previous !== undefined && previous.server !== header.server) index.forgetLive();
  const resumeFrom = canResume(previous, header) ? index.resourceVersion : '';
  const held = record.observations.length;
  // Continuing is announced once the server has been asked whether it reached resumeFrom.
  if (held > 0 && resumeFrom === '') {
    status.notice(`adding to ${file} (${plural(held, 'observation')}): it was recorded with another server, namespace or filters, so listing first`);
  }

  const stop = untilStopped(deps, opts.durationMs);
  const counts: RecordCounts = { added: 0, modified: 0, deleted: 0 };
  const keep = (event: Json): boolean => filterEvents([normaliseEvent(event)], opts.common.filter, deps.now()).length > 0;
  let appender: RecordAppender | undefined;
  let headerWritten = false;
  try {
    // An existing record is opened (and a torn last line cut off) at once; a new file appears
    // once the server has answered.
    if (existing.exists) appender = await RecordAppender.open(existing);
    if (record.tornTail !== '') {
      status.notice(`${file}: cut off a torn last line (${existing.size - existing.completeBytes} bytes) left by a recorder that was stopped mid-write`);
    }
    const steps = followEvents(target, {
      namespace,
      resourceVersion: resumeFrom,
      signal: stop.signal,
      notice: status.notice,
      requestTimeoutMs: opts.common.scope.requestTimeoutMs,
      retry: opts.retry,
    });
    for await (const step of steps) {
      appender ??= await RecordAppender.open(existing);
      if (!headerWritten) {
        // The session's header goes first, with the server's first answer (a quiet namespace
        // still leaves a record, of no events, that --from reads).
        await appender.append(formatHeader(header));
        headerWritten = true;
      }
      if (step.kind === 'resume') {
        status.notice(resumeNotice(file, held, step));
        // Not this cluster's events (or not known to be): its lists cannot tell that they are gone.
        if (step.verdict !== 'resume') index.forgetLive();
        continue;
      }
      const planned = planStep(step, { index, namespace, keep, observedAt: new Date(deps.now()).toISOString() });
      for (const observation of planned) {
        await appender.append(formatObservation(observation));
        countObservation(counts, observation);
      }
      status.update(counts);
    }
  } finally {
    stop.clear();
    await appender?.close();
    status.done();
  }
  // Only a recorder stopped as asked sums up: a failure is the one line main prints.
  const total = held + counts.added + counts.modified + counts.deleted;
  deps.stderr.write(`${summaryLine(file, counts, total)}\n`);
  return SUCCESS;
}

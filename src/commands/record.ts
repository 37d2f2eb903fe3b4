// `kubectl evtimeline record FILE`: watch events and append every observed version to FILE as
// JSON Lines (src/io/record-file.ts), so the story outlives the API server's --event-ttl.
// A list first, then a watch (src/kube/watch.ts); a FILE that already holds a record of the same
// scope is continued from its newest resourceVersion, if the server has reached it. Which lines
// each step adds, without writing anything twice, is decided in src/core/record.ts.
import type { Deps } from '../deps.ts';
import { RuntimeError, SUCCESS, UsageError } from '../errors.ts';
import type { CommandResult } from '../errors.ts';
import { normaliseEvent } from '../core/event.ts';
import { filterEvents } from '../core/filter.ts';
import type { Json } from '../core/json.ts';
import { RECORD_KIND, RecordIndex, canResume, countObservation, describeFilter, planStep } from '../core/record.ts';
import type { RecordCounts, RecordHeader } from '../core/record.ts';
import { RecordAppender, formatHeader, formatObservation, readRecordFile } from '../io/record-file.ts';
import { DEFAULT_RETRY, followEvents } from '../kube/watch.ts';
import type { RetryPolicy } from '../kube/watch.ts';
import { escapeTerminal } from '../render/escape.ts';
import { progressLine, resumeNotice, summaryLine } from '../render/record-status.ts';
import { plural } from '../render/words.ts';
import { parseCommonOptions, parseDurationFlag } from './options.ts';
import type { CommonOptions, RawOptions } from './options.ts';
import { resolveTarget } from './source.ts';

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

const MAX_TIMER_MS = 2 ** 31 - 1;

function untilStopped(deps: Deps, durationMs: number | undefined): { signal: AbortSignal; clear(): void } {
  const controller = new AbortController();
  void deps.interrupted().then(() => controller.abort());
  let timer: NodeJS.Timeout | undefined;
  // setTimeout holds at most 2^31-1 ms (24.8 days) and fires at once beyond: `--duration 30d` waits in steps.
  const wait = (ms: number): void => {
    timer = setTimeout(() => (ms > MAX_TIMER_MS ? wait(ms - MAX_TIMER_MS) : controller.abort()), Math.min(ms, MAX_TIMER_MS));
  };
  if (durationMs !== undefined) wait(durationMs);
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
  let lastFailure = '';
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
      failed: (why) => (lastFailure = why),
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
  // The server never answered (a closed port, a server down for the whole --duration): not the
  // empty success "recorded 0 lines" would suggest. Exit 1; 0 means the server was reached.
  if (!headerWritten) {
    const why = lastFailure === '' ? `the API server at ${target.server} did not answer` : lastFailure;
    throw new RuntimeError(`record never reached the server: ${why}; nothing recorded, ${opts.file} ${existing.exists ? 'unchanged' : 'not created'}`);
  }
  // Only a recorder stopped as asked sums up: a failure is the one line main prints.
  const total = held + counts.added + counts.modified + counts.deleted;
  deps.stderr.write(`${summaryLine(file, counts, total)}\n`);
  return SUCCESS;
}

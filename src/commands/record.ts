// `kubectl evtimeline record FILE`: watch events and append every observed version to FILE as
// JSON Lines (src/io/record-line.ts), so the story outlives the API server's --event-ttl.
// A list first, then a watch (src/kube/watch.ts); a FILE that already holds a record of the same
// scope is continued from the newest resourceVersion it had seen (its last list's, or a newer
// event's), if the server has reached it. Which lines each step adds, without writing anything
// twice, is decided in src/core/record.ts.
import type { Deps } from '../deps.ts';
import { RuntimeError, UsageError, readResult } from '../errors.ts';
import type { CommandResult } from '../errors.ts';
import { normaliseEvent } from '../core/event.ts';
import { filterEvents } from '../core/filter.ts';
import { StartupProbeEvidence } from '../core/startup-probes.ts';
import type { EventFilter } from '../core/filter.ts';
import type { Json } from '../core/json.ts';
import { sameServer } from '../core/server.ts';
import { RECORD_KIND, continueFleetRecord, continueRecord, countObservation, planStep, sameClusters } from '../core/record.ts';
import type { RecordCounts, RecordHeader, RecordIndex } from '../core/record.ts';
import { DEFAULT_RETRY } from '../core/retry.ts';
import type { RetryPolicy } from '../core/retry.ts';
import { fleetOf } from '../core/source.ts';
import type { EventSource, Provenance, Unanswered } from '../core/source.ts';
import type { SavedObject } from '../core/object-meta.ts';
import { OwnerRecorder } from '../app/record-owners.ts';
import { FactsRecorder } from '../app/record-facts.ts';
import type { SavedStatus } from '../core/facts.ts';
import { SessionWriter, readRecordFile } from '../io/record-writer.ts';
import { describeFilter } from '../io/record-line.ts';
import { kindWords } from '../io/path-kind.ts';
import { escapeTerminal } from '../render/escape.ts';
import { watchNoticeText } from '../render/adapter-notices.ts';
import { progressLine, resumeNotice, summaryLine } from '../render/record-status.ts';
import { plural } from '../render/words.ts';
import { parseCommonOptions } from '../options/common.ts';
import { renderNeverAnswered, renderStoppedFollowing } from '../render/fleet.ts';
import { parseDurationFlag } from '../options/raw.ts';
import { resolveFilter } from '../app/for-object.ts';
import { statusLine } from '../app/status-line.ts';
import type { CommonOptions } from '../options/common.ts';
import type { RawOptions } from '../options/raw.ts';
import { parseOtlpOptions } from '../options/otlp.ts';
import type { OtlpOptions } from '../options/otlp.ts';
import { startShipping } from './record-otlp.ts';
import { afterLongDelay } from './record-timer.ts';
import type { Shipping } from './record-otlp.ts';

interface RecordOptions {
  file: string;
  common: CommonOptions;
  /** stop after this long; undefined: until interrupted */
  durationMs?: number;
  /** how long to wait between failed watches, and after how many in a row to give up (no flag: tests shorten it) */
  retry: RetryPolicy;
  /** --otlp: ship each observation as it is recorded */
  otlp: OtlpOptions | null;
}

export function parseRecordOptions(file: string, raw: RawOptions): RecordOptions {
  if (file.trim() === '') throw new UsageError('record needs a file name, e.g. record -n op-events events.jsonl');
  if (file === '-') throw new UsageError('record writes to a file, not to stdout: give a file name');
  const common = parseCommonOptions(raw);
  if (common.from !== null) throw new UsageError('record reads the live cluster: --from does not apply (replay a record with timeline --from FILE)');
  // A record keeps its objects with their labels: -l chooses when it is read back.
  if ((common.filter.labels?.length ?? 0) > 0) throw new UsageError('-l does not apply to record: the record keeps the objects with their labels; use -l when reading it back (timeline --from FILE -l ...)');
  const duration = typeof raw.duration === 'string' ? raw.duration : undefined;
  return { file, common, durationMs: parseDurationFlag('--duration', duration), retry: DEFAULT_RETRY, otlp: parseOtlpOptions(raw) };
}

// -- The verb -----------------------------------------------------------------------------------

/** stderr while recording: notices, and the live count of lines written (src/app/status-line.ts). */
export function statusWriter(deps: Deps, file: string) {
  const line = statusLine(deps);
  return {
    notice: line.notice,
    update: (counts: RecordCounts): void => line.show(progressLine(file, counts)),
    done: line.clear,
  };
}

function untilStopped(deps: Deps, durationMs: number | undefined): { signal: AbortSignal; clear(): void; by(): string } {
  const controller = new AbortController();
  let by = '';
  void deps.interrupted().then((signal) => {
    by ||= signal;
    controller.abort();
  });
  const cancel = durationMs === undefined ? () => {} : afterLongDelay(durationMs, () => controller.abort());
  return { signal: controller.signal, clear: cancel, by: () => by };
}

/** This session's header line: where it runs and the filters that choose what is written. */
function sessionHeader(p: Provenance, filter: EventFilter, now: number): RecordHeader {
  const { context, server, namespace } = p;
  const clusters = fleetOf(p);
  return { kind: RECORD_KIND, version: 1, context, server, namespace, ...(clusters === undefined ? {} : { clusters }), filter: describeFilter(filter), startedAt: now };
}

/** `east (https://...), west (https://...)`: the contexts a header names, for a refusal. */
function clustersText(header: RecordHeader): string {
  const members = header.clusters ?? [{ context: header.context, server: header.server }];
  return members.map((m) => `"${escapeTerminal(m.context)}"${m.server === '' ? '' : ` (${escapeTerminal(m.server)})`}`).join(', ');
}

/**
 * One record, one cluster or one fleet: another server's events appended to it would read as one
 * story, and this run's lists could not tell which of them are gone. A record of several contexts
 * is continued by a run of the same contexts on the same servers only. Refused before any request.
 */
function refuseOtherClusters(file: string, previous: RecordHeader | undefined, header: RecordHeader): void {
  if (previous === undefined) return;
  if (previous.clusters === undefined && header.clusters === undefined) {
    if (previous.server !== '' && !sameServer(previous.server, header.server)) {
      throw new UsageError(`${file} was recorded from ${escapeTerminal(previous.server)}, and context "${header.context}" talks to ${header.server}: record this cluster into another file`);
    }
    return;
  }
  if (sameClusters(previous, header, sameServer)) return;
  const was = `${file} was recorded from ${previous.clusters === undefined ? 'context' : 'contexts'} ${clustersText(previous)}`;
  throw new UsageError(`${was}, and this run reads ${header.clusters === undefined ? 'context' : 'contexts'} ${clustersText(header)}: a record is continued by the same contexts only; record these into another file`);
}

/** What a session continues from: one index per context recorded (one, '' , for a record of one context). */
interface Ledger {
  indexOf(context: string): RecordIndex;
  namespaceOf(context: string): string | null;
  /** one context: where its watch resumes; several: resourceVersionOf says each */
  resumeFrom: string;
  resourceVersionOf?: (context: string) => string;
  held: number;
  /** every context lists first though the record holds observations (another namespace or filters) */
  listsFirst: boolean;
}

function ledger(record: Parameters<typeof continueRecord>[0], header: RecordHeader): Ledger {
  if (header.clusters === undefined) {
    const { index, resumeFrom, held } = continueRecord(record, header);
    return { indexOf: () => index, namespaceOf: () => header.namespace, resumeFrom, held, listsFirst: held > 0 && resumeFrom === '' };
  }
  const { indexes, resumeFrom, held } = continueFleetRecord(record, header);
  const namespaces = new Map(header.clusters.map((m) => [m.context, m.namespace]));
  return {
    indexOf: (context) => indexes.get(context) as RecordIndex,
    namespaceOf: (context) => namespaces.get(context) ?? null,
    resumeFrom: '',
    resourceVersionOf: (context) => resumeFrom.get(context) ?? '',
    held,
    listsFirst: held > 0 && [...resumeFrom.values()].every((rv) => rv === ''),
  };
}

/** How long a stopping recorder waits for the owner lookups under way before it closes the file. */
const OWNERS_GRACE_MS = 3_000;

/** Who writes the owner chains of new objects: a live source's lookups; none without them. */
function ownerRecorder(source: EventSource, held: SavedObject[], writer: SessionWriter, deps: Deps, notice: (text: string) => void): OwnerRecorder | undefined {
  const objects = source.objects;
  if (objects === null) return undefined;
  return new OwnerRecorder({ lookUp: (refs) => objects.lookUp(refs), write: (saved) => writer.writeObjects(deps.now(), saved), held, notice });
}

/** How long a stopping recorder waits for its last read of the objects' status. */
const FACTS_GRACE_MS = 5_000;
/** The least time between two reads of the objects' status while recording. */
const FACTS_EVERY_MS = 5_000;

/** Who writes status lines: a source that can read the objects' facts; none without. */
function factsRecorder(source: EventSource, held: SavedStatus[] | undefined, writer: SessionWriter, deps: Deps, notice: (text: string) => void): FactsRecorder | undefined {
  const read = source.facts;
  if (read === undefined) return undefined;
  return new FactsRecorder({ read: (events, now) => read(events, now), write: (now, lines) => writer.writeStatus(now, lines), now: () => deps.now(), held, notice, everyMs: FACTS_EVERY_MS });
}

export async function runRecord(opts: RecordOptions, deps: Deps): Promise<CommandResult> {
  const existing = await readRecordFile(opts.file);
  // The shipper reads back what the record holds, and keeps its ledger beside it.
  if (existing.stream !== null && opts.otlp !== null) {
    throw new UsageError(`--otlp ships what the record file holds, read back from it: ${opts.file} is ${kindWords(existing.stream.kind)}, not a file`);
  }
  const source = await deps.openSource({ kind: 'cluster', scope: opts.common.scope });
  if (source.follow === undefined) throw new RuntimeError('record needs a source that can be followed');
  const file = escapeTerminal(opts.file);
  const header = sessionHeader(source.provenance, opts.common.filter, deps.now());
  refuseOtherClusters(file, existing.record.headers.at(-1), header);
  const status = statusWriter(deps, file);
  const fleet = header.clusters !== undefined;
  const continued = ledger(existing.record, header);
  const { held, resumeFrom } = continued;
  // Continuing is announced once the server has been asked whether it reached resumeFrom.
  if (continued.listsFirst) {
    status.notice(`adding to ${file} (${plural(held, 'observation')}): it was recorded with another namespace or filters, so listing first`);
  }

  const stop = untilStopped(deps, opts.durationMs);
  const counts: RecordCounts = { added: 0, modified: 0, deleted: 0 };
  const filter = await resolveFilter(source, opts.common.filter);
  const startup = new StartupProbeEvidence();
  const keep = (event: Json): boolean => {
    const ev = normaliseEvent(event);
    startup.learn([ev]);
    return filterEvents([ev], filter, deps.now(), { startupBelowThreshold: startup.belowThreshold }).length > 0;
  };
  const writer = new SessionWriter(existing, header, { signal: stop.signal, waiting: () => status.notice(`waiting for a process to read ${file} (a FIFO)`) });
  const owners = ownerRecorder(source, existing.record.objects ?? [], writer, deps, status.notice);
  const facts = factsRecorder(source, existing.record.status, writer, deps, status.notice);
  let shipping: Shipping | undefined;
  let lastFailure = '';
  // Several contexts: those that stopped for good while the others were still recorded.
  const gaveUp: Unanswered[] = [];
  const answered = new Set<string>();
  const lastFailureOf = new Map<string, string>();
  try {
    await writer.openExisting();
    if (existing.record.tornLines > 0) {
      status.notice(`${file}: skipped ${plural(existing.record.tornLines, 'torn line')} before its end, left by a recorder stopped mid-write`);
    }
    if (existing.record.tornTail !== '') {
      status.notice(`${file}: cut off a torn last line (${existing.size - existing.completeBytes} bytes) left by a recorder that was stopped mid-write`);
    }
    // Shipping starts once a torn line is cut: it reads complete lines only.
    if (opts.otlp) shipping = await startShipping(opts.file, opts.otlp, deps, status.notice);
    const steps = source.follow({
      resourceVersion: resumeFrom,
      ...(continued.resourceVersionOf === undefined ? {} : { resourceVersionOf: continued.resourceVersionOf }),
      gaveUp: (member) => {
        gaveUp.push(member);
        status.notice(renderStoppedFollowing(member).trimEnd());
      },
      signal: shipping ? AbortSignal.any([stop.signal, shipping.failed]) : stop.signal,
      notice: (notice) => status.notice(watchNoticeText(notice)),
      failed: (why, context) => {
        lastFailure = why;
        // Said as the context's own words: the warning names the context already.
        if (context !== undefined) lastFailureOf.set(context, why.replace(`context "${context}": `, ''));
      },
      retry: opts.retry,
    });
    for await (const step of steps) {
      // Every answer of the server, a resume check included, gets the session's header written.
      await writer.begin();
      const context = step.cluster?.context ?? '';
      answered.add(context);
      if (step.kind === 'resume') {
        status.notice(`${fleet ? `context "${escapeTerminal(context)}": ` : ''}${resumeNotice(file, held, step)}`);
        // Not this cluster's events (or not known to be): its lists cannot tell that they are gone.
        if (step.verdict !== 'resume') continued.indexOf(context).forgetLive();
        continue;
      }
      const planned = planStep(step, { index: continued.indexOf(context), namespace: continued.namespaceOf(context), keep, observedAt: deps.now() });
      if (fleet) for (const observation of planned) observation.context = context;
      await writer.write(planned);
      // Once its events are written: the next session resumes from the list's version, not its newest event's (core/record.ts Seen).
      if (step.kind === 'list' && step.resourceVersion !== '') await writer.writeSeen(deps.now(), { ...(fleet ? { context } : {}), resourceVersion: step.resourceVersion });
      owners?.saw(planned.map((observation) => observation.event));
      const kept: Json[] = [];
      const deleted: Json[] = [];
      for (const observation of planned) (observation.type === 'DELETED' ? deleted : kept).push(observation.event);
      facts?.saw(kept);
      facts?.forget(deleted);
      owners?.forget(deleted);
      // A Killing the filters did not keep is not written, but was learnt: let go as the server deletes it.
      const gone = step.kind === 'change' && step.type === 'DELETED' ? [...deleted, step.object] : deleted;
      startup.forget(gone.map((event) => normaliseEvent(event)));
      for (const observation of planned) countObservation(counts, observation);
      // The shipper reads the file: woken once the lines are in it, not when they are queued.
      const ship = shipping;
      if (planned.length > 0 && ship) void writer.written().then(() => ship.wake(), () => {});
      status.update(counts);
    }
  } finally {
    stop.clear();
    // The state the recorder leaves the story in: one last read of the objects its events are about.
    await facts?.finish(FACTS_GRACE_MS);
    await owners?.finish(OWNERS_GRACE_MS);
    await writer.close();
    status.done();
  }
  await shipping?.finish();
  // The server never answered (a closed port, a server down for the whole --duration): not the
  // empty success "recorded 0 lines" would suggest. Exit 1; 0 means the server was reached.
  if (!writer.started) {
    const outcome = `nothing recorded, ${opts.file} ${existing.exists ? 'unchanged' : 'not created'}`;
    // Ctrl-C while a large list is still coming: the server was answering, so "did not answer" would be wrong.
    if (lastFailure === '' && stop.by() !== '') {
      throw new RuntimeError(`record was stopped by ${stop.by()} before the API server at ${source.provenance.server} had answered in full (its list of events); ${outcome}`);
    }
    const why = lastFailure === '' ? `the API server at ${source.provenance.server} did not answer` : lastFailure;
    throw new RuntimeError(`record never reached the server: ${why}; ${outcome}`);
  }
  // Only a recorder stopped as asked sums up: a failure is the one line main prints.
  const total = held + counts.added + counts.modified + counts.deleted;
  deps.stderr.write(`${summaryLine(file, counts, total)}\n`);
  // Several contexts, some of which stopped for good or never answered: recorded, but not all of them (exit 4).
  const silent = (header.clusters ?? []).filter((m) => !answered.has(m.context) && !gaveUp.some((g) => g.context === m.context));
  for (const member of silent) deps.stderr.write(renderNeverAnswered(member, lastFailureOf.get(member.context) ?? ''));
  return readResult([...gaveUp, ...silent.map((m) => ({ ...m, reason: '' }))]);
}

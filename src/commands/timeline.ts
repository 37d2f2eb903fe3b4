// `kubectl evtimeline [timeline]`: the story of a namespace in time order.
import { writePieces } from '../deps.ts';
import type { Deps, Output } from '../deps.ts';
import { UsageError, readResult } from '../errors.ts';
import type { CommandResult } from '../errors.ts';
import type { Event } from '../core/event.ts';
import type { Keep } from '../core/keep.ts';
import { choosePalette } from '../render/color.ts';
import { renderDocument } from '../render/document.ts';
import { jsonTextChunks, toJsonEvent } from '../render/json.ts';
import { renderStable } from '../render/stable.ts';
import { yamlTextChunks } from '../render/yaml.ts';
import { noEventsMessage, renderAgesNotice, renderComparisonNotice, renderSavedNotice } from '../render/notices.ts';
import { timelineTableChunks } from '../render/timeline-table.ts';
import { writeFileAtomic } from '../io/atomic.ts';
import { escapeTerminal } from '../render/escape.ts';
import { looksAtEachEvent } from '../core/filter.ts';
import type { Hidden } from '../core/filter.ts';
import { notesAbout, recorderNotes } from '../core/recorder-notes.ts';
import type { RecorderNotes } from '../core/recorder-notes.ts';
import { renderHiddenFooter } from '../render/hidden.ts';
import { recorderNotesJsonOnce, renderRecorderFooter } from '../render/recorder-notes.ts';
import { criterionFlag } from '../options/selection.ts';
import { timelineHtml } from '../app/timeline-html.ts';
import { runFollow } from './timeline-follow.ts';
import { oneTree, parseCommonOptions, parseCompare, parseEventTTL, parseOutputFile, refuseForest } from '../options/common.ts';
import { parseOutputChoice } from '../options/output.ts';
import { TIMELINE_OUTPUTS } from '../options/output-values.ts';
import type { OutputChoice } from '../options/output.ts';
import type { CommonOptions } from '../options/common.ts';
import type { RawOptions } from '../options/raw.ts';
import { gather } from '../app/gather.ts';
import { currentStatus } from '../core/current-status.ts';
import { fleetOf } from '../core/source.ts';

export interface TimelineOptions {
  common: CommonOptions;
  output: OutputChoice<(typeof TIMELINE_OUTPUTS)[number]>;
  noHeaders: boolean;
  /** --compare: also read the live cluster and mark the saved events it no longer has */
  compare: boolean;
  /** -o html: the TTL the page shades */
  eventTTLms: number;
  /** --output-file: written atomically instead of stdout */
  outputFile: string | null;
  /** --absolute-times: RFC 3339 times instead of ages in table and wide */
  absoluteTimes: boolean;
  /** -w: the timeline, then each new occurrence; --watch-only: only what comes next */
  watch: 'none' | 'watch' | 'watch-only';
}

export function parseTimelineOptions(raw: RawOptions): TimelineOptions {
  const common = parseCommonOptions(raw);
  const output = parseOutputChoice(raw, TIMELINE_OUTPUTS, true);
  if (output.kind === 'verb' && output.format === 'html') refuseForest(common, '-o html');
  return {
    common,
    output,
    noHeaders: raw.headers === false,
    compare: parseCompare(raw, common),
    eventTTLms: parseEventTTL(raw),
    outputFile: parseOutputFile(raw),
    watch: parseWatch(raw, common),
    absoluteTimes: raw.absoluteTimes === true,
  };
}

function parseWatch(raw: RawOptions, common: CommonOptions): TimelineOptions['watch'] {
  const watch = raw.watchOnly === true ? 'watch-only' : raw.watch === true ? 'watch' : 'none';
  if (watch === 'none') return watch;
  if (common.from !== null) throw new UsageError(`--${watch} follows the live cluster: it does not apply to --from`);
  refuseForest(common, `--${watch}`);
  oneTree(common, `--${watch}`);
  if (raw.compare === true) throw new UsageError(`--compare does not apply to --${watch}`);
  if (raw.outputFile !== undefined) throw new UsageError(`--output-file does not apply to --${watch}`);
  // A page is written whole once: there is no row to add to it as events come (it printed the table instead).
  if (raw.output === 'html') throw new UsageError(`-o html is one self-contained page: it does not apply to --${watch}`);
  return watch;
}

export async function runTimeline(opts: TimelineOptions, deps: Deps): Promise<CommandResult> {
  if (opts.watch !== 'none') return runFollow(opts, opts.watch === 'watch-only', deps);
  if (opts.outputFile === null) return timelineTo(deps.stdout, opts, deps);
  let text = '';
  const result = await timelineTo({ write: (chunk) => void (text += chunk), isTTY: false }, opts, deps);
  const shown = escapeTerminal(opts.outputFile);
  await writeFileAtomic(opts.outputFile, text, { waiting: () => deps.stderr.write(`waiting for a process to read ${shown} (a FIFO)...\n`) });
  return result;
}

/**
 * What -o stable needs of a big record: one event per line; the table (plain or wide) and the
 * documents (json, yaml, jsonpath...): every field in a smaller form whose times are read through
 * getters (toJsonEvent and the table read each field by name). Neither when a criterion looks at
 * each event's time (--since) or uid (--compare), or --tree builds the tree from every event's
 * object and message (core/keep.ts).
 */
function keepFor(opts: TimelineOptions): Keep {
  const stable = opts.output.kind === 'verb' && opts.output.format === 'stable';
  const fields = opts.output.kind === 'document' || (opts.output.kind === 'verb' && (opts.output.format === 'table' || opts.output.format === 'wide'));
  if (looksAtEachEvent(opts.common.filter) || opts.compare || opts.common.tree === true) return 'all';
  return stable ? 'stable' : fields ? 'table' : 'all';
}

/** After the output, on stderr: what the selection hid, and where the recorders may have left events out. */
function footer(read: { hidden: Hidden[]; notes: RecorderNotes }, at: number, opts: TimelineOptions): string {
  return renderHiddenFooter(read.hidden, criterionFlag) + renderRecorderFooter(read.notes, { now: at, absolute: opts.absoluteTimes });
}

async function timelineTo(stdout: Output, opts: TimelineOptions, deps: Deps): Promise<CommandResult> {
  const result = await timelineBody(stdout, opts, deps);
  deps.stderr.write(result.footer);
  return result.result;
}

async function timelineBody(stdout: Output, opts: TimelineOptions, deps: Deps): Promise<{ result: CommandResult; footer: string }> {
  const format = opts.output.kind === 'verb' ? opts.output.format : null;
  // The recorder notes are the table's footer, and on each event they concern in the documents (json,
  // yaml, jsonpath: one document); stable, name and html stay as they were, and stderr tells them under the table only.
  // The wide table's STATUS column and the page's causes read the objects' status beside the events.
  const table = format === 'table' || format === 'wide';
  const documentNotes = opts.output.kind === 'document' && opts.output.printer.kind !== 'name';
  const gathered = await gather(
    { common: opts.common, compare: opts.compare, lookups: format !== 'stable', keep: keepFor(opts), notes: table || documentNotes, facts: format === 'wide' || format === 'html' },
    deps,
  );
  const { events, provenance, ages, standing, now, live, tree, facts } = gathered;
  // Notices about what a saved file covers go to stderr: stdout stays the table.
  deps.stderr.write(renderSavedNotice(provenance, events));
  if (gathered.comparison !== null) deps.stderr.write(renderComparisonNotice(gathered.comparison, provenance.kind));
  // Ages in a saved file's table count from when it was taken: said last, right above the table.
  const done = { result: readResult([...gathered.unanswered, ...gathered.uncompared]), footer: footer(table ? gathered : { hidden: gathered.hidden, notes: recorderNotes([]) }, ages.at, opts) };
  if ((format === 'table' || format === 'wide') && !opts.absoluteTimes && events.length > 0) deps.stderr.write(renderAgesNotice(ages));
  if (format === 'html') {
    stdout.write(timelineHtml({ provenance, events, now, eventTTLms: opts.eventTTLms, ...(live ? { live } : {}), ...(tree ? { tree } : {}), ...(facts ? { facts } : {}) }));
    if (events.length === 0) deps.stderr.write(noEventsMessage(provenance.namespace));
    return done;
  }
  if (opts.output.kind === 'document') {
    const about = notesAbout(gathered.notes);
    const recorderNotesJson = recorderNotesJsonOnce();
    const print = (ev: Event) => {
      const doc = toJsonEvent(ev, standing?.(ev), tree?.chainOf(ev));
      const notes = about(ev);
      return notes === null ? doc : { ...doc, recorderNotes: recorderNotesJson(notes) };
    };
    if (opts.output.printer.kind === 'json') await writePieces(stdout, jsonTextChunks(events, print));
    else if (opts.output.printer.kind === 'yaml') await writePieces(stdout, yamlTextChunks(events, print));
    else stdout.write(renderDocument(events.map(print), events.map((ev) => ev.name), opts.output.printer, stdout.isTTY));
    return done;
  }
  if (events.length === 0) {
    deps.stderr.write(noEventsMessage(provenance.namespace));
    return done;
  }
  if (format === 'stable') {
    stdout.write(renderStable(events));
    return done;
  }
  const palette = choosePalette({ flag: opts.common.color, isTTY: stdout.isTTY, env: deps.env });
  const rows = timelineTableChunks(events, {
    now: ages.at,
    absoluteTimes: opts.absoluteTimes,
    wide: format === 'wide',
    allNamespaces: provenance.namespace === null,
    ...(fleetOf(provenance) !== undefined ? { contexts: true } : {}),
    noHeaders: opts.noHeaders,
    palette,
    standing,
    ...(tree ? { chainOf: (ev: Event) => tree.chainOf(ev) } : {}),
    ...(facts !== undefined && facts.noStatus !== true ? { statusOf: currentStatus(facts) } : {}),
  });
  await writePieces(stdout, rows);
  return done;
}

// `kubectl evtimeline [timeline]`: the story of a namespace in time order.
import type { Deps } from '../deps.ts';
import { SUCCESS } from '../errors.ts';
import type { CommandResult } from '../errors.ts';
import type { Event } from '../core/event.ts';
import { compareWithLive, standingOf } from '../core/incarnation.ts';
import type { EventStanding } from '../core/incarnation.ts';
import { choosePalette } from '../render/color.ts';
import { renderDocument } from '../render/document.ts';
import { toJsonEvent } from '../render/json.ts';
import { renderStable } from '../render/stable.ts';
import { renderComparisonNotice, renderSavedNotice } from '../render/notices.ts';
import { renderTimelineTable } from '../render/timeline-table.ts';
import { parseCommonOptions } from './options.ts';
import { parseOutputChoice } from './output.ts';
import type { OutputChoice } from './output.ts';
import type { CommonOptions, RawOptions } from './options.ts';
import { noEventsMessage, parseCompare, readEvents, readLiveFacts } from './source.ts';

/** The timeline's own formats; json, yaml, name and jsonpath come from output.ts. */
export const TIMELINE_OUTPUTS = ['table', 'wide', 'stable'] as const;

export interface TimelineOptions {
  common: CommonOptions;
  output: OutputChoice<(typeof TIMELINE_OUTPUTS)[number]>;
  noHeaders: boolean;
  /** --compare: also read the live cluster and mark the saved events it no longer has */
  compare: boolean;
}

export function parseTimelineOptions(raw: RawOptions): TimelineOptions {
  const common = parseCommonOptions(raw);
  return {
    common,
    output: parseOutputChoice(raw, TIMELINE_OUTPUTS, true),
    noHeaders: raw.headers === false,
    compare: parseCompare(raw, common),
  };
}

export async function runTimeline(opts: TimelineOptions, deps: Deps): Promise<CommandResult> {
  const now = deps.now();
  const read = await readEvents(opts.common, deps, now);
  const { source, events } = read;
  // -o stable prints nothing an incarnation could change: no object lookups for it.
  const format = opts.output.kind === 'verb' ? opts.output.format : null;
  const facts = await readLiveFacts(read, opts.common, deps, now, { compare: opts.compare, lookups: format !== 'stable' });
  // Notices about what a saved file covers go to stderr: stdout stays the table.
  if (read.saved !== undefined) deps.stderr.write(renderSavedNotice(read.saved, events));
  const compared = facts === undefined ? null : compareWithLive(events, facts);
  if (compared !== null) deps.stderr.write(renderComparisonNotice(compared, read.saved?.format ?? 'list'));
  const standing = facts === undefined ? undefined : (ev: Event): EventStanding => standingOf(ev, facts);
  if (opts.output.kind === 'document') {
    const doc = events.map((ev) => toJsonEvent(ev, standing?.(ev)));
    deps.stdout.write(renderDocument(doc, events.map((ev) => ev.name), opts.output.printer, deps.stdout.isTTY));
    return SUCCESS;
  }
  if (events.length === 0) {
    deps.stderr.write(noEventsMessage(source.info.namespace));
    return SUCCESS;
  }
  if (format === 'stable') {
    deps.stdout.write(renderStable(events));
    return SUCCESS;
  }
  const palette = choosePalette({ flag: opts.common.color, isTTY: deps.stdout.isTTY, env: deps.env });
  deps.stdout.write(
    renderTimelineTable(events, {
      now,
      wide: format === 'wide',
      allNamespaces: source.info.namespace === null,
      noHeaders: opts.noHeaders,
      palette,
      standing,
    }),
  );
  return SUCCESS;
}

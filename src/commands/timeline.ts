// `kubectl evtimeline [timeline]`: the story of a namespace in time order.
import type { Deps } from '../deps.ts';
import { SUCCESS } from '../errors.ts';
import type { CommandResult } from '../errors.ts';
import { choosePalette } from '../render/color.ts';
import { renderEventsJson } from '../render/json.ts';
import { renderStable } from '../render/stable.ts';
import { renderTimelineTable } from '../render/timeline-table.ts';
import { parseCommonOptions, parseOutput } from './options.ts';
import type { CommonOptions, RawOptions } from './options.ts';
import { noEventsMessage, readEvents } from './source.ts';

export const TIMELINE_OUTPUTS = ['table', 'wide', 'json', 'stable'] as const;

export interface TimelineOptions {
  common: CommonOptions;
  output: (typeof TIMELINE_OUTPUTS)[number];
  noHeaders: boolean;
}

export function parseTimelineOptions(raw: RawOptions): TimelineOptions {
  return {
    common: parseCommonOptions(raw),
    output: parseOutput(raw.output, TIMELINE_OUTPUTS),
    noHeaders: raw.headers === false,
  };
}

export async function runTimeline(opts: TimelineOptions, deps: Deps): Promise<CommandResult> {
  const now = deps.now();
  const { source, events } = await readEvents(opts.common, deps, now);
  if (opts.output === 'json') {
    deps.stdout.write(renderEventsJson(events));
    return SUCCESS;
  }
  if (events.length === 0) {
    deps.stderr.write(noEventsMessage(source.info.namespace));
    return SUCCESS;
  }
  if (opts.output === 'stable') {
    deps.stdout.write(renderStable(events));
    return SUCCESS;
  }
  const palette = choosePalette({ flag: opts.common.color, isTTY: deps.stdout.isTTY, env: deps.env });
  deps.stdout.write(
    renderTimelineTable(events, {
      now,
      wide: opts.output === 'wide',
      allNamespaces: source.info.namespace === null,
      noHeaders: opts.noHeaders,
      palette,
    }),
  );
  return SUCCESS;
}

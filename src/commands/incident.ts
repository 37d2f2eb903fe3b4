// `kubectl evtimeline incident`: a written account of what happened, from events alone.
import type { Deps } from '../deps.ts';
import { SUCCESS } from '../errors.ts';
import type { CommandResult } from '../errors.ts';
import { buildIncident } from '../core/incident.ts';
import { choosePalette } from '../render/color.ts';
import { toJsonText } from '../render/json.ts';
import { toIncidentJson } from '../render/incident-json.ts';
import { renderIncidentText } from '../render/incident-text.ts';
import { parseCommonOptions, parseCompare, parseEventTTL, parseOutput } from './options.ts';
import type { CommonOptions, RawOptions } from './options.ts';
import { readEvents, readLiveFacts } from './read-events.ts';

export const INCIDENT_OUTPUTS = ['text', 'json'] as const;

interface IncidentOptions {
  common: CommonOptions;
  output: (typeof INCIDENT_OUTPUTS)[number];
  eventTTLms: number;
  compare: boolean;
}

export function parseIncidentOptions(raw: RawOptions): IncidentOptions {
  const common = parseCommonOptions(raw);
  return {
    common,
    output: parseOutput(raw.output, INCIDENT_OUTPUTS),
    eventTTLms: parseEventTTL(raw),
    compare: parseCompare(raw, common),
  };
}

export async function runIncident(opts: IncidentOptions, deps: Deps): Promise<CommandResult> {
  const now = deps.now();
  const read = await readEvents(opts.common, deps, now);
  const live = await readLiveFacts(read, opts.common, deps, now, { compare: opts.compare, lookups: true });
  const incident = buildIncident(read.events, {
    now,
    provenance: read.source.provenance,
    eventTTLms: opts.eventTTLms,
    ...(live === undefined ? {} : { live }),
  });
  if (opts.output === 'json') {
    deps.stdout.write(toJsonText(toIncidentJson(incident)));
  } else {
    deps.stdout.write(renderIncidentText(incident, choosePalette({ flag: opts.common.color, isTTY: deps.stdout.isTTY, env: deps.env })));
  }
  return SUCCESS;
}

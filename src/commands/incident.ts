// `kubectl evtimeline incident`: a written account of what happened, from events alone.
import type { Deps } from '../deps.ts';
import { SUCCESS } from '../errors.ts';
import type { CommandResult } from '../errors.ts';
import { buildIncident } from '../core/incident.ts';
import { choosePalette } from '../render/color.ts';
import { renderDocument } from '../render/document.ts';
import { renderIncidentText } from '../render/incident-text.ts';
import { parseCommonOptions, parseEventTTL } from './options.ts';
import { parseOutputChoice } from './output.ts';
import type { OutputChoice } from './output.ts';
import type { CommonOptions, RawOptions } from './options.ts';
import { incidentSourceKind, parseCompare, readEvents, readLiveFacts } from './source.ts';

/** The verb's own format; json, yaml and jsonpath come from output.ts. */
export const INCIDENT_OUTPUTS = ['text'] as const;

export interface IncidentOptions {
  common: CommonOptions;
  output: OutputChoice<(typeof INCIDENT_OUTPUTS)[number]>;
  eventTTLms: number;
  compare: boolean;
}

export function parseIncidentOptions(raw: RawOptions): IncidentOptions {
  const common = parseCommonOptions(raw);
  return {
    common,
    output: parseOutputChoice(raw, INCIDENT_OUTPUTS, false),
    eventTTLms: parseEventTTL(raw),
    compare: parseCompare(raw, common),
  };
}

export async function runIncident(opts: IncidentOptions, deps: Deps): Promise<CommandResult> {
  const now = deps.now();
  const read = await readEvents(opts.common, deps, now);
  const { source, events } = read;
  const live = await readLiveFacts(read, opts.common, deps, now, { compare: opts.compare, lookups: true });
  const incident = buildIncident(events, {
    now,
    namespace: source.info.namespace,
    eventTTLms: opts.eventTTLms,
    source: incidentSourceKind(source),
    ...(live === undefined ? {} : { live }),
    ...(read.saved === undefined ? {} : { saved: read.saved }),
  });
  if (opts.output.kind === 'document') {
    deps.stdout.write(renderDocument(incident, [], opts.output.printer, deps.stdout.isTTY));
  } else {
    deps.stdout.write(renderIncidentText(incident, choosePalette({ flag: opts.common.color, isTTY: deps.stdout.isTTY, env: deps.env })));
  }
  return SUCCESS;
}

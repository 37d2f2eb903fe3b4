// `kubectl evtimeline incident`: a written account of what happened, from events alone.
import type { Deps } from '../deps.ts';
import { SUCCESS } from '../errors.ts';
import type { CommandResult } from '../errors.ts';
import { buildIncident } from '../core/incident.ts';
import { choosePalette } from '../render/color.ts';
import { renderDocument } from '../render/document.ts';
import { toIncidentJson } from '../render/incident-json.ts';
import { renderIncidentText } from '../render/incident-text.ts';
import { renderAgesNotice } from '../render/notices.ts';
import { agesFrom } from '../core/ages.ts';
import { parseCommonOptions, parseCompare, parseEventTTL } from '../options/common.ts';
import { parseOutputChoice } from '../options/output.ts';
import type { OutputChoice } from '../options/output.ts';
import type { CommonOptions, RawOptions } from '../options/common.ts';
import { readEvents, readLiveFacts } from '../app/read-events.ts';
import { readObjectFacts } from '../app/object-facts.ts';

/** The verb's own format; json, yaml and jsonpath come from output.ts. */
export const INCIDENT_OUTPUTS = ['text'] as const;

interface IncidentOptions {
  common: CommonOptions;
  output: OutputChoice<(typeof INCIDENT_OUTPUTS)[number]>;
  eventTTLms: number;
  compare: boolean;
  /** --absolute-times: RFC 3339 times where the account would give ages */
  absoluteTimes: boolean;
  /** --detail: every object and item, no cap (text; -o json always carries everything) */
  detail: boolean;
  /** --no-status: causes from the events alone (no status, spec or logs read) */
  status: boolean;
}

export function parseIncidentOptions(raw: RawOptions): IncidentOptions {
  const common = parseCommonOptions(raw);
  return {
    common,
    output: parseOutputChoice(raw, INCIDENT_OUTPUTS, false),
    eventTTLms: parseEventTTL(raw),
    compare: parseCompare(raw, common),
    absoluteTimes: raw.absoluteTimes === true,
    detail: raw.detail === true,
    status: raw.status !== false,
  };
}

export async function runIncident(opts: IncidentOptions, deps: Deps): Promise<CommandResult> {
  const now = deps.now();
  const read = await readEvents(opts.common, deps, now);
  const live = await readLiveFacts(read, opts.common, deps, now, { compare: opts.compare, lookups: true });
  const facts = opts.status ? await readObjectFacts(read.source, read.events, deps, now) : undefined;
  // A saved file's account counts its ages from when the file was taken; with --compare the live
  // cluster is read now, and the account is of now.
  const ages = agesFrom(read.source.provenance, read.events, now, opts.common.from !== null && !opts.compare);
  const incident = buildIncident(read.events, {
    now: ages.at,
    provenance: read.source.provenance,
    eventTTLms: opts.eventTTLms,
    ...(live === undefined ? {} : { live }),
    // --for X --tree: told owner first, siblings grouped by owner
    ...(read.tree === undefined ? {} : { tree: read.tree }),
    ...(facts === undefined ? {} : { facts }),
  });
  if (opts.output.kind === 'document') {
    deps.stdout.write(renderDocument(toIncidentJson(incident), [], opts.output.printer, deps.stdout.isTTY));
  } else {
    if (!opts.absoluteTimes) deps.stderr.write(renderAgesNotice(ages));
    deps.stdout.write(renderIncidentText({ ...incident, absoluteTimes: opts.absoluteTimes, detail: opts.detail }, choosePalette({ flag: opts.common.color, isTTY: deps.stdout.isTTY, env: deps.env })));
  }
  return SUCCESS;
}

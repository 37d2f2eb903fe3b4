// `kubectl evtimeline incident`: a written account of what happened, from events alone.
import type { Deps } from '../deps.ts';
import { readResult } from '../errors.ts';
import type { CommandResult } from '../errors.ts';
import { buildIncident } from '../core/incident.ts';
import { choosePalette } from '../render/color.ts';
import { renderDocument } from '../render/document.ts';
import { toIncidentJson } from '../render/incident-json.ts';
import { renderIncidentText } from '../render/incident-text.ts';
import { renderAgesNotice } from '../render/notices.ts';
import { renderHiddenFooter } from '../render/hidden.ts';
import { recorderNotesJson } from '../render/recorder-notes.ts';
import { criterionFlag, hiddenJson } from '../options/selection.ts';
import { oneTree, parseCommonOptions, parseCompare, parseEventTTL, refuseForest } from '../options/common.ts';
import { parseOutputChoice } from '../options/output.ts';
import { INCIDENT_OUTPUTS } from '../options/output-values.ts';
import type { OutputChoice } from '../options/output.ts';
import type { CommonOptions } from '../options/common.ts';
import type { RawOptions } from '../options/raw.ts';
import { gather } from '../app/gather.ts';
import { collectGarbage } from '../app/heap.ts';

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
  refuseForest(common, 'incident');
  oneTree(common, 'incident');
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
  const gathered = await gather({ common: opts.common, compare: opts.compare, lookups: true, facts: opts.status }, deps);
  const { events, provenance, ages, live, tree, facts } = gathered;
  collectGarbage();
  const incident = buildIncident(events, {
    now: ages.at,
    // Ages count from when a saved file was taken, but the cluster it is compared with was read now.
    ...(opts.compare ? { comparedAt: gathered.now } : {}),
    provenance,
    eventTTLms: opts.eventTTLms,
    ...(live === undefined ? {} : { live }),
    // --for X --tree: told owner first, siblings grouped by owner
    ...(tree === undefined ? {} : { tree }),
    ...(facts === undefined ? {} : { facts }),
    ...(gathered.unanswered.length === 0 ? {} : { unanswered: gathered.unanswered }),
    distinct: true,
  });
  if (opts.output.kind === 'document') {
    const doc = { ...toIncidentJson(incident), recorderNotes: recorderNotesJson(gathered.notes), hidden: hiddenJson(gathered.hidden) };
    deps.stdout.write(renderDocument(doc, [], opts.output.printer, deps.stdout.isTTY));
  } else {
    if (!opts.absoluteTimes) deps.stderr.write(renderAgesNotice(ages));
    const hiddenLine = renderHiddenFooter(gathered.hidden, criterionFlag).trim();
    const view = { ...incident, absoluteTimes: opts.absoluteTimes, detail: opts.detail, recorderNotes: gathered.notes, ...(hiddenLine === '' ? {} : { hiddenLine }) };
    deps.stdout.write(renderIncidentText(view, choosePalette({ flag: opts.common.color, isTTY: deps.stdout.isTTY, env: deps.env })));
  }
  return readResult([...gathered.unanswered, ...gathered.uncompared]);
}

// `kubectl evtimeline capture DIR`: the lab's report capture as one verb, written atomically.
import { renderHiddenFooter } from '../render/hidden.ts';
import { criterionFlag } from '../options/selection.ts';
import type { Deps } from '../deps.ts';
import { Interrupted, UsageError, readResult } from '../errors.ts';
import type { CommandResult } from '../errors.ts';
import { auditEvents } from '../core/audit.ts';
import type { Event } from '../core/event.ts';
import { buildIncident } from '../core/incident.ts';
import { standingsOf } from '../core/incarnation.ts';
import type { LiveFacts } from '../core/incarnation.ts';
import { fleetOf } from '../core/source.ts';
import type { Provenance, RawEvents } from '../core/source.ts';
import { plainPalette } from '../render/color.ts';
import { escapeTerminal } from '../render/escape.ts';
import { renderIncidentText } from '../render/incident-text.ts';
import { toJsonText } from '../render/json.ts';
import { renderBothApis, renderCountReport, renderSchedulerReport, renderTypeReport } from '../render/reports.ts';
import { renderStable } from '../render/stable.ts';
import { renderTimelineTable } from '../render/timeline-table.ts';
import { writeFolderAtomic } from '../io/atomic.ts';
import type { CaptureFile } from '../io/event-file.ts';
import { OBJECTS_FILE, formatObjectsFile } from '../io/objects-file.ts';
import type { SavedObject } from '../core/object-meta.ts';
import { capturedObjects } from '../app/capture-objects.ts';
import { STATUS_FILE, formatStatusFile } from '../io/facts-file.ts';
import type { FactSet } from '../core/facts.ts';
import { parseCommonOptions, parseEventTTL } from '../options/common.ts';
import type { CommonOptions } from '../options/common.ts';
import type { RawOptions } from '../options/raw.ts';
import { gather } from '../app/gather.ts';
import { timelineHtml } from '../app/timeline-html.ts';

interface CaptureOptions {
  dir: string;
  common: CommonOptions;
  force: boolean;
  eventTTLms: number;
  /** objects.json with every object of the namespace, not only the trees of the events' objects */
  allObjects: boolean;
}

export function parseCaptureOptions(dir: string, raw: RawOptions): CaptureOptions {
  if (dir.trim() === '') throw new UsageError('capture needs a folder name');
  return {
    dir,
    common: parseCommonOptions(raw),
    force: raw.force === true,
    allObjects: raw.allObjects === true,
    eventTTLms: parseEventTTL(raw),
  };
}

function eventNames(raw: unknown[]): string[] {
  return raw
    .map((item) => (item as { metadata?: { name?: unknown } } | null)?.metadata?.name)
    .filter((name): name is string => typeof name === 'string');
}

/**
 * The report files, pure text; events.json keeps the raw objects of both API views for --from, and
 * objects.json (where the input can tell) who owned what, for an offline --tree.
 */
function captureFiles(input: {
  provenance: Provenance;
  raw: RawEvents;
  events: Event[];
  now: number;
  eventTTLms: number;
  /** which incarnation of its object each event is about, for a live capture */
  live?: LiveFacts;
  /** the events' objects and their owners; null: the input cannot tell */
  objects: SavedObject[] | null;
  /** what the objects' status said; undefined: the input holds none */
  facts?: FactSet;
}): Record<string, string> {
  const { provenance, raw, events, now } = input;
  const clusters = fleetOf(provenance);
  // Several contexts: each object's context beside it, so --from the capture reads them as the live read did.
  const fleet = clusters === undefined || raw.coreContexts === undefined ? {} : { clusters, coreContexts: raw.coreContexts, ...(raw.eventsK8sIoContexts === undefined ? {} : { eventsK8sIoContexts: raw.eventsK8sIoContexts }) };
  const capture: CaptureFile = {
    kind: 'EvtimelineCapture',
    version: 1,
    context: provenance.context,
    server: provenance.server,
    namespace: provenance.namespace,
    capturedAt: new Date(now).toISOString(),
    core: raw.core,
    eventsK8sIo: raw.eventsK8sIo ?? [],
    ...(raw.eventsK8sIoUnread === undefined ? {} : { eventsK8sIoUnread: raw.eventsK8sIoUnread }),
    ...fleet,
  };
  const incident = buildIncident(events, {
    now,
    provenance,
    eventTTLms: input.eventTTLms,
    ...(input.live === undefined ? {} : { live: input.live }),
    ...(input.facts === undefined ? {} : { facts: input.facts }),
  });
  const live = input.live;
  const standing = live === undefined ? undefined : standingsOf(live);
  const table = { now, wide: false, allNamespaces: provenance.namespace === null, noHeaders: false, palette: plainPalette, standing, ...(clusters === undefined ? {} : { contexts: true }) };
  return {
    'events.json': toJsonText(capture),
    ...(input.objects === null ? {} : { [OBJECTS_FILE]: formatObjectsFile(capture.capturedAt, input.objects) }),
    ...(input.facts === undefined || input.facts.noStatus === true ? {} : { [STATUS_FILE]: formatStatusFile(capture.capturedAt, input.facts) }),
    'events-list.txt': events.length > 0 ? renderTimelineTable(events, table) : '',
    'count-report.txt': renderCountReport(events, now),
    'type-report.txt': renderTypeReport(auditEvents(events)),
    'both-apis.txt': renderBothApis(eventNames(raw.core), raw.eventsK8sIo === null ? null : eventNames(raw.eventsK8sIo), raw.eventsK8sIoUnread),
    'scheduler-event.txt': renderSchedulerReport(events, now),
    'timeline.txt': renderStable(events),
    'incident.txt': renderIncidentText(incident, plainPalette),
    'timeline.html': timelineHtml({ provenance, events, now, eventTTLms: input.eventTTLms, ...(live === undefined ? {} : { live }), ...(input.facts === undefined ? {} : { facts: input.facts }) }),
  };
}

/**
 * The folder is written with Ctrl-C and SIGTERM caught, so an interrupted capture removes its temp
 * folder (a hidden `.DIR.tmp-*` with a partial events.json, once). Before this point nothing is on
 * disk and a signal may end the process as usual.
 */
async function writeFolder(opts: CaptureOptions, files: Record<string, string>, deps: Deps): Promise<void> {
  const stop = new AbortController();
  let signal = 'SIGINT';
  void deps.interrupted().then((name) => {
    signal = name;
    stop.abort();
  });
  try {
    await writeFolderAtomic(opts.dir, files, opts.force, { signal: stop.signal });
  } catch (error) {
    if (!stop.signal.aborted) throw error;
    throw new Interrupted(signal === 'SIGTERM' ? 'SIGTERM' : 'SIGINT', `interrupted by ${signal}: ${opts.dir} was not written`);
  }
}

export async function runCapture(opts: CaptureOptions, deps: Deps): Promise<CommandResult> {
  // A live capture also asks which incarnation of its object each event is about, as incident does.
  const { source, events, raw, live, ages, hidden, facts, unanswered } = await gather({ common: opts.common, compare: false, lookups: true, raw: true, notes: false, facts: true }, deps);
  if (raw === undefined || raw === null) {
    throw new UsageError('capture needs events: a stable table holds only their type, reason and object (use a capture, list or record)');
  }
  const clusters = fleetOf(source.provenance);
  // Several contexts: no owner lookups nor ownership lists (as the live read of several): no objects.json.
  const { saved: objects, leftOut } = clusters === undefined ? await capturedObjects(source, events, live, opts.allObjects) : { saved: null, leftOut: 0 };
  const files = captureFiles({ provenance: source.provenance, raw, events, now: ages.at, eventTTLms: opts.eventTTLms, objects, ...(live === undefined ? {} : { live }), ...(facts === undefined ? {} : { facts }) });
  await writeFolder(opts, files, deps);
  const where =
    clusters !== undefined
      ? `${clusters.length} contexts (${clusters.map((c) => c.context).join(', ')})`
      : source.provenance.namespace === null
        ? 'all namespaces'
        : `namespace ${source.provenance.namespace}`;
  deps.stdout.write(`captured ${events.length} events of ${escapeTerminal(where)} into ${escapeTerminal(opts.dir)}:\n`);
  for (const name of Object.keys(files).sort()) deps.stdout.write(`  ${escapeTerminal(opts.dir)}/${name}\n`);
  if (raw.eventsK8sIoUnread !== undefined) {
    deps.stderr.write(`warning: the events.k8s.io/v1 view could not be read (${escapeTerminal(raw.eventsK8sIoUnread)}): both-apis.txt is partial; the other files hold every event (core/v1 lists those written through either API)\n`);
  }
  if (leftOut > 0) {
    deps.stderr.write(`${OBJECTS_FILE} keeps the trees of the objects the events are about; ${leftOut === 1 ? '1 other object' : `${leftOut} other objects`} of ${escapeTerminal(where)} ${leftOut === 1 ? 'was' : 'were'} left out (capture --all-objects saves them too)\n`);
  }
  deps.stderr.write(renderHiddenFooter(hidden, criterionFlag));
  // Several contexts, some of which did not answer (said on stderr): captured, but not all of them.
  return readResult(unanswered);
}

// `kubectl evtimeline export --otlp URL`: the events in scope, from the live cluster or --from any
// saved file (a record made last week is back-filled with every version it holds), as OTLP/HTTP
// logs to a collector: one log record per event version, named as the k8s_events receiver names
// them plus what it drops (src/otlp/logs.ts).
import type { Deps } from '../deps.ts';
import { UsageError, readResult } from '../errors.ts';
import type { CommandResult } from '../errors.ts';
import { filterEvents } from '../core/filter.ts';
import type { FilterContext } from '../core/filter.ts';
import { labelsFor } from '../app/labels.ts';
import { StartupProbeEvidence } from '../core/startup-probes.ts';
import { normaliseEvent } from '../core/event.ts';
import { eventIdentity } from '../core/identity.ts';
import type { EventVersion } from '../core/source.ts';
import { eventToLog, hrTimeFromMs } from '../otlp/logs.ts';
import type { OtlpLog } from '../otlp/logs.ts';
import { escapeTerminal } from '../render/escape.ts';
import { exportSummary } from '../render/otlp-status.ts';
import { outOfRangeNotice, shipNoticeText } from '../render/adapter-notices.ts';
import { openEndpoint } from '../otlp/http.ts';
import { Shipper } from '../otlp/ship.ts';
import { parseCommonOptions } from '../options/common.ts';
import type { CommonOptions } from '../options/common.ts';
import type { RawOptions } from '../options/raw.ts';
import { parseOtlpOptions } from '../options/otlp.ts';
import type { OtlpOptions } from '../options/otlp.ts';
import { noEventsMessage } from '../render/notices.ts';
import { requestFor } from '../app/read-events.ts';
import { renderUnsent } from '../render/fleet.ts';
import type { Unanswered } from '../core/source.ts';

interface ExportOptions {
  common: CommonOptions;
  otlp: OtlpOptions;
}

export function parseExportOptions(raw: RawOptions): ExportOptions {
  const common = parseCommonOptions(raw);
  const otlp = parseOtlpOptions(raw);
  if (otlp === null) throw new UsageError('export needs --otlp URL, e.g. --otlp http://localhost:4318/v1/logs');
  return { common, otlp };
}

/** The last observation among the versions; null when none says (a live list, a capture). */
function newest(versions: EventVersion[]): number | null {
  let last: number | null = null;
  for (const { observedAt } of versions) if (observedAt !== null && (last === null || observedAt > last)) last = observedAt;
  return last;
}

/** Event versions in the order read, each once (uid + resourceVersion), kept by the filters. */
function selectVersions(versions: EventVersion[], common: CommonOptions, now: number, labelsOf?: FilterContext['labelsOf']) {
  const seen = new Set<string>();
  // The start-up probes' evidence is every version's: a Killing read later still tells.
  const startup = new StartupProbeEvidence().learn(versions.map(({ event }) => normaliseEvent(event)));
  const ctx: FilterContext = { startupBelowThreshold: startup.belowThreshold, ...(labelsOf === undefined ? {} : { labelsOf }) };
  return versions.filter(({ event, cluster }) => {
    const ev = normaliseEvent(event);
    // Several contexts: one uid in two clusters is two events.
    const where = cluster === undefined ? '' : `${cluster.context}\u0000`;
    // Without a resourceVersion (the k8s_events receiver keeps none) versions cannot be told apart: all are sent.
    if (ev.resourceVersion !== '') {
      const key = `${where}${eventIdentity(ev)}@${ev.resourceVersion}`;
      if (seen.has(key)) return false;
      seen.add(key);
    }
    return filterEvents([ev], common.filter, now, ctx).length > 0;
  });
}

export async function runExport(opts: ExportOptions, deps: Deps): Promise<CommandResult> {
  const now = deps.now();
  const source = await deps.openSource(requestFor(opts.common));
  // Several contexts: those that answered are sent, each that did not is one line (exit 4), as a read prints the others.
  const unanswered: Unanswered[] = [];
  const all = await source.versions({ unanswered: (who) => unanswered.push(...who) });
  deps.stderr.write(renderUnsent(unanswered));
  if (all === null) throw new UsageError(`--from ${opts.common.from ?? ''}: a stable table holds no events to export (use a capture, list or record)`);
  // --since counts back from a saved input's last observation, not from now.
  const labelsOf = (opts.common.filter.labels?.length ?? 0) > 0 ? await labelsFor(source, all.map(({ event }) => normaliseEvent(event)), deps, opts.common.from) : undefined;
  const versions = selectVersions(all, opts.common, newest(all) ?? now, labelsOf);
  if (versions.length === 0) {
    deps.stderr.write(noEventsMessage(source.provenance.namespace));
    return readResult(unanswered);
  }
  const endpoint = await openEndpoint(opts.otlp);
  const target = escapeTerminal(opts.otlp.url.href);
  const shipper = new Shipper<number>({
    endpoint,
    encoding: opts.otlp.encoding,
    retry: opts.otlp.retry,
    failUnreachable: true,
    notice: (notice) => deps.stderr.write(`${escapeTerminal(shipNoticeText(notice))}\n`),
  });
  const started = performance.now();
  const readAt = hrTimeFromMs(now);
  let outOfRange = 0;
  for (let start = 0; start < versions.length; start += opts.otlp.batchSize) {
    const logs: OtlpLog[] = versions
      .slice(start, start + opts.otlp.batchSize)
      .map(({ event, observedAt, cluster }) => eventToLog(event, observedAt === null ? readAt : hrTimeFromMs(observedAt), cluster?.context));
    outOfRange += logs.filter((log) => log.timeOutOfRange).length;
    await shipper.push({ logs, mark: start + logs.length });
  }
  if (outOfRange > 0) deps.stderr.write(`${outOfRangeNotice('export', outOfRange)}\n`);
  const totals = await shipper.finish();
  deps.stderr.write(`${exportSummary(target, totals, (performance.now() - started) / 1000)}\n`);
  return readResult(unanswered);
}

// The capture verb's report files (the lab's count-report, type-report, both-apis and scheduler-event),
// as pure functions returning text. Event text is escaped: these files are read with cat and less.

import type { AuditReport } from '../core/audit.ts';
import { describeKubectlTypes } from '../core/audit.ts';
import type { Event } from '../core/event.ts';
import { formatLastSeen } from './last-seen.ts';
import { compareBytes, dedupeByUid, formatObjectRef, formatQualifiedObjectRef, kindsInSeveralGroups, sortTimeline } from '../core/timeline.ts';
import { renderFindings, renderTypeBehaviour } from './audit-text.ts';
import { plainPalette } from './color.ts';
import { escapeTerminal } from './escape.ts';
import { alignColumns } from './table.ts';
import { formatTimeAndAge } from './time.ts';
import { escapeOrNone } from './words.ts';

function eventName(ev: Event): string {
  return ev.namespace === '' ? escapeOrNone(ev.name) : `${escapeOrNone(ev.namespace)}/${escapeOrNone(ev.name)}`;
}

/** Events that repeated, with kubectl's LAST SEEN cell: `3s (x5 over 2m)`. */
export function renderCountReport(events: Event[], now: number): string {
  const repeated = sortTimeline(dedupeByUid(events)).filter((ev) => ev.count > 1);
  const intro =
    'Events that repeated. A repeat is not a new event: the recorder bumps count and lastTimestamp (or series.count) on the same Event.';
  if (repeated.length === 0) return `${intro}\nNo event repeated: every event has count 1.\n`;
  const shared = kindsInSeveralGroups(repeated);
  const rows = repeated.map((ev) => [formatLastSeen(ev, now), escapeTerminal(formatQualifiedObjectRef(ev.object, shared)), escapeOrNone(ev.reason), eventName(ev)]);
  return `${intro}\n${alignColumns([['LAST SEEN', 'OBJECT', 'REASON', 'EVENT'], ...rows], 2).join('\n')}\n`;
}

/** The type audit, then what `kubectl events --types=<T>` does for each type found and for Warning. */
export function renderTypeReport(report: AuditReport): string {
  const behaviours = [...report.types, describeKubectlTypes('Warning')];
  const blocks = behaviours.map((b) => renderTypeBehaviour(b, plainPalette));
  return `${renderFindings(report, plainPalette)}\n\nWhat \`kubectl events --types=<T>\` does\n${blocks.join('\n')}\n`;
}

/** Said on a `new:` line when the source has no events.k8s.io/v1 view; no Event name holds a space or `(`. */
const NO_NEW_API_VIEW = '(the events.k8s.io/v1 view is not in this source)';

/**
 * The names each API lists: `core: NAME` lines, then `new: NAME` lines, each sorted byte-wise.
 * `newNames` null: the source (a record, a `kubectl get events` list) has no events.k8s.io/v1 view,
 * which one `new:` line says, so the file never looks as if the new API listed nothing.
 */
export function renderBothApis(coreNames: string[], newNames: string[] | null, unread?: string): string {
  const lines = (prefix: string, names: string[]): string[] =>
    [...names].sort(compareBytes).map((name) => `${prefix}: ${escapeTerminal(name)}`);
  const none = unread === undefined ? NO_NEW_API_VIEW : `(the events.k8s.io/v1 view could not be read: ${escapeTerminal(unread)}; this file is partial)`;
  const all = [...lines('core', coreNames), ...(newNames === null ? [`new: ${none}`] : lines('new', newNames))];
  return all.length === 0 ? '' : `${all.join('\n')}\n`;
}

/** Every FailedScheduling event with the scheduler's message in full: the sentence people actually read. */
export function renderSchedulerReport(events: Event[], now: number): string {
  const failed = sortTimeline(dedupeByUid(events)).filter((ev) => ev.reason === 'FailedScheduling');
  if (failed.length === 0) return 'No FailedScheduling events found.\n';
  const blocks = failed.map((ev) =>
    [
      escapeTerminal(formatObjectRef(ev.object)),
      `  event:      ${eventName(ev)}`,
      `  type:       ${escapeOrNone(ev.type)}`,
      `  reporter:   ${escapeOrNone(ev.reporter)}`,
      `  count:      ${ev.count}`,
      `  first seen: ${formatTimeAndAge(ev.firstSeen, now)}`,
      `  last seen:  ${formatTimeAndAge(ev.lastSeen, now)}`,
      `  message:    ${escapeOrNone(ev.message)}`,
    ].join('\n'),
  );
  return `FailedScheduling events: the scheduler's own account of why a pod did not fit.\n\n${blocks.join('\n\n')}\n`;
}

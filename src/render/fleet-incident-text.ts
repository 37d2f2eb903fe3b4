// The incident over several contexts in sentences: the headline's stories that more than one
// cluster tells, and each cluster's standing. Every string from a kubeconfig or an event is escaped.
import type { FleetAccount } from '../core/fleet-incident.ts';
import type { Palette } from './color.ts';
import { escapeTerminal } from './escape.ts';
import { formatTime, formatTimeAndAge, formatTTL } from './time.ts';
import { escapeOrNone, plural } from './words.ts';

const SHARED_LINES = 5;

function names(contexts: string[]): string {
  return contexts.map(escapeTerminal).join(', ');
}

/** `FailedScheduling on Pod/web-<hash>-<id>: in 3 of 5 clusters (a, b, c).`, Warnings first; --detail: every one. */
export function sharedLines(fleet: FleetAccount, palette: Palette, detail: boolean): string[] {
  const readNote = `${plural(fleet.standing.length, 'context')} read together, ${fleet.answered} answered.`;
  if (fleet.shared.length === 0) return [`  ${readNote} No story is told in more than one cluster.`];
  const shown = detail ? fleet.shared : fleet.shared.slice(0, SHARED_LINES);
  const lines = shown.map(({ group, clusters }) => {
    const reason = group.severity === 'warning' ? palette.warning(escapeOrNone(group.reason)) : escapeOrNone(group.reason);
    return `  ${reason} on ${escapeOrNone(group.kind)}/${escapeOrNone(group.nameTemplate)}: in ${clusters.length} of ${plural(fleet.answered, 'cluster')} (${names(clusters)}).`;
  });
  const more = fleet.shared.length - shown.length;
  return [`  ${readNote} ${plural(fleet.shared.length, 'story is', 'stories are')} told in more than one cluster:`, ...lines, ...(more > 0 ? [`  and ${more} more like this.`] : [])];
}

/** One line per context: whether it answered, how many events it holds, how far back they go, its TTL. */
export function standingSection(fleet: FleetAccount, at: number, absolute: boolean, palette: Palette): string {
  const lines = fleet.standing.map((s) => {
    const where = `${palette.bold(escapeTerminal(s.context))} (${s.server === '' ? 'no server' : escapeTerminal(s.server)}, ${s.namespace === null ? 'all namespaces' : `namespace ${escapeOrNone(s.namespace)}`})`;
    if (s.unanswered !== undefined) return `  ${where}: did not answer (${escapeTerminal(s.unanswered)}); its events are not in this account.`;
    if (s.events === 0) return `  ${where}: answered, no events.`;
    const back = s.oldest === null ? 'with no times' : `back to ${absolute ? formatTime(s.oldest) : formatTimeAndAge(s.oldest, at)}`;
    return `  ${where}: ${plural(s.events, 'event')}, ${back}; an event not written for ${formatTTL(s.eventTTLms)} (--event-ttl) is gone from it.`;
  });
  return [palette.bold('Clusters'), ...lines].join('\n');
}

// What reading several contexts together says on stderr: a context that did not answer (its events
// are missing from what is printed), a context that reads what another already read.
import type { Unanswered } from '../core/source.ts';
import { escapeTerminal } from './escape.ts';

/** One line per context that did not answer, naming it, its server, what is missing for it (`its events are not shown`) and why. */
function unansweredLines(unanswered: readonly Unanswered[], missing: string): string {
  return unanswered
    .map(({ context, server, reason }) => {
      const at = server === '' ? '' : ` (${escapeTerminal(server)})`;
      return `warning: context "${escapeTerminal(context)}"${at} did not answer, ${missing}: ${escapeTerminal(reason)}\n`;
    })
    .join('');
}

/** A read of several contexts: those that did not answer, whose events are missing from what is printed. */
export function renderUnanswered(unanswered: readonly Unanswered[]): string {
  return unansweredLines(unanswered, 'its events are not shown');
}

/** export of several contexts: those that did not answer, whose events were not sent (the others' were). */
export function renderUnsent(unanswered: readonly Unanswered[]): string {
  return unansweredLines(unanswered, 'its events are not sent');
}

/** A context on the server and namespace another context already reads: read once. */
export function renderSameClusterNotice(context: string, first: string, server: string, namespace: string | null): string {
  const where = namespace === null ? 'all namespaces' : `namespace "${escapeTerminal(namespace)}"`;
  return `context "${escapeTerminal(context)}" reads ${where} of ${escapeTerminal(server)}, as context "${escapeTerminal(first)}" does: read once, as "${escapeTerminal(first)}"\n`;
}

/** A context of several followed together that stopped (refused, or gave up retrying): the others go on. */
export function renderStoppedFollowing({ context, server, reason }: Unanswered): string {
  const at = server === '' ? '' : ` (${escapeTerminal(server)})`;
  return `warning: context "${escapeTerminal(context)}"${at} stopped answering, its events are no longer followed: ${escapeTerminal(reason)}\n`;
}

/** A context of several recorded together that never answered while the recorder ran: none of its events are in the record. */
export function renderNeverAnswered({ context, server }: { context: string; server: string }, lastFailure: string): string {
  const at = server === '' ? '' : ` (${escapeTerminal(server)})`;
  return `warning: context "${escapeTerminal(context)}"${at} never answered while recording, none of its events are in the record${lastFailure === '' ? '' : `: ${escapeTerminal(lastFailure)}`}\n`;
}

/** --compare of a record of several contexts: a context that did not answer now, whose recorded events are shown but not compared. */
export function renderUncompared(unanswered: readonly Unanswered[]): string {
  return unansweredLines(unanswered, 'its recorded events are not compared');
}

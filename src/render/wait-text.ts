// What `wait` writes as text: one line per event of the rollout as it comes, the live status line,
// the success line and the failure's headline. Event text is untrusted: escaped here.
import type { Event } from '../core/event.ts';
import type { RolloutStatus } from '../core/rollout-status.ts';
import type { WaitOutcome } from '../core/wait.ts';
import { escapeTerminal } from './escape.ts';
import { humanDuration } from './duration.ts';

/** `+12s  Warning  BackOff  Pod/web-1  Back-off restarting failed container main ...`: when it last occurred, from the rollout's beginning. */
export function renderWaitEvent(ev: Event, began: number): string {
  const at = ev.lastSeen === null ? '?' : `+${humanDuration(Math.max(0, ev.lastSeen - began))}`;
  const count = ev.count > 1 ? ` (x${ev.count})` : '';
  const cells = [at, ev.type, ev.reason, `${ev.object.kind}/${ev.object.name}`, `${ev.message}${count}`];
  return `${cells.map(escapeTerminal).join('  ')}\n`;
}

/** The status line kubectl rollout status would print, with the elapsed time (already safe: names are escaped). */
export function renderWaitStatus(status: RolloutStatus | null, waiting: string, elapsedMs: number): string {
  return `${escapeTerminal(status?.message ?? waiting)} ${humanDuration(elapsedMs)}`;
}

const OUTCOME_WORDS: Record<WaitOutcome, string> = {
  succeeded: 'succeeded',
  failed: 'failed',
  unsettled: 'failed while settling',
  'timed-out': 'timed out',
  deleted: 'deleted while waiting',
  recreated: 're-created while waiting',
  superseded: 'superseded',
  interrupted: 'interrupted',
};

export function outcomeWords(outcome: WaitOutcome): string {
  return OUTCOME_WORDS[outcome];
}

/** The one line of a success: what became ready and how long it took. */
export function renderSuccess(message: string, status: RolloutStatus | undefined, tookMs: number, settledMs: number): string {
  const r = status?.replicas;
  const ready = r === undefined ? '' : `, ${r.ready} of ${r.desired} ready`;
  const settled = settledMs > 0 ? `, no Warning in the ${humanDuration(settledMs)} after` : '';
  return `${escapeTerminal(message)} in ${humanDuration(tookMs)}${ready}${settled}\n`;
}

/** The headline before a failure's account. */
export function renderFailureHeadline(outcome: WaitOutcome, message: string, tookMs: number, code: number): string {
  return `wait ${outcomeWords(outcome)} after ${humanDuration(tookMs)} (exit ${code}): ${escapeTerminal(message)}\n`;
}

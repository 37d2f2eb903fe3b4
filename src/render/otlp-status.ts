// What export and record --otlp say about shipping, on stderr.
import type { ShipTotals } from '../otlp/ship.ts';
import { plural } from './words.ts';

function retries(totals: ShipTotals): string {
  return totals.retries === 0 ? '' : `, ${plural(totals.retries, 'retry', 'retries')}`;
}

function rejected(totals: ShipTotals): string {
  return totals.rejected === 0 ? '' : `; the collector rejected ${plural(totals.rejected, 'log record')}`;
}

/** `exported 5000 log records to URL in 1.2 s (4100/s, 5 requests)`; `target` already escaped. */
export function exportSummary(target: string, totals: ShipTotals, seconds: number): string {
  const sent = totals.accepted + totals.rejected;
  const rate = seconds > 0 ? `${Math.round(sent / seconds)}/s, ` : '';
  return `exported ${plural(sent, 'log record')} to ${target} in ${seconds.toFixed(1)} s (${rate}${plural(totals.requests, 'request')}${retries(totals)})${rejected(totals)}`;
}

/** record --otlp's last line about shipping; `target` already escaped. */
export function shippedSummary(target: string, totals: ShipTotals, unconfirmed: number): string {
  const sent = totals.accepted + totals.rejected;
  const left = unconfirmed === 0 ? '' : `; ${plural(unconfirmed, 'observation')} not yet confirmed, sent on the next run`;
  return `shipped ${plural(sent, 'log record')} to ${target} (${plural(totals.requests, 'request')}${retries(totals)})${rejected(totals)}${left}`;
}

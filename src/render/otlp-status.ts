// What export and record --otlp say about shipping, on stderr.
import type { ShipTotals } from '../core/notices.ts';
import { MISSING_BY_WRITER } from '../core/source.ts';
import type { OtlpWriter } from '../core/source.ts';
import type { UnreadableRecords } from '../core/source.ts';
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

const WRITER_NAMES: Record<OtlpWriter, string> = {
  evtimeline: 'kubectl evtimeline export',
  k8sobjects: 'the k8sobjects receiver',
  k8s_events: 'the k8s_events receiver',
};

/**
 * What a collector's file can tell, for stderr: who wrote its log records, what those writers did
 * not keep (so a missing reporter or series is not read as "there was none"), and how many log
 * records were not events. '' when nothing is missing. `file` already escaped.
 */
export function otlpProvenanceNotice(file: string, otlp: { writers: OtlpWriter[]; skipped: number; unreadable?: UnreadableRecords | null }): string {
  const lines: string[] = [];
  for (const writer of otlp.writers) {
    const missing = MISSING_BY_WRITER[writer];
    if (missing.length > 0) lines.push(`${file}: events written by ${WRITER_NAMES[writer]}, which does not keep ${missing.join(', ')}; those fields read as empty`);
  }
  if (otlp.skipped > 0) lines.push(`${file}: skipped ${plural(otlp.skipped, 'log record')} that ${otlp.skipped === 1 ? 'is' : 'are'} not about a Kubernetes event`);
  const bad = otlp.unreadable ?? null;
  if (bad !== null) lines.push(`${file}: skipped ${plural(bad.count, 'log record')} that cannot be read (${bad.count === 1 ? '' : 'the first: '}line ${bad.line}: ${bad.why})`);
  return lines.map((line) => `${line}\n`).join('');
}

/**
 * What a log store's events lack, in one line for stderr: who wrote them, the fields they did not
 * keep (read as empty, never guessed), how repeats were joined, and lines that were not events.
 * '' when nothing is missing. `from` already escaped; the rest is ours.
 */
export function storeProvenanceNotice(from: string, store: { writers: string[]; unkept: string[]; skipped: number }): string {
  const parts: string[] = [];
  if (store.unkept.length > 0) {
    const writers = store.writers.length > 0 ? ` by ${store.writers.join(' and ')}` : '';
    const join = store.unkept.includes('uid') ? '; repeats joined by object, reason and first timestamp' : '';
    parts.push(`written${writers}, which did not keep ${store.unkept.join(', ')}${join}`);
  }
  if (store.skipped > 0) parts.push(`skipped ${plural(store.skipped, 'line')} not about a Kubernetes event`);
  return parts.length === 0 ? '' : `${from}: ${parts.join('; ')}\n`;
}

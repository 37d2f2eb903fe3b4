// The adapters' notices (src/core/notices.ts) in words, one line each, without its newline; the
// caller escapes them (they carry a server's or a collector's words) and writes them to stderr.
import type { ShipNotice, WatchNotice } from '../core/notices.ts';
import { UNIX_NANOS_RANGE } from '../core/source.ts';
import { plural } from './words.ts';

function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 1)} s`;
}

export function watchNoticeText(notice: WatchNotice): string {
  return notice.context === undefined ? watchNoticeBody(notice) : `context "${notice.context}": ${watchNoticeBody(notice)}`;
}

function watchNoticeBody(notice: WatchNotice): string {
  switch (notice.kind) {
    case 'credential-refused':
      return `${notice.what} refused the exec credential plugin's token (401 Unauthorized): running the plugin again`;
    case 'expired':
      return `${notice.what} expired (410 Gone): listing again`;
    case 'retrying':
      return `${notice.what} failed (${notice.error}): retrying in ${seconds(notice.delayMs)}`;
  }
}

/** One line for the event versions whose time OTLP cannot hold (`verb` says who speaks: export, record). */
export function outOfRangeNotice(verb: string, count: number): string {
  const one = count === 1;
  return `${verb}: ${plural(count, 'event version')} ${one ? 'is' : 'are'} dated outside what OTLP's timeUnixNano can hold (${UNIX_NANOS_RANGE[0]} to ${UNIX_NANOS_RANGE[1]}): ${one ? 'it goes' : 'they go'} out with timeUnixNano 0 (unknown), ${one ? 'its' : 'their'} own times in the evtimeline.event.* attributes`;
}

export function shipNoticeText(notice: ShipNotice): string {
  switch (notice.kind) {
    case 'rejected': {
      const claimed = notice.claimed === undefined ? '' : ` (it said ${Number.isFinite(notice.claimed) ? Math.trunc(notice.claimed) : 'a count that is no number'}: counted as ${notice.rejected})`;
      return `${notice.origin}: rejected ${notice.rejected} of ${notice.sent} log records${claimed}${notice.message ? `: ${notice.message}` : ''}`;
    }
    case 'bad-data':
      return `${notice.origin}: refused ${notice.refused} log records as bad data (${notice.why}): not sent again; recording goes on`;
    case 'retrying':
      return `${notice.origin}: ${notice.why}; retrying in ${(notice.delayMs / 1000).toFixed(1)} s`;
    case 'ledger-ahead':
      return `${notice.record}.otlp.json says more was shipped than the record holds: shipping the record from its start`;
    case 'ledger-of-another-record':
      return `${notice.record}.otlp.json belongs to another record: shipping this one from its start`;
    case 'time-out-of-range':
      return `${outOfRangeNotice('record', 1)} (said once a run)`;
  }
}

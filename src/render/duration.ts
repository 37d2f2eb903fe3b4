// Ages and durations, spelled the way kubectl spells them.

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * Port of k8s.io/apimachinery pkg/util/duration HumanDuration: ~2-3 significant figures.
 * Go truncates toward zero (int(d.Seconds()), integer division), so ages never round up.
 * Up to one second in the future counts as now (clock skew); further is `<invalid>`.
 */
export function humanDuration(ms: number): string {
  if (!Number.isFinite(ms)) return '<invalid>';
  const seconds = Math.trunc(ms / SECOND);
  if (seconds < -1) return '<invalid>';
  if (seconds <= 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;

  const minutes = Math.floor(ms / MINUTE);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;

  const hours = Math.floor(ms / HOUR);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;

  const days = Math.floor(hours / 24);
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${days}d` : `${days}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${days}d`;

  const years = Math.floor(days / 365);
  if (hours < 24 * 365 * 8) {
    const dy = days % 365;
    return dy === 0 ? `${years}y` : `${years}y${dy}d`;
  }
  return `${years}y`;
}

/** The age of a moment, as kubectl's translateTimestampSince prints it: `<unknown>` for an unset time. */
export function formatAge(from: number | null, now: number): string {
  if (from === null) return '<unknown>';
  return humanDuration(now - from);
}

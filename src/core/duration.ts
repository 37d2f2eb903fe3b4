// Ages and durations, spelled the way kubectl spells them.

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

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

const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  'µs': 1e-3, // U+00B5 micro sign, accepted by Go
  'μs': 1e-3, // U+03BC Greek mu, accepted by Go
  ms: 1,
  s: SECOND,
  m: MINUTE,
  h: HOUR,
  d: DAY, // not Go: days are how event TTLs and retention are talked about
};

/**
 * Go's time.Duration is int64 nanoseconds: ParseDuration refuses more than 2562047h47m16.854775807s
 * (about 292 years), and so does every flag here (`--event-ttl 1000000000h` once printed year -112053).
 */
export const MAX_DURATION_MS = 9_223_372_036_854;

const PART = /^(\d*)(?:\.(\d*))?(ns|us|µs|μs|ms|s|m|h|d)/;

/**
 * Go time.ParseDuration syntax (`90s`, `5m`, `1h30m`, `1.5h`, bare `0`) plus `d` for days, for
 * --since / --event-ttl / --duration. No sign: a negative window means nothing here.
 * Returns whole milliseconds (event times carry at most microseconds), or null when invalid.
 */
export function parseDuration(text: string): number | null {
  if (text === '0') return 0;
  if (text === '') return null;
  let rest = text;
  let total = 0;
  while (rest !== '') {
    const match = PART.exec(rest);
    if (!match) return null;
    const [whole, int = '', frac = '', unit = ''] = match;
    // Go accepts `1.` and `.5` but not a lone `.`.
    if (int === '' && frac === '') return null;
    total += Number(`${int || '0'}.${frac || '0'}`) * (UNIT_MS[unit] ?? Number.NaN);
    rest = rest.slice(whole.length);
  }
  const ms = Math.round(total);
  return Number.isSafeInteger(ms) && ms <= MAX_DURATION_MS ? ms : null;
}

// Durations as flags take them (Go's time.ParseDuration), in milliseconds. Spelling an age or a
// duration in words is render's (src/render/duration.ts).

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

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

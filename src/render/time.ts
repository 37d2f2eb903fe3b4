// Times as people read them in the text outputs (ISO 8601 in UTC, without a zero millisecond part),
// and as every JSON output spells them (milliseconds always shown).

import { formatAge, humanDuration } from './duration.ts';

/**
 * `2026-11-30T11:58:00Z`; `.083Z` stays. Takes epoch ms, or ISO text as the incident holds it (a
 * server's creationTimestamp is passed through as sent: the caller escapes it like event text).
 */
export function formatTime(time: number | string): string {
  const iso = typeof time === 'number' ? new Date(time).toISOString() : time;
  return iso.replace(/\.000Z$/, 'Z');
}

/**
 * `2026-11-30T11:59:15Z (45s ago)`, kubectl's age in brackets; `<unknown>` for an unset time. A time
 * ahead of `now` (a writer's clock, or anyone who may create events) is `(in the future)`: kubectl's
 * `<invalid>` is a table cell's word, not one for a sentence.
 */
export function formatTimeAndAge(ms: number | null, now: number): string {
  if (ms === null) return '<unknown>';
  const age = formatAge(ms, now);
  return age === '<invalid>' ? `${formatTime(ms)} (in the future)` : `${formatTime(ms)} (${age} ago)`;
}

/** `1h`, not HumanDuration's `60m`: the TTL is a setting, spelled as the flag is. */
export function formatTTL(ms: number): string {
  const hour = 3_600_000;
  return ms > 0 && ms % hour === 0 ? `${ms / hour}h` : humanDuration(ms);
}

const MS_PER_DAY = 86_400_000;

const pad2 = (n: number): string => (n < 10 ? `0${n}` : `${n}`);
const pad3 = (n: number): string => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

/**
 * Date.prototype.toISOString's text, computed with integer arithmetic (days to a civil date as in
 * Howard Hinnant's date algorithms): a 20,000-event -o json spells 40,000 times, and a Date object
 * for each cost more than the rest of the event. Years outside 1000..9999 take the Date path.
 */
function spellIso(ms: number): string {
  const days = Math.floor(ms / MS_PER_DAY);
  const inDay = ms - days * MS_PER_DAY;
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  if (!Number.isInteger(ms) || year < 1000 || year > 9999) return new Date(ms).toISOString();
  const hour = Math.floor(inDay / 3_600_000);
  const minute = Math.floor((inDay % 3_600_000) / 60_000);
  const second = Math.floor((inDay % 60_000) / 1000);
  return `${year}-${pad2(month)}-${pad2(day)}T${pad2(hour)}:${pad2(minute)}:${pad2(second)}.${pad3(inDay % 1000)}Z`;
}

/** An ISO time, or null for a time the event does not carry. */
/**
 * Times spelled lately, one slot per second (direct-mapped): events come sorted by time, so runs of
 * them share their seconds (RFC 3339 times carry no more), and a 200,000-event -o json spells 400,000
 * times, most of them the one spelled just before.
 */
const SPELLED = 256;
const spelledMs = new Float64Array(SPELLED).fill(Number.NaN);
const spelled: string[] = new Array<string>(SPELLED).fill('');

/**
 * The JSON outputs' spelling of a time: Date.prototype.toISOString's text (spellIso).
 */
export function toIso(ms: number): string {
  const slot = Math.floor(ms / 1000) & (SPELLED - 1);
  if (spelledMs[slot] === ms) return spelled[slot] as string;
  const iso = spellIso(ms);
  spelledMs[slot] = ms;
  spelled[slot] = iso;
  return iso;
}

export function isoOrNull(ms: number | null): string | null {
  return ms === null ? null : toIso(ms);
}

// Times as people read them in the text outputs (ISO 8601 in UTC, without a zero millisecond part),
// and as every JSON output spells them (milliseconds always shown).

import { formatAge, humanDuration } from '../core/duration.ts';

/**
 * `2026-11-30T11:58:00Z`; `.083Z` stays. Takes epoch ms, or ISO text as the incident holds it (a
 * server's creationTimestamp is passed through as sent: the caller escapes it like event text).
 */
export function formatTime(time: number | string): string {
  const iso = typeof time === 'number' ? new Date(time).toISOString() : time;
  return iso.replace(/\.000Z$/, 'Z');
}

/** `2026-11-30T11:59:15Z (45s ago)`, kubectl's age in brackets; `<unknown>` for an unset time. */
export function formatTimeAndAge(ms: number | null, now: number): string {
  return ms === null ? '<unknown>' : `${formatTime(ms)} (${formatAge(ms, now)} ago)`;
}

/** `1h`, not HumanDuration's `60m`: the TTL is a setting, spelled as the flag is. */
export function formatTTL(ms: number): string {
  const hour = 3_600_000;
  return ms > 0 && ms % hour === 0 ? `${ms / hour}h` : humanDuration(ms);
}

/** The JSON outputs' spelling of a time: ISO 8601, milliseconds always shown. */
export function toIso(ms: number): string {
  return new Date(ms).toISOString();
}

/** An ISO time, or null for a time the event does not carry. */
export function isoOrNull(ms: number | null): string | null {
  return ms === null ? null : toIso(ms);
}

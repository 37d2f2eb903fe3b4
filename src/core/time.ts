// Event times as ISO 8601 text: the spelling of every time in the JSON outputs (milliseconds always shown).

export function toIso(ms: number): string {
  return new Date(ms).toISOString();
}

/** An ISO time, or null for a time the event does not carry. */
export function isoOrNull(ms: number | null): string | null {
  return ms === null ? null : toIso(ms);
}

// A record read while `record` may still be writing it. record writes its lines in batches (up to
// 256 K characters in one write, src/io/record-writer.ts), so a test that looks mid-write can see the
// last line part-written: only lines that have their newline are read, as the product's readers cut
// a torn last line (src/io/record-replay.ts). Tests that read a record as it grows use this reader,
// not a split of their own: two broke on a torn tail (fleet, record-interrupt; NOTE9).
import { existsSync, readFileSync } from 'node:fs';

export type Json = Record<string, unknown>;

export interface RecordSoFar {
  /** Every whole line, parsed, in file order (headers, observations, object and seen lines). */
  lines: Json[];
  /** The EvtimelineRecord headers: one per recording session. */
  headers: Json[];
  /** The observations: lines with a watch type and an event (not headers, object, seen or status lines). */
  observations: { type: string; event: Json; context?: string }[];
}

/** The whole lines of `file` so far; nothing when it is not there yet. */
export function recordSoFar(file: string): RecordSoFar {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const whole = text.slice(0, text.lastIndexOf('\n') + 1);
  const lines = whole
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Json);
  return {
    lines,
    headers: lines.filter((l) => l.kind === 'EvtimelineRecord'),
    observations: lines.filter((l): l is RecordSoFar['observations'][number] & Json => typeof l.type === 'string' && typeof l.event === 'object' && l.event !== null),
  };
}

/** The name of an observed event. */
export const observedName = (o: { event: Json }): string => (o.event.metadata as { name: string }).name;

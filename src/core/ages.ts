// Where ages in text outputs count from. Live: now. A saved file: when it was taken (a capture's
// time, a record's last observation), else the newest event in it (a plain list or a stable table
// carries no time of its own), so a dump from years ago reads `2m` and not `6y3d`.
import type { Event } from './event.ts';
import type { SavedFile } from './incident.ts';

export type AgeBasis = 'now' | 'capture' | 'record' | 'newest-event';

export interface AgesFrom {
  at: number;
  basis: AgeBasis;
}

export function agesFrom(saved: SavedFile | undefined, events: Event[], now: number, fromFile: boolean): AgesFrom {
  if (!fromFile) return { at: now, basis: 'now' };
  if (saved?.lastObserved != null && (saved.format === 'capture' || saved.format === 'record')) {
    return { at: saved.lastObserved, basis: saved.format };
  }
  let newest: number | null = null;
  for (const ev of events) {
    const t = ev.lastSeen ?? ev.firstSeen;
    if (t !== null && (newest === null || t > newest)) newest = t;
  }
  return newest === null ? { at: now, basis: 'now' } : { at: newest, basis: 'newest-event' };
}

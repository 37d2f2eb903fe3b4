// Where ages in text outputs count from, one rule for every verb: when the events were taken. Live:
// now. A saved file (with or without --compare, which only marks what the cluster has since lost):
// when it was taken (a capture's time, a record's last observation, the last observed time in a
// collector's file), else the newest event in it (a plain list or a stable table carries no time
// of its own), so a dump from years ago reads `2m` and not `6y3d`.
import type { Event } from './event.ts';
import type { Provenance } from './source.ts';

type AgeBasis = 'now' | 'capture' | 'record' | 'collector' | 'newest-event';

export interface AgesFrom {
  at: number;
  basis: AgeBasis;
}

export function agesFrom(provenance: Provenance, events: Event[], now: number): AgesFrom {
  // A VictoriaLogs server is read now, like the cluster: it keeps events past the TTL, and more arrive.
  if (provenance.kind === 'cluster' || (provenance.kind === 'store' && provenance.store === 'victorialogs')) return { at: now, basis: 'now' };
  if (provenance.kind === 'capture' && provenance.capturedAt !== null) return { at: provenance.capturedAt, basis: 'capture' };
  if (provenance.kind === 'record' && provenance.lastObserved !== null) return { at: provenance.lastObserved, basis: 'record' };
  let newest: number | null = null;
  for (const ev of events) {
    const t = ev.lastSeen ?? ev.firstSeen;
    if (t !== null && (newest === null || t > newest)) newest = t;
  }
  // Our export and the k8sobjects receiver stamp each log record's observed time; the k8s_events
  // receiver stamps none, so a file mixing writers can hold events newer than its last observation.
  if (provenance.kind === 'otlp' && provenance.lastObserved !== null && (newest === null || provenance.lastObserved >= newest)) {
    return { at: provenance.lastObserved, basis: 'collector' };
  }
  return newest === null ? { at: now, basis: 'now' } : { at: newest, basis: 'newest-event' };
}

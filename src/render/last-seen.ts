// The LAST SEEN cell of `kubectl events` (staging k8s.io/kubectl pkg/cmd/events/event_printer.go getInterval).

import type { Event } from '../core/event.ts';
import { formatAge } from './duration.ts';

/**
 * `3s (x5 over 2m)` for a repeated event, else the age of its first occurrence.
 *
 * kubectl: with series, `<age of series.lastObservedTime> (x<series.count> over <age of eventTime>)`;
 * else with count > 1, `<age of lastTimestamp> (x<count> over <age of firstTimestamp>)`; else the age
 * of eventTime, or of firstTimestamp when eventTime is unset. normaliseEvent folds both into
 * count/firstSeen/lastSeen, which gives the same text for every event the API server accepts.
 * It differs only where kubectl would print a broken cell: a series with count < 2 (kubectl `(x1 ...)`),
 * an unset lastObservedTime/lastTimestamp on a repeated event (kubectl `<unknown> (x5 ...)`; we fall
 * back to the first time), and no eventTime nor firstTimestamp (kubectl `<unknown>`; we use
 * metadata.creationTimestamp).
 */
export function formatLastSeen(ev: Event, now: number): string {
  const first = formatAge(ev.firstSeen, now);
  if (ev.count > 1) return `${formatAge(ev.lastSeen, now)} (x${ev.count} over ${first})`;
  return first;
}

// Live follow (-w): which versions of events are new occurrences worth a row. An occurrence is an
// event's uid with its count and last-seen time: a count or series bump is a new one, a MODIFIED
// that changes neither (a label, managedFields) is not, and a relist after 410 Gone or a dropped
// connection hands back versions already shown, which print nothing. A deletion (the TTL) is no
// occurrence at all.
import type { Event } from './event.ts';
import { sortTimeline } from './timeline.ts';
import { eventIdentity } from './identity.ts';

function occurrenceKey(ev: Event): string {
  return `${eventIdentity(ev)}|${ev.count}|${ev.lastSeen ?? ''}`;
}

/** The occurrences printed so far. */
export class ShownOccurrences {
  private readonly keys = new Set<string>();

  /** The events among `events` not shown yet, in timeline order; they count as shown from now on. */
  takeNew(events: Event[]): Event[] {
    const fresh: Event[] = [];
    for (const ev of events) {
      const key = occurrenceKey(ev);
      if (this.keys.has(key)) continue;
      this.keys.add(key);
      fresh.push(ev);
    }
    return sortTimeline(fresh);
  }
}

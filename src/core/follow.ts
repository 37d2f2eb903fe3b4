// Live follow (-w): which versions of events are new occurrences worth a row. An occurrence is an
// event's uid with its count and last-seen time: a count or series bump is a new one, a MODIFIED
// that changes neither (a label, managedFields) is not, and a relist after 410 Gone or a dropped
// connection hands back versions already shown, which print nothing. A deletion (the TTL) is no
// occurrence at all.
//
// A follow runs for days: what it remembers is bounded by the events the server still holds, not
// by every event it ever saw. Per event it keeps the occurrence shown last (a watch delivers an
// event's versions in resourceVersion order, and a relist hands back the current one, so an older
// occurrence never comes back), and a deleted event is forgotten: a watch resumes after the
// DELETED it delivered and a relist no longer holds the event, so nothing of it can come again
// (a namesake created later has another uid).
import type { Event } from './event.ts';
import { addHidden, countHidden } from './filter.ts';
import type { Criterion, Hidden } from './filter.ts';
import { compareBytes, kindsInSeveralGroups, sortTimeline, stableLine } from './timeline.ts';
import { eventIdentity } from './identity.ts';
import { SaidKeys } from './said-keys.ts';

function occurrenceOf(ev: Event): string {
  return `${ev.count}|${ev.lastSeen ?? ''}`;
}

/** The occurrences printed so far, of the events that still exist. */
export class ShownOccurrences {
  /** event identity -> the occurrence of it shown last */
  private readonly last = new Map<string, string>();

  /** The events among `events` not shown yet, in timeline order; they count as shown from now on. */
  takeNew(events: Event[]): Event[] {
    const fresh: Event[] = [];
    for (const ev of events) {
      const id = eventIdentity(ev);
      const occurrence = occurrenceOf(ev);
      if (this.last.get(id) === occurrence) continue;
      this.last.set(id, occurrence);
      fresh.push(ev);
    }
    return sortTimeline(fresh);
  }

  /** The event was deleted (the TTL): nothing of it can come again. */
  forget(ev: Event): void {
    this.last.delete(eventIdentity(ev));
  }

  /** How many events it remembers. */
  get size(): number {
    return this.last.size;
  }
}

/**
 * `-w -o stable`: each line printed once while an event the server holds says it. Per event the
 * line it says, per line how many events say it; a deleted event lets its line go when no other
 * says it, so a line that comes again after all its events expired prints again, and what is kept
 * follows the events the server holds, not every line ever printed.
 */
export class ShownLines {
  /** per event (identity) the line it says */
  private readonly said = new SaidKeys();

  /** `spell`: how a line is printed (the terminal escaper): two lines printed alike are one. */
  constructor(private readonly spell: (line: string) => string) {}

  /** The lines among these events' not printed yet, as printed, in byte order of their raw text; they count as printed from now on. */
  takeNew(events: Event[]): string[] {
    const shared = kindsInSeveralGroups(events);
    const fresh: { raw: string; line: string }[] = [];
    for (const ev of events) {
      const id = eventIdentity(ev);
      const raw = stableLine(ev, shared);
      const line = this.spell(raw);
      if (this.said.say(id, line)) fresh.push({ raw, line });
    }
    return fresh.sort((a, b) => compareBytes(a.raw, b.raw)).map((f) => f.line);
  }

  /** The event was deleted (the TTL). */
  forget(ev: Event): void {
    this.said.forget(eventIdentity(ev));
  }

  /** How many lines it remembers. */
  get size(): number {
    return this.said.size;
  }
}

/**
 * What the selection hid while following, for the footer said when it ends: each event under its
 * latest verdict (a new version may be judged otherwise), and a deleted event's last verdict kept
 * as a count only.
 */
export class FollowVerdicts {
  private readonly latest = new Map<string, Criterion | null>();
  private readonly settled = new Map<Criterion, number>();

  judge(ev: Event, verdict: Criterion | null): void {
    this.latest.set(eventIdentity(ev), verdict);
  }

  /** The event was deleted: its verdict is final. */
  settle(ev: Event): void {
    const id = eventIdentity(ev);
    const verdict = this.latest.get(id);
    this.latest.delete(id);
    if (verdict !== undefined && verdict !== null) this.settled.set(verdict, (this.settled.get(verdict) ?? 0) + 1);
  }

  /** How many events each criterion hid, over the whole follow. */
  hidden(): Hidden[] {
    const settled = [...this.settled].map(([criterion, events]) => ({ criterion, events }));
    return addHidden(countHidden(this.latest.values()), settled);
  }

  /** How many events it remembers one by one. */
  get size(): number {
    return this.latest.size;
  }
}

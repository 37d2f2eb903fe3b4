// Where client-go's recorders may have merged, dropped or not yet sent what happened. The events
// cannot say which recorder wrote them, so each note is a "may": what the recorder would have done
// to events of this shape. Figures from k8s.io/client-go v0.36.3:
//
// - tools/record (the legacy recorder, core/v1 events without eventTime):
//   events_cache.go:47-48 defaultSpamBurst 25, defaultSpamQPS 1/300: a token bucket per source
//     (component, host), object (kind, namespace, name, uid, apiVersion) and type (getSpamKey,
//     :70-82; not the reason, not the message); a write without a token is dropped (:127-150,
//     EventCorrelate :506-516 filters after counting, so a later write carries the higher count);
//   events_cache.go:40-41 defaultAggregateMaxEvents 10, defaultAggregateIntervalInSeconds 600: the
//     10th distinct message for one source, object, type and reason within 10 minutes of the previous
//     one becomes one event whose message is "(combined from similar events): " + the latest (:183,
//     EventAggregate :238-293), its count then counting every later message.
// - tools/events (the events.k8s.io recorder): event_broadcaster.go:50-51 finishTime 6 min,
//   refreshTime 30 min; recordToSink (:170-206) writes series {count: 2} at the second occurrence and
//   later ones only in memory, sent by refreshExistingEventSeries every 30 minutes (:127-140) or by
//   finishSeries once the series has been quiet for 6 minutes (:145-161).
import type { Event, ObjectRef } from './event.ts';

export const SPAM_BURST = 25;
export const SPAM_REFILL_MS = 300_000;
export const AGGREGATE_MAX_EVENTS = 10;
export const AGGREGATE_INTERVAL_MS = 600_000;
export const SERIES_REFRESH_MS = 30 * 60_000;
export const SERIES_FINISH_MS = 6 * 60_000;
export const COMBINED_PREFIX = '(combined from similar events): ';

// An event of count c stands for c occurrences spread evenly from first to last seen (when each came
// is not kept). Past this many, fewer points over the same span are simulated: the bucket, empty by
// then, refills by less than a token between them unless they are minutes apart, so the notes come
// out the same, and a hostile count (2^31) or 20,000 repeated events cost milliseconds.
const MAX_SPREAD = 100;

/** A source wrote so much about one object that the spam filter may have dropped what came next. */
export interface SpamNote {
  kind: 'spam';
  reporter: string;
  instance: string;
  object: ObjectRef;
  type: string;
  /** event objects and occurrences (their counts) of this source, object and type */
  events: number;
  occurrences: number;
  first: number;
  /** when the bucket ran dry: later reports may be missing from here */
  emptiedAt: number;
  /** when the bucket held a token again after the last occurrence seen: the next report could have come then */
  nextAt: number;
}

/** An event the legacy recorder merged from similar messages. */
export interface CombinedNote {
  kind: 'combined';
  event: Event;
}

/** An events.k8s.io series, whose count the server learns at most every 30 minutes. */
export interface SeriesNote {
  kind: 'series';
  event: Event;
  /** series.lastObservedTime: the last occurrence the server has been told of */
  lastObserved: number;
}

export interface RecorderNotes {
  spam: SpamNote[];
  combined: CombinedNote[];
  series: SeriesNote[];
}

function isCombined(ev: Event): boolean {
  return ev.message.startsWith(COMBINED_PREFIX);
}

function spamKey(ev: Event): string {
  const o = ev.object;
  return [ev.reporter, ev.instance, o.kind, o.namespace, o.name, o.uid, o.apiVersion, ev.type].join('\u0000');
}

/** The times of the events' occurrences, in order: each event's first at firstSeen, the others spread up to lastSeen. */
function occurrenceTimes(group: Event[]): Float64Array {
  const times: number[] = [];
  for (const ev of group) {
    const first = ev.firstSeen ?? ev.lastSeen;
    if (first === null) continue;
    const last = ev.lastSeen ?? first;
    const n = Math.min(ev.count, MAX_SPREAD);
    if (n <= 1) times.push(first);
    else for (let i = 0; i < n; i += 1) times.push(first + ((last - first) * i) / (n - 1));
  }
  return Float64Array.from(times).sort();
}

/**
 * golang.org/x/time/rate as client-go's passive token bucket uses it: full at the first write,
 * refilled continuously, at most `SPAM_BURST`. Null when the bucket never ran dry.
 */
function simulateBucket(times: Float64Array): { emptiedAt: number; nextAt: number } | null {
  let tokens = SPAM_BURST;
  let at = times[0] ?? 0;
  let emptiedAt: number | null = null;
  for (const t of times) {
    tokens = Math.min(SPAM_BURST, tokens + (t - at) / SPAM_REFILL_MS);
    at = t;
    if (tokens >= 1) tokens -= 1;
    if (tokens < 1 && emptiedAt === null) emptiedAt = t;
  }
  if (emptiedAt === null) return null;
  return { emptiedAt, nextAt: at + Math.max(0, 1 - tokens) * SPAM_REFILL_MS };
}

function spamNotes(events: Event[]): SpamNote[] {
  const groups = new Map<string, Event[]>();
  for (const ev of events) {
    // The events.k8s.io recorder has no spam filter; its events carry eventTime or series.
    if (ev.seriesStyle) continue;
    const key = spamKey(ev);
    const group = groups.get(key);
    if (group) group.push(ev);
    else groups.set(key, [ev]);
  }
  const notes: SpamNote[] = [];
  // Ties of emptiedAt go by the source and object, not by the order the events came in: a store
  // answers a query's rows in no set order (VictoriaLogs' workers), so the same events would print
  // their notes in another order from one run to the next.
  const keys = new Map<SpamNote, string>();
  for (const [key, group] of groups) {
    const occurrences = group.reduce((sum, ev) => sum + ev.count, 0);
    if (occurrences < SPAM_BURST) continue;
    const times = occurrenceTimes(group);
    const dry = simulateBucket(times);
    const head = group[0];
    if (dry === null || head === undefined) continue;
    const note: SpamNote = {
      kind: 'spam',
      reporter: head.reporter,
      instance: head.instance,
      object: head.object,
      type: head.type,
      events: group.length,
      occurrences,
      first: times[0] ?? dry.emptiedAt,
      ...dry,
    };
    notes.push(note);
    keys.set(note, key);
  }
  const keyOf = (note: SpamNote): string => keys.get(note) ?? '';
  return notes.sort((a, b) => a.emptiedAt - b.emptiedAt || (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
}

/** What client-go's recorders may have done to these events (de-duplicated, any order). */
export function recorderNotes(events: Event[]): RecorderNotes {
  const combined: CombinedNote[] = [];
  const series: SeriesNote[] = [];
  for (const ev of events) {
    if (isCombined(ev)) combined.push({ kind: 'combined', event: ev });
    if (ev.seriesStyle && ev.count >= 2 && ev.lastSeen !== null) series.push({ kind: 'series', event: ev, lastObserved: ev.lastSeen });
  }
  return { spam: spamNotes(events), combined, series };
}

/**
 * The notes about what is shown, worked out from every event read: the spam filter's bucket is
 * shared by every reason of a source, object and type, so an event another filter hides still
 * spent a token. Nothing per shown event is held at once: a Set of 200,000 events and an array of
 * their 200,000 keys (about 100 characters each) outlived the young generation and were 37 MiB of
 * a record's table's peak; each key is dropped as soon as it is looked up.
 */
export function recorderNotesFor(all: Event[], shown: Event[]): RecorderNotes {
  const notes = recorderNotes(all);
  // `shown` is chosen from `all`: as many means every one, and every note stays (no key made per event).
  if (shown.length === all.length) return notes;
  const spam = new Map<string, SpamNote>();
  for (const n of notes.spam) spam.set(spamKey({ reporter: n.reporter, instance: n.instance, object: n.object, type: n.type } as Event), n);
  const own = new Set<Event>([...notes.combined, ...notes.series].map((n) => n.event));
  const seen = new Set<SpamNote | Event>();
  for (const ev of shown) {
    if (spam.size > 0) {
      const note = spam.get(spamKey(ev));
      if (note !== undefined) seen.add(note);
    }
    if (own.has(ev)) seen.add(ev);
  }
  return {
    spam: notes.spam.filter((n) => seen.has(n)),
    combined: notes.combined.filter((n) => seen.has(n.event)),
    series: notes.series.filter((n) => seen.has(n.event)),
  };
}

/**
 * The notes about one event (timeline -o json and yaml carry them on each event): a spam note on
 * every event of its source, object and type; a combined or series note on its own event. Null: none.
 */
export function notesAbout(notes: RecorderNotes): (ev: Event) => RecorderNotes | null {
  const spam = new Map<string, SpamNote>();
  for (const n of notes.spam) spam.set(spamKey({ reporter: n.reporter, instance: n.instance, object: n.object, type: n.type } as Event), n);
  const combined = new Map(notes.combined.map((n) => [n.event, n]));
  const series = new Map(notes.series.map((n) => [n.event, n]));
  // Asked once per printed event (200,000 for -A): the key of every field the note is about cost a
  // join and the hash of a long string each time. Events about one object share one ObjectRef
  // (core/compact.ts), and an Event is a value, so the answer is kept by object, then by the rest.
  const byObject = new WeakMap<object, Map<string, SpamNote | undefined>>();
  const spamOf = (ev: Event): SpamNote | undefined => {
    let known = byObject.get(ev.object);
    if (known === undefined) byObject.set(ev.object, (known = new Map()));
    const rest = `${ev.type}\u0000${ev.reporter}\u0000${ev.instance}`;
    if (known.has(rest)) return known.get(rest);
    const note = spam.get(spamKey(ev));
    known.set(rest, note);
    return note;
  };
  return (ev) => {
    const s = ev.seriesStyle ? undefined : spamOf(ev);
    const c = combined.get(ev);
    const r = series.get(ev);
    if (s === undefined && c === undefined && r === undefined) return null;
    return { spam: s === undefined ? [] : [s], combined: c === undefined ? [] : [c], series: r === undefined ? [] : [r] };
  };
}

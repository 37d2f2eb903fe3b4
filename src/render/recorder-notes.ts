// Recorder notes in words (src/core/recorder-notes.ts finds them), and the JSON shape of them.
// Each says "may" where the events cannot tell which recorder wrote them.
import type { CombinedNote, RecorderNotes, SeriesNote, SpamNote } from '../core/recorder-notes.ts';
import { AGGREGATE_INTERVAL_MS, AGGREGATE_MAX_EVENTS, COMBINED_PREFIX, SERIES_FINISH_MS, SERIES_REFRESH_MS, SPAM_BURST, SPAM_REFILL_MS } from '../core/recorder-notes.ts';
import { humanDuration } from './duration.ts';
import { escapeTerminal } from './escape.ts';
import { formatTime, formatTimeAndAge, isoOrNull } from './time.ts';

/** How times are written: with their age (`now`), or absolute. */
interface NoteTimes {
  now: number;
  absolute: boolean;
}

/** At most this many lines of each kind unless `all`: the rest are counted in one line. */
const CAP = 5;

function when(ms: number, t: NoteTimes): string {
  return t.absolute ? formatTime(ms) : formatTimeAndAge(ms, t.now);
}

function minutes(ms: number): string {
  return humanDuration(ms);
}

function objectOf(o: { kind: string; name: string }): string {
  return escapeTerminal(`${o.kind || '<no kind>'}/${o.name || '<no name>'}`);
}

/** When the bucket holds a token again: past, or still to come (ages count back, so the future is said as "in"). */
function nextReport(at: number, t: NoteTimes): string {
  if (at <= t.now) return `the next could have come at ${when(at, t)}`;
  return `the next can come at ${t.absolute ? formatTime(at) : `${formatTime(at)} (in ${humanDuration(at - t.now)})`}`;
}

function spamLine(n: SpamNote, t: NoteTimes): string {
  const who = escapeTerminal(n.instance === '' ? n.reporter || '<no reporter>' : `${n.reporter} (${n.instance})`);
  const what = `${n.occurrences} occurrences of ${escapeTerminal(n.type || '<no type>')} events (${n.events} event${n.events === 1 ? '' : 's'}) about ${objectOf(n.object)}`;
  return (
    `${who} wrote ${what} from ${when(n.first, t)}. If it used client-go's legacy recorder, its spam filter lets one source write ` +
    `${SPAM_BURST} events about one object at once, then one every ${minutes(SPAM_REFILL_MS)} (tools/record events_cache.go): ` +
    `reports after ${when(n.emptiedAt, t)} may be missing, and ${nextReport(n.nextAt, t)}.`
  );
}

function combinedLine(n: CombinedNote, t: NoteTimes): string {
  const ev = n.event;
  const last = ev.message.slice(COMBINED_PREFIX.length);
  return (
    `${escapeTerminal(ev.reason || '<no reason>')} on ${objectOf(ev.object)} (event ${escapeTerminal(ev.name)}, count ${ev.count}, last ${ev.lastSeen === null ? 'at an unknown time' : when(ev.lastSeen, t)}) ` +
    `says "(combined from similar events)": client-go's legacy recorder, after ${AGGREGATE_MAX_EVENTS} different messages for one reason about one object, ` +
    `each within ${minutes(AGGREGATE_INTERVAL_MS)} of the last, writes every further message into this one event. Its count covers all the merged messages; ` +
    `only the latest text is kept ("${escapeTerminal(last)}"), the others are lost.`
  );
}

function seriesLine(group: SeriesNote[], t: NoteTimes): string {
  const [head] = group;
  if (head === undefined) return '';
  const ev = head.event;
  const last = Math.max(...group.map((n) => n.lastObserved));
  const subject =
    group.length === 1
      ? `${escapeTerminal(ev.reason || '<no reason>')} on ${objectOf(ev.object)} from ${escapeTerminal(ev.reporter || '<no reporter>')} (series count ${ev.count}, last observed ${when(last, t)})`
      : `${group.length} series of ${escapeTerminal(ev.reason || '<no reason>')} from ${escapeTerminal(ev.reporter || '<no reporter>')} (${countRange(group)}, last observed ${when(last, t)})`;
  return (
    `${subject}: if written by client-go's events.k8s.io recorder, the server learns a series' count only every ${minutes(SERIES_REFRESH_MS)} ` +
    `and once it has been quiet for ${minutes(SERIES_FINISH_MS)} (tools/events event_broadcaster.go), so the count may lag by up to ${minutes(SERIES_REFRESH_MS)}, ` +
    `and a writer that stopped sooner never sent the rest.`
  );
}

/** `each count 2`, or `counts 2 to 5` */
function countRange(group: SeriesNote[]): string {
  const counts = group.map((n) => n.event.count);
  const [low, high] = [Math.min(...counts), Math.max(...counts)];
  return low === high ? `each count ${low}` : `counts ${low} to ${high}`;
}

/** Series told per reporter and reason: 400 Pods' FailedScheduling are one line. */
function seriesGroups(series: SeriesNote[]): SeriesNote[][] {
  const groups = new Map<string, SeriesNote[]>();
  for (const n of series) {
    const key = `${n.event.reporter}\u0000${n.event.reason}`;
    const group = groups.get(key);
    if (group) group.push(n);
    else groups.set(key, [n]);
  }
  return [...groups.values()];
}

function capped<T>(notes: T[], line: (note: T) => string, all: boolean, noun: string): string[] {
  if (all || notes.length <= CAP) return notes.map(line);
  // Lines made only for the notes shown: 400 objects' spam notes made 400 lines to print ten.
  return [...notes.slice(0, CAP).map(line), `and ${notes.length - CAP} more ${noun} like this.`];
}

/** One line per note (`- ...`), capped per kind unless `all`; none when there is nothing to say. */
export function recorderNoteLines(notes: RecorderNotes, t: NoteTimes, all = false): string[] {
  return [
    ...capped(notes.spam, (n) => spamLine(n, t), all, 'sources'),
    ...capped(notes.combined, (n) => combinedLine(n, t), all, 'combined events'),
    ...capped(seriesGroups(notes.series), (g) => seriesLine(g, t), all, 'reporters and reasons'),
  ].map((line) => `- ${line}`);
}

/** The timeline's footer: the notes under one heading, on stderr after the table. */
export function renderRecorderFooter(notes: RecorderNotes, t: NoteTimes): string {
  const lines = recorderNoteLines(notes, t);
  return lines.length === 0 ? '' : `What the recorders may have left out:\n${lines.map((l) => `  ${l}\n`).join('')}`;
}

const objectJson = (o: { kind: string; apiVersion: string; namespace: string; name: string; uid: string }) => ({ kind: o.kind, apiVersion: o.apiVersion, namespace: o.namespace, name: o.name, uid: o.uid });

function spamNoteJson(n: SpamNote) {
  return {
    reporter: n.reporter,
    instance: n.instance,
    object: objectJson(n.object),
    type: n.type,
    events: n.events,
    occurrences: n.occurrences,
    first: isoOrNull(n.first),
    mayBeMissingAfter: isoOrNull(n.emptiedAt),
    nextCouldComeAt: isoOrNull(n.nextAt),
    burst: SPAM_BURST,
    refillSeconds: SPAM_REFILL_MS / 1000,
  };
}

type SpamJson = ReturnType<typeof spamNoteJson>;

/** -o json: every note, times in RFC 3339 with milliseconds. */
export function recorderNotesJson(notes: RecorderNotes, spamJson: (n: SpamNote) => SpamJson = spamNoteJson) {
  const ref = (ev: { namespace: string; name: string; uid: string }) => ({ namespace: ev.namespace, name: ev.name, uid: ev.uid });
  const obj = objectJson;
  return {
    spam: notes.spam.map((n) => spamJson(n)),
    combined: notes.combined.map((n) => ({ event: ref(n.event), object: obj(n.event.object), reason: n.event.reason, count: n.event.count, lastSeen: isoOrNull(n.event.lastSeen) })),
    series: notes.series.map((n) => ({
      event: ref(n.event),
      object: obj(n.event.object),
      reason: n.event.reason,
      reporter: n.event.reporter,
      count: n.event.count,
      lastObserved: isoOrNull(n.lastObserved),
      mayLagSeconds: SERIES_REFRESH_MS / 1000,
    })),
  };
}

/**
 * recorderNotesJson for one document's events, each spam note made once: -o json and yaml carry
 * a source's note on every event of it (200,000 events, a few hundred notes). The printers write a
 * shared object in full wherever it is met.
 */
export function recorderNotesJsonOnce(): (notes: RecorderNotes) => ReturnType<typeof recorderNotesJson> {
  const made = new Map<SpamNote, SpamJson>();
  const spamJson = (n: SpamNote): SpamJson => {
    let json = made.get(n);
    if (json === undefined) made.set(n, (json = spamNoteJson(n)));
    return json;
  };
  return (notes) => recorderNotesJson(notes, spamJson);
}

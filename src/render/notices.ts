// One-line notices for stderr about where the events came from: a saved file's time, and how it
// compares with the server. Only counts, times formatted here and fixed words are printed: the file's
// format only picks a noun, so nothing from a file or a server reaches the terminal unescaped.

import type { AgesFrom } from '../core/ages.ts';
import type { Event } from '../core/event.ts';
import type { Comparison } from '../core/incarnation.ts';
import { eventWindow } from '../core/incident.ts';
import type { Provenance } from '../core/source.ts';
import { escapeTerminal } from './escape.ts';
import { formatTime } from './time.ts';
import { NOT_ON_SERVER_MARK } from './timeline-table.ts';
import { plural } from './words.ts';

/**
 * The time a record covers (first .. last observation) or when a capture was taken, then the time its
 * events cover (oldest first seen .. newest last seen). '' for anything else.
 */
export function renderSavedNotice(provenance: Provenance, events: Event[]): string {
  const { start, end } = eventWindow(events);
  const span = start === null || end === null ? '' : `; its events were first seen ${formatTime(start)} .. last seen ${formatTime(end)}`;
  if (provenance.kind === 'record') {
    const { firstObserved: first, lastObserved: last } = provenance;
    const kept =
      first === null || last === null
        ? 'The record holds no observation times'
        : `The record covers ${formatTime(first)} .. ${formatTime(last)} (first .. last observation)`;
    return `${kept}${span}.\n`;
  }
  if (provenance.kind === 'capture' && provenance.capturedAt !== null) return `The capture was taken at ${formatTime(provenance.capturedAt)}${span}.\n`;
  return '';
}

/** `the record`, `the capture`, or `the file` for a list or anything else. */
export function savedNoun(kind: Provenance['kind']): string {
  return kind === 'record' ? 'the record' : kind === 'capture' ? 'the capture' : kind === 'store' ? 'the store' : 'the file';
}

/** With --compare: how many saved events the server no longer has, and how the table marks them. */
export function renderComparisonNotice(c: Comparison, kind: Provenance['kind']): string {
  const noun = savedNoun(kind);
  const gone = c.onlyInSaved.length;
  const head =
    c.savedEvents === 0
      ? `${noun.replace(/^t/, 'T')} holds no events with a uid to compare with the server`
      : gone === 0
        ? `${c.savedEvents === 1 ? 'The one event' : `All ${c.savedEvents} events`} in ${noun} ${c.savedEvents === 1 ? 'is' : 'are'} still on the server`
        : `${gone} of ${plural(c.savedEvents, 'event')} in ${noun} ${gone === 1 ? 'is' : 'are'} no longer on the server (expired after --event-ttl or deleted), marked${NOT_ON_SERVER_MARK}`;
  const extra = c.onlyOnServer === 0 ? '' : `; ${plural(c.onlyOnServer, 'event on the server is', 'events on the server are')} not in ${noun}`;
  return `${head}${extra}.\n`;
}

/** kubectl's wording, on stderr so stdout stays clean for pipes. */
export function noEventsMessage(namespace: string | null): string {
  return namespace === null ? 'No events found.\n' : `No events found in ${escapeTerminal(namespace)} namespace.\n`;
}

/** Says on stderr where a saved file's ages count from (nothing for a live read, or --absolute-times). */
export function renderAgesNotice(from: AgesFrom): string {
  const when = formatTime(from.at);
  if (from.basis === 'capture') return `Ages are counted from ${when}, when the capture was taken.\n`;
  if (from.basis === 'record') return `Ages are counted from ${when}, the record's last observation.\n`;
  if (from.basis === 'collector') return `Ages are counted from ${when}, the last observed time in the collector's file.\n`;
  if (from.basis === 'newest-event') return `Ages are counted from ${when}, the newest event in the file (it does not say when it was taken).\n`;
  return '';
}

// The stories of the incident account: one object's reports, or siblings with the same story told
// once (src/core/families.ts). Shared by the account told object by object (incident-text.ts) and
// owner first (incident-tree-text.ts). Every string from an event is escaped before colour is added.

import type { RecorderNotes } from '../core/recorder-notes.ts';
import type { Incident } from '../core/incident.ts';
import type { ObjectStory, Report } from '../core/story.ts';
import { SEVERITY_ORDER, severityOf } from '../core/grouping.ts';
import { foldByReason } from '../core/families.ts';
import type { FamilyLine, ObjectFamily } from '../core/families.ts';
import { humanDuration } from './duration.ts';
import { paintType } from './color.ts';
import type { Palette } from './color.ts';
import { escapeTerminal } from './escape.ts';
import { formatTime } from './time.ts';
import { escapeOrNone, plural } from './words.ts';

/** At most this many lines tell a family (or one object's long story); --detail tells every report. */
const FAMILY_LINES = 6;
/** One object's folded line quotes each of its messages when they are this few. */
const OWN_MESSAGES = 3;

/**
 * --absolute-times: RFC 3339 times where the account would say how long ago; --detail: no caps;
 * what the recorders may have left out, and the lines saying what the selection hid.
 */
export type IncidentView = Incident & { absoluteTimes?: boolean; detail?: boolean; recorderNotes?: RecorderNotes; hiddenLine?: string };

export function paintEventType(type: string, palette: Palette): string {
  return paintType(type, escapeOrNone(type), palette);
}

export function ageOf(ms: number, incident: IncidentView): string {
  if (incident.absoluteTimes) return `at ${formatTime(ms)}`;
  const age = humanDuration(incident.at - ms);
  // A time ahead of the account's moment: `<invalid> ago` is no sentence.
  return age === '<invalid>' ? `at ${formatTime(ms)}, in the future` : `${age} ago`;
}

/**
 * The time the repeats took, first seen to last seen: ` in 117s`. Never "over": in kubectl's
 * `(x5 over 2m)` that word introduces the age of the first occurrence, and readers know it so.
 * '' when unknown, or when last seen is before first seen (the ages then show it).
 */
export function inSpan(spanMs: number | null): string {
  if (spanMs === null) return '';
  const span = humanDuration(spanMs);
  if (span === '<invalid>') return '';
  return span === '0s' ? ' within a second' : ` in ${span}`;
}

/** `Pod/web-0`; several contexts read together: `west: Pod/web-0`. */
function objectLabel(o: ObjectStory): string {
  const context = o.context === undefined ? '' : `${escapeTerminal(o.context)}: `;
  return `${context}${escapeOrNone(o.kind)}/${escapeOrNone(o.name)}`;
}

/** A family whose members are in several clusters says which: ` in 3 clusters (east, west, south)`. */
function familyClusters(f: ObjectFamily): string {
  const contexts = [...new Set(f.members.flatMap((m) => (m.context === undefined ? [] : [m.context])))];
  return contexts.length < 2 ? '' : ` in ${contexts.length} clusters (${contexts.map(escapeTerminal).join(', ')})`;
}

/** One object's own story, report by report, as it happened. */
export function objectBlock(o: ObjectStory, incident: Incident, palette: Palette): string {
  return [objectHeader(o, incident, palette), ...o.reports.map((r) => reportLines(r, incident, palette))].join('\n');
}

function objectHeader(o: ObjectStory, incident: Incident, palette: Palette): string {
  // The tree's mark first; a live lookup saying the same ("no longer exists") would say it twice.
  const gone = isGone(o) ? 'gone' : '';
  const note = gone === '' ? incarnationNote(o, incident) : '';
  const uid = o.uid !== null ? `uid ${escapeOrNone(o.uid)}${note}` : incident.carries.uids ? 'no uid' : '';
  const parts = [gone, uid].filter((part) => part !== '').join('; ');
  return `${palette.bold(objectLabel(o))}${parts === '' ? '' : palette.dim(` (${parts})`)}`;
}

/**
 * A family told once: siblings with the same story as one line per reason and message, with counts
 * and an example; an object alone report by report, except that its reports with the same reason fold
 * into one line too, each message quoted. They are often separate Event objects only because the recorder's key changed: the
 * events.k8s.io recorder keys on the whole `regarding` reference, resourceVersion included
 * (client-go tools/events/event_broadcaster.go getKey), so the scheduler writes a new FailedScheduling
 * each time the Pod changes, not a series.
 */
export function familyBlock(f: ObjectFamily, incident: Incident, palette: Palette): string {
  const first = f.members[0] as ObjectStory;
  const gone = f.members.filter(isGone).length;
  const header =
    f.members.length === 1
      ? objectHeader(first, incident, palette)
      : `${palette.bold(objectLabel(first))} and ${f.members.length - 1} more ${escapeOrNone(f.kind)}/${escapeOrNone(f.nameTemplate)} with the same story${familyClusters(f)}${gone === 0 ? '' : `, ${gone} of them gone`}`;
  const { told, shown } = familyLines(f);
  const lines = told
    .filter((l) => shown.has(l))
    .map((l) => (f.members.length === 1 && l.events === 1 ? reportLines(l.example, incident, palette) : familyLine(l, f, incident, palette)));
  if (told.length > shown.size) lines.push(`  and ${plural(told.length - shown.size, 'more reason')} like this.`);
  return [header, ...lines].join('\n');
}

/** The lines a family's block tells, and the few of them it shows (the most telling). */
function familyLines(f: ObjectFamily): { told: FamilyLine[]; shown: Set<FamilyLine> } {
  // One object's story: its reports with the same reason fold into one line (see foldByReason).
  const told = f.members.length === 1 ? foldByReason(f.lines) : f.lines;
  const shown = new Set(
    [...told]
      .sort((a, b) => SEVERITY_ORDER.indexOf(severityOf(a.type)) - SEVERITY_ORDER.indexOf(severityOf(b.type)) || (b.lastSeen ?? -Infinity) - (a.lastSeen ?? -Infinity))
      .slice(0, FAMILY_LINES),
  );
  return { told, shown };
}

/**
 * How many lines familyBlock(f) makes, counted without making them: the account weighs every family
 * against its budget and prints a few (361 blocks of quoted messages made to be counted, at 20,000
 * distinct messages). Every text in a block is escaped, so only the block's own line breaks count.
 */
export function familyBlockHeight(f: ObjectFamily, incident: Incident): number {
  const { told, shown } = familyLines(f);
  let height = told.length > shown.size ? 2 : 1;
  for (const l of shown) height += lineHeight(l, f, incident);
  return height;
}

/** The lines one of a family's lines takes: reportLines' or familyLine's. */
function lineHeight(l: FamilyLine, f: ObjectFamily, incident: Incident): number {
  if (!incident.carries.messages) return 1;
  const own = f.members.length === 1;
  if (own && l.events === 1) return 2;
  return own && l.messages.length > 0 && l.messages.length <= OWN_MESSAGES ? 1 + l.messages.length : 2;
}

/** The tree marks the object gone: named by its owner's events or seen owned, no longer there. */
function isGone(o: ObjectStory): boolean {
  return o.chain?.[o.chain.length - 1]?.gone === true;
}

function familyLine(l: FamilyLine, f: ObjectFamily, incident: Incident, palette: Palette): string {
  const what = `${escapeOrNone(l.reason)} (${typeNote(l, palette)})`;
  const on = f.members.length > 1 ? ` on ${plural(f.members.length, 'object')}` : '';
  if (!incident.carries.messages) return `  ${what}, ${plural(l.events, 'event')}${on}`;
  const when = l.firstSeen === null ? 'At an unknown time' : `First ${ageOf(l.firstSeen, incident)}`;
  const who = l.reporters.length === 0 ? 'a reporter the input does not name' : l.reporters.map((r) => (r === '' ? 'an unnamed reporter' : escapeOrNone(r))).join(' and ');
  const times = l.occurrences === null ? '' : `, ${plural(l.occurrences, 'time')}`;
  const span = l.firstSeen === null || l.lastSeen === null ? null : l.lastSeen - l.firstSeen;
  const last = l.lastSeen === null ? '' : `, last ${ageOf(l.lastSeen, incident)}`;
  const head = `  ${when}, ${who} reported ${what}, ${plural(l.events, 'event')}${on}${times}${inSpan(span)}${last}`;
  // One object saying the same thing in a few words each time (scaled up one ReplicaSet, then
  // another): every message, in time order. Siblings, or many messages: the most recent, as an example.
  if (f.members.length === 1 && l.messages.length > 0 && l.messages.length <= OWN_MESSAGES) {
    return [`${head}:`, ...l.messages.map((m) => `    ${m === '' ? '(no message)' : quoteMessage(m)}`)].join('\n');
  }
  const m = l.example.message;
  const which = f.members.length === 1 ? `; the most recent of ${l.messages.length} messages:` : '; for example:';
  return `${head}${which}\n    ${m === null || m === '' ? '(no message)' : quoteMessage(m)}`;
}

/** Which incarnation a story is about, where that is worth saying: its name was re-used, or it is gone. */
function incarnationNote(o: ObjectStory, incident: Incident): string {
  if (o.incarnation === 'previous') return ', a previous incarnation';
  if (o.incarnation === 'gone') return ', no longer exists';
  const recreated = (incident.recreatedObjects ?? []).some((r) => r.currentUid === o.uid && r.kind === o.kind && r.name === o.name);
  return o.incarnation === 'current' && recreated ? ', the current incarnation' : '';
}

function typeNote(r: { type: string; conventionalType: boolean }, palette: Palette): string {
  return r.conventionalType ? paintEventType(r.type, palette) : `type ${paintEventType(r.type, palette)}, unconventional`;
}

function reportLines(r: Report, incident: Incident, palette: Palette): string {
  const what = `${escapeOrNone(r.reason)} (${typeNote(r, palette)})`;
  // A stable table says nothing but type, reason and object; a collector's file from the k8s_events
  // receiver lacks only the reporter.
  if (!incident.carries.messages) return `  ${what}`;
  const repeated = r.count !== null && r.count > 1;
  // A repeat's leading time is its first: said so, as the line goes on to its last.
  const when = r.firstSeen === null ? 'At an unknown time' : `${repeated ? 'First ' : ''}${ageOf(r.firstSeen, incident)}`;
  const who = r.reporter === null ? 'a reporter the input does not name' : r.reporter === '' ? 'an unnamed reporter' : escapeOrNone(r.reporter);
  const gone = r.onServer === false ? ', no longer on the server' : '';
  const line = `  ${capitalise(when)}, ${who} reported ${what}, ${howOften(r, incident)}${gone}:`;
  const message = r.message === null || r.message === '' ? '(no message)' : quoteMessage(r.message);
  return `${line}\n    ${message}`;
}

/**
 * The account quotes a message whole, unlike the table (a 10 kB stack trace is what a reader needs),
 * but a core/v1 message has no limit at all: an account that quotes 1 MB is no account.
 */
const MAX_QUOTED_CHARACTERS = 16 * 1024;

/** The message in quotes, cut (by code points, before escaping) past MAX_QUOTED_CHARACTERS, saying so. */
function quoteMessage(message: string): string {
  const chars = Array.from(message);
  if (chars.length <= MAX_QUOTED_CHARACTERS) return `"${escapeTerminal(message)}"`;
  const kept = escapeTerminal(chars.slice(0, MAX_QUOTED_CHARACTERS).join(''));
  return `"${kept}..." (the first ${MAX_QUOTED_CHARACTERS} of ${chars.length} characters; -o json holds them all)`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function howOften(r: Report, incident: Incident): string {
  if (r.count === null || r.count <= 1) return 'once';
  const last = r.lastSeen === null ? '' : `, last ${ageOf(r.lastSeen, incident)}`;
  return `${r.count} times${inSpan(r.spanMs)}${last}`;
}

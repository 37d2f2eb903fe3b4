// A record: the JSON Lines file the record verb appends to, and how every read verb reads it back.
//
// One line per observation, in the order observed:
//   {"observedAt":"2026-11-30T12:00:00.000Z","type":"ADDED","event":{...as the server sent it...}}
// type is the watch event type: ADDED, MODIFIED or DELETED (a re-list writes a new version of an
// event the record holds as MODIFIED, as a watch would have). Each recorder session begins with a
// header line, {"kind":"EvtimelineRecord","version":1,"context",...}, written once the server has
// answered, so a quiet namespace leaves a record with no events rather than an empty file. Readers
// skip headers for events and use them for where the record came from; a restarted recorder
// compares the last one with its own scope.
//
// Several contexts recorded together (record --context a,b): the header also names each context with
// its server and namespace, "clusters":[{"context","server","namespace"},...], and each observation
// its context right after observedAt, {"observedAt":...,"context":"east","type":...,"event":...}; a
// reader labels each event with it (one uid in two contexts is two events).
//
// The first time a recorder sees an event's object, it looks the object up with its owners, up to
// the top, and writes one line per object (src/io/objects-file.ts has the item's shape):
//   {"observedAt":"...","kind":"EvtimelineObject","object":{"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{...}}}
// An object that could not be read is written once all the same, its item saying "unknown" and why.
// The line begins as an observation does, so a reader that predates object lines skips it as a
// torn fragment instead of refusing the record; readers that know them take the ownership from them.
//
// Status lines (src/io/facts-file.ts) hold what the objects' status and spec said, written the first
// time the recorder reads an object and each time one of its facts changes; they too begin with
// observedAt, so an older reader skips them as it skips object lines.
//
// After the events of each list, a recorder writes the list's resourceVersion, the version it had
// seen everything up to (with the context first when several are recorded), so the next session
// resumes from it and not from the newest event's (core/record.ts Seen says why):
//   {"observedAt":"...","kind":"EvtimelineSeen","resourceVersion":"1234"}
// It too begins with observedAt, so an older reader skips it as it skips object lines. A record
// without these lines (an older recorder) resumes from its newest event's resourceVersion.
//
// Replay keeps the latest version of each event by uid, including events the server has since
// expired or deleted: outliving the TTL is the point of a record. A DELETED line never removes
// anything; it says the server no longer has the event. A DELETED line with "inferred": true was
// not sent by the server: a re-list no longer held an event the record knew, so the recorder wrote
// the last version it had seen.
import { isObject } from '../core/json.ts';
import type { Json } from '../core/json.ts';
import { RECORD_KIND } from '../core/record.ts';
import type { Observation, RecordHeader, Seen } from '../core/record.ts';
import type { EventFilter } from '../core/filter.ts';
import type { SavedObject } from '../core/object-meta.ts';
import { formatSavedObject, parseSavedObject } from './objects-file.ts';
import { STATUS_KIND, parseStatusLine } from './facts-file.ts';
import type { SavedStatus } from '../core/facts.ts';
import type { FleetMember } from '../core/source.ts';

/** An object line; `object` null when its item cannot be read (skipped, as a line of a later format would be); likewise `seen`. */
export type RecordLine = { header: RecordHeader } | { observation: Observation } | { object: SavedObject | null } | { status: SavedStatus | null } | { seen: Seen | null };

const OBJECT_LINE_KIND = 'EvtimelineObject';
const SEEN_LINE_KIND = 'EvtimelineSeen';

// -- Writing ------------------------------------------------------------------------------------

/** One observation as one line; the key order is fixed so a torn line can still be recognised. */
export function formatObservation(observation: Observation): string {
  const { type, event, inferred, context, text } = observation;
  const observedAt = isoOrEmpty(observation.observedAt);
  // Several contexts: the context right after observedAt (a torn line still begins as ours).
  const where = context === undefined ? {} : { context };
  if (text === undefined) return `${JSON.stringify(inferred ? { observedAt, ...where, type, event, inferred } : { observedAt, ...where, type, event })}\n`;
  // The event's text as the index made it: the bytes JSON.stringify gives it inside the line.
  const head = JSON.stringify({ observedAt, ...where, type });
  return `${head.slice(0, -1)},"event":${text}${inferred ? ',"inferred":true' : ''}}\n`;
}

/** One object as one line, observedAt first (see the top of this file). */
export function formatObjectLine(observedAt: number, object: SavedObject): string {
  return `${JSON.stringify({ observedAt: isoOrEmpty(observedAt), kind: OBJECT_LINE_KIND, object: formatSavedObject(object) })}\n`;
}

/** The version a session had seen everything up to, as one line, observedAt first (see the top of this file). */
export function formatSeenLine(observedAt: number, seen: Seen): string {
  const where = seen.context === undefined ? {} : { context: seen.context };
  return `${JSON.stringify({ observedAt: isoOrEmpty(observedAt), ...where, kind: SEEN_LINE_KIND, resourceVersion: seen.resourceVersion })}\n`;
}

export function formatHeader(header: RecordHeader): string {
  const { kind, version, context, server, namespace, clusters, filter, startedAt } = header;
  return `${JSON.stringify({ kind, version, context, server, namespace, ...(clusters === undefined ? {} : { clusters }), filter, startedAt: isoOrEmpty(startedAt) })}\n`;
}

/** A header's clusters as written; undefined when it names none (one context), or names them in a shape no recorder writes. */
export function clustersOf(value: unknown): FleetMember[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const members: FleetMember[] = [];
  for (const item of value) {
    if (!isObject(item) || typeof item.context !== 'string' || typeof item.server !== 'string') return undefined;
    members.push({ context: item.context, server: item.server, namespace: typeof item.namespace === 'string' ? item.namespace : null });
  }
  return members;
}

/** A record's times are ISO 8601 with milliseconds, as the recorder writes them. */
function isoOrEmpty(ms: number | null): string {
  return ms === null ? '' : new Date(ms).toISOString();
}

/** A time as a record line holds it; null for '' or text that does not parse. */
function timeOf(value: unknown): number | null {
  const ms = Date.parse(String(value ?? ''));
  return Number.isNaN(ms) ? null : ms;
}

/** The filters as the header records them; undefined ones are left out so equal filters compare equal. */
export function describeFilter(filter: EventFilter): Json {
  const described: Json = {};
  if (filter.object) described.for = `${filter.object.kind}/${filter.object.name}`;
  if (filter.types && filter.types.length > 0) described.types = filter.types;
  if (filter.reasons && filter.reasons.length > 0) described.reasons = filter.reasons;
  if (filter.sinceMs !== undefined) described.sinceMs = filter.sinceMs;
  // The selection criteria too: a session that hid events must not be taken for one that kept them
  // (continuing it from its resourceVersion would never record what it hid).
  if (filter.excludeTypes && filter.excludeTypes.length > 0) described.excludeTypes = filter.excludeTypes;
  if (filter.excludeReasons && filter.excludeReasons.length > 0) described.excludeReasons = filter.excludeReasons;
  if (filter.message) described.message = filter.message.source;
  if (filter.excludeMessage) described.excludeMessage = filter.excludeMessage.source;
  if (filter.fields && filter.fields.length > 0) described.fields = filter.fields.map((f) => `${f.field}${f.op}${f.value}`);
  if (filter.sinceTime !== undefined) described.sinceTime = filter.sinceTime;
  if (filter.until !== undefined) described.until = filter.until;
  if (filter.hideStartupProbes === true) described.excludeStartupProbes = true;
  return described;
}


// -- Reading ------------------------------------------------------------------------------------

/** One complete line as a header or an observation; null when it is neither. */
export function parseRecordLine(line: string): RecordLine | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (!isObject(value)) return null;
  if (value.kind === RECORD_KIND) {
    const clusters = clustersOf(value.clusters);
    return {
      header: {
        kind: RECORD_KIND,
        version: 1,
        context: String(value.context ?? ''),
        server: String(value.server ?? ''),
        namespace: typeof value.namespace === 'string' ? value.namespace : null,
        ...(clusters === undefined ? {} : { clusters }),
        filter: isObject(value.filter) ? value.filter : {},
        startedAt: timeOf(value.startedAt),
      },
    };
  }
  if (value.kind === OBJECT_LINE_KIND) return { object: parseSavedObject(value.object) };
  if (value.kind === STATUS_KIND) return { status: parseStatusLine(value, timeOf(value.observedAt)) };
  if (value.kind === SEEN_LINE_KIND) return { seen: seenOf(value) };
  if (!isObject(value.event) || typeof value.type !== 'string') return null;
  const observation: Observation = { observedAt: timeOf(value.observedAt), type: value.type, event: value.event };
  if (value.inferred === true) observation.inferred = true;
  if (typeof value.context === 'string') observation.context = value.context;
  return { observation };
}

function seenOf(value: Record<string, unknown>): Seen | null {
  if (typeof value.resourceVersion !== 'string' || value.resourceVersion === '') return null;
  return typeof value.context === 'string' ? { context: value.context, resourceVersion: value.resourceVersion } : { resourceVersion: value.resourceVersion };
}

// What every line this module writes begins with: a torn first line can be recognised as ours.
const LINE_STARTS = [`{"kind":"${RECORD_KIND}"`, '{"observedAt":'];

/** Whether text could be the start of a line the recorder writes (a torn line, or a file's first bytes). */
export function couldBeOurs(fragment: string): boolean {
  return LINE_STARTS.some((start) => start.startsWith(fragment) || fragment.startsWith(start));
}

/**
 * One line as every record reader takes it: its header or observation (`torn` when a fragment of a
 * stopped writer came before it on the line; `line` null when the fragment was all there was);
 * 'tail' for the text after the last newline that is not a whole line; null when not a record line.
 */
function readRecordLine(text: string, complete: boolean): { line: RecordLine | null; torn: boolean } | 'tail' | null {
  const line = parseRecordLine(text);
  if (line !== null) return { line, torn: false };
  if (!complete) return 'tail';
  const rest = salvageTornLine(text);
  return rest === undefined ? null : { line: rest, torn: true };
}

/**
 * A record read line by line, with the rules both readers (the whole text here, the stream in
 * record-stream.ts) share: every line but the last must be a header, an observation or an object line, blank lines
 * are allowed, a torn fragment before a whole line is skipped and counted, and the text after the
 * last newline may be torn. One per read.
 */
export class RecordLineReader {
  /** torn fragments skipped before the last line (see RecordText.tornLines) */
  tornLines = 0;
  /** the text after the last newline when it is not a whole line (see RecordText.tornTail) */
  tornTail = '';
  private ours = 0;

  /**
   * One line (`complete`: a newline ended it): its header, observation or object; 'skip' for a blank line
   * or a fragment alone; 'end' for a torn last line (nothing follows); null when it is not a
   * record line, so the text is not a record.
   */
  take(text: string, complete: boolean): RecordLine | 'skip' | 'end' | null {
    if (text.trim() === '') return 'skip';
    const read = readRecordLine(text, complete);
    if (read === null) return null;
    if (read === 'tail') {
      this.tornTail = text;
      return 'end';
    }
    if (read.torn) this.tornLines += 1;
    if (read.line === null) return 'skip';
    this.ours += 1;
    return read.line;
  }

  /** Whether the lines taken were a record: at least one line of ours, or a torn last line that could be. */
  get isRecord(): boolean {
    return this.ours > 0 || (this.tornTail !== '' && couldBeOurs(this.tornTail));
  }
}

/**
 * A line that is not a record line but begins as ours: the whole line that follows a torn
 * fragment on it, null when there is none (the fragment alone). Undefined when the line is not ours.
 */
function salvageTornLine(line: string): RecordLine | null | undefined {
  if (!couldBeOurs(line.slice(0, 40))) return undefined;
  let best: RecordLine | null = null;
  for (const start of LINE_STARTS) {
    const at = line.lastIndexOf(start);
    if (at > 0) best ??= parseRecordLine(line.slice(at));
  }
  return best;
}

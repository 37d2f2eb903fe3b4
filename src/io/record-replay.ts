// A record replayed: its lines split (src/io/record-line.ts reads each), the latest version of
// each event by uid, DELETED ones included (outliving the TTL is the point of a record), every
// version observed (for export), and the record as a saved input of --from.
import { distinctServers } from '../core/server.ts';
import type { Json } from '../core/json.ts';
import { normaliseEvent } from '../core/event.ts';
import type { Event } from '../core/event.ts';
import { compareVersions, rawIdentity } from '../core/versions.ts';
import type { Observation, RecordHeader, Seen } from '../core/record.ts';
import type { SavedObject } from '../core/object-meta.ts';
import { EVENT_OBJECTS_TELL } from '../core/source.ts';
import type { EventVersion, FleetMember } from '../core/source.ts';
import type { SavedEvents } from './saved-events.ts';
import { RecordLineReader } from './record-line.ts';
import type { SavedStatus } from '../core/facts.ts';

export interface RecordText {
  headers: RecordHeader[];
  observations: Observation[];
  /** the object lines' objects, in the order written; undefined: the record has no object lines (a recorder that predates them) */
  objects?: SavedObject[];
  /** the status lines, in the order written; undefined: the record has none (a recorder that predates them) */
  status?: SavedStatus[];
  /** the versions each session had seen everything up to (its lists'); undefined: none (a recorder that predates them) */
  seen?: Seen[];
  /**
   * The text after the last newline, when it is not a complete line: a recorder killed in the
   * middle of a write. Readers ignore it; a recorder cuts it off before appending.
   */
  tornTail: string;
  /**
   * Torn lines before the last one: a fragment of ours followed by a whole line on the same line
   * (a writer stopped mid-line, then another appended without cutting it), or a fragment alone.
   * The whole line after a fragment is kept; the fragments are skipped and counted here.
   */
  tornLines: number;
}

/**
 * Splits a record into its lines. Every line but the last must be a header or an observation
 * (blank lines are allowed); the last may be torn. Null when the text is not a record: no line of
 * ours at all, or a line in the middle that is not one.
 */
export function parseRecordText(text: string): RecordText | null {
  const headers: RecordHeader[] = [];
  const observations: Observation[] = [];
  let objects: SavedObject[] | undefined;
  let status: SavedStatus[] | undefined;
  let seen: Seen[] | undefined;
  const reader = new RecordLineReader();
  const lines = text.split('\n');
  const last = lines.length - 1;
  for (const [index, line] of lines.entries()) {
    const read = reader.take(line, index !== last);
    if (read === null) return null;
    if (read === 'end') break;
    if (read === 'skip') continue;
    if ('header' in read) headers.push(read.header);
    else if ('observation' in read) observations.push(read.observation);
    else if ('status' in read) (status ??= []).push(...(read.status === null ? [] : [read.status]));
    else if ('seen' in read) (seen ??= []).push(...(read.seen === null ? [] : [read.seen]));
    else (objects ??= []).push(...(read.object === null ? [] : [read.object]));
  }
  if (!reader.isRecord) return null;
  return { headers, observations, tornTail: reader.tornTail, tornLines: reader.tornLines, ...(objects === undefined ? {} : { objects }), ...(status === undefined ? {} : { status }), ...(seen === undefined ? {} : { seen }) };
}

/**
 * The latest observed version of every event in the record, DELETED ones included, in the order
 * each event first appeared. Of two versions the newer wins (core/versions.ts), else the later line.
 */
export function latestVersions(observations: Observation[]): Json[] {
  const latest = new Map<string, { raw: Json; event: Event }>();
  for (const { event: raw } of observations) {
    const event = normaliseEvent(raw);
    const key = rawIdentity(raw);
    const kept = latest.get(key);
    if (kept === undefined || compareVersions(event, kept.event) >= 0) latest.set(key, { raw, event });
  }
  return [...latest.values()].map((v) => v.raw);
}

/** Every version a record observed, for export: a DELETED line repeats a version already written, nothing new happened. */
export function observedVersions(observations: Observation[]): EventVersion[] {
  return observations.filter((o) => o.type !== 'DELETED').map(({ event, observedAt }) => ({ event, observedAt }));
}

/** The namespace every session recorded, when they agree; otherwise null (several or all). */
export function recordedNamespace(headers: RecordHeader[]): string | null {
  const namespaces = new Set(headers.map((h) => h.namespace));
  const [only] = namespaces;
  return namespaces.size === 1 && only !== undefined ? only : null;
}

/**
 * The contexts a record of several names, each once, its latest header's server and namespace
 * winning (the order of their first appearance); undefined for a record of one context.
 */
export function recordedClusters(headers: RecordHeader[]): FleetMember[] | undefined {
  const members = new Map<string, FleetMember>();
  for (const header of headers) for (const member of header.clusters ?? []) members.set(member.context, member);
  return members.size === 0 ? undefined : [...members.values()];
}

/** A record's text as a saved input: the latest version of each event, and where and when it was observed. Null when not a record. */
export function parseRecordSaved(text: string): SavedEvents | null {
  const record = parseRecordText(text);
  if (record === null) return null;
  const { headers, observations } = record;
  const first = headers[0];
  const servers = distinctServers(headers.map((h) => h.server));
  return {
    provenance: {
      kind: 'record',
      ...(servers.length > 1 ? { servers } : {}),
      ...(record.tornLines > 0 ? { tornLines: record.tornLines } : {}),
      context: first?.context ?? '',
      server: first?.server ?? '',
      namespace: recordedNamespace(headers),
      // A record of headers alone (a quiet namespace) covers no observed time.
      firstObserved: observations[0]?.observedAt ?? null,
      lastObserved: observations.at(-1)?.observedAt ?? null,
      tells: EVENT_OBJECTS_TELL,
    },
    raw: { core: latestVersions(observations), eventsK8sIo: null },
    versions: observedVersions(observations),
    ...(record.objects === undefined ? {} : { objects: record.objects }),
    status: record.status,
  };
}

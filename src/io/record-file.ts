// Reading a record (JSON Lines written by the record verb) back as events.
// Each line is one observation: {"observedAt", "type": ADDED|MODIFIED|DELETED, "event": <as the server sent it>}.
// Replay keeps the latest version of each event by uid, including events the server has since
// expired or deleted: outliving the TTL is the point of a record.
import type { ParsedEvents } from './event-file.ts';

export interface Observation {
  observedAt: string;
  type: string;
  event: Record<string, unknown>;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Parses complete lines; a torn last line (a recorder killed mid-write) is ignored. Null when not a record. */
export function parseObservations(text: string): Observation[] | null {
  const observations: Observation[] = [];
  const lines = text.split('\n');
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      if (index === lines.length - 1) break;
      return null;
    }
    if (!isObject(value)) return null;
    if (value.kind === 'EvtimelineRecord') continue; // a header line
    if (!isObject(value.event) || typeof value.type !== 'string') return null;
    observations.push({ observedAt: String(value.observedAt ?? ''), type: value.type, event: value.event });
  }
  return observations.length > 0 ? observations : null;
}

function uidOf(event: Json): string {
  const meta = isObject(event.metadata) ? event.metadata : {};
  return String(meta.uid ?? `${String(meta.namespace ?? '')}/${String(meta.name ?? '')}`);
}

/** The latest observed version of every event in the record, DELETED ones included. */
export function latestVersions(observations: Observation[]): Json[] {
  const latest = new Map<string, Json>();
  for (const observation of observations) latest.set(uidOf(observation.event), observation.event);
  return [...latest.values()];
}

export function parseRecordLines(text: string): ParsedEvents | null {
  const observations = parseObservations(text);
  if (observations === null) return null;
  return {
    format: 'record',
    core: latestVersions(observations),
    eventsK8sIo: [],
    context: '',
    server: '',
    namespace: null,
    capturedAt: observations.at(-1)?.observedAt ?? '',
  };
}

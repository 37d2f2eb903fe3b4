// -o json for event lists: the normalised events as plain data, for scripts and golden files.
// Values are exact (never terminal-escaped): JSON.stringify escapes control characters itself,
// and a script must see what the API server holds.

import type { Event } from '../core/event.ts';
import type { EventStanding, Incarnation } from '../core/incarnation.ts';

export interface JsonEvent {
  uid: string;
  name: string;
  namespace: string;
  resourceVersion: string;
  type: string;
  reason: string;
  message: string;
  action: string;
  object: {
    apiVersion: string;
    kind: string;
    name: string;
    namespace: string;
    uid: string;
    fieldPath: string;
  };
  reporter: string;
  instance: string;
  count: number;
  firstSeen: string | null;
  lastSeen: string | null;
  seriesStyle: boolean;
  /** only when the live object was looked up (a live read, or --compare) */
  incarnation?: Incarnation;
  /** only with --compare: false when the server no longer has the event */
  onServer?: boolean;
}

function isoOrNull(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

/**
 * A fresh object with keys in a fixed order (whatever order the Event was built in) and ISO times;
 * what the live cluster said about the event, when it was asked, comes last.
 */
export function toJsonEvent(ev: Event, standing: EventStanding = {}): JsonEvent {
  const json: JsonEvent = {
    uid: ev.uid,
    name: ev.name,
    namespace: ev.namespace,
    resourceVersion: ev.resourceVersion,
    type: ev.type,
    reason: ev.reason,
    message: ev.message,
    action: ev.action,
    object: {
      apiVersion: ev.object.apiVersion,
      kind: ev.object.kind,
      name: ev.object.name,
      namespace: ev.object.namespace,
      uid: ev.object.uid,
      fieldPath: ev.object.fieldPath,
    },
    reporter: ev.reporter,
    instance: ev.instance,
    count: ev.count,
    firstSeen: isoOrNull(ev.firstSeen),
    lastSeen: isoOrNull(ev.lastSeen),
    seriesStyle: ev.seriesStyle,
  };
  if (standing.incarnation !== undefined) json.incarnation = standing.incarnation;
  if (standing.onServer !== undefined) json.onServer = standing.onServer;
  return json;
}

/** A JSON array (`[]` when empty), two-space indented, ending in a newline. */
export function renderEventsJson(events: Event[], standing?: (ev: Event) => EventStanding): string {
  return `${JSON.stringify(events.map((ev) => toJsonEvent(ev, standing?.(ev))), null, 2)}\n`;
}

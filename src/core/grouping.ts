// Grouping before listing: events that tell the same story about siblings are one group, so a
// namespace of 400 failing Pods reads as a few lines. Pure data; epoch ms; no English.
//
// A group's key is (type, reason, kind, object name template, message template, owner). Without a
// tree the owner is null: siblings are recognised by their generated names alone
// (`web-5d4f7c9b8-x2k4q` -> `web-<hash>-<id>`). With `--tree` the incident passes ownerOf (the owner
// in the tree's chain, src/core/tree-story.ts) and siblings of different owners that share a name
// template stay apart.

import type { Event, ObjectRef } from './event.ts';
import { keyedByRef } from './identity.ts';
import { templatesOnce } from './message-template.ts';
import type { Templates } from './message-template.ts';
import { compareBytes, formatObjectRef } from './timeline.ts';
import { isConventionalType } from './types.ts';

interface StoryKey {
  type: string;
  reason: string;
  kind: string;
  /** the object name with its generated suffix masked (src/core/message-template.ts) */
  nameTemplate: string;
  /** the message with what differs between siblings masked; null when the input carries no messages */
  messageTemplate: string | null;
  /** `Kind/name` of the owner all members share; null while owners are unknown */
  owner: string | null;
}

export interface GroupMember {
  kind: string;
  name: string;
  namespace: string;
  /** several contexts read together: the context the object is in (the same name in two clusters is two objects) */
  context?: string;
}

export interface EventGroup extends StoryKey {
  /** Warning first, then unconventional types, then Normal */
  severity: 'warning' | 'unconventional' | 'normal';
  /** Event objects in the group */
  events: number;
  /** of those, how many have a count above 1; null when the input carries no counts */
  repeated: number | null;
  /** the sum of their counts; null when the input carries no counts */
  occurrences: number | null;
  /** distinct objects, most recent first */
  objects: GroupMember[];
  /** distinct reporters, byte order */
  reporters: string[];
  /** epoch ms: oldest first seen, newest last seen */
  firstSeen: number | null;
  lastSeen: number | null;
  /** several contexts read together: the contexts whose events are in the group, byte order */
  clusters?: string[];
  /** the most recent member event, quoted for the group */
  example: { event: string; object: string; message: string | null; reporter: string; count: number; firstSeen: number | null; lastSeen: number | null };
}

interface GroupingInput {
  counts: boolean;
  messages: boolean;
  /** the owner (`Kind/name`) an event's object is known to have; absent: none known */
  ownerOf?: (ev: Event) => string | null;
  /** the account's templates, shared with its families (src/core/families.ts); made here when absent */
  templates?: Templates;
  /** each event's message template by position, when the account has made them already */
  messageTemplates?: readonly string[];
}

/** One string per key, for maps: NUL cannot appear in a Kubernetes name, reason or type. */
function keyText(k: StoryKey): string {
  return joinKey(k.type, k.reason, k.kind, k.nameTemplate, k.messageTemplate, k.owner);
}

function joinKey(type: string, reason: string, kind: string, nameTemplate: string, messageTemplate: string | null, owner: string | null): string {
  return [type, reason, kind, nameTemplate, messageTemplate ?? '\u0001', owner ?? '\u0001'].join('\u0000');
}

export function severityOf(type: string): EventGroup['severity'] {
  if (type === 'Warning') return 'warning';
  return isConventionalType(type) ? 'normal' : 'unconventional';
}

export const SEVERITY_ORDER: readonly EventGroup['severity'][] = ['warning', 'unconventional', 'normal'];

/** What matters first: Warnings, then unconventional types; then the most recent; then the most frequent. */
function compareGroups(a: EventGroup, b: EventGroup): number {
  return (
    SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity) ||
    (b.lastSeen ?? -Infinity) - (a.lastSeen ?? -Infinity) ||
    (b.occurrences ?? b.events) - (a.occurrences ?? a.events) ||
    b.events - a.events ||
    compareBytes(keyText(a), keyText(b))
  );
}


interface Building {
  key: StoryKey;
  events: Event[];
}

/** Groups remembered per message template: enough for a template's usual few, never a scan of many. */
const NEAR_GROUPS = 8;

/** The group among `near` (one message template's) whose key has these fields. */
function findNear(near: Building[], type: string, reason: string, kind: string, nameTemplate: string, owner: string | null): Building | undefined {
  for (let i = 0; i < near.length; i += 1) {
    const b = near[i] as Building;
    const k = b.key;
    if (k.type === type && k.reason === reason && k.kind === kind && k.nameTemplate === nameTemplate && k.owner === owner) return b;
  }
  return undefined;
}

/** The events in groups of siblings with the same story, most telling first. */
export function groupEvents(events: Event[], input: GroupingInput): EventGroup[] {
  const building = new Map<string, Building>();
  const templates = input.templates ?? templatesOnce();
  // The groups of each message template, up to a few: one template comes with a few kinds and
  // name templates (a Deployment's, its ReplicaSets' and its Pods'), so most events find their group
  // among them by comparing strings, without joining a key string (20,000 of them, each hashed once
  // and thrown away). The map by the whole key is the one that counts; these only find in it sooner.
  const byTemplate = new Map<string | null, Building[]>();
  // An index loop: a for-of makes an iterator result per event in code that runs once.
  for (let i = 0; i < events.length; i += 1) {
    const ev = events[i] as Event;
    // The key's fields as values, its object made once per group, not once per event.
    const kind = ev.object.kind;
    const nameTemplate = templates.name(ev.object.name);
    const messageTemplate = input.messages ? (input.messageTemplates?.[i] ?? templates.message(ev.message)) : null;
    const owner = input.ownerOf?.(ev) ?? null;
    let near = byTemplate.get(messageTemplate);
    if (near === undefined) byTemplate.set(messageTemplate, (near = []));
    let found = findNear(near, ev.type, ev.reason, kind, nameTemplate, owner);
    if (found === undefined) {
      const text = joinKey(ev.type, ev.reason, kind, nameTemplate, messageTemplate, owner);
      found = building.get(text);
      if (found === undefined) building.set(text, (found = { key: { type: ev.type, reason: ev.reason, kind, nameTemplate, messageTemplate, owner }, events: [] }));
      if (near.length < NEAR_GROUPS) near.push(found);
    }
    found.events.push(ev);
  }
  // A member's key made once per object, not per event: the events about one object share its ObjectRef (core/compact.ts).
  const memberKey = keyedByRef((o) => `\u0000${o.namespace}\u0000${o.kind}\u0000${o.name}`);
  return [...building.values()].map((b) => toGroup(b, input, memberKey)).sort(compareGroups);
}

function toGroup({ key, events }: Building, input: GroupingInput, memberKey: (ref: ObjectRef) => string): EventGroup {
  // Most recent first, so the example and the first-named objects are the latest news. Sorted in
  // place: the array is the group's own (groupEvents), and nothing below depends on its order but this.
  const sorted = events.sort((a, b) => (b.lastSeen ?? -Infinity) - (a.lastSeen ?? -Infinity) || compareBytes(a.name, b.name));
  const example = sorted[0] as Event;
  const objects = new Map<string, GroupMember>();
  const clusters = new Set<string>();
  const reporters = new Set<string>();
  let firstSeen: number | null = null;
  let lastSeen: number | null = null;
  let repeated = 0;
  let occurrences = 0;
  // One pass, and a member made only for an object not yet named: 20,000 events about 400 objects
  // made 20,000 members and as many arrays for their counts and reporters, promoted as the groups grew.
  for (let i = 0; i < sorted.length; i += 1) {
    const ev = sorted[i] as Event;
    const o = ev.object;
    const context = ev.cluster?.context;
    if (context !== undefined) clusters.add(context);
    const at = context === undefined ? memberKey(o) : `${context}${memberKey(o)}`;
    if (!objects.has(at)) objects.set(at, { kind: o.kind, name: o.name, namespace: o.namespace, ...(context === undefined ? {} : { context }) });
    reporters.add(ev.reporter);
    if (ev.count > 1) repeated += 1;
    occurrences += ev.count;
    if (ev.firstSeen !== null && (firstSeen === null || ev.firstSeen < firstSeen)) firstSeen = ev.firstSeen;
    if (ev.lastSeen !== null && (lastSeen === null || ev.lastSeen > lastSeen)) lastSeen = ev.lastSeen;
  }
  return {
    ...key,
    severity: severityOf(key.type),
    events: events.length,
    repeated: input.counts ? repeated : null,
    occurrences: input.counts ? occurrences : null,
    objects: [...objects.values()],
    reporters: [...reporters].sort(compareBytes),
    firstSeen,
    lastSeen,
    ...(clusters.size === 0 ? {} : { clusters: [...clusters].sort(compareBytes) }),
    example: {
      event: example.name,
      object: formatObjectRef(example.object),
      message: input.messages ? example.message : null,
      reporter: example.reporter,
      count: example.count,
      firstSeen: example.firstSeen,
      lastSeen: example.lastSeen,
    },
  };
}

// The incident account: what a person who was not there needs from the events, as plain data:
// epoch ms and domain values. Its sentences are in src/render/incident-text.ts and its `-o json`
// wire shape in src/render/incident-json.ts.

import type { Event } from './event.ts';
import { describeKubectlTypes, type KubectlTypeBehaviour } from './audit.ts';
import { classifyIncarnation, compareWithLive, onServer, summariseIncarnations } from './incarnation.ts';
import type { Disappearance, LiveFacts, Recreation, Unchecked } from './incarnation.ts';
import { compareBytes, dedupeByUid, formatObjectRef, sortTimeline } from './timeline.ts';
import { isConventionalType } from './types.ts';
import { keyedByRef, objectUids } from './identity.ts';
import { groupEvents } from './grouping.ts';
import type { EventGroup } from './grouping.ts';
import { groupStories } from './families.ts';
import { templatesOnce } from './message-template.ts';
import type { ObjectFamily } from './families.ts';
import { fleetOf } from './source.ts';
import type { Provenance, Tells, Unanswered } from './source.ts';
import type { Tree } from './ownership.ts';
import type { ObjectStory, Report } from './story.ts';
import { buildStoryTree, ownerInTree, ownerLabel } from './tree-story.ts';
import type { IncidentTree } from './tree-story.ts';
import { findCauses } from './causes.ts';
import type { Causes } from './causes.ts';
import type { Cause } from './cause-types.ts';
import type { FactGap, FactSet } from './facts.ts';
import { fleetAccount } from './fleet-incident.ts';
import type { FleetAccount } from './fleet-incident.ts';


export interface IncidentContext {
  /** epoch ms the account is made at (for a saved file, the command may pass its capture time) */
  now: number;
  /** what the events were read from: its namespace, what it can tell, the time a saved file covers */
  provenance: Provenance;
  /** the API server's --event-ttl, 1h by default */
  eventTTLms: number;
  /** --compare: epoch ms the live cluster was read; a saved file's ages still count from `now`, when it was taken */
  comparedAt?: number;
  /** what the live cluster said beside the events: object lookups (live reads, --compare) and the events it still holds (--compare) */
  live?: LiveFacts;
  /** `--for X --tree`: the tree of X; the account is then told owner first and siblings are grouped by owner */
  tree?: Tree;
  /** what the objects' status and spec say (read live, or saved in a record or capture); causes are told from the events alone without */
  facts?: FactSet;
  /** several contexts read together: those that did not answer */
  unanswered?: Unanswered[];
  /** the events are one each already (a read's: src/app/gather.ts), so only a uid in two clusters is counted once here */
  distinct?: boolean;
}

/** The causes of what the events show (src/core/causes.ts), and what could not be read for them. */
export interface Why extends Causes {
  gaps: FactGap[];
  /** a saved file written before status lines were kept */
  noStatus: boolean;
  /** whether any status was read at all */
  withFacts: boolean;
  /** Kind/name of objects with Warning events whose status was not read (gone before it was read, or not in the saved file), byte order */
  unknown: string[];
}

/** What the input can tell at all; a stable table carries types, reasons and objects only. */
export type Carries = Omit<Tells, 'ownership'>;

export interface Headline {
  events: number;
  objects: number;
  /** events whose type is exactly Warning */
  warnings: number;
  /** events whose type is not exactly Normal or Warning */
  unconventional: number;
  /** events whose count is above 1; null when the input carries no counts */
  repeats: number | null;
  /** the sum of counts; null when the input carries no counts */
  occurrences: number | null;
}

export interface ReporterReasons {
  reporter: string;
  /** distinct, byte order */
  reasons: string[];
}

export interface EventRef {
  event: string;
  /** Kind/name */
  object: string;
  reason: string;
}

interface UnconventionalType {
  type: string;
  events: EventRef[];
  kubectl: KubectlTypeBehaviour;
}

export interface Repeat extends EventRef {
  count: number;
  /** epoch ms */
  firstSeen: number | null;
  lastSeen: number | null;
  /** lastSeen - firstSeen in ms, as in Report */
  spanMs: number | null;
}

interface Limits {
  /** epoch ms of the oldest first seen; null when the input carries no times */
  windowStart: number | null;
  /** newest last seen */
  windowEnd: number | null;
  windowMs: number | null;
  eventTTLms: number;
  /** `at` minus the TTL: an event not written since then has been deleted by the API server */
  ttlHorizon: number;
}

/** An event kept in a saved file (record, capture) that the server no longer has (--compare). */
interface RecordOnlyEvent extends EventRef {
  type: string;
  /** epoch ms */
  lastSeen: number | null;
}

/** The saved file against the live cluster (--compare), as the incident reports it in counts. */
export interface ComparisonSummary {
  /** events in the story that name a uid, so can be compared */
  savedEvents: number;
  /** of those, how many the server no longer has */
  onlyInSaved: number;
  /** onlyInSaved / savedEvents, 0 when there are none */
  share: number;
  /** events in scope on the server that the file does not hold */
  onlyOnServer: number;
}

export interface Incident {
  /** epoch ms the account was made */
  at: number;
  /** --compare: epoch ms the live cluster was read (later than `at` for a saved file) */
  comparedAt?: number;
  /** what the events were read from: namespace, kind of input, the time a saved file covers */
  provenance: Provenance;
  carries: Carries;
  headline: Headline;
  /** in time order of each object's first report */
  objects: ObjectStory[];
  /** the events in groups of siblings with the same story, most telling first (src/core/grouping.ts) */
  groups: EventGroup[];
  /** the objects in families with the same story, in the order of `objects` (src/core/families.ts) */
  families: ObjectFamily[];
  /** byte order of reporter; empty when the input carries no reporters */
  reporters: ReporterReasons[];
  unconventionalTypes: UnconventionalType[];
  /** empty when the input carries no counts */
  repeats: Repeat[];
  limits: Limits;
  /** present with --compare: counts, then the events only the file still holds, in time order */
  comparison?: ComparisonSummary;
  onlyInRecord?: RecordOnlyEvent[];
  /** present when the live objects were looked up */
  recreatedObjects?: Recreation[];
  goneObjects?: Disappearance[];
  uncheckedObjects?: Unchecked[];
  /** with a tree (`--for X --tree`): the stories placed owner first */
  tree?: IncidentTree;
  /** causes, when the input carries messages */
  why?: Why;
  /** several contexts read together: which clusters share a story, where each stands */
  fleet?: FleetAccount;
}

/** Expects the events of one look; each event counts once even when both APIs listed it. */
export function buildIncident(input: Event[], ctx: IncidentContext): Incident {
  // One look across clusters may hold a uid in each; the account has always counted it once.
  const events = ctx.distinct === true && input.every((ev) => ev.cluster === undefined) ? input : dedupeByUid(input);
  const { provenance } = ctx;
  const carries = carriesOf(provenance.tells);
  const { tree } = ctx;
  // sortTimeline is stable, so a stable table (no times, no names) keeps its own order. Sorted once
  // for the stories and the incarnations both.
  const sorted = sortTimeline(events);
  // Each message templated once, in timeline order, for both the groups and the families: handed
  // to each by position, not found again by its text (a map of 20,000 distinct messages).
  const templates = templatesOnce();
  const messageTemplates = carries.messages ? sorted.map((ev) => templates.message(ev.message)) : undefined;
  const { objects, reportTemplates } = groupByObject(sorted, carries, ctx.live ?? {}, tree, messageTemplates);
  const ownerOf = tree === undefined ? {} : { ownerOf: ownerInTree(tree) };
  const repeats = carries.counts ? repeatsOf(events) : [];
  const tally = tallyOf(events);
  const incident: Incident = {
    at: ctx.now,
    provenance,
    carries,
    headline: {
      events: events.length,
      objects: objects.length,
      warnings: tally.warnings,
      unconventional: tally.unconventional,
      repeats: carries.counts ? repeats.length : null,
      occurrences: carries.counts ? tally.occurrences : null,
    },
    objects,
    groups: groupEvents(sorted, { counts: carries.counts, messages: carries.messages, ...ownerOf, templates, ...(messageTemplates === undefined ? {} : { messageTemplates }) }),
    families: groupStories(objects, storyOwner, templates, reportTemplates),
    reporters: carries.reporters ? collectReporters(events) : [],
    unconventionalTypes: collectUnconventional(events),
    repeats: sortRepeats(repeats),
    limits: limitsFor(events, ctx, carries),
  };
  if (ctx.comparedAt !== undefined) incident.comparedAt = ctx.comparedAt;
  const clusters = fleetOf(provenance);
  if (clusters !== undefined) {
    incident.fleet = fleetAccount(clusters, ctx.unanswered ?? [], events, incident.groups, ctx.eventTTLms);
  }
  if (ctx.live !== undefined && carries.uids) addLiveFacts(incident, sorted, ctx.live);
  if (tree !== undefined) incident.tree = buildStoryTree(tree, objects, (story) => story.chain);
  if (carries.messages) {
    const facts = ctx.facts ?? { objects: [], gaps: [], readAt: null };
    const withFacts = ctx.facts !== undefined && facts.noStatus !== true;
    incident.why = { ...causesOf(facts, events, provenance), gaps: facts.gaps, noStatus: facts.noStatus === true, withFacts, unknown: withFacts ? statusUnknown(facts, events) : [] };
  }
  return incident;
}

/**
 * Several contexts read together: each cluster's causes from its own events (a Pod/web-0 in two
 * clusters is two Pods), each cause naming its context; one context: the causes of its events.
 */
function causesOf(facts: FactSet, events: Event[], provenance: Provenance): Causes {
  if (fleetOf(provenance) === undefined) return findCauses(facts, events);
  const byContext = new Map<string, Event[]>();
  for (let i = 0; i < events.length; i += 1) {
    const ev = events[i] as Event;
    const context = ev.cluster?.context ?? '';
    const own = byContext.get(context) ?? [];
    own.push(ev);
    byContext.set(context, own);
  }
  const all: Causes = { causes: [], expected: [] };
  for (const [context, own] of byContext) {
    const found = findCauses(facts, own);
    const named = (c: Cause): Cause => ({ ...c, object: { ...c.object, context } });
    all.causes.push(...found.causes.map(named));
    all.expected.push(...found.expected.map(named));
  }
  return all;
}

/**
 * Pods and workloads with Warning events that the facts do not hold, where their Kind was read in
 * their namespace: listed in full, or (a saved file) held for another object of that namespace. A
 * namespace's lone Pod deleted before the read leaves its list empty: listed says it was read.
 */
function statusUnknown(facts: FactSet, events: Event[]): string[] {
  const held = new Set(facts.objects.map((o) => `${o.namespace}/${o.kind}/${o.name}`));
  const kinds = new Set([...(facts.listed ?? []), ...facts.objects.map((o) => `${o.namespace}/${o.kind}`)]);
  const out = new Set<string>();
  for (let i = 0; i < events.length; i += 1) {
    const ev = events[i] as Event;
    const o = ev.object;
    if (ev.type !== 'Warning' || o.kind === 'Node') continue;
    if (kinds.has(`${o.namespace}/${o.kind}`) && !held.has(`${o.namespace}/${o.kind}/${o.name}`)) out.add(`${o.kind}/${o.name}`);
  }
  return [...out].sort(compareBytes);
}

/** `sorted`: the events in timeline order. */
function addLiveFacts(incident: Incident, sorted: Event[], live: LiveFacts): void {
  const compared = compareWithLive(sorted, live);
  if (compared !== null) {
    const only = compared.onlyInSaved.length;
    incident.comparison = {
      savedEvents: compared.savedEvents,
      onlyInSaved: only,
      share: compared.savedEvents === 0 ? 0 : only / compared.savedEvents,
      onlyOnServer: compared.onlyOnServer,
    };
    incident.onlyInRecord = sortTimeline(compared.onlyInSaved).map((ev) => ({ ...toRef(ev), type: ev.type, lastSeen: ev.lastSeen }));
  }
  if (live.lookups !== undefined) {
    const summary = summariseIncarnations(sorted, live.lookups);
    incident.recreatedObjects = summary.recreated;
    incident.goneObjects = summary.gone;
    incident.uncheckedObjects = summary.unchecked;
  }
}

function carriesOf(tells: Tells): Carries {
  return { times: tells.times, counts: tells.counts, reporters: tells.reporters, messages: tells.messages, uids: tells.uids };
}

function spanOf(ev: Event): number | null {
  return ev.firstSeen === null || ev.lastSeen === null ? null : ev.lastSeen - ev.firstSeen;
}

function toRef(ev: Event): EventRef {
  return { event: ev.name, object: formatObjectRef(ev.object), reason: ev.reason };
}

function toReport(ev: Event, carries: Carries, live: LiveFacts): Report {
  const report: Report = {
    event: ev.name,
    reporter: carries.reporters ? ev.reporter : null,
    reason: ev.reason,
    type: ev.type,
    conventionalType: isConventionalType(ev.type),
    count: carries.counts ? ev.count : null,
    firstSeen: carries.times ? ev.firstSeen : null,
    lastSeen: carries.times ? ev.lastSeen : null,
    spanMs: carries.times ? spanOf(ev) : null,
    message: carries.messages ? ev.message : null,
    decisive: ev.type !== 'Normal',
  };
  const held = carries.uids ? onServer(ev, live) : undefined;
  if (held !== undefined) report.onServer = held;
  return report;
}

// Index loops over the events here: a for-of makes an iterator result per event in code that runs once (0.8 MB a pass at 20,000 events).
// Counted in one loop, not three filters: each filter made an array (5,000 Warnings of 20,000 events) only to count it.
function tallyOf(events: Event[]): { warnings: number; unconventional: number; occurrences: number } {
  let warnings = 0;
  let unconventional = 0;
  let occurrences = 0;
  for (let i = 0; i < events.length; i += 1) {
    const ev = events[i] as Event;
    if (ev.type === 'Warning') warnings += 1;
    if (!isConventionalType(ev.type)) unconventional += 1;
    occurrences += ev.count;
  }
  return { warnings, unconventional, occurrences };
}

function repeatsOf(events: Event[]): Repeat[] {
  const repeats: Repeat[] = [];
  // One Kind/name string per object, not per repeat: 2,800 repeats about 400 objects share them, and
  // their sort by object then compares the same string, found equal at once.
  const label = keyedByRef(formatObjectRef);
  for (let i = 0; i < events.length; i += 1) {
    const ev = events[i] as Event;
    if (ev.count > 1) repeats.push({ event: ev.name, object: label(ev.object), reason: ev.reason, count: ev.count, firstSeen: ev.firstSeen, lastSeen: ev.lastSeen, spanMs: spanOf(ev) });
  }
  return repeats;
}

// A uid keeps a re-created object's story apart from the old one; an event naming no uid joins the
// incarnation of its name the other events name (src/core/identity.ts); with no uids at all,
// Kind/namespace/name is all there is.
// `messageTemplates`: each event's, by position in `sorted`; the stories' are handed back in the order of their reports.
function groupByObject(sorted: Event[], carries: Carries, live: LiveFacts, tree: Tree | undefined, messageTemplates?: string[]): { objects: ObjectStory[]; reportTemplates: Map<ObjectStory, string[]> } {
  const uidOf = objectUids(sorted);
  const reportTemplates = new Map<ObjectStory, string[]>();
  const stories = new Map<string, ObjectStory>();
  // One context (the usual case): a story by uid is found by the uid itself, not a new key string per event.
  const byUid = new Map<string, ObjectStory>();
  for (let i = 0; i < sorted.length; i += 1) {
    const ev = sorted[i] as Event;
    const o = ev.object;
    const resolved = carries.uids ? uidOf(ev) : '';
    const context = ev.cluster?.context;
    const plain = resolved !== '' && context === undefined;
    const key = plain ? '' : resolved !== '' ? `uid:${context ?? ''}\u0000${resolved}` : `ref:${context ?? ''}\u0000${o.kind}\u0000${o.namespace}\u0000${o.name}`;
    let story = plain ? byUid.get(resolved) : stories.get(key);
    if (story === undefined) {
      // Every event of a story is about the same uid, so the first tells the story's incarnation.
      const named: Event = { ...ev, object: { ...o, uid: resolved } };
      const incarnation = carries.uids && live.lookups !== undefined ? { incarnation: classifyIncarnation(named, live.lookups) } : {};
      const where = context === undefined ? {} : { context };
      story = { kind: o.kind, name: o.name, namespace: o.namespace, uid: resolved !== '' ? resolved : null, ...where, ...incarnation, reports: [] };
      if (plain) byUid.set(resolved, story);
      // In order of first report, whichever map finds it.
      stories.set(plain ? `uid:\u0000${resolved}` : key, story);
    }
    story.reports.push(toReport(ev, carries, live));
    if (messageTemplates !== undefined) {
      const own = reportTemplates.get(story);
      if (own === undefined) reportTemplates.set(story, [messageTemplates[i] as string]);
      else own.push(messageTemplates[i] as string);
    }
    // An event that names no uid may be the one the tree cannot place: any event of the story may tell its chain.
    if (tree !== undefined && story.chain === undefined) {
      const chain = tree.chainOf(ev);
      if (chain !== undefined) story.chain = chain;
    }
  }
  return { objects: [...stories.values()], reportTemplates };
}

function collectReporters(events: Event[]): ReporterReasons[] {
  const byReporter = new Map<string, Set<string>>();
  for (let i = 0; i < events.length; i += 1) {
    const ev = events[i] as Event;
    const reasons = byReporter.get(ev.reporter) ?? new Set<string>();
    reasons.add(ev.reason);
    byReporter.set(ev.reporter, reasons);
  }
  return [...byReporter.entries()]
    .map(([reporter, reasons]) => ({ reporter, reasons: [...reasons].sort(compareBytes) }))
    .sort((a, b) => compareBytes(a.reporter, b.reporter));
}

function collectUnconventional(events: Event[]): UnconventionalType[] {
  const byType = new Map<string, EventRef[]>();
  for (let i = 0; i < events.length; i += 1) {
    const ev = events[i] as Event;
    if (isConventionalType(ev.type)) continue;
    const refs = byType.get(ev.type) ?? [];
    refs.push(toRef(ev));
    byType.set(ev.type, refs);
  }
  return [...byType.entries()]
    .sort(([a], [b]) => compareBytes(a, b))
    .map(([type, refs]) => {
      return { type, events: refs, kubectl: describeKubectlTypes(type) };
    });
}

function sortRepeats(repeats: Repeat[]): Repeat[] {
  return [...repeats].sort((a, b) => b.count - a.count || compareBytes(a.object, b.object) || compareBytes(a.reason, b.reason));
}

/** Oldest first seen and newest last seen, epoch ms; null when no event carries a time. */
export function eventWindow(events: Event[]): { start: number | null; end: number | null } {
  // One pass, no array of times: two arrays of 200,000 times (a record's) grow in V8's
  // large-object space, which only a full collection frees, and the table's peak carried them.
  let start: number | null = null;
  let end: number | null = null;
  for (let i = 0; i < events.length; i += 1) {
    const { firstSeen, lastSeen } = events[i] as Event;
    if (firstSeen !== null && (start === null || firstSeen < start)) start = firstSeen;
    if (lastSeen !== null && (end === null || lastSeen > end)) end = lastSeen;
  }
  return { start, end };
}

function limitsFor(events: Event[], ctx: IncidentContext, carries: Carries): Limits {
  const { start, end } = carries.times ? eventWindow(events) : { start: null, end: null };
  return {
    windowStart: start,
    windowEnd: end,
    windowMs: start === null || end === null ? null : end - start,
    eventTTLms: ctx.eventTTLms,
    ttlHorizon: ctx.now - ctx.eventTTLms,
  };
}

/** The owner of a story's object in the tree (`Kind/name`); null for the root, outside the tree or without one. */
function storyOwner(story: ObjectStory): string | null {
  const owner = story.chain === undefined || story.chain.length < 2 ? undefined : story.chain[story.chain.length - 2];
  return owner === undefined ? null : ownerLabel(owner);
}

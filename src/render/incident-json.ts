// `incident -o json`: the wire shape scripts read. Field names, order and spellings (ISO times, the
// source and saved blocks) are the documented output (README); the domain account
// (src/core/incident.ts) holds epoch ms and the provenance, this maps them.
import { lookupFailureText } from './lookup-failure.ts';
import type { Disappearance, Incarnation, Recreation, Unchecked } from '../core/incarnation.ts';
import type { Carries, ComparisonSummary, EventRef, Headline, Incident, ReporterReasons, Repeat } from '../core/incident.ts';
import type { ObjectStory, Report } from '../core/story.ts';
import { observedWindow } from '../core/source.ts';
import type { EventGroup } from '../core/grouping.ts';
import type { ClusterStanding } from '../core/fleet-incident.ts';
import type { Provenance } from '../core/source.ts';
import { toKubectlTypesJson } from './audit-json.ts';
import { missedBy, UNCONVENTIONAL_ORIGIN } from './audit-words.ts';
import type { KubectlTypesJson } from './audit-json.ts';
import { isoOrNull, toIso } from './time.ts';
import type { TreeNode } from '../core/ownership.ts';
import { memberKey } from '../core/tree-story.ts';
import type { IncidentTree, StoryBranch } from '../core/tree-story.ts';
import { toWhyJson } from './causes-json.ts';
import type { WhyJson } from './causes-json.ts';

type Iso = string | null;

interface ReportJson extends Omit<Report, 'firstSeen' | 'lastSeen' | 'onServer'> {
  firstSeen: Iso;
  lastSeen: Iso;
  onServer?: boolean;
}

interface ObjectStoryJson {
  kind: string;
  name: string;
  namespace: string;
  uid: string | null;
  /** several contexts read together: the context the object is in */
  context?: string;
  incarnation?: Incarnation;
  reports: ReportJson[];
  /** with --tree: where the object sits, root first and the object last (as each event's `tree` in the timeline's -o json) */
  tree?: ChainLinkJson[];
}

interface ChainLinkJson {
  kind: string;
  apiVersion: string;
  name: string;
  uid: string;
  gone: boolean;
}

/** A member of the tree told: the stories about it (indices into `objects`) and what it owns that events reach. */
interface TreeMemberJson extends ChainLinkJson {
  namespace: string;
  objects: number[];
  children: TreeMemberJson[];
}

interface TreeJson {
  root: TreeMemberJson;
  /** every member of the tree, the root included, with or without events (members no event reaches are counted, not listed) */
  members: number;
  gone: number;
  /** members by kind, the root left out */
  owned: { kind: string; members: number; gone: number }[];
  /** indices into `objects` of stories about objects outside the tree */
  outside: number[];
}

interface UnconventionalTypeJson {
  type: string;
  events: EventRef[];
  kubectl: KubectlTypesJson;
  /** filters that never show events of this type (beyond `kubectl.command` itself) */
  missedBy: string[];
  /** where such an event can have come from */
  origin: string;
}

interface RepeatJson extends EventRef {
  count: number;
  firstSeen: Iso;
  lastSeen: Iso;
  spanMs: number | null;
}

/** A group of sibling events with the same story (README: "How the incident groups"): the domain group, times in ISO. */
type GroupJson = Omit<EventGroup, 'firstSeen' | 'lastSeen' | 'example'> & {
  firstSeen: Iso;
  lastSeen: Iso;
  example: Omit<EventGroup['example'], 'firstSeen' | 'lastSeen'> & { firstSeen: Iso; lastSeen: Iso };
};

interface IncidentJson {
  at: string;
  namespace: string | null;
  /** what an account may claim depends on it: a live read, a saved file, or a stable table */
  source: 'cluster' | 'file' | 'stable-table';
  carries: Carries;
  headline: Headline;
  objects: ObjectStoryJson[];
  /** every event in exactly one group, most telling first */
  groups: GroupJson[];
  reporters: ReporterReasons[];
  unconventionalTypes: UnconventionalTypeJson[];
  repeats: RepeatJson[];
  limits: { windowStart: Iso; windowEnd: Iso; windowMs: number | null; eventTTLms: number; ttlHorizon: string };
  /** present when read from a saved file: capture, list or record, and the time it was observed */
  saved?: { format: 'capture' | 'list' | 'record' | 'otlp'; firstObserved: Iso; lastObserved: Iso };
  /** present when read from a log store (VictoriaLogs, or a file another store wrote): which, and what its writers did not keep */
  store?: { store: string; writers: string[]; unkept: string[] };
  comparison?: ComparisonSummary;
  onlyInRecord?: (EventRef & { type: string; lastSeen: Iso })[];
  recreatedObjects?: Recreation[];
  goneObjects?: Disappearance[];
  uncheckedObjects?: (Omit<Unchecked, 'why'> & { why: string })[];
  /** with --tree: the stories owner first */
  tree?: TreeJson;
  /** the causes, most decisive first (absent when the input carries no messages) */
  causes?: WhyJson['causes'];
  /** what could not be read for the causes, and whether object status was read */
  causesFrom?: Omit<WhyJson, 'causes'>;
  /** several contexts read together: each one's standing, and the groups (indexes in `groups`) more than one cluster tells */
  clusters?: { standing: ClusterStandingJson[]; answered: number; shared: { group: number; clusters: string[] }[] };
}

type ClusterStandingJson = Omit<ClusterStanding, 'oldest'> & { oldest: Iso };

function sourceOf(p: Provenance): IncidentJson['source'] {
  return p.kind === 'cluster' || p.kind === 'stable-table' ? p.kind : 'file';
}

function reportJson(r: Report): ReportJson {
  const json: ReportJson = {
    event: r.event,
    reporter: r.reporter,
    reason: r.reason,
    type: r.type,
    conventionalType: r.conventionalType,
    count: r.count,
    firstSeen: isoOrNull(r.firstSeen),
    lastSeen: isoOrNull(r.lastSeen),
    spanMs: r.spanMs,
    message: r.message,
    decisive: r.decisive,
  };
  if (r.onServer !== undefined) json.onServer = r.onServer;
  return json;
}

function storyJson(o: ObjectStory): ObjectStoryJson {
  const incarnation = o.incarnation === undefined ? {} : { incarnation: o.incarnation };
  const chain = o.chain === undefined ? {} : { tree: o.chain.map(linkJson) };
  const context = o.context === undefined ? {} : { context: o.context };
  return { kind: o.kind, name: o.name, namespace: o.namespace, uid: o.uid, ...context, ...incarnation, reports: o.reports.map(reportJson), ...chain };
}

function linkJson(n: TreeNode): ChainLinkJson {
  return { kind: n.kind, apiVersion: n.apiVersion, name: n.name, uid: n.uid, gone: n.gone };
}

function memberOfStory(s: ObjectStory): string | undefined {
  const last = s.chain?.[s.chain.length - 1];
  return last === undefined ? undefined : memberKey(last);
}

function treeJson(tree: IncidentTree, objects: ObjectStory[]): TreeJson {
  const index = new Map(objects.map((o, i) => [o, i]));
  const member = (n: TreeNode, stories: ObjectStory[], children: TreeMemberJson[]): TreeMemberJson => ({
    ...linkJson(n),
    namespace: n.namespace,
    objects: stories.map((s) => index.get(s) as number),
    children,
  });
  const branch = (b: StoryBranch): TreeMemberJson =>
    member(
      b.member,
      b.stories,
      b.children.flatMap((c) => {
        if (c.kind === 'branch') return [branch(c.branch)];
        // A family's members, each its own child: the grouping is the text's, the tree is the data.
        return c.members.map((m) => member(m, c.family.members.filter((s) => memberOfStory(s) === memberKey(m)), []));
      }),
    );
  return { root: branch(tree.root), members: tree.members, gone: tree.gone, owned: tree.owned, outside: tree.outside.map((s) => index.get(s) as number) };
}

function repeatJson(r: Repeat): RepeatJson {
  return { event: r.event, object: r.object, reason: r.reason, count: r.count, firstSeen: isoOrNull(r.firstSeen), lastSeen: isoOrNull(r.lastSeen), spanMs: r.spanMs };
}

function groupJson(g: EventGroup): GroupJson {
  const e = g.example;
  return {
    type: g.type,
    reason: g.reason,
    kind: g.kind,
    nameTemplate: g.nameTemplate,
    messageTemplate: g.messageTemplate,
    owner: g.owner,
    severity: g.severity,
    events: g.events,
    repeated: g.repeated,
    occurrences: g.occurrences,
    firstSeen: isoOrNull(g.firstSeen),
    lastSeen: isoOrNull(g.lastSeen),
    reporters: g.reporters,
    objects: g.objects,
    ...(g.clusters === undefined ? {} : { clusters: g.clusters }),
    example: { event: e.event, object: e.object, message: e.message, reporter: e.reporter, count: e.count, firstSeen: isoOrNull(e.firstSeen), lastSeen: isoOrNull(e.lastSeen) },
  };
}

export function toIncidentJson(incident: Incident): IncidentJson {
  const p = incident.provenance;
  const l = incident.limits;
  const json: IncidentJson = {
    at: toIso(incident.at),
    namespace: p.namespace,
    source: sourceOf(p),
    carries: incident.carries,
    headline: incident.headline,
    objects: incident.objects.map(storyJson),
    groups: incident.groups.map(groupJson),
    reporters: incident.reporters,
    unconventionalTypes: incident.unconventionalTypes.map((u) => ({
      type: u.type,
      events: u.events,
      kubectl: toKubectlTypesJson(u.kubectl),
      missedBy: missedBy(u.kubectl),
      origin: UNCONVENTIONAL_ORIGIN,
    })),
    repeats: incident.repeats.map(repeatJson),
    limits: {
      windowStart: isoOrNull(l.windowStart),
      windowEnd: isoOrNull(l.windowEnd),
      windowMs: l.windowMs,
      eventTTLms: l.eventTTLms,
      ttlHorizon: toIso(l.ttlHorizon),
    },
  };
  if (p.kind === 'capture' || p.kind === 'list' || p.kind === 'record' || p.kind === 'otlp') {
    const { first, last } = observedWindow(p);
    json.saved = { format: p.kind, firstObserved: isoOrNull(first), lastObserved: isoOrNull(last) };
  }
  if (p.kind === 'store') json.store = { store: p.store, writers: p.writers, unkept: p.unkept };
  if (incident.comparison !== undefined) json.comparison = incident.comparison;
  if (incident.onlyInRecord !== undefined) {
    json.onlyInRecord = incident.onlyInRecord.map((e) => ({ event: e.event, object: e.object, reason: e.reason, type: e.type, lastSeen: isoOrNull(e.lastSeen) }));
  }
  if (incident.recreatedObjects !== undefined) json.recreatedObjects = incident.recreatedObjects;
  if (incident.goneObjects !== undefined) json.goneObjects = incident.goneObjects;
  if (incident.tree !== undefined) json.tree = treeJson(incident.tree, incident.objects);
  if (incident.why !== undefined) {
    const { causes, ...from } = toWhyJson(incident.why);
    json.causes = causes;
    json.causesFrom = from;
  }
  if (incident.fleet !== undefined) {
    const { standing, answered, shared } = incident.fleet;
    const at = new Map(incident.groups.map((g, i) => [g, i]));
    json.clusters = {
      standing: standing.map((s) => ({ ...s, oldest: isoOrNull(s.oldest) })),
      answered,
      shared: shared.map((s) => ({ group: at.get(s.group) as number, clusters: s.clusters })),
    };
  }
  if (incident.uncheckedObjects !== undefined) json.uncheckedObjects = incident.uncheckedObjects.map((u) => ({ ...u, why: lookupFailureText(u.why) }));
  return json;
}

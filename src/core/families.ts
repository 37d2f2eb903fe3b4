// Objects with the same story: siblings (same kind and name template, src/core/message-template.ts)
// whose reports have the same reasons, types and message templates. The incident tells a family
// once; a family of one is the object's own story. Pure data; epoch ms; no English.

import type { ObjectStory, Report } from './story.ts';
import { templatesOnce } from './message-template.ts';
import type { Templates } from './message-template.ts';
import { SEVERITY_ORDER, severityOf } from './grouping.ts';
import type { EventGroup } from './grouping.ts';
import { compareBytes } from './timeline.ts';

/** One reason of a family's story, summed over its members. */
export interface FamilyLine {
  reason: string;
  type: string;
  conventionalType: boolean;
  messageTemplate: string | null;
  /** reports (Event objects) behind the line */
  events: number;
  /** the distinct messages among them, in time order of first report; empty when the input carries none */
  messages: string[];
  /** sum of counts; null when the input carries none */
  occurrences: number | null;
  firstSeen: number | null;
  lastSeen: number | null;
  /** distinct reporters, byte order; empty when the input names none */
  reporters: string[];
  /** the most recent report, quoted */
  example: Report;
}

export interface ObjectFamily {
  kind: string;
  nameTemplate: string;
  /** the owner (`Kind/name`) all members share, when a tree is known; null otherwise */
  owner: string | null;
  /** in the order of the account's objects (time order of first report) */
  members: ObjectStory[];
  /** in time order of first seen */
  lines: FamilyLine[];
  severity: EventGroup['severity'];
  lastSeen: number | null;
  occurrences: number;
}

/**
 * Each report's key (type, reason, message template), made once: a family is keyed and split by
 * them. By story, in the order of its reports: one array per object, not a map entry per report.
 */
type ReportKeys = Map<ObjectStory, string[]>;

/** Each key's message template (null: the input carries no messages), so a line is never templated again. */
type KeyTemplates = Map<string, string | null>;

function reportKeys(objects: ObjectStory[], templates: Templates, given?: ReadonlyMap<ObjectStory, readonly string[]>): { keys: ReportKeys; templateOf: KeyTemplates } {
  const keys: ReportKeys = new Map();
  const templateOf: KeyTemplates = new Map();
  // One string per distinct key: 20,000 reports of distinct messages share a few hundred keys.
  const distinct = new Map<string, string>();
  // The key last made for each template: a template nearly always comes with one type and reason,
  // so a report's key is found without joining a string to throw away.
  const byTemplate = new Map<string, { type: string; reason: string; key: string }>();
  for (const o of objects) {
    const own = new Array<string>(o.reports.length);
    const templated = given?.get(o);
    o.reports.forEach((r, i) => {
      const template = r.message === null ? '\u0001' : (templated?.[i] ?? templates.message(r.message));
      const last = byTemplate.get(template);
      if (last !== undefined && last.type === r.type && last.reason === r.reason) {
        own[i] = last.key;
        return;
      }
      const made = [r.type, r.reason, template].join('\u0000');
      let key = distinct.get(made);
      if (key === undefined) {
        distinct.set(made, (key = made));
        templateOf.set(key, r.message === null ? null : template);
      }
      byTemplate.set(template, { type: r.type, reason: r.reason, key });
      own[i] = key;
    });
    keys.set(o, own);
  }
  return { keys, templateOf };
}

function signature(o: ObjectStory, keys: ReportKeys): string {
  return [...new Set(keys.get(o))].sort(compareBytes).join('\u0002');
}

/**
 * The objects in families, in the order of each family's first member. With ownerOf (a tree is known),
 * siblings of different owners are never one family, whatever their names.
 */
export function groupStories(
  objects: ObjectStory[],
  ownerOf: (o: ObjectStory) => string | null = () => null,
  templates: Templates = templatesOnce(),
  /** each story's message templates in the order of its reports, when the account has made them already */
  reportTemplates?: ReadonlyMap<ObjectStory, readonly string[]>,
): ObjectFamily[] {
  const { keys, templateOf } = reportKeys(objects, templates, reportTemplates);
  const families = new Map<string, ObjectStory[]>();
  for (const o of objects) {
    // Incarnations of one name are not siblings: a previous and a current build-1 stay apart.
    // Several contexts read together: the same app in each cluster is one family whatever namespace each context reads.
    const key = [o.context === undefined ? o.namespace : '', o.kind, templates.name(o.name), o.incarnation ?? '', ownerOf(o) ?? '\u0001', signature(o, keys)].join('\u0003');
    const members = families.get(key);
    if (members === undefined) families.set(key, [o]);
    else members.push(o);
  }
  return [...families.values()].map((members) => toFamily(members, keys, templateOf, ownerOf(members[0] as ObjectStory), templates));
}

function toFamily(members: ObjectStory[], keys: ReportKeys, templateOf: KeyTemplates, owner: string | null, templates: Templates): ObjectFamily {
  const first = members[0] as ObjectStory;
  const lines = new Map<string, Report[]>();
  for (const m of members) {
    const own = keys.get(m) as string[];
    m.reports.forEach((r, i) => {
      const key = own[i] as string;
      const found = lines.get(key);
      if (found === undefined) lines.set(key, [r]);
      else found.push(r);
    });
  }
  const built = [...lines].map(([key, reports]) => toLine(reports, templateOf.get(key) ?? null)).sort((a, b) => (a.firstSeen ?? -Infinity) - (b.firstSeen ?? -Infinity));
  const severities = built.map((l) => severityOf(l.type));
  const severity = severities.includes('warning') ? 'warning' : severities.includes('unconventional') ? 'unconventional' : 'normal';
  const lasts = built.flatMap((l) => (l.lastSeen === null ? [] : [l.lastSeen]));
  return {
    kind: first.kind,
    nameTemplate: templates.name(first.name),
    owner,
    members,
    lines: built,
    severity,
    lastSeen: lasts.reduce<number | null>((max, t) => (max === null || t > max ? t : max), null),
    occurrences: built.reduce((sum, l) => sum + (l.occurrences ?? l.events), 0),
  };
}

function toLine(reports: Report[], messageTemplate: string | null): FamilyLine {
  const example = reports.reduce((a, b) => ((b.lastSeen ?? -Infinity) > (a.lastSeen ?? -Infinity) ? b : a));
  let firstSeen: number | null = null;
  let lastSeen: number | null = null;
  for (let i = 0; i < reports.length; i += 1) {
    const r = reports[i] as Report;
    if (r.firstSeen !== null && (firstSeen === null || r.firstSeen < firstSeen)) firstSeen = r.firstSeen;
    if (r.lastSeen !== null && (lastSeen === null || r.lastSeen > lastSeen)) lastSeen = r.lastSeen;
  }
  const counted = reports.every((r) => r.count !== null);
  return {
    reason: example.reason,
    type: example.type,
    conventionalType: example.conventionalType,
    messageTemplate,
    events: reports.length,
    messages: distinctMessages(reports),
    occurrences: counted ? reports.reduce((sum, r) => sum + (r.count ?? 0), 0) : null,
    firstSeen,
    lastSeen,
    reporters: [...reportersOf(reports)].sort(compareBytes),
    example,
  };
}

// Index loops over the reports here: a for-of makes an iterator result per item in code that runs once (0.8 MB a pass at 20,000).
// Loops, not flatMap: an array per report is garbage promoted while a 20,000-report account is built.
function reportersOf(reports: Report[]): Set<string> {
  const reporters = new Set<string>();
  for (let i = 0; i < reports.length; i += 1) {
    const r = reports[i] as Report;
    if (r.reporter !== null) reporters.add(r.reporter);
  }
  return reporters;
}

function distinctMessages(reports: Report[]): string[] {
  // One object's reports are in time order already (the account's stories): sorted only when several objects' are mixed.
  const inOrder = isByFirstSeen(reports) ? reports : [...reports].sort(byFirstSeen);
  const messages = new Set<string>();
  for (let i = 0; i < inOrder.length; i += 1) {
    const r = inOrder[i] as Report;
    if (r.message !== null) messages.add(r.message);
  }
  return [...messages];
}

function byFirstSeen(a: Report, b: Report): number {
  return (a.firstSeen ?? -Infinity) - (b.firstSeen ?? -Infinity);
}

function isByFirstSeen(reports: Report[]): boolean {
  for (let i = 1; i < reports.length; i += 1) if (byFirstSeen(reports[i - 1] as Report, reports[i] as Report) > 0) return false;
  return true;
}

/**
 * One object's lines with the same type and reason folded into one, whatever their messages: to the
 * reader one Pod failing to be scheduled, first for cpu and then for a taint, is one story told in
 * two messages (kept, in the order of each line's first report). In the order of first report.
 */
export function foldByReason(lines: FamilyLine[]): FamilyLine[] {
  const byReason = new Map<string, FamilyLine[]>();
  for (const l of lines) {
    const key = `${l.type}\u0000${l.reason}`;
    const found = byReason.get(key);
    if (found === undefined) byReason.set(key, [l]);
    else found.push(l);
  }
  return [...byReason.values()].map(mergeLines).sort((a, b) => (a.firstSeen ?? -Infinity) - (b.firstSeen ?? -Infinity));
}

function mergeLines(lines: FamilyLine[]): FamilyLine {
  if (lines.length === 1) return lines[0] as FamilyLine;
  const inOrder = [...lines].sort((a, b) => (a.firstSeen ?? -Infinity) - (b.firstSeen ?? -Infinity));
  const firsts = lines.flatMap((l) => (l.firstSeen === null ? [] : [l.firstSeen]));
  const lasts = lines.flatMap((l) => (l.lastSeen === null ? [] : [l.lastSeen]));
  const latest = lines.reduce((a, b) => ((b.example.lastSeen ?? -Infinity) > (a.example.lastSeen ?? -Infinity) ? b : a));
  return {
    ...latest,
    // the templates differ: the line is the reason's, not one template's
    messageTemplate: null,
    events: lines.reduce((sum, l) => sum + l.events, 0),
    messages: [...new Set(inOrder.flatMap((l) => l.messages))],
    occurrences: lines.every((l) => l.occurrences !== null) ? lines.reduce((sum, l) => sum + (l.occurrences ?? 0), 0) : null,
    firstSeen: firsts.length === 0 ? null : Math.min(...firsts),
    lastSeen: lasts.length === 0 ? null : Math.max(...lasts),
    reporters: [...new Set(lines.flatMap((l) => l.reporters))].sort(compareBytes),
  };
}

/** Which family to tell first when not all fit: Warnings, unconventional types, most recent, most frequent. */
export function compareFamilies(a: ObjectFamily, b: ObjectFamily): number {
  return (
    SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity) ||
    (b.lastSeen ?? -Infinity) - (a.lastSeen ?? -Infinity) ||
    b.occurrences - a.occurrences
  );
}

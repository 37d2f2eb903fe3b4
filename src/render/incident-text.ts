// The incident account in sentences, for people who were not there: headline (warnings first), each
// object's story in time order, who reported what, unconventional types, then what events cannot tell.
// Every string that came from an event goes through escapeTerminal before any colour is added.

import { lookupFailureText } from './lookup-failure.ts';
import { DEFAULT_EVENT_TTL_MS } from '../core/event-ttl.ts';
import type { Incident } from '../core/incident.ts';
import type { EventGroup, GroupMember } from '../core/grouping.ts';
import { compareFamilies } from '../core/families.ts';
import type { ObjectFamily } from '../core/families.ts';
import type { Disappearance, Recreation } from '../core/incarnation.ts';
import { humanDuration } from './duration.ts';
import type { Palette } from './color.ts';
import { escapeTerminal } from './escape.ts';
import { formatTime, formatTimeAndAge, formatTTL } from './time.ts';
import { escapeOrNone, plural } from './words.ts';
import { missedBy, summariseKubectlTypes, UNCONVENTIONAL_ORIGIN } from './audit-words.ts';
import { savedNoun } from './notices.ts';
import { ageOf, familyBlock, familyBlockHeight, inSpan, objectBlock, paintEventType } from './incident-stories.ts';
import type { IncidentView } from './incident-stories.ts';
import { recorderNoteLines } from './recorder-notes.ts';
import { memberLabel, treeSection } from './tree-incident-text.ts';
import type { IncidentTree } from '../core/tree-story.ts';
import { fleetOf, observedWindow } from '../core/source.ts';
import { renderWhy } from './causes-text.ts';
import { sharedLines, standingSection } from './fleet-incident-text.ts';
import type { StoreProvenance } from '../core/source.ts';

// The bound of the default account (--detail lifts it): a headline of at most 5 items a line, a
// "What happened" section of about 30 lines, at most 6 lines a family, 10 reporters and 10 events
// only in a saved file; each cut says "and N more like this". A namespace of any size fits a screen or two.
const HEADLINE_ITEMS = 5;
const OBJECT_SECTION_LINES = 30;
const SECTION_ITEMS = 10;

export function renderIncidentText(incident: IncidentView, palette: Palette): string {
  const sections = [renderIncidentHeadline(incident, palette)];
  if (incident.fleet !== undefined) sections.push(standingSection(incident.fleet, incident.at, incident.absoluteTimes === true, palette));
  const why = incident.why === undefined ? '' : renderWhy({ ...incident.why, detail: incident.detail === true }, palette);
  if (why !== '') sections.push(why);
  if (incident.headline.events > 0) {
    const stories = incident.tree === undefined ? objectsSection(incident, palette) : treeSection(incident, incident.tree, palette, OBJECT_SECTION_LINES);
    sections.push(stories, reportersSection(incident, palette));
    if (incident.unconventionalTypes.length > 0) sections.push(unconventionalSection(incident, palette));
    if ((incident.onlyInRecord ?? []).length > 0) sections.push(onlyInRecordSection(incident, palette));
  }
  sections.push(limitsSection(incident, palette));
  return `${sections.join('\n\n')}\n`;
}

/** `2026-11-30T11:58:00Z (2m ago)` */
function timeAndAge(ms: number, incident: IncidentView): string {
  if (incident.absoluteTimes) return formatTime(ms);
  return formatTimeAndAge(ms, incident.at);
}

function listSome(items: string[], separator = ', '): string {
  const shown = items.slice(0, HEADLINE_ITEMS).join(separator);
  return items.length > HEADLINE_ITEMS ? `${shown}${separator}and ${items.length - HEADLINE_ITEMS} more` : shown;
}

function scope(incident: Incident): string {
  const namespace = incident.provenance.namespace;
  const clusters = fleetOf(incident.provenance);
  if (clusters !== undefined) return `in ${plural(clusters.length, 'context')} (${clusters.map((c) => escapeTerminal(c.context)).join(', ')})`;
  return namespace === null ? 'across all namespaces' : `in namespace ${escapeOrNone(namespace)}`;
}

/** A log store as the account names it. */
const STORE_NAMES: Record<StoreProvenance['store'], string> = {
  victorialogs: 'VictoriaLogs',
  'cloud-logging': 'a Cloud Logging export',
  elasticsearch: 'an Elasticsearch search result',
  loki: 'a Loki query result',
};

function upperFirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function origin(incident: Incident): string {
  const p = incident.provenance;
  if (p.kind === 'stable-table') return 'rebuilt from a saved stable table';
  if (p.kind === 'cluster' && p.clusters !== undefined) return `read from their clusters at ${formatTime(incident.at)}`;
  if (p.kind === 'cluster') return `read from the cluster at ${formatTime(incident.at)}`;
  const read =
    p.kind === 'record'
      ? 'read from a record'
      : p.kind === 'otlp'
        ? "read from an OpenTelemetry Collector's file"
        : p.kind === 'store'
        ? `read from ${STORE_NAMES[p.store]}`
        : p.kind === 'capture' && p.capturedAt !== null
        ? `read from a capture taken at ${formatTime(p.capturedAt)}`
        : 'read from a saved file';
  return incident.comparison === undefined ? read : `${read}, compared with the cluster at ${formatTime(incident.comparedAt ?? incident.at)}`;
}

/** The account's first paragraph: what happened, in a few lines (also the timeline page's headline). */
export function renderIncidentHeadline(incident: IncidentView, palette: Palette): string {
  const h = incident.headline;
  const title = palette.bold(`Incident ${scope(incident)}, ${origin(incident)}`);
  if (h.events === 0) return `${title}\n  No events.`;
  const groups = incident.groups;
  // Siblings with the same story are told once; said so when it folded anything.
  const folded = groups.length < h.events ? ` They tell ${plural(groups.length, 'story', 'stories')}: siblings with the same reason and message are told once.` : '';
  const lines = [`${title}\n  ${plural(h.events, 'event')} about ${plural(h.objects, 'object')}.${folded}`];
  if (incident.tree !== undefined) lines.push(`  ${treeLine(incident.tree)}`);
  if (incident.fleet !== undefined) lines.push(...sharedLines(incident.fleet, palette, incident.detail === true));
  // Each object is named at most once in the headline: later mentions point back to it.
  const named = new Set<string>();
  const warnings = groups.filter((g) => g.severity === 'warning');
  lines.push(
    warnings.length === 0
      ? `  No ${palette.warning('Warning')} events.`
      : `  ${h.warnings} ${palette.warning(h.warnings === 1 ? 'Warning' : 'Warnings')}: ${listGroups(warnings, (g) => groupItem(g, named, true), incident)}.`,
  );
  if (h.unconventional > 0) {
    const odd = groups.filter((g) => g.severity === 'unconventional');
    const items = (g: EventGroup): string => `${paintEventType(g.type, palette)} (${groupItem(g, named, true)})`;
    lines.push(`  ${plural(h.unconventional, 'event has', 'events have')} a type other than Normal or Warning, which most tools never show: ${listGroups(odd, items, incident)}.`);
  }
  if (h.repeats === null) {
    lines.push('  The table carries no counts, so repeats cannot be told.');
  } else if (h.repeats > 0) {
    const repeated = groups.filter((g) => (g.repeated ?? 0) > 0).sort((a, b) => (b.occurrences ?? 0) - (a.occurrences ?? 0));
    // `;` between items: each holds a comma of its own.
    lines.push(`  ${plural(h.repeats, 'event')} repeated: ${listGroups(repeated, (g) => repeatItem(g, named, incident), incident, '; ')}.`);
  }
  lines.push(...incarnationLines(incident));
  const c = incident.comparison;
  if (c !== undefined && c.savedEvents > 0) {
    const share = c.onlyInSaved === 0 ? '' : ` (${percent(c.share)})`;
    lines.push(
      `  ${c.onlyInSaved} of ${plural(c.savedEvents, 'event')} in ${savedNoun(incident.provenance.kind)}${share} ${c.onlyInSaved === 1 ? 'is' : 'are'} no longer on the server (expired after --event-ttl or deleted).`,
    );
  }
  return lines.join('\n');
}

/** `The tree of Deployment/web: 1 ReplicaSet, 3 Pods (2 gone).` */
function treeLine(tree: IncidentTree): string {
  const owned = tree.owned.map((k) => `${plural(k.members, escapeOrNone(k.kind), escapeOrNone(kindPlural(k.kind)))}${k.gone === 0 ? '' : ` (${k.gone} gone)`}`);
  const what = owned.length === 0 ? 'it owns nothing that could be found' : listSome(owned);
  return `The tree of ${memberLabel(tree.root.member)}: ${what}.`;
}

/** English plural of a Kind: `Ingresses`, `NetworkPolicies`, `Pods`. */
function kindPlural(kind: string): string {
  if (/(?:s|x|z|ch|sh)$/.test(kind)) return `${kind}es`;
  if (/[^aeiouAEIOU]y$/.test(kind)) return `${kind.slice(0, -1)}ies`;
  return `${kind}s`;
}

/** The first few groups in words (all with --detail), then how many more; items are made only for what is shown. */
function listGroups(groups: EventGroup[], item: (g: EventGroup) => string, incident: IncidentView, separator = ', '): string {
  const limit = incident.detail ? groups.length : HEADLINE_ITEMS;
  const shown = groups.slice(0, limit).map(item).join(separator);
  return groups.length > limit ? `${shown}${separator}and ${groups.length - limit} more like this` : shown;
}

function memberKey(o: GroupMember): string {
  return `${o.namespace}\u0000${o.kind}\u0000${o.name}`;
}

/**
 * `BackOff on Pod/pod-3 and 99 more Pod/pod-<n> (1700 events)`: the group's most recent object not yet
 * named, or a pointer back when every one was.
 */
function groupObjects(g: EventGroup, named: Set<string>, withEvents: boolean): string {
  const fresh = g.objects.find((o) => !named.has(memberKey(o)));
  if (fresh !== undefined) named.add(memberKey(fresh));
  // With a tree, siblings are grouped by owner, and the owner is named.
  const family = `${escapeOrNone(g.kind)}/${escapeOrNone(g.nameTemplate)}${g.owner === null ? '' : ` of ${escapeTerminal(g.owner)}`}`;
  const events = withEvents && g.events > 1 ? ` (${plural(g.events, 'event')})` : '';
  if (g.objects.length === 1) {
    return fresh === undefined ? `the same ${escapeOrNone(g.kind)}${events}` : `${escapeOrNone(fresh.kind)}/${escapeOrNone(fresh.name)}${events}`;
  }
  if (fresh === undefined) return `${g.objects.length} ${family}${events}`;
  return `${escapeOrNone(fresh.kind)}/${escapeOrNone(fresh.name)} and ${g.objects.length - 1} more ${family}${events}`;
}

function groupItem(g: EventGroup, named: Set<string>, withEvents: boolean): string {
  return `${escapeOrNone(g.reason)} on ${groupObjects(g, named, withEvents)}`;
}

function percent(share: number): string {
  const rounded = Math.round(share * 100);
  return rounded === 0 && share > 0 ? '<1%' : rounded === 100 && share < 1 ? '>99%' : `${rounded}%`;
}

function uidList(uids: string[]): string {
  return `${uids.length === 1 ? 'uid' : 'uids'} ${uids.map(escapeOrNone).join(', ')}`;
}

/** Kind/name, with its namespace when the account spans several. */
function namedObject(o: { kind: string; name: string; namespace: string }, incident: Incident): string {
  const where = incident.provenance.namespace === null && o.namespace !== '' ? ` in ${escapeOrNone(o.namespace)}` : '';
  return `${escapeOrNone(o.kind)}/${escapeOrNone(o.name)}${where}`;
}

function recreatedLine(r: Recreation, incident: Incident): string {
  // creationTimestamp comes from the live object as the server sent it: escaped like event text.
  const when = r.recreatedAt === null ? '' : ` at ${escapeOrNone(formatTime(r.recreatedAt))}`;
  const previous = `${plural(r.previousEvents, 'event')} ${r.previousEvents === 1 ? 'is' : 'are'} about the previous ${escapeOrNone(r.name)}`;
  const current = r.currentEvents === 0 ? 'none' : String(r.currentEvents);
  return `${namedObject(r, incident)} was re-created${when} (${uidList(r.previousUids)} -> uid ${escapeOrNone(r.currentUid)}); ${previous} and ${current} about the current one.`;
}

function goneLine(g: Disappearance, incident: Incident): string {
  const about = g.events === 1 ? '1 event is about it' : `${g.events} events are about it`;
  return `${namedObject(g, incident)} (${uidList(g.uids)}) no longer exists; ${about}.`;
}

/** One line per re-created or deleted object; a namespace where many came and went gets one line for each kind of change. */
function incarnationLines(incident: Incident): string[] {
  const recreated = incident.recreatedObjects ?? [];
  const gone = incident.goneObjects ?? [];
  const lines: string[] = [];
  if (recreated.length <= HEADLINE_ITEMS) {
    lines.push(...recreated.map((r) => `  ${recreatedLine(r, incident)}`));
  } else {
    const events = recreated.reduce((sum, r) => sum + r.previousEvents, 0);
    const items = recreated.map((r) => namedObject(r, incident));
    lines.push(`  ${recreated.length} objects were re-created under the same name: ${listSome(items)}; ${plural(events, 'event is', 'events are')} about their previous incarnations.`);
  }
  if (gone.length <= HEADLINE_ITEMS) {
    lines.push(...gone.map((g) => `  ${goneLine(g, incident)}`));
  } else {
    const events = gone.reduce((sum, g) => sum + g.events, 0);
    lines.push(`  ${gone.length} objects no longer exist: ${listSome(gone.map((g) => namedObject(g, incident)))}; ${plural(events, 'event is', 'events are')} about them.`);
  }
  return lines;
}

/** `ReconcileStarted on Pipeline/build-1, 5 times in 117s (first 2m ago, last 3s ago)`; a group says its events too. */
function repeatItem(g: EventGroup, named: Set<string>, incident: IncidentView): string {
  const events = g.events > 1 ? `, ${plural(g.events, 'event')}` : '';
  const span = g.firstSeen === null || g.lastSeen === null ? null : g.lastSeen - g.firstSeen;
  return `${groupItem(g, named, false)}${events}, ${g.occurrences ?? 0} times${inSpan(span)}${firstAndLast(g, incident)}`;
}

/** ` (first 2m ago, last 3s ago)`; one age when both round to the same. */
function firstAndLast(r: { firstSeen: number | null; lastSeen: number | null }, incident: IncidentView): string {
  const first = r.firstSeen === null ? null : ageOf(r.firstSeen, incident);
  const last = r.lastSeen === null ? null : ageOf(r.lastSeen, incident);
  if (first === null) return last === null ? '' : ` (last ${last})`;
  if (last === null) return ` (first ${first})`;
  return first === last ? ` (${first})` : ` (first ${first}, last ${last})`;
}


function objectsSection(incident: IncidentView, palette: Palette): string {
  const order = incident.carries.times ? 'oldest first' : 'in table order: the table carries no times';
  const title = palette.bold(`What happened, object by object (${order})`);
  if (incident.detail) return [title, ...incident.objects.map((o) => objectBlock(o, incident, palette))].join('\n\n');
  // The most telling families first until the section's budget is spent; then told in time order.
  const ranked = [...incident.families].sort(compareFamilies);
  const chosen = new Set<ObjectFamily>();
  let used = 0;
  for (const family of ranked) {
    const size = familyBlockHeight(family, incident) + 1;
    if (chosen.size > 0 && used + size > OBJECT_SECTION_LINES) continue;
    chosen.add(family);
    used += size;
  }
  const blocks = incident.families.filter((f) => chosen.has(f)).map((f) => familyBlock(f, incident, palette));
  const left = incident.families.filter((f) => !chosen.has(f));
  if (left.length > 0) {
    const objects = left.reduce((sum, f) => sum + f.members.length, 0);
    blocks.push(`and ${plural(objects, 'more object')} like this (${plural(left.length, 'more story', 'more stories')}): --detail or -o json tells them all.`);
  }
  return [title, ...blocks].join('\n\n');
}


/** At most SECTION_ITEMS lines (all with --detail), then how many more. */
function capLines(lines: string[], incident: IncidentView): string[] {
  if (incident.detail || lines.length <= SECTION_ITEMS) return lines;
  return [...lines.slice(0, SECTION_ITEMS), `  and ${lines.length - SECTION_ITEMS} more like this.`];
}

function reportersSection(incident: IncidentView, palette: Palette): string {
  const title = palette.bold('Who reported what');
  if (!incident.carries.reporters) {
    const p = incident.provenance;
    const input = p.kind === 'otlp' ? "The collector's file keeps" : p.kind === 'store' ? `${upperFirst(STORE_NAMES[p.store])} keeps` : 'The table carries';
    return `${title}\n  ${input} no reporters: it cannot say who reported what.`;
  }
  const lines = incident.reporters.map(
    (r) => `  ${r.reporter === '' ? '(no reporter named)' : escapeOrNone(r.reporter)}: ${r.reasons.map(escapeOrNone).join(', ')}`,
  );
  return [title, ...capLines(lines, incident)].join('\n');
}

function unconventionalSection(incident: IncidentView, palette: Palette): string {
  const blocks = incident.unconventionalTypes.map((u) => {
    // Each reason on each object once; the first few unless --detail.
    const events = [...new Set(u.events.map((e) => `${escapeOrNone(e.reason)} on ${escapeOrNone(e.object)}`))];
    const listed = incident.detail ? events.join(', ') : listSome(events);
    return [
      `  ${paintEventType(u.type, palette)}: ${plural(u.events.length, 'event')} (${listed}).`,
      `    ${escapeTerminal(summariseKubectlTypes(u.kubectl))}`,
      `    Missed by: ${missedBy(u.kubectl).map(escapeTerminal).join('; ')}.`,
      `    ${UNCONVENTIONAL_ORIGIN}`,
    ].join('\n');
  });
  // Each type is a block of four lines: the first few types unless --detail.
  const shown = incident.detail ? blocks : blocks.slice(0, HEADLINE_ITEMS);
  if (blocks.length > shown.length) shown.push(`  and ${plural(blocks.length - shown.length, 'more type')} like this.`);
  return [palette.bold('Unconventional types (neither Normal nor Warning)'), ...shown].join('\n');
}

function onlyInRecordSection(incident: IncidentView, palette: Palette): string {
  const noun = savedNoun(incident.provenance.kind);
  const lines = (incident.onlyInRecord ?? []).map((e) => {
    const last = e.lastSeen === null ? 'at an unknown time' : timeAndAge(e.lastSeen, incident);
    return `  ${escapeOrNone(e.reason)} on ${escapeOrNone(e.object)} (event ${escapeOrNone(e.event)}, ${paintEventType(e.type, palette)}), last seen ${last}`;
  });
  return [palette.bold(`Only in ${noun} (no longer on the server)`), ...capLines(lines, incident)].join('\n');
}

function limitsSection(incident: IncidentView, palette: Palette): string {
  const title = palette.bold('What these events cannot tell you');
  const l = incident.limits;
  const ttl = formatTTL(l.eventTTLms);
  const kept = `The API server keeps an event for ${ttl} after it was last written (kube-apiserver --event-ttl; the default is ${formatTTL(DEFAULT_EVENT_TTL_MS)})`;
  const lines: string[] = [];
  if (!incident.carries.times) {
    lines.push(
      '- The table carries no times, counts, reporters or messages: not when things happened, how often, who said so or what they said.',
      `- ${kept}: the table holds only what was still there when it was taken.`,
    );
  } else if (incident.provenance.kind !== 'cluster') {
    lines.push(...savedLines(incident), windowLine(incident));
    lines.push(
      incident.provenance.kind === 'record'
        ? `- ${kept}; a record keeps every version its recorder saw, including events the server has since expired, but nothing from before the recorder started or after it stopped.`
        : incident.provenance.kind === 'store'
          ? `- ${kept}; a log store keeps what its writers shipped, past that, for as long as its own retention, but nothing a writer missed while it was down.`
          : `- ${kept}: a saved file holds only what was still there when it was saved.`,
    );
    const onlyOnServer = incident.comparison?.onlyOnServer ?? 0;
    if (onlyOnServer > 0) {
      lines.push(
        `- ${plural(onlyOnServer, 'event')} on the server ${onlyOnServer === 1 ? 'is' : 'are'} not in ${savedNoun(incident.provenance.kind)} (written after it, or outside its scope): read the cluster without --from to see ${onlyOnServer === 1 ? 'it' : 'them'}.`,
      );
    }
  } else {
    lines.push(
      windowLine(incident),
      `- ${kept}: whatever was not written since ${formatTime(l.ttlHorizon)} is gone, so the story may begin earlier than it seems.`,
    );
  }
  const unchecked = incident.uncheckedObjects ?? [];
  if (unchecked.length > 0) {
    const items = unchecked.map((u) => `${namedObject(u, incident)} (${escapeTerminal(lookupFailureText(u.why))})`);
    lines.push(
      `- Whether ${unchecked.length === 1 ? 'this object' : `these ${unchecked.length} objects`} still exist${unchecked.length === 1 ? 's' : ''} or ${unchecked.length === 1 ? 'was' : 'were'} re-created is unknown: ${listSome(items)}.`,
    );
  }
  if (incident.recorderNotes !== undefined) {
    lines.push(...recorderNoteLines(incident.recorderNotes, { now: incident.at, absolute: incident.absoluteTimes === true }, incident.detail === true));
  }
  if (incident.hiddenLine) lines.push(`- ${incident.hiddenLine}`);
  lines.push('- Events are not an audit log: what must last belongs in status conditions or an external store.');
  return [title, ...lines.map((line) => `  ${line}`)].join('\n');
}

/** When a record was kept, or a capture taken. */
function savedLines(incident: IncidentView): string[] {
  const p = incident.provenance;
  const { first: firstObserved, last: lastObserved } = observedWindow(p);
  if (firstObserved === null || lastObserved === null) return [];
  // A saved file's ages count from its last observation: `(0s ago)` after that time would say nothing.
  const agesFromLast = !incident.absoluteTimes && lastObserved === incident.at;
  const first = agesFromLast && firstObserved === lastObserved ? formatTime(firstObserved) : timeAndAge(firstObserved, incident);
  const last = agesFromLast ? formatTime(lastObserved) : timeAndAge(lastObserved, incident);
  const from = agesFromLast ? '; the ages here count from then' : '';
  if (p.kind === 'capture') return [`- The capture was taken at ${last}${from}.`];
  if (p.kind === 'otlp') return [`- The collector's writers observed these events from ${first} to ${last} (the file's first and last observed time)${from}.`];
  return [`- The recorder watched from ${first} to ${last}: the record's first and last observation${from}.`];
}

function windowLine(incident: Incident): string {
  const l = incident.limits;
  if (incident.headline.events === 0) return '- No events were found; that does not mean nothing happened.';
  if (l.windowStart === null || l.windowEnd === null) return '- The events carry no times: the window they cover is unknown.';
  const span = l.windowMs === null ? '' : ` ${humanDuration(l.windowMs)}`;
  const subject = savedLines(incident).length > 0 ? 'Its events' : 'They';
  return `- ${subject} cover${span}: from ${timeAndAge(l.windowStart, incident)} to ${timeAndAge(l.windowEnd, incident)}.`;
}

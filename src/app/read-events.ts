// How a read verb gets its events and what the live cluster says beside them, through the
// EventSource port (src/core/source.ts) that Deps opens: the verbs never build a source.
import type { Deps, SourceRequest } from '../deps.ts';
import { UsageError } from '../errors.ts';
import type { Event } from '../core/event.ts';
import { filterEvents, selectCounted } from '../core/filter.ts';
import type { EventFilter, FilterContext, Hidden } from '../core/filter.ts';
import { recorderNotes, recorderNotesFor } from '../core/recorder-notes.ts';
import type { RecorderNotes } from '../core/recorder-notes.ts';
import { StartupProbeEvidence } from '../core/startup-probes.ts';
import type { Keep } from '../core/keep.ts';
import { liveKey, objectsToLookUp } from '../core/incarnation.ts';
import type { LiveFacts } from '../core/incarnation.ts';
import { fleetOf, observedWindow } from '../core/source.ts';
import type { EventSource, FactsReading, FleetMember, Provenance, RawEvents, ReadOptions, RecordProvenance, Unanswered } from '../core/source.ts';
import { renderUncompared, renderUnanswered } from '../render/fleet.ts';
import { canonical, sameServer } from '../core/server.ts';
import { dedupeByUid } from '../core/timeline.ts';
import type { CommonOptions, ScopeOptions } from '../options/common.ts';
import { resolveFilter, resolveSavedFilter } from './for-object.ts';
import { treeFor, treeInEachCluster, treesOfLabelled } from './tree.ts';
import { labelsFor } from './labels.ts';
import type { Tree } from '../core/ownership.ts';
import { statusLine } from './status-line.ts';
import { escapeTerminal } from '../render/escape.ts';
import { otlpProvenanceNotice, storeProvenanceNotice } from '../render/otlp-status.ts';
import { renderRefusedSavedObjects } from '../render/tree.ts';

/** --from FILE or a store, else the live cluster of the scope. `now`: where --since starts in a store's query. */
export function requestFor(common: CommonOptions, keep: Keep = 'all', now = Date.now()): SourceRequest {
  if (common.from === null) return { kind: 'cluster', scope: common.scope };
  const namespace = common.scope.allNamespaces ? null : common.scope.namespace;
  const kept = keep === 'all' ? {} : { keep };
  if (common.store !== undefined) {
    // --since or --since-time into the query: the store selects, rather than this process reading it all.
    const { sinceMs, sinceTime } = common.filter;
    const window = { start: sinceMs !== undefined ? now - sinceMs : (sinceTime ?? null), end: null };
    const { requestTimeoutMs: timeoutMs, verbosity } = common.scope;
    return { kind: 'store', store: common.store, namespace, window, timeoutMs, verbosity, ...kept };
  }
  return { kind: 'file', path: common.from, namespace, ...kept };
}

/** Reads with a running count on stderr while pages arrive (a terminal only); cleared when done. */
async function readWithProgress(source: EventSource, deps: Deps, opts: ReadOptions = {}) {
  const status = statusLine(deps);
  try {
    return await source.read({ ...opts, progress: (total) => status.show(`listing events... ${total}`) });
  } finally {
    status.clear();
  }
}

interface ReadEvents {
  source: EventSource;
  /** de-duplicated by uid, filtered and in timeline order */
  events: Event[];
  /** the filter applied, --for resolved through a live source's discovery */
  filter: EventFilter;
  /** with `raw: true`: the objects as read; null for a source that holds none */
  raw?: RawEvents | null;
  /** with --tree: the --for object's tree; `events` are then those of its members */
  tree?: Tree;
  /** how many events each selection criterion hid (the server's --field-selector not counted: it never sent them) */
  hidden: Hidden[];
  /** where client-go's recorders may have dropped, merged or not yet sent what is shown */
  notes: RecorderNotes;
  /** --field-selector went to the server */
  fieldSelectorSent: boolean;
  /** several contexts read together: those that did not answer (said on stderr already) */
  unanswered: Unanswered[];
  /** with `facts: true`: where the objects' facts come from (begun before the events for a live source) */
  facts?: FactsReading;
}

/**
 * A live read without --tree hands --field-selector to the server, as kubectl get events does; a
 * saved file, or a tree (built from every event of the namespace), applies it here.
 */
function sendsFieldSelector(common: CommonOptions): boolean {
  return common.fieldSelector !== undefined && common.from === null && common.tree !== true;
}

/** What criteria need beyond each event: the start-up probes' evidence from every event read, the objects' labels for -l. */
async function filterContext(all: Event[], filter: EventFilter, source: EventSource, deps: Deps, from: string | null): Promise<FilterContext> {
  const ctx: FilterContext = { startupBelowThreshold: new StartupProbeEvidence().learn(all).belowThreshold };
  if ((filter.labels?.length ?? 0) > 0) ctx.labelsOf = await labelsFor(source, all, deps, from);
  return ctx;
}

export async function readEvents(
  common: CommonOptions,
  deps: Deps,
  now: number,
  opts: { raw?: boolean; eventsK8sIo?: boolean; keep?: Keep; notes?: boolean; facts?: boolean } = {},
): Promise<ReadEvents> {
  const source = await deps.openSource(requestFor(common, opts.keep, now));
  const { provenance } = source;
  // A collector's file says what its writers left out (the k8s_events receiver keeps no series, no reporter...).
  if (provenance.kind === 'otlp' && common.from !== null) deps.stderr.write(otlpProvenanceNotice(escapeTerminal(common.from), provenance));
  if (provenance.kind === 'record' && common.from !== null) deps.stderr.write(recordWarnings(escapeTerminal(common.from), provenance));
  if (provenance.refusedObjects !== undefined && common.from !== null) deps.stderr.write(renderRefusedSavedObjects(common.from, provenance.refusedObjects));
  const resolved = await resolveFilter(source, common.filter);
  const sent = sendsFieldSelector(common);
  // The facts' reads that do not wait for the events run beside them (issue 22: "fetched with the events").
  const factsReading = !opts.facts ? undefined : (source.startFacts?.() ?? (source.facts === undefined ? undefined : { facts: source.facts.bind(source) }));
  const facts = factsReading === undefined ? {} : { facts: factsReading };
  const read = await readWithProgress(source, deps, { ...opts, ...(sent ? { fieldSelector: common.fieldSelector } : {}) });
  const unanswered = read.unanswered ?? [];
  deps.stderr.write(renderUnanswered(unanswered));
  // A saved input has no discovery: a bare --for TYPE is resolved among its events' groups once they are read.
  const saved = source.discovery === undefined ? resolveSavedFilter(resolved, read.events) : resolved;
  const filter: EventFilter = sent ? { ...saved, fields: undefined } : saved;
  // A store learns what its writers kept from the rows it read: said once, after reading.
  if (source.provenance.kind === 'store' && common.from !== null) deps.stderr.write(storeProvenanceNotice(escapeTerminal(common.from), source.provenance));
  // --since counts back from when a saved file was taken, not from today: "the last 30 minutes"
  // of last week's record are its last 30 minutes.
  const asOf = observedWindow(source.provenance).last ?? now;
  if (common.tree === true && filter.object !== undefined) {
    // Every event of the namespace makes the tree (the children's, the owners' messages naming
    // them); the other criteria then choose among the members' events.
    const all = dedupeByUid(read.events);
    const answered = source.members?.filter((m) => !unanswered.some((u) => u.context === m.context));
    const tree = answered === undefined ? await treeFor(source, filter.object, all, deps) : await treeInEachCluster(answered, filter.object, all, deps);
    const members = all.filter((ev) => tree.chainOf(ev) !== undefined);
    const { events, hidden } = selectCounted(members, { ...filter, object: undefined }, asOf, true, await filterContext(all, filter, source, deps, common.from));
    const notes = opts.notes === false ? recorderNotes([]) : recorderNotesFor(all, events);
    return { source, events, filter, tree, hidden, notes, fieldSelectorSent: sent, unanswered, ...facts, ...(opts.raw ? { raw: read.raw ?? null } : {}) };
  }
  if (common.tree === true && filter.object === undefined && filter.labels !== undefined) {
    // -l SELECTOR --tree: the trees of the matching objects; the members' events are then all
    // theirs, labelled or not (a ReplicaSet's Pods carry its template's labels, a Job's may not).
    const all = dedupeByUid(read.events);
    const tree = await treesOfLabelled(source, filter.labels, all, deps, common.from);
    const members = tree === null ? [] : all.filter((ev) => tree.chainOf(ev) !== undefined);
    const picked = selectCounted(members, { ...filter, labels: undefined }, asOf, true, await filterContext(all, { ...filter, labels: undefined }, source, deps, common.from));
    const hidden: Hidden[] = all.length > members.length ? [{ criterion: 'labels', events: all.length - members.length }, ...picked.hidden] : picked.hidden;
    const notes = opts.notes === false ? recorderNotes([]) : recorderNotesFor(all, picked.events);
    return { source, events: picked.events, filter, ...(tree === null ? {} : { tree }), hidden, notes, fieldSelectorSent: sent, unanswered, ...(opts.raw ? { raw: read.raw ?? null } : {}) };
  }
  const all = read.distinct === true ? read.events : dedupeByUid(read.events);
  const { events, hidden } = selectCounted(all, filter, asOf, true, await filterContext(all, filter, source, deps, common.from));
  // Only where they are told; kept for -o stable, an event stands for its triple's: no counts or times to read notes from.
  const notes = opts.notes === false || opts.keep === 'stable' ? recorderNotes([]) : recorderNotesFor(all, events);
  return { source, events, filter, hidden, notes, fieldSelectorSent: sent, unanswered, ...facts, ...(opts.raw ? { raw: read.raw ?? null } : {}) };
}

/**
 * What a record holds that a reader should know before trusting it as one story: sessions from two
 * clusters (still read: it is the user's data, but not silently), fragments a stopped writer left.
 */
function recordWarnings(from: string, provenance: RecordProvenance): string {
  const lines: string[] = [];
  const { servers, tornLines } = provenance;
  if (servers !== undefined) {
    lines.push(`warning: ${from} was recorded from ${servers.length} API servers (${escapeTerminal(servers.join(', '))}): its events are read as one record\n`);
  }
  if (tornLines !== undefined) {
    lines.push(`warning: ${from}: skipped ${tornLines === 1 ? 'a torn line' : `${tornLines} torn lines`} left by a recorder stopped mid-write\n`);
  }
  return lines.join('');
}

/**
 * --compare asks "which of these events has the server since lost?": against another cluster every
 * event looks lost (4 of 4, 100%). A file that names its server must name this one; a plain list
 * names none, and is compared with a warning.
 */
function checkSameCluster(saved: Provenance, live: Provenance, from: string, deps: Deps): void {
  const servers = saved.kind === 'record' && saved.servers !== undefined ? saved.servers : saved.server === '' ? [] : [saved.server];
  const other = servers.find((server) => !sameServer(server, live.server));
  if (other !== undefined) {
    throw new UsageError(
      `--compare: ${from} was taken from ${other}, but context "${live.context}" talks to ${live.server}: every event would look gone (pass --context to compare with the cluster it came from)`,
    );
  }
  if (servers.length === 0) deps.stderr.write(`warning: ${escapeTerminal(from)} does not say which API server it came from: comparing it with ${escapeTerminal(live.server)}\n`);
}

/**
 * --compare of a record of several contexts: the same contexts, live (or those --context names),
 * each in its own namespace unless -n or -A says otherwise.
 */
function fleetCompareScope(scope: ScopeOptions, recorded: FleetMember[]): ScopeOptions {
  const { context, ...rest } = scope;
  return { ...rest, fleet: scope.fleet ?? { names: context !== undefined ? [context] : recorded.map((m) => m.context) } };
}

/**
 * The live events to pair a record of several contexts with, each server's with the same server's:
 * a server the record names that no context read now talks to is refused (every event of it would
 * look gone); one whose context did not answer is said, and its events are not compared; the live
 * events of a server the record does not name are left out (none of them could be in it).
 */
async function pairedByServer(recorded: FleetMember[], live: EventSource, from: string, deps: Deps): Promise<{ events: Event[]; compared: Set<string>; unanswered: Unanswered[] }> {
  const reading = fleetOf(live.provenance) ?? [];
  for (const { context, server } of recorded) {
    if (server !== '' && !reading.some((m) => sameServer(m.server, server))) {
      throw new UsageError(
        `--compare: ${escapeTerminal(from)} recorded context "${escapeTerminal(context)}" from ${escapeTerminal(server)}, which none of the contexts read now talks to (${reading.map((m) => `"${escapeTerminal(m.context)}"`).join(', ')}): every event of it would look gone (pass --context with the contexts it was recorded from)`,
      );
    }
  }
  const read = await readWithProgress(live, deps);
  const unanswered = read.unanswered ?? [];
  deps.stderr.write(renderUncompared(unanswered));
  const servers = new Set(recorded.map((m) => canonical(m.server)));
  const compared = new Set(reading.filter((m) => !unanswered.some((u) => u.context === m.context)).map((m) => canonical(m.server)).filter((s) => servers.has(s)));
  const events = dedupeByUid(read.events).filter((ev) => ev.cluster !== undefined && compared.has(canonical(ev.cluster.server)));
  return { events, compared, unanswered };
}

/**
 * Where --compare reads the live events: -A or -n as given, else the namespace the file was
 * taken from, else the one namespace its events are in, else all namespaces (the context's
 * namespace when the file holds no events).
 */
function compareScope(read: ReadEvents, scope: ScopeOptions): ScopeOptions {
  if (scope.allNamespaces) return scope;
  const named = read.source.provenance.namespace;
  if (named !== null) return { ...scope, namespace: named };
  const namespaces = new Set(read.events.map((ev) => ev.namespace));
  if (namespaces.size === 1) return { ...scope, namespace: [...namespaces][0] ?? null };
  return namespaces.size === 0 ? { ...scope, namespace: null } : { ...scope, allNamespaces: true };
}

/**
 * What the live cluster says beside the events read: which incarnation of its object each event is
 * about (a live read, or --compare; skipped when `lookups` is false) and, with --compare, which
 * events the server still holds. Undefined for a saved file without --compare: nothing live to ask.
 */
export async function readLiveFacts(
  read: ReadEvents,
  common: CommonOptions,
  deps: Deps,
  now: number,
  want: { compare: boolean; lookups: boolean },
): Promise<LiveFacts | undefined> {
  let objects = read.source.objects;
  const facts: LiveFacts = {};
  if (objects === null) {
    if (!want.compare) return undefined;
    if (!read.source.provenance.tells.uids) {
      throw new UsageError('--compare needs events with uids: a stable table has none (use a capture, list or record)');
    }
    const recorded = fleetOf(read.source.provenance);
    if (recorded !== undefined && read.source.provenance.kind === 'otlp') {
      throw new UsageError(`--compare: ${escapeTerminal(common.from ?? '')} names its clusters (k8s.cluster.name) but not their API servers: its events cannot be paired with a live read`);
    }
    if (recorded === undefined && common.scope.fleet !== undefined) {
      throw new UsageError(`--compare: ${escapeTerminal(common.from ?? '')} was taken from one context: compare it with one --context`);
    }
    const live = await deps.openSource({ kind: 'cluster', scope: recorded === undefined ? compareScope(read, common.scope) : fleetCompareScope(common.scope, recorded) });
    let events: Event[];
    if (recorded === undefined) {
      checkSameCluster(read.source.provenance, live.provenance, common.from ?? '', deps);
      events = dedupeByUid((await readWithProgress(live, deps)).events);
    } else {
      const paired = await pairedByServer(recorded, live, common.from ?? '', deps);
      events = paired.events;
      facts.comparedServers = paired.compared;
      if (paired.unanswered.length > 0) facts.unanswered = paired.unanswered;
    }
    facts.liveUids = new Set(events.flatMap((ev) => (ev.uid === '' ? [] : [liveKey(ev)])));
    const { tree } = read;
    // --tree: the live events of the saved tree's members, as the saved ones are.
    facts.liveEvents =
      tree === undefined
        ? filterEvents(events, await resolveFilter(live, read.filter), now)
        : filterEvents(events, { ...read.filter, object: undefined }, now).filter((ev) => tree.chainOf(ev) !== undefined);
    objects = live.objects;
  }
  // --tree has just listed every object of its namespace: the lookups its lists cover are answered from them.
  if (want.lookups && objects !== null) facts.lookups = await objects.lookUp(objectsToLookUp(read.events), { fromOwnership: read.tree !== undefined });
  return facts;
}

// Chooses where a read verb's events come from: --from FILE, else the live cluster.
import type { Deps } from '../deps.ts';
import { UsageError } from '../errors.ts';
import type { EventSource } from '../core/source.ts';
import { normaliseEvent } from '../core/event.ts';
import type { Event } from '../core/event.ts';
import { filterEvents } from '../core/filter.ts';
import { objectsToLookUp } from '../core/incarnation.ts';
import type { LiveFacts } from '../core/incarnation.ts';
import { parseStableTable } from '../core/stable-table.ts';
import type { SavedFile } from '../core/incident.ts';
import { dedupeByUid, sortTimeline } from '../core/timeline.ts';
import { fileSource, parseEventsText, readEventsFile } from '../io/event-file.ts';
import type { ParsedEvents } from '../io/event-file.ts';
import { parseRecordLines } from '../io/record-file.ts';
import { parseOtlpEventLines } from '../io/otlp-file.ts';
import { otlpProvenanceNotice } from '../render/otlp-status.ts';
import { clusterSource } from '../kube/cluster-source.ts';
import { listEvents } from '../kube/events-api.ts';
import { loadKubeTarget } from '../kube/kubeconfig.ts';
import type { KubeTarget } from '../kube/kubeconfig.ts';
import { lookUpObjects, targetGetter } from '../kube/objects.ts';
import { escapeTerminal } from '../render/escape.ts';
import type { CommonOptions, RawOptions, ScopeOptions } from './options.ts';

export async function resolveTarget(scope: ScopeOptions, deps: Deps): Promise<{ target: KubeTarget; namespace: string | null }> {
  const target = await loadKubeTarget({
    kubeconfig: scope.kubeconfig,
    context: scope.context,
    env: deps.env,
    overrides: scope.overrides,
    verbosity: scope.verbosity,
    log: (line) => deps.stderr.write(line),
    stdinIsTTY: (deps.stdin as { isTTY?: boolean }).isTTY === true,
  });
  const namespace = scope.allNamespaces ? null : (scope.namespace ?? target.namespace);
  return { target, namespace };
}

/** A running count on stderr while pages arrive, only on a terminal; cleared when done. */
function progress(deps: Deps): { onPage?: (total: number) => void; done(): void } {
  if (!deps.stderr.isTTY) return { done: () => {} };
  let shown = false;
  return {
    onPage: (total) => {
      shown = true;
      deps.stderr.write(`\rlisting events... ${total}`);
    },
    done: () => {
      if (shown) deps.stderr.write('\r\u001b[K');
    },
  };
}

interface OpenedSource {
  source: EventSource;
  /** a saved `-o stable` table carries no event objects: its lines are read as minimal events */
  stableText?: string;
  /** the live cluster read from (absent for --from) */
  target?: KubeTarget;
  /** a saved file's format and the time it covers (absent for the cluster and a stable table) */
  saved?: SavedFile;
  done(): void;
}

function parseTimeOrNull(text: string): number | null {
  const ms = Date.parse(text);
  return text === '' || Number.isNaN(ms) ? null : ms;
}

function savedFile(parsed: ParsedEvents): SavedFile | undefined {
  const last = parseTimeOrNull(parsed.capturedAt);
  if (parsed.format === 'record' || parsed.format === 'otlp') {
    return { format: parsed.format, firstObserved: parseTimeOrNull(parsed.firstObservedAt ?? ''), lastObserved: last };
  }
  if (parsed.format === 'capture') return { format: 'capture', firstObserved: last, lastObserved: last };
  return parsed.format === 'list' ? { format: 'list', firstObserved: null, lastObserved: null } : undefined;
}

export async function openSource(common: CommonOptions, deps: Deps): Promise<OpenedSource> {
  if (common.from !== null) {
    const text = await readEventsFile(common.from, deps.stdin);
    const parsed = parseEventsText(text, common.from, (lines) => parseRecordLines(lines) ?? parseOtlpEventLines(lines));
    const namespace = common.scope.allNamespaces ? null : common.scope.namespace;
    const saved = savedFile(parsed);
    // A collector's file says what its writers left out (the k8s_events receiver keeps no series, no reporter...).
    if (parsed.otlp) deps.stderr.write(otlpProvenanceNotice(escapeTerminal(common.from), parsed.otlp));
    return { source: fileSource(parsed, common.from, namespace), stableText: parsed.stableText, saved, done: () => {} };
  }
  const { target, namespace } = await resolveTarget(common.scope, deps);
  const shown = progress(deps);
  const source = clusterSource(target, { namespace, timeoutMs: common.scope.requestTimeoutMs, onPage: shown.onPage });
  return { source, target, done: shown.done };
}

/** --compare sets a saved file beside the live cluster, so it needs --from. */
export function parseCompare(raw: RawOptions, common: CommonOptions): boolean {
  if (raw.compare !== true) return false;
  if (common.from === null) throw new UsageError('--compare needs --from FILE: it compares a saved file with the live cluster');
  return true;
}

/** Normalised, de-duplicated by uid, filtered and in timeline order. */
export function prepareEvents(raw: unknown[], common: CommonOptions, now: number): Event[] {
  return sortTimeline(filterEvents(dedupeByUid(raw.map(normaliseEvent)), common.filter, now));
}

export interface ReadEvents {
  source: EventSource;
  events: Event[];
  /** the live cluster read from (absent for --from) */
  target?: KubeTarget;
  saved?: SavedFile;
}

export async function readEvents(common: CommonOptions, deps: Deps, now: number): Promise<ReadEvents> {
  const { source, stableText, target, saved, done } = await openSource(common, deps);
  if (stableText !== undefined) {
    return { source, events: sortTimeline(filterEvents(parseStableTable(stableText), common.filter, now)) };
  }
  try {
    const raw = await source.listEvents();
    // --since counts back from when a saved file was taken, not from today: "the last 30 minutes"
    // of last week's record are its last 30 minutes.
    const asOf = saved?.lastObserved ?? now;
    return { source, events: prepareEvents(raw, common, asOf), ...(target ? { target } : {}), ...(saved ? { saved } : {}) };
  } finally {
    done();
  }
}

/**
 * Where --compare reads the live events: -A or -n as given, else the namespace the file was
 * taken from, else the one namespace its events are in, else all namespaces (the context's
 * namespace when the file holds no events).
 */
function compareNamespace(read: ReadEvents, common: CommonOptions, target: KubeTarget): string | null {
  if (common.scope.allNamespaces) return null;
  if (read.source.info.namespace !== null) return read.source.info.namespace;
  const namespaces = new Set(read.events.map((ev) => ev.namespace));
  if (namespaces.size === 0) return target.namespace;
  return namespaces.size === 1 ? ([...namespaces][0] ?? null) : null;
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
  const timeoutMs = common.scope.requestTimeoutMs;
  let target = read.target;
  const facts: LiveFacts = {};
  if (target === undefined) {
    if (!want.compare) return undefined;
    if (read.source.info.format === 'stable-table') {
      throw new UsageError('--compare needs events with uids: a stable table has none (use a capture, list or record)');
    }
    target = (await resolveTarget(common.scope, deps)).target;
    const shown = progress(deps);
    try {
      const raw = (await listEvents(target, 'core', compareNamespace(read, common, target), { timeoutMs, onPage: shown.onPage })).items;
      const live = dedupeByUid(raw.map(normaliseEvent));
      facts.liveUids = new Set(live.flatMap((ev) => (ev.uid === '' ? [] : [ev.uid])));
      facts.liveEvents = filterEvents(live, common.filter, now);
    } finally {
      shown.done();
    }
  }
  if (want.lookups) facts.lookups = await lookUpObjects(targetGetter(target, timeoutMs), objectsToLookUp(read.events));
  return facts;
}

/** kubectl's wording, on stderr so stdout stays clean for pipes. */
export function noEventsMessage(namespace: string | null): string {
  return namespace === null ? 'No events found.\n' : `No events found in ${escapeTerminal(namespace)} namespace.\n`;
}

/** What an incident account may claim depends on what it was read from. */
export function incidentSourceKind(source: EventSource): 'cluster' | 'file' | 'stable-table' {
  if (source.info.kind === 'cluster') return 'cluster';
  return source.info.format === 'stable-table' ? 'stable-table' : 'file';
}

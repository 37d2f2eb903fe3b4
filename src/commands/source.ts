// Chooses where a read verb's events come from: --from FILE, else the live cluster.
import type { Deps } from '../deps.ts';
import type { EventSource } from '../core/source.ts';
import { normaliseEvent } from '../core/event.ts';
import type { Event } from '../core/event.ts';
import { filterEvents } from '../core/filter.ts';
import { parseStableTable } from '../core/incident.ts';
import { dedupeByUid, sortTimeline } from '../core/timeline.ts';
import { fileSource, parseEventsText, readEventsFile } from '../io/event-file.ts';
import { parseRecordLines } from '../io/record-file.ts';
import { clusterSource } from '../kube/cluster-source.ts';
import { loadKubeTarget } from '../kube/kubeconfig.ts';
import type { KubeTarget } from '../kube/kubeconfig.ts';
import type { CommonOptions, ScopeOptions } from './options.ts';

export function resolveTarget(scope: ScopeOptions, deps: Deps): { target: KubeTarget; namespace: string | null } {
  const target = loadKubeTarget({ kubeconfig: scope.kubeconfig, context: scope.context, env: deps.env });
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
  done(): void;
}

export async function openSource(common: CommonOptions, deps: Deps): Promise<OpenedSource> {
  if (common.from !== null) {
    const text = await readEventsFile(common.from, deps.stdin);
    const parsed = parseEventsText(text, common.from, parseRecordLines);
    const namespace = common.scope.allNamespaces ? null : common.scope.namespace;
    return { source: fileSource(parsed, common.from, namespace), stableText: parsed.stableText, done: () => {} };
  }
  const { target, namespace } = resolveTarget(common.scope, deps);
  const shown = progress(deps);
  const source = clusterSource(target, { namespace, timeoutMs: common.scope.requestTimeoutMs, onPage: shown.onPage });
  return { source, done: shown.done };
}

/** Normalised, de-duplicated by uid, filtered and in timeline order. */
export function prepareEvents(raw: unknown[], common: CommonOptions, now: number): Event[] {
  return sortTimeline(filterEvents(dedupeByUid(raw.map(normaliseEvent)), common.filter, now));
}

export async function readEvents(common: CommonOptions, deps: Deps, now: number): Promise<{ source: EventSource; events: Event[] }> {
  const { source, stableText, done } = await openSource(common, deps);
  if (stableText !== undefined) {
    return { source, events: sortTimeline(filterEvents(parseStableTable(stableText), common.filter, now)) };
  }
  try {
    const raw = await source.listEvents();
    return { source, events: prepareEvents(raw, common, now) };
  } finally {
    done();
  }
}

/** kubectl's wording, on stderr so stdout stays clean for pipes. */
export function noEventsMessage(namespace: string | null): string {
  return namespace === null ? 'No events found.\n' : `No events found in ${namespace} namespace.\n`;
}

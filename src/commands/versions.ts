// Every event version an input holds, for export: the live cluster's list (one version each), a
// record's observations (every version its recorder saw, not only the latest), a collector's file
// (every log record), a capture or an event list (one version each).
import type { Deps } from '../deps.ts';
import { UsageError } from '../errors.ts';
import { inNamespace, isObject } from '../core/json.ts';
import type { Json } from '../core/json.ts';
import { parseEventsText, readEventsFile } from '../io/event-file.ts';
import { parseOtlpLines } from '../io/otlp-file.ts';
import { parseRecordText } from '../io/record-file.ts';
import type { CommonOptions } from './options.ts';

export interface EventVersion {
  event: Json;
  /** epoch ms the input observed it; null: now (a live list, a saved list that does not say) */
  observedAt: number | null;
}

export interface ReadVersions {
  versions: EventVersion[];
  /** the namespace read (for "No events found in ..."); null: all, or the file does not say */
  namespace: string | null;
  /** --since counts back from here for a saved input (its last observation); null: now */
  asOf: number | null;
}


function newest(versions: EventVersion[]): number | null {
  let last: number | null = null;
  for (const { observedAt } of versions) if (observedAt !== null && (last === null || observedAt > last)) last = observedAt;
  return last;
}

function fromText(text: string, path: string): { versions: EventVersion[]; namespace: string | null } {
  const record = parseRecordText(text);
  if (record !== null) {
    const namespaces = new Set(record.headers.map((h) => h.namespace));
    const [only] = namespaces;
    return {
      // A DELETED line repeats a version already written: the server no longer has it, nothing new happened.
      versions: record.observations
        .filter((o) => o.type !== 'DELETED')
        .map((o) => ({ event: o.event, observedAt: o.observedAt })),
      namespace: namespaces.size === 1 && only !== undefined ? only : null,
    };
  }
  const otlp = parseOtlpLines(text);
  if (otlp !== null) return { versions: otlp.versions.map(({ event, observedAt }) => ({ event, observedAt })), namespace: null };
  const saved = parseEventsText(text, path);
  if (!('raw' in saved)) throw new UsageError(`--from ${path}: a stable table holds no events to export (use a capture, list or record)`);
  return { versions: saved.raw.core.filter(isObject).map((event) => ({ event, observedAt: null })), namespace: saved.provenance.namespace };
}

export async function readVersions(common: CommonOptions, deps: Deps): Promise<ReadVersions> {
  if (common.from !== null) {
    const { versions, namespace } = fromText(await readEventsFile(common.from, deps.stdin), common.from);
    const narrowed = common.scope.allNamespaces ? null : common.scope.namespace;
    const kept = versions.filter(({ event }) => inNamespace(event, narrowed));
    return { versions: kept, namespace: narrowed ?? namespace, asOf: newest(kept) };
  }
  const source = await deps.openSource({ kind: 'cluster', scope: common.scope });
  const { raw } = await source.read({ raw: true });
  const core = raw?.core ?? [];
  return { versions: core.filter(isObject).map((event) => ({ event, observedAt: null })), namespace: source.provenance.namespace, asOf: null };
}

// A VictoriaLogs server as an EventSource (the port of src/core/source.ts): every read is a query
// (src/stores/victorialogs.ts), folded into the newest version of each event as the rows arrive. What
// its writers did not keep is learnt from the rows themselves and said in the provenance.
import type { Json } from '../core/json.ts';
import { metadataOf } from '../core/json.ts';
import type { Event } from '../core/event.ts';
import type { Keep } from '../core/keep.ts';
import { EVENT_OBJECTS_TELL } from '../core/source.ts';
import type { EventSource, EventVersion, OtlpWriter, StoreProvenance } from '../core/source.ts';
import { LatestFold } from '../io/latest-fold.ts';
import { composeQuery, storedRows } from './victorialogs.ts';
import type { StoreEndpoint } from './victorialogs.ts';
import type { TimeWindow } from '../core/source.ts';
import { EVENT_FIELDS, FULL_NAMES, keptReporter, ROW_FIELDS, rowToEvent, rowToVersion, SHORT_NAMES, SHORT_RENAMES } from './victorialogs-rows.ts';
import type { RowNames } from './victorialogs-rows.ts';

/** Who wrote a store's events, as the account names them. */
const WRITER_WORDS: Record<OtlpWriter, string> = {
  evtimeline: 'kubectl evtimeline export',
  k8sobjects: 'the k8sobjects receiver',
  k8s_events: 'the k8s_events receiver',
};

/** What the k8s_events receiver never keeps (k8s_event_to_logdata.go): see src/otlp/collector-file.ts. */
const RECEIVER_UNKEPT = ['series', 'firstTimestamp', 'source.component', 'resourceVersion'];

interface Seen {
  /** the writers of the versions read */
  writers: Set<OtlpWriter>;
  /** read: whether the receiver's copy is the one kept of some event (no copy from our export beside it) */
  receiverKept?: boolean;
  /** rows of the k8s_events receiver without a reporter (releases before contrib PR #45289) */
  noReporter: boolean;
  skipped: number;
}

/** The provenance once the rows are read: writers, and what they did not keep. */
function settle(provenance: StoreProvenance, seen: Seen): void {
  provenance.writers = [...seen.writers].sort().map((w) => WRITER_WORDS[w]);
  const limited = seen.receiverKept ?? seen.writers.has('k8s_events');
  const unkept = limited ? [...RECEIVER_UNKEPT, ...(seen.noReporter ? ['reporter'] : [])] : [];
  provenance.unkept = unkept;
  provenance.skipped = seen.skipped;
  provenance.tells = { ...EVENT_OBJECTS_TELL, reporters: !unkept.includes('reporter') };
}

/** The rows a query selects, a chunk of the answer's at a time (storedRows; a unit test hands its own). */
export type StoredRows = (query: string, opts: { pageRows?: number | undefined; fields: readonly string[]; renames?: readonly (readonly [string, string])[] }) => AsyncIterable<Json[]>;

export function victoriaLogsSource(endpoint: StoreEndpoint, opts: { namespace: string | null; window: TimeWindow; keep?: Keep; pageRows?: number; rows?: StoredRows }): EventSource {
  const { namespace, window } = opts;
  const provenance: StoreProvenance = {
    kind: 'store',
    store: 'victorialogs',
    namespace,
    context: '',
    server: endpoint.base.origin,
    tells: EVENT_OBJECTS_TELL,
    writers: [],
    unkept: [],
    skipped: 0,
  };
  const query = composeQuery(endpoint.query, namespace, window.start);
  const rowsOf: StoredRows = opts.rows ?? ((q, o) => storedRows(endpoint, q, { start: null, end: null }, o));

  /**
   * Every version in scope, in the order the rows arrive, those of a chunk of the answer together,
   * each as `read` makes it of a row whose fields are where `names` says (null: not about an event).
   */
  async function* versions<T>(seen: Seen, read: (row: Json, names: RowNames) => { event: T; writer: OtlpWriter } | null, fields: readonly string[], names: RowNames, namespaceOf: (event: T) => unknown): AsyncGenerator<{ event: T; writer: OtlpWriter }[]> {
    const renames = names === SHORT_NAMES ? SHORT_RENAMES : undefined;
    // The start is in the query; the pages bound only the time of each row (see storedRows).
    for await (const rows of rowsOf(query, { pageRows: opts.pageRows, fields, renames })) {
      const batch: { event: T; writer: OtlpWriter }[] = [];
      for (const row of rows) {
        const version = read(row, names);
        if (version === null) {
          seen.skipped += 1;
          continue;
        }
        // The namespace filter matches either writer's field: keep the events of the namespace itself.
        if (namespace !== null && namespaceOf(version.event) !== namespace) continue;
        seen.writers.add(version.writer);
        if (version.writer === 'k8s_events' && !keptReporter(row, names)) seen.noReporter = true;
        batch.push(version);
      }
      yield batch;
    }
  }
  /** The raw versions (what export sends on, and --compare's raw objects). */
  const rawVersions = (seen: Seen) => versions(seen, rowToVersion, ROW_FIELDS, FULL_NAMES, (event: Json) => metadataOf(event).namespace);
  /** The versions normalised straight from the rows, asked for under short names: no raw object is kept. */
  const eventVersions = (seen: Seen) => versions(seen, rowToEvent, EVENT_FIELDS, SHORT_NAMES, (event: Event) => event.namespace);

  const fresh = (): Seen => ({ writers: new Set(), noReporter: false, skipped: 0 });
  return {
    provenance,
    objects: null,
    read: async (readOpts = {}) => {
      const seen = fresh();
      const fold = new LatestFold(readOpts.raw ? 'all' : (opts.keep ?? 'all'), readOpts.raw === true);
      let count = 0;
      // Our export keeps every field: on a tie with the receiver's copy of a version, it stays.
      const rank = (writer: OtlpWriter): number => (writer === 'evtimeline' ? 1 : 0);
      const counted = (): void => {
        count += 1;
        if (count % 5000 === 0) readOpts.progress?.(count);
      };
      if (readOpts.raw === true) {
        for await (const batch of rawVersions(seen)) {
          for (const { event, writer } of batch) {
            fold.add(event, rank(writer));
            counted();
          }
        }
      } else {
        for await (const batch of eventVersions(seen)) {
          for (const { event, writer } of batch) {
            fold.addEvent(event, rank(writer));
            counted();
          }
        }
      }
      // Where our export's copy of every event was kept, the receiver's limits do not show.
      seen.receiverKept = fold.keptRanks().has(0);
      settle(provenance, seen);
      const events = fold.events();
      return { events, distinct: true, ...(readOpts.raw ? { raw: { core: fold.rawEvents(), eventsK8sIo: null } } : {}) };
    },
    versions: async () => {
      const seen = fresh();
      const all: EventVersion[] = [];
      // A store keeps when each version happened, not when it was observed.
      for await (const batch of rawVersions(seen)) for (const { event } of batch) all.push({ event, observedAt: null });
      settle(provenance, seen);
      return all;
    },
  };
}

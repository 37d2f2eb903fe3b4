// --from files other log stores wrote out, told apart by their content (no flag names the format):
//
//   Cloud Logging  `gcloud logging read ... --format=json`: a JSON array of LogEntry (REST shape:
//                  jsonPayload, timestamp, logName, insertId, resource), or the same entries one a
//                  line (a log sink's files in Cloud Storage). GKE's event exporter
//                  (GoogleCloudPlatform/k8s-stackdriver event-exporter/sinks/stackdriver/
//                  log_entry_factory.go, fieldBlacklist and FromEvent) writes the Event as
//                  jsonPayload without count, firstTimestamp and lastTimestamp, one entry per
//                  occurrence, the entry's timestamp its lastTimestamp: they are rebuilt from the
//                  entries of each uid.
//   Elasticsearch  a `_search` response ({hits: {hits: [{_source}]}}), OpenSearch's too, whose
//                  _source is kubernetes-event-exporter's EnhancedEvent (resmoio pkg/kube/event.go:
//                  the Event inline, plus clusterName and the involved object's labels; sinks/
//                  elasticsearch.go and opensearch.go index ev.ToJSON()).
//   Loki           `logcli query --output=jsonl` ({"labels":{...},"line":"...","timestamp":"..."}
//                  a line; grafana/loki pkg/logcli/output/jsonl.go) or a saved
//                  /loki/api/v1/query_range answer ({"status":"success","data":{"resultType":
//                  "streams","result":[{"stream":{...},"values":[["<ns>","<line>"]]}]}}), whose
//                  lines are kubernetes-event-exporter's Loki sink (sinks/loki.go: the EnhancedEvent
//                  as JSON) or Grafana Alloy's (src/stores/alloy-line.ts: logfmt by default, its own
//                  keys as JSON with log_format = "json").
//
// Each becomes a saved input like any other (src/io/event-file.ts): raw core/v1 events, and a
// provenance that says which store and what its writers did not keep.
import { isObject, stringOnly } from '../core/json.ts';
import type { Json } from '../core/json.ts';
import { EVENT_OBJECTS_TELL } from '../core/source.ts';
import type { LogStore, StoreProvenance } from '../core/source.ts';
import { SavedFileError } from '../io/saved-events.ts';
import type { SavedEvents } from '../io/saved-events.ts';
import { alloyEvent, parseAlloyJson, parseAlloyLogfmt } from './alloy-line.ts';
import type { AlloyFields } from './alloy-line.ts';

/** What Alloy's lines do not keep. */
const ALLOY_UNKEPT = ['uid', 'event name', 'series', 'eventTime', 'firstTimestamp (the first line of a run of counts is taken)'];

function provenance(store: LogStore, writers: string[], unkept: string[], skipped: number): StoreProvenance {
  return {
    kind: 'store',
    store,
    namespace: null,
    context: '',
    server: '',
    writers,
    unkept,
    skipped,
    tells: { ...EVENT_OBJECTS_TELL, uids: !unkept.includes('uid') },
  };
}

function saved(p: StoreProvenance, core: Json[]): SavedEvents {
  return { provenance: p, raw: { core, eventsK8sIo: null } };
}

/** An object shaped as an Event (the exporters' EnhancedEvent is one, with extra fields). */
function isEventObject(value: unknown): value is Json {
  return isObject(value) && isObject(value.metadata) && isObject(value.involvedObject) && (value.kind === undefined || value.kind === 'Event');
}

// -- Cloud Logging --------------------------------------------------------------------------------

/**
 * A LogEntry: its payload (the exporter writes Events as jsonPayload, and its own warnings into the
 * same log as textPayload: FromMessage) and one of the fields every entry read back has.
 */
function isLogEntry(value: unknown): value is Json {
  const payload = isObject(value) && (isObject(value.jsonPayload) || typeof value.textPayload === 'string' || isObject(value.protoPayload));
  return payload && (typeof value.logName === 'string' || typeof value.insertId === 'string' || isObject(value.resource));
}

/** GKE's entries of one event (by uid) as one event: count the entries, first and last their times. */
function fromCloudLogging(entries: Json[]): SavedEvents {
  const byUid = new Map<string, Json>();
  const core: Json[] = [];
  let skipped = 0;
  for (const entry of entries) {
    const payload = entry.jsonPayload as Json;
    if (!isEventObject(payload)) {
      skipped += 1;
      continue;
    }
    const at = stringOnly(entry.timestamp);
    const uid = stringOnly((payload.metadata as Json).uid);
    const kept = uid === '' ? undefined : byUid.get(uid);
    if (kept === undefined) {
      const event: Json = { ...payload, count: 1, ...(at !== '' ? { firstTimestamp: at, lastTimestamp: at } : {}) };
      if (uid !== '') byUid.set(uid, event);
      core.push(event);
      continue;
    }
    const count = (kept.count as number) + 1;
    const first = stringOnly(kept.firstTimestamp);
    const last = stringOnly(kept.lastTimestamp);
    const earlier = at !== '' && (first === '' || Date.parse(at) < Date.parse(first));
    if (at === '' || (last !== '' && Date.parse(at) < Date.parse(last))) {
      kept.count = count;
      if (earlier) kept.firstTimestamp = at;
      continue;
    }
    // The latest entry's payload is the latest version (its message, series).
    for (const key of Object.keys(kept)) delete kept[key];
    Object.assign(kept, payload, { count, lastTimestamp: at, ...(first !== '' && !earlier ? { firstTimestamp: first } : { firstTimestamp: at }) });
  }
  return saved(provenance('cloud-logging', ["GKE's event exporter"], ['count and firstTimestamp (rebuilt: one entry per occurrence)'], skipped), core);
}

// -- Elasticsearch / OpenSearch -------------------------------------------------------------------

function fromSearchResponse(hits: unknown[]): SavedEvents {
  const core: Json[] = [];
  let skipped = 0;
  for (const hit of hits) {
    const source = isObject(hit) ? hit._source : undefined;
    if (isEventObject(source)) core.push(source);
    else skipped += 1;
  }
  return saved(provenance('elasticsearch', ['kubernetes-event-exporter'], [], skipped), core);
}

// -- Loki ---------------------------------------------------------------------------------------

interface LokiEntry {
  labels: Json;
  line: string;
  /** RFC 3339 */
  at: string;
}

/** Loki's nanosecond timestamps (a decimal string) as RFC 3339; '' when not one. */
function nanosToIso(text: unknown): string {
  if (typeof text !== 'string' || !/^\d{1,20}$/.test(text)) return '';
  const ns = BigInt(text);
  const ms = Number(ns / 1_000_000n);
  if (!Number.isFinite(ms) || ms > 8.64e15) return '';
  const fraction = String(ns % 1_000_000_000n).padStart(9, '0');
  return `${new Date(ms).toISOString().slice(0, 19)}.${fraction}Z`;
}

/** An RFC 3339 time in nanoseconds since the epoch (Date.parse stops at the millisecond); 0 when it is none. */
function nanosOf(at: string): bigint {
  const ms = Date.parse(at);
  if (Number.isNaN(ms)) return 0n;
  const fraction = /^[^.]*T[^.]*\.(\d+)/.exec(at)?.[1] ?? '';
  return BigInt(ms) * 1_000_000n + BigInt(fraction.padEnd(9, '0').slice(3, 9));
}

/** A Loki answer's entries, in the order given. */
function queryRangeEntries(data: Json): LokiEntry[] {
  const entries: LokiEntry[] = [];
  for (const stream of Array.isArray(data.result) ? data.result : []) {
    if (!isObject(stream)) continue;
    const labels = isObject(stream.stream) ? stream.stream : {};
    for (const value of Array.isArray(stream.values) ? stream.values : []) {
      if (Array.isArray(value) && typeof value[1] === 'string') entries.push({ labels, line: value[1], at: nanosToIso(value[0]) });
    }
  }
  return entries;
}

/** Each non-blank line's JSON value, all of them `wanted`; null at the first that is not JSON or not wanted, or when there is none. */
function jsonLines<T>(text: string, wanted: (value: unknown) => value is T): T[] | null {
  const values: T[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return null;
    }
    if (!wanted(value)) return null;
    values.push(value);
  }
  return values.length === 0 ? null : values;
}

/** One line of logcli's jsonl. */
function isLogcliLine(value: unknown): value is Json & { line: string; timestamp: string } {
  return isObject(value) && typeof value.line === 'string' && typeof value.timestamp === 'string';
}

/** logcli's jsonl lines as entries. */
function logcliEntries(lines: Array<Json & { line: string; timestamp: string }>): LokiEntry[] {
  return lines.map((value) => ({ labels: isObject(value.labels) ? value.labels : {}, line: value.line, at: Number.isNaN(Date.parse(value.timestamp)) ? '' : value.timestamp }));
}

/** One run of an Alloy event's lines: counts rising, the first line's time its first seen. */
interface Run {
  event: Json;
  count: number;
}

/** The identity Alloy leaves: the object, the reason, the type and the reporter. */
function alloyKey(namespace: string, f: AlloyFields): string {
  return [namespace, f.kind, f.name, f.reason, f.type, f.reportingcontroller ?? f.sourcecomponent, f.reportinginstance ?? f.sourcehost].join('\u0000');
}

function fromLoki(entries: LokiEntry[]): SavedEvents {
  const core: Json[] = [];
  const runs = new Map<string, Run>();
  const writers = new Set<string>();
  let skipped = 0;
  // Time order, to the nanosecond Loki keeps: a run of an event's lines is told by its count rising,
  // and Loki answers newest first (direction=backward), two lines of a run often in one millisecond.
  const keyed = entries.map((entry) => ({ entry, at: nanosOf(entry.at) }));
  const ordered = keyed.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0)).map(({ entry }) => entry);
  for (const entry of ordered) {
    let json: unknown;
    try {
      json = JSON.parse(entry.line);
    } catch {
      json = undefined;
    }
    if (isEventObject(json)) {
      writers.add("kubernetes-event-exporter's Loki sink");
      core.push(json);
      continue;
    }
    const fields = parseAlloyJson(json) ?? parseAlloyLogfmt(entry.line);
    if (fields === null) {
      skipped += 1;
      continue;
    }
    writers.add(json === undefined ? 'Grafana Alloy (logfmt)' : 'Grafana Alloy (json)');
    const namespace = stringOnly(entry.labels.namespace);
    const event = alloyEvent(fields, namespace, entry.at);
    const key = alloyKey(namespace, fields);
    const count = typeof event.count === 'number' ? event.count : 0;
    const run = runs.get(key);
    if (run !== undefined && count > run.count) {
      // The same event again, counted on: its latest version, first seen when the run began.
      const first = run.event.firstTimestamp;
      for (const k of Object.keys(run.event)) delete run.event[k];
      Object.assign(run.event, event, { firstTimestamp: first });
      run.count = count;
      continue;
    }
    const started: Run = { event: { ...event, firstTimestamp: entry.at }, count };
    runs.set(key, started);
    core.push(started.event);
  }
  const alloy = [...writers].some((w) => w.startsWith('Grafana Alloy'));
  return saved(provenance('loki', [...writers].sort(), alloy ? ALLOY_UNKEPT : [], skipped), core);
}

// -- Sniffing -------------------------------------------------------------------------------------

/**
 * A whole JSON document another store wrote: a Cloud Logging export, a search response, a Loki answer;
 * null when it is none. A Loki answer to a metric query holds no lines: refused, saying so.
 */
export function parseStoreDocument(doc: unknown, path: string): SavedEvents | null {
  if (Array.isArray(doc) && doc.length > 0 && doc.every(isLogEntry)) return fromCloudLogging(doc as Json[]);
  if (isLogEntry(doc)) return fromCloudLogging([doc]);
  if (isObject(doc) && isObject(doc.hits) && Array.isArray(doc.hits.hits)) return fromSearchResponse(doc.hits.hits);
  if (isObject(doc) && isObject(doc.data) && doc.data.resultType === 'streams' && Array.isArray(doc.data.result)) return fromLoki(queryRangeEntries(doc.data));
  if (isObject(doc) && isObject(doc.data) && (doc.data.resultType === 'matrix' || doc.data.resultType === 'vector') && Array.isArray(doc.data.result)) {
    const words = `a Loki answer of resultType "${doc.data.resultType}" (a metric query: numbers, not log lines); save a log query's answer (resultType "streams")`;
    throw new SavedFileError(path, 'not-saved-events', words);
  }
  return null;
}

/**
 * JSON lines another store wrote: Cloud Logging's entries one a line (what a log sink writes to
 * Cloud Storage, `gcloud logging read --format=json` being the array), or logcli's jsonl; null when
 * they are neither.
 */
export function parseStoreLines(text: string): SavedEvents | null {
  const entries = jsonLines(text, isLogEntry);
  if (entries !== null) return fromCloudLogging(entries);
  const lines = jsonLines(text, isLogcliLine);
  return lines === null ? null : fromLoki(logcliEntries(lines));
}

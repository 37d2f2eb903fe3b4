// --from a collector's file: the OpenTelemetry Collector's file exporter writes one OTLP JSON
// ExportLogsServiceRequest a line ({"resourceLogs":[...]}). Three writers of Kubernetes events
// are recognised, and each log record becomes a core/v1 Event again, as far as it carries one:
//
//   evtimeline  our export (scope kubectl-evtimeline, src/otlp/logs.ts): every field
//   k8sobjects  the contrib k8sobjects receiver: the object itself as the body (pull mode) or
//               {type, object} (watch mode): every field
//   k8s_events  the contrib k8s_events receiver (k8s_event_to_logdata.go): no series, no
//               reportingController/Instance or source.component, one timestamp (eventTime, else
//               lastTimestamp, else firstTimestamp) so the first occurrence is read as the event's
//               creation, no resourceVersion of the event, no namespace of its own (k8s.namespace.name
//               is the involved object's: none for a Node's), and no type but Normal or Warning
//               (newer releases: also Error and Critical, as severity text)
//
// Log records of anything else (an application's logs in the same file) are skipped and counted.
// OTLP JSON (the protobuf JSON mapping): camelCase keys, int64 as decimal strings, enums as numbers.
import { asArray, asObject, isObject, stringOrNumber } from '../core/json.ts';
import type { Json } from '../core/json.ts';
import { K8S, OUR, SCOPE_NAME } from './logs.ts';
import { EVENT_OBJECTS_TELL } from '../core/source.ts';
import type { EventVersion, FleetMember, OtlpWriter, UnreadableRecords } from '../core/source.ts';
import type { EventCluster } from '../core/event.ts';
import type { SavedEvents } from '../io/saved-events.ts';
import { latestVersions } from '../io/record-replay.ts';


export interface OtlpVersion {
  /** a core/v1 Event (or an events.k8s.io/v1 one, as the k8sobjects receiver stored it) */
  event: Json;
  /** epoch ms the writer observed it (observedTimeUnixNano); null when it does not say */
  observedAt: number | null;
  writer: OtlpWriter;
  /** the cluster its resource names (k8s.cluster.name); absent when it names none */
  cluster?: string;
}

interface OtlpFile {
  /** every event version found, in file order */
  versions: OtlpVersion[];
  writers: OtlpWriter[];
  /** log records that are not Kubernetes events */
  skipped: number;
  unreadable: UnreadableRecords | null;
}

/** A log record no reader can make sense of: it is skipped and counted, the rest of the file is read. */
class UnreadableRecord extends Error {}

/**
 * Deeper than any Kubernetes object an OTLP body carries (an Event is 3 levels, a k8sobjects watch body
 * 5); a file of hostile text may nest 100,000 levels, which recursion would meet as a stack overflow.
 */
const MAX_DEPTH = 64;



/** A plain value of an AnyValue (not an array or kvlist); undefined for those two. */
function scalarOf(value: Json): unknown {
  if ('stringValue' in value) return String(value.stringValue);
  if ('intValue' in value) return Number(value.intValue);
  if ('doubleValue' in value) return Number(value.doubleValue);
  if ('boolValue' in value) return value.boolValue === true;
  if ('bytesValue' in value) return String(value.bytesValue);
  if ('arrayValue' in value || 'kvlistValue' in value) return undefined;
  return null;
}

/** Sets a key as data: a key `__proto__` from the file is a key like any other, never the prototype. */
function setKey(object: Json, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * An OTLP AnyValue as plain JSON, walked with a work list, not recursion (hostile nesting is a
 * skipped record, not a stack overflow). Of repeated keys in a kvlist the last wins.
 */
function anyValueToJson(root: unknown): unknown {
  let result: unknown = null;
  const work: { value: unknown; depth: number; put: (v: unknown) => void }[] = [{ value: root, depth: 0, put: (v) => (result = v) }];
  for (let item = work.pop(); item !== undefined; item = work.pop()) {
    const { value, depth, put } = item;
    if (depth > MAX_DEPTH) throw new UnreadableRecord(`values nested more than ${MAX_DEPTH} levels deep`);
    if (!isObject(value)) {
      put(null);
      continue;
    }
    const scalar = scalarOf(value);
    if (scalar !== undefined) {
      put(scalar);
    } else if ('arrayValue' in value) {
      const values = isObject(value.arrayValue) && Array.isArray(value.arrayValue.values) ? value.arrayValue.values : [];
      const out: unknown[] = values.map(() => null);
      put(out);
      values.forEach((v, i) => work.push({ value: v, depth: depth + 1, put: (x) => (out[i] = x) }));
    } else {
      const list = isObject(value.kvlistValue) && Array.isArray(value.kvlistValue.values) ? value.kvlistValue.values : [];
      const out: Json = {};
      put(out);
      // Keys in file order; pushed last to first, so the last of a repeated key is filled last and wins.
      const pairs = list.filter((kv): kv is Json & { key: string } => isObject(kv) && typeof kv.key === 'string');
      for (const kv of pairs) setKey(out, kv.key, null);
      for (const kv of [...pairs].reverse()) work.push({ value: kv.value, depth: depth + 1, put: (x) => setKey(out, kv.key, x) });
    }
  }
  return result;
}

/** A KeyValue list as an object. */
function attributesToJson(list: unknown): Json {
  return asObject(anyValueToJson({ kvlistValue: { values: asArray(list) } }));
}

/** OTLP times are fixed64 nanoseconds (opentelemetry-proto logs.proto). */
const MAX_UNIX_NANOS = 2n ** 64n - 1n;

/** Nanoseconds since the epoch (a decimal string, or a number) as epoch ms; null for 0 or junk; past 64 bits the record is unreadable. */
function nanosToMs(value: unknown, field: string): number | null {
  const text = typeof value === 'number' ? String(Math.trunc(value)) : typeof value === 'string' ? value : '';
  if (!/^\d+$/.test(text) || /^0+$/.test(text)) return null;
  const nanos = BigInt(text);
  if (nanos > MAX_UNIX_NANOS) throw new UnreadableRecord(`${field} past what 64 bits hold`);
  return Number(nanos / 1_000_000n);
}

function iso(ms: number | null): string | undefined {
  return ms === null ? undefined : new Date(ms).toISOString();
}

/** Go's zero time.Time and the second after it: what an unset creationTimestamp prints as. */
const GO_ZERO_TIME_MS = Date.parse('0001-01-01T00:00:01Z');

/**
 * k8s.event.start_time, Go's time.Time.String() (`2026-11-30 10:00:00 +0000 UTC`, perhaps with
 * fractional seconds or a `m=+0.1` monotonic suffix) as RFC 3339; undefined when it does not parse.
 */
export function parseGoTimeString(text: unknown): string | undefined {
  if (typeof text !== 'string') return undefined;
  // Events made in the same second say the same: a store's rows come in time order, so most repeat the last.
  if (text === lastGoTime.text) return lastGoTime.iso;
  const iso = goTimeToIso(text);
  lastGoTime = { text, iso };
  return iso;
}

let lastGoTime: { text: string; iso: string | undefined } = { text: '', iso: undefined };

/** The common form, whole seconds in UTC (`2026-11-30 10:00:00 +0000 UTC`): read without a Date. */
const UTC_SECOND = /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d) [+-]0000\b/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Whether the fields name a real second from 1970 on, which Date would print back unchanged (it rolls 30 February over). */
function isPlainSecond(m: RegExpExecArray): boolean {
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0);
  return year >= 1970 && day >= 1 && day <= days && hour <= 23 && minute <= 59 && second <= 59;
}

function goTimeToIso(text: string): string | undefined {
  const utc = UTC_SECOND.exec(text);
  if (utc !== null && isPlainSecond(utc)) return `${text.slice(0, 10)}T${text.slice(11, 19)}Z`;
  const m = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(\.\d+)? ([+-])(\d\d)(\d\d)\b/.exec(text);
  if (!m) return undefined;
  const ms = Date.parse(`${m[1]}T${m[2]}${m[3] ?? ''}${m[4]}${m[5]}:${m[6]}`);
  if (Number.isNaN(ms) || ms <= GO_ZERO_TIME_MS) return undefined;
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

/** Drops keys whose value is undefined or '' so an absent field stays absent. */
function compact(object: Json): Json {
  // A loop, not fromEntries(entries().filter()): it runs for every version read (three times each).
  const out: Json = {};
  for (const key in object) {
    const value = object[key];
    if (value !== undefined && value !== '') out[key] = value;
  }
  return out;
}

/** How a store hands back what OTLP carried (src/stores/victorialogs-rows.ts). */
export interface StoredShape {
  /** the record's time as RFC 3339, worked out already */
  time?: string | undefined;
  /** ints come as decimal text (VictoriaLogs keeps every value as a string) */
  textInts?: boolean;
}

/** A decimal integer's text as a number; undefined for anything else. */
export function intOfText(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  return typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : undefined;
}

/**
 * Our export or the k8s_events receiver's record (the same names; ours carry more) as a core/v1
 * Event. `stored`: what a store's row already says differently.
 */
export function fromAttributes(resource: Json, record: Json, attrs: Json, stored: StoredShape = {}): Json {
  const time = 'time' in stored ? stored.time : iso(nanosToMs(record.timeUnixNano, 'timeUnixNano'));
  const int = stored.textInts === true ? intOfText : (value: unknown) => (typeof value === 'number' ? value : undefined);
  const ours = OUR.namespace in attrs;
  const type = ours ? stringOrNumber(attrs[OUR.type] ?? record.severityText) : stringOrNumber(record.severityText);
  const event: Json = {
    kind: 'Event',
    apiVersion: 'v1',
    metadata: compact({
      name: stringOrNumber(attrs[K8S.eventName]),
      namespace: ours ? stringOrNumber(attrs[OUR.namespace]) : stringOrNumber(attrs[K8S.namespace]),
      uid: stringOrNumber(attrs[K8S.eventUid]),
      resourceVersion: stringOrNumber(attrs[OUR.resourceVersion]),
      creationTimestamp: parseGoTimeString(attrs[K8S.startTime]),
    }),
    involvedObject: compact({
      apiVersion: stringOrNumber(resource[K8S.apiVersion]),
      kind: stringOrNumber(resource[K8S.kind]),
      name: stringOrNumber(resource[K8S.name]),
      namespace: stringOrNumber(attrs[K8S.namespace]),
      uid: stringOrNumber(resource[K8S.uid]),
      fieldPath: stringOrNumber(resource[K8S.fieldPath]),
      resourceVersion: stringOrNumber(resource[K8S.objectResourceVersion]),
    }),
    reason: stringOrNumber(attrs[K8S.reason]),
    message: isObject(record.body) ? stringOrNumber(anyValueToJson(record.body)) : '',
    type,
    source: compact({ component: stringOrNumber(attrs[OUR.sourceComponent]), host: stringOrNumber(resource[K8S.node]) }),
  };
  const count = int(attrs[K8S.count]);
  if (count !== undefined) event.count = count;
  const action = stringOrNumber(attrs[K8S.action]);
  if (action !== '') event.action = action;
  if (ours) {
    for (const [field, key] of [
      ['firstTimestamp', OUR.firstTimestamp],
      ['lastTimestamp', OUR.lastTimestamp],
      ['eventTime', OUR.eventTime],
      ['reportingComponent', OUR.reportingController],
      ['reportingInstance', OUR.reportingInstance],
    ] as const) {
      const value = stringOrNumber(attrs[key]);
      if (value !== '') event[field] = value;
    }
    const seriesCount = int(attrs[OUR.seriesCount]);
    if (seriesCount !== undefined || OUR.seriesLastObserved in attrs) {
      event.series = compact({ count: seriesCount, lastObservedTime: stringOrNumber(attrs[OUR.seriesLastObserved]) });
    }
  } else {
    // The receiver's one timestamp is the last one the event had.
    if (time !== undefined) event.lastTimestamp = time;
    // Newer receivers (contrib PR #45289, k8s_event_to_logdata.go) also keep the reporter, and
    // put k8s.namespace.name on the resource.
    const controller = stringOrNumber(attrs[K8S_REPORTING.controller]);
    const instance = stringOrNumber(attrs[K8S_REPORTING.instance]);
    if (controller !== '') event.reportingComponent = controller;
    if (instance !== '') event.reportingInstance = instance;
    const namespace = stringOrNumber(attrs[K8S.namespace]) || stringOrNumber(resource[K8S.namespace]);
    if (namespace !== '') {
      (event.metadata as Json).namespace = namespace;
      (event.involvedObject as Json).namespace = namespace;
    }
  }
  return event;
}

/** The reporter's attributes of newer k8s_events receivers (contrib PR #45289). */
export const K8S_REPORTING = { controller: 'k8s.event.reporting_controller', instance: 'k8s.event.reporting_instance' } as const;

function isEventObject(value: unknown): value is Json {
  return isObject(value) && value.kind === 'Event' && isObject(value.metadata);
}

/** One log record as an event version, or null when it is not about a Kubernetes event. */
function toVersion(resource: Json, scopeName: string, record: Json): OtlpVersion | null {
  const observedAt = nanosToMs(record.observedTimeUnixNano, 'observedTimeUnixNano');
  const attrs = attributesToJson(record.attributes);
  if (scopeName === SCOPE_NAME && OUR.namespace in attrs) {
    return { event: fromAttributes(resource, record, attrs), observedAt, writer: 'evtimeline' };
  }
  const body = anyValueToJson(record.body);
  // k8sobjects: watch mode {type, object}; pull mode the object itself.
  const object = isObject(body) && isEventObject(body.object) ? body.object : isEventObject(body) ? body : null;
  if (object !== null) return { event: object, observedAt, writer: 'k8sobjects' };
  if (K8S.eventUid in attrs && K8S.reason in attrs) {
    return { event: fromAttributes(resource, record, attrs), observedAt, writer: 'k8s_events' };
  }
  return null;
}

function parseLine(line: string): Json | null {
  try {
    const value: unknown = JSON.parse(line);
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

/**
 * The event versions in a file exporter's output, or null when the text is not OTLP JSON lines
 * (its first line is not an OTLP export request). A torn last line (a collector stopped mid-write)
 * is ignored; any other line that is not OTLP JSON makes the whole text not one.
 */
export function parseOtlpLines(text: string): OtlpFile | null {
  const lines = text.split('\n');
  const reader = new OtlpLineReader();
  const versions: OtlpVersion[] = [];
  for (const [index, line] of lines.entries()) {
    const read = reader.take(line, index);
    if (read === null) {
      if (index === lines.length - 1 && reader.seen > 0) break;
      return null;
    }
    versions.push(...read);
  }
  return reader.seen === 0 ? null : { versions, writers: reader.writerList(), skipped: reader.skipped, unreadable: reader.unreadable };
}

/**
 * The file exporter's lines one at a time (parseOtlpLines over a whole text, src/otlp/collector-stream.ts
 * as the file streams): the versions each holds, and what was skipped or could not be read.
 */
export class OtlpLineReader {
  private readonly writers = new Set<OtlpWriter>();
  skipped = 0;
  /** export requests read */
  seen = 0;
  unreadable: UnreadableRecords | null = null;

  private refuse(count: number, index: number, error: unknown): void {
    if (!(error instanceof UnreadableRecord)) throw error;
    const before = this.unreadable;
    this.unreadable = { count: (before?.count ?? 0) + count, line: before?.line ?? index + 1, why: before?.why ?? error.message };
  }

  writerList(): OtlpWriter[] {
    return [...this.writers].sort();
  }

  /** The versions on line `index` (0-based); [] for a blank line; null when it is not an export request. */
  take(line: string, index: number): OtlpVersion[] | null {
    if (line.trim() === '') return [];
    const elements = resourceLogsElements(line);
    const request = elements === null ? parseLine(line) : null;
    const isRequest = elements !== null || (request !== null && (Array.isArray(request.resourceLogs) || Array.isArray(request.resourceSpans) || Array.isArray(request.resourceMetrics)));
    if (!isRequest) return null;
    const each: Iterable<unknown> = elements ?? (request !== null && Array.isArray(request.resourceLogs) ? request.resourceLogs : []);
    const versions: OtlpVersion[] = [];
    try {
      this.versionsOf(each, index, versions);
    } catch (error) {
      if (error instanceof NotJson) return null;
      throw error;
    }
    this.seen += 1;
    return versions;
  }

  /**
   * The versions in one element of a line's resourceLogs array, its JSON text (a line read element
   * by element, src/otlp/request-pieces.ts); null when it is not JSON. `endRequest` then counts the line.
   */
  takeElement(text: string, index: number): OtlpVersion[] | null {
    let element: unknown;
    try {
      element = JSON.parse(text);
    } catch {
      return null;
    }
    const versions: OtlpVersion[] = [];
    this.versionsOf([element], index, versions);
    return versions;
  }

  /** A line read element by element closed as an export request does. */
  endRequest(): void {
    this.seen += 1;
  }

  /** What it has counted so far, to go back to: a torn last line counts for nothing (collector-stream.ts). */
  mark(): () => void {
    const { skipped, seen, unreadable } = this;
    const writers = [...this.writers];
    return () => {
      this.writers.clear();
      for (const writer of writers) this.writers.add(writer);
      Object.assign(this, { skipped, seen, unreadable });
    };
  }

  private versionsOf(each: Iterable<unknown>, index: number, versions: OtlpVersion[]): void {
    for (const resourceLogs of each) {
      if (!isObject(resourceLogs)) continue;
      const scopes = (Array.isArray(resourceLogs.scopeLogs) ? resourceLogs.scopeLogs : []).filter(isObject);
      let resource: Json;
      try {
        resource = attributesToJson(isObject(resourceLogs.resource) ? resourceLogs.resource.attributes : []);
      } catch (error) {
        this.refuse(scopes.reduce((n, s) => n + (Array.isArray(s.logRecords) ? s.logRecords.length : 0), 0), index, error);
        continue;
      }
      // Our export of several contexts names each one's; a receiver's pipeline may set it too (a resource processor).
      const cluster = stringOrNumber(resource[K8S.cluster]);
      for (const scopeLogs of scopes) {
        const scopeName = isObject(scopeLogs.scope) ? stringOrNumber(scopeLogs.scope.name) : '';
        for (const record of Array.isArray(scopeLogs.logRecords) ? scopeLogs.logRecords : []) {
          let version: OtlpVersion | null;
          try {
            version = isObject(record) ? toVersion(resource, scopeName, record) : null;
          } catch (error) {
            this.refuse(1, index, error);
            continue;
          }
          if (version === null) {
            this.skipped += 1;
            continue;
          }
          this.writers.add(version.writer);
          if (cluster !== '') version.cluster = cluster;
          versions.push(version);
        }
      }
    }
  }
}

/** A line that looked like an export request but is not JSON after all. */
class NotJson extends Error {}

/**
 * The resourceLogs of a line that starts as the file exporter writes one (`{"resourceLogs":[`),
 * each parsed on its own as it is iterated, or null for any other line (then parsed whole). A
 * line holds a whole export request (1.5 MB for 1,000 log records): parsed whole, its object
 * graph is garbage V8 collects late, and 22,000 versions peaked 60 MiB higher than the elements
 * one at a time (each a resource: one involved object's records). Throws NotJson when an element
 * or the line's end is not JSON.
 */
function resourceLogsElements(line: string): Iterable<unknown> | null {
  const head = /^\s*\{\s*"resourceLogs"\s*:\s*\[/.exec(line);
  if (head === null) return null;
  return (function* () {
    let depth = 0;
    let inString = false;
    let start = head[0].length;
    for (let i = start; i < line.length; i++) {
      const c = line.charCodeAt(i);
      if (inString) {
        if (c === 0x5c) i += 1;
        else if (c === 0x22) inString = false;
        continue;
      }
      if (c === 0x22) inString = true;
      else if (c === 0x7b || c === 0x5b) depth += 1;
      else if ((c === 0x2c && depth === 0) || ((c === 0x7d || c === 0x5d) && depth === 0)) {
        const text = line.slice(start, i).trim();
        if (text !== '') yield parseElement(text);
        if (c !== 0x2c) {
          // The array's end: the request's other keys (none from the file exporter) are not logs.
          if (!/^\s*(,[\s\S]*)?\}\s*$/.test(line.slice(i + 1))) throw new NotJson();
          return;
        }
        start = i + 1;
      } else if (c === 0x7d || c === 0x5d) depth -= 1;
    }
    throw new NotJson();
  })();
}

function parseElement(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new NotJson();
  }
}

/**
 * The versions with the k8s_events receiver's first, each writer's in file order. The receiver keeps
 * no resourceVersion, so its copy of a version our export or k8sobjects also wrote ties with it
 * (same count, same time), and on a tie the later one is kept: this way the copy with every field.
 */
function receiverFirst(versions: OtlpVersion[]): OtlpVersion[] {
  return [...versions.filter((v) => v.writer === 'k8s_events'), ...versions.filter((v) => v.writer !== 'k8s_events')];
}

/**
 * The clusters a collector's file names (k8s.cluster.name), each read back as a context, as a record
 * of several contexts names them in its header: the server is not in the file (''), the namespace is
 * the one its events are in when they are all in one (null: several). A version that names no
 * cluster stays unlabelled.
 */
export class NamedClusters {
  private readonly named = new Map<string, { cluster: EventCluster; namespaces: Set<string> }>();

  /** The label of a version of `cluster` (in `namespace`, counted), one object per cluster (as a live read of several labels its events). */
  label(cluster: string | undefined, namespace?: string): EventCluster | undefined {
    if (cluster === undefined) return undefined;
    let entry = this.named.get(cluster);
    if (entry === undefined) {
      entry = { cluster: { context: cluster, server: '' }, namespaces: new Set() };
      this.named.set(cluster, entry);
    }
    if (namespace !== undefined) entry.namespaces.add(namespace);
    return entry.cluster;
  }

  /** Each cluster named, in the order first named; undefined when none was. */
  members(): FleetMember[] | undefined {
    if (this.named.size === 0) return undefined;
    return [...this.named.values()].map(({ cluster, namespaces }) => {
      const [only] = namespaces;
      return { context: cluster.context, server: '', namespace: namespaces.size === 1 && only !== undefined && only !== '' ? only : null };
    });
  }
}

function namespaceOf(event: Json): string {
  return isObject(event.metadata) ? stringOrNumber(event.metadata.namespace) : '';
}

function latestOf(versions: OtlpVersion[]): Json[] {
  return latestVersions(receiverFirst(versions).map(({ event }) => ({ observedAt: null, type: 'ADDED', event })));
}

/** Several clusters named: the latest version of each event in each (a uid in two clusters is two events), and the context of each. */
function latestOfEach(versions: OtlpVersion[]): { core: Json[]; eventsK8sIo: null; coreContexts: string[] } {
  const byCluster = new Map<string, OtlpVersion[]>();
  for (const version of versions) {
    const context = version.cluster ?? '';
    const own = byCluster.get(context) ?? [];
    own.push(version);
    byCluster.set(context, own);
  }
  const core: Json[] = [];
  const coreContexts: string[] = [];
  for (const [context, own] of byCluster) {
    for (const raw of latestOf(own)) {
      core.push(raw);
      coreContexts.push(context);
    }
  }
  return { core, eventsK8sIo: null, coreContexts };
}

/** A collector's file as --from reads it: the latest version of each event (by uid, then resourceVersion, then file order). */
export function parseOtlpEventLines(text: string): SavedEvents | null {
  const file = parseOtlpLines(text);
  if (file === null) return null;
  const named = new NamedClusters();
  const versions: EventVersion[] = file.versions.map(({ event, observedAt, cluster }) => {
    const label = named.label(cluster, namespaceOf(event));
    return { event, observedAt, ...(label === undefined ? {} : { cluster: label }) };
  });
  const clusters = named.members();
  const observed = file.versions.flatMap((v) => (v.observedAt === null ? [] : [v.observedAt]));
  const namespaces = new Set(file.versions.map((v) => (isObject(v.event.metadata) ? stringOrNumber(v.event.metadata.namespace) : '')));
  const [only] = namespaces;
  // reduce, not Math.min(...xs): a file can hold more records than a call has arguments.
  const first = observed.reduce<number | null>((min, t) => (min === null || t < min ? t : min), null);
  const last = observed.reduce<number | null>((max, t) => (max === null || t > max ? t : max), null);
  return {
    provenance: {
      kind: 'otlp',
      context: '',
      server: '',
      namespace: namespaces.size === 1 && only !== undefined && only !== '' ? only : null,
      firstObserved: first,
      lastObserved: last,
      // The k8s_events receiver keeps no reporter: an account must not name one as missing from the event.
      tells: file.writers.includes('k8s_events') ? { ...EVENT_OBJECTS_TELL, reporters: false } : EVENT_OBJECTS_TELL,
      writers: file.writers,
      skipped: file.skipped,
      unreadable: file.unreadable,
      ...(clusters === undefined ? {} : { clusters }),
    },
    raw: clusters === undefined ? { core: latestOf(file.versions), eventsK8sIo: null } : latestOfEach(file.versions),
    versions,
  };
}

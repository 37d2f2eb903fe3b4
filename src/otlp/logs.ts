// One Kubernetes Event version as one OpenTelemetry log record, named as the Collector's
// k8s_events receiver names it (contrib receiver/k8seventsreceiver k8s_event_to_logdata.go,
// v0.111.0: there are no semantic conventions for events yet, semantic-conventions#2318), plus
// what that receiver drops under attributes of our own (`evtimeline.*`), so a backend holds the
// whole event and `--from` can read it back.
//
// The receiver's shape: resource k8s.node.name (source.host) and k8s.object.* (involvedObject);
// Timestamp = eventTime, else lastTimestamp, else firstTimestamp; Body = message; severity from
// the lower-cased type (normal INFO, warning WARN; newer releases also error ERROR and critical
// FATAL, contrib PR #43402), any other type none at all; attributes
// k8s.event.reason/action/start_time (creationTimestamp in Go's time.String form)/name/uid,
// k8s.namespace.name (involvedObject.namespace), k8s.event.count (count, when not 0).
// It drops series, reportingController/Instance, source.component, the event's own
// resourceVersion and the other timestamps. A type it has no severity for gets none, so no
// severity filter finds it: here it gets WARN with the type as severity text, and
// evtimeline.event.type says the raw type.
//
// Pure: raw event JSON in (core/v1, or events.k8s.io/v1 read through its core/v1 view, so both
// shapes of one event give one record), plain data out. The wire encoding (protobuf or JSON) is
// src/otlp/encode.ts, through the official @opentelemetry/otlp-transformer.
import { asObject, stringOrNumber } from '../core/json.ts';
import type { Json } from '../core/json.ts';
import { coreV1View } from '../core/event.ts';

/** [seconds, nanoseconds] since the epoch, as OpenTelemetry's HrTime. */
type HrTime = [number, number];

type AttributeValue = string | number;

export interface OtlpLog {
  /** one resource per involved object, as the receiver makes it */
  resource: Record<string, AttributeValue>;
  time: HrTime;
  /** when this version was observed (a record's observedAt; an export's read time) */
  observed: HrTime;
  /** 0: unspecified */
  severityNumber: number;
  severityText: string;
  body: string;
  attributes: Record<string, AttributeValue>;
  /** the event's time, or the time it was observed, lay outside what timeUnixNano holds: sent as 0 */
  timeOutOfRange: boolean;
}

/** OpenTelemetry's SeverityNumber values used here (logs data model). */
export const SEVERITY = { INFO: 9, WARN: 13, ERROR: 17, FATAL: 21 } as const;

/** The instrumentation scope our log records carry: `--from` tells our exports by it. */
export const SCOPE_NAME = 'kubectl-evtimeline';

/** Our own attribute names, for what the k8s_events receiver drops. */
export const OUR = {
  type: 'evtimeline.event.type',
  namespace: 'evtimeline.event.namespace',
  resourceVersion: 'evtimeline.event.resource_version',
  seriesCount: 'evtimeline.event.series.count',
  seriesLastObserved: 'evtimeline.event.series.last_observed_time',
  reportingController: 'evtimeline.event.reporting_controller',
  reportingInstance: 'evtimeline.event.reporting_instance',
  sourceComponent: 'evtimeline.event.source.component',
  eventTime: 'evtimeline.event.event_time',
  firstTimestamp: 'evtimeline.event.first_timestamp',
  lastTimestamp: 'evtimeline.event.last_timestamp',
} as const;

/** The receiver's names. */
export const K8S = {
  node: 'k8s.node.name',
  kind: 'k8s.object.kind',
  name: 'k8s.object.name',
  uid: 'k8s.object.uid',
  fieldPath: 'k8s.object.fieldpath',
  apiVersion: 'k8s.object.api_version',
  objectResourceVersion: 'k8s.object.resource_version',
  reason: 'k8s.event.reason',
  action: 'k8s.event.action',
  startTime: 'k8s.event.start_time',
  eventName: 'k8s.event.name',
  eventUid: 'k8s.event.uid',
  namespace: 'k8s.namespace.name',
  count: 'k8s.event.count',
  /**
   * Several contexts read together: the context the event came from, as the resource's cluster
   * (semantic conventions, registry/attributes/k8s.md: "k8s.cluster.name: The name of the cluster",
   * a resource attribute; the kubeconfig's context is the name the user reads it by).
   */
  cluster: 'k8s.cluster.name',
} as const;

const ZERO: HrTime = [0, 0];

/**
 * An RFC 3339 time to HrTime without losing digits (eventTime and series.lastObservedTime are
 * MicroTime: six fractional digits). Null when it does not parse, and for Go's zero time.
 */
export function parseHrTime(text: string): HrTime | null {
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)$/i.exec(text);
  if (!m) return null;
  const ms = Date.parse(`${m[1]}${m[3]}`);
  if (Number.isNaN(ms) || ms <= Date.parse('0001-01-01T00:00:01Z')) return null;
  return [Math.floor(ms / 1000), Number((m[2] ?? '').padEnd(9, '0'))];
}

// OTLP's time_unix_nano and observed_time_unix_nano are fixed64 nanoseconds since the epoch, 0 meaning
// "unknown or missing" (opentelemetry-proto logs/v1/logs.proto): they hold 1970-01-01T00:00:00Z to
// 2554-07-21T23:34:33.709551615Z. The API server accepts any time (`lastTimestamp: 3000-01-01T00:00:00Z`),
// and wrapped into 64 bits it would read as another year (3000 as 2415): such a time goes out as 0, and
// the event's own times travel in our evtimeline.event.* attributes, which --from reads back.
const MAX_UNIX_NANOS = 2n ** 64n - 1n;

function fitsUnixNano([seconds, nanos]: HrTime): boolean {
  return Number.isSafeInteger(seconds) && seconds >= 0 && BigInt(seconds) * 1_000_000_000n + BigInt(nanos) <= MAX_UNIX_NANOS;
}

export function hrTimeFromMs(ms: number): HrTime {
  const seconds = Math.floor(ms / 1000);
  return [seconds, Math.round((ms - seconds * 1000) * 1e6)];
}

const MONTHS = ['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12'];

/**
 * metav1.Time.String() as the receiver writes k8s.event.start_time: Go's time.Time.String(),
 * `2006-01-02 15:04:05.999999999 -0700 MST`. Our times are UTC: `2026-11-30 10:00:00 +0000 UTC`.
 * Go's zero time for none.
 */
export function goTimeString(text: string): string {
  const t = parseHrTime(text);
  if (t === null) return '0001-01-01 00:00:00 +0000 UTC';
  const d = new Date(t[0] * 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  const fraction = t[1] === 0 ? '' : `.${String(t[1]).padStart(9, '0').replace(/0+$/, '')}`;
  return (
    `${d.getUTCFullYear()}-${MONTHS[d.getUTCMonth()]}-${pad(d.getUTCDate())} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}${fraction} +0000 UTC`
  );
}

/**
 * The receiver's severity map, keyed by the lower-cased type: normal and warning in every release
 * (v0.111.0, k8s_event_to_logdata.go:26-29), error and critical in newer ones (contrib PR #43402),
 * so the same event has the same severity whichever of the two shipped it. A Map: a type is
 * untrusted text, and `constructor` must not find Object.prototype's.
 */
const RECEIVER_SEVERITY = new Map<string, number>([
  ['normal', SEVERITY.INFO],
  ['warning', SEVERITY.WARN],
  ['error', SEVERITY.ERROR],
  ['critical', SEVERITY.FATAL],
]);

/** Severity as the receiver sets it (the type as text); WARN naming the type for any type it has none for. */
function severity(type: string): { severityNumber: number; severityText: string } {
  const known = RECEIVER_SEVERITY.get(type.toLowerCase());
  if (known !== undefined) return { severityNumber: known, severityText: type };
  // An unconventional type is a finding, not noise: it must reach a `severity >= WARN` filter.
  return { severityNumber: SEVERITY.WARN, severityText: type === '' ? 'Unknown' : type };
}

/** Sets `key` only when the value says something: absent fields stay absent. */
function putIf(attributes: Record<string, AttributeValue>, key: string, value: string): void {
  if (value !== '') attributes[key] = value;
}

/**
 * The log record for one Event version (as the API server sent it, or as a record keeps it),
 * observed at `observed`. An events.k8s.io/v1 object (`regarding`, `note`, `deprecated*`) is read
 * through its core/v1 view: the record is the one the k8s_events receiver, a core/v1 watcher,
 * writes for the same stored event.
 */
export function eventToLog(raw: Json, observed: HrTime, context?: string): OtlpLog {
  const event = coreV1View(raw);
  const meta = asObject(event.metadata);
  const involved = asObject(event.involvedObject);
  const source = asObject(event.source);
  const series = asObject(event.series);
  const type = stringOrNumber(event.type);
  const eventTime = stringOrNumber(event.eventTime);
  const first = stringOrNumber(event.firstTimestamp);
  const last = stringOrNumber(event.lastTimestamp);
  const time = parseHrTime(eventTime) ?? parseHrTime(last) ?? parseHrTime(first) ?? ZERO;
  const timeOutOfRange = !fitsUnixNano(time) || !fitsUnixNano(observed);

  const resource: Record<string, AttributeValue> = {
    [K8S.node]: stringOrNumber(source.host),
    [K8S.kind]: stringOrNumber(involved.kind),
    [K8S.name]: stringOrNumber(involved.name),
    [K8S.uid]: stringOrNumber(involved.uid),
    [K8S.fieldPath]: stringOrNumber(involved.fieldPath),
    [K8S.apiVersion]: stringOrNumber(involved.apiVersion),
    [K8S.objectResourceVersion]: stringOrNumber(involved.resourceVersion),
    ...(context === undefined ? {} : { [K8S.cluster]: context }),
  };
  const attributes: Record<string, AttributeValue> = {
    [K8S.reason]: stringOrNumber(event.reason),
    [K8S.action]: stringOrNumber(event.action),
    [K8S.startTime]: goTimeString(stringOrNumber(meta.creationTimestamp)),
    [K8S.eventName]: stringOrNumber(meta.name),
    [K8S.eventUid]: stringOrNumber(meta.uid),
    [K8S.namespace]: stringOrNumber(involved.namespace),
  };
  const count = typeof event.count === 'number' ? event.count : 0;
  if (count !== 0) attributes[K8S.count] = count;

  if (type !== 'Normal' && type !== 'Warning') attributes[OUR.type] = type;
  attributes[OUR.namespace] = stringOrNumber(meta.namespace);
  putIf(attributes, OUR.resourceVersion, stringOrNumber(meta.resourceVersion));
  if (typeof series.count === 'number') attributes[OUR.seriesCount] = series.count;
  putIf(attributes, OUR.seriesLastObserved, stringOrNumber(series.lastObservedTime));
  // core/v1 JSON spells reportingController `reportingComponent` (coreV1View renames it).
  putIf(attributes, OUR.reportingController, stringOrNumber(event.reportingComponent));
  putIf(attributes, OUR.reportingInstance, stringOrNumber(event.reportingInstance));
  putIf(attributes, OUR.sourceComponent, stringOrNumber(source.component));
  putIf(attributes, OUR.eventTime, eventTime);
  putIf(attributes, OUR.firstTimestamp, first);
  putIf(attributes, OUR.lastTimestamp, last);

  return {
    resource,
    time: fitsUnixNano(time) ? time : ZERO,
    observed: fitsUnixNano(observed) ? observed : ZERO,
    ...severity(type),
    body: stringOrNumber(event.message),
    attributes,
    timeOutOfRange,
  };
}



// One row of VictoriaLogs' /select/logsql/query answer as an event version. VictoriaLogs keeps an
// OTLP log record flat (app/vlinsert/opentelemetry/pb.go, v1.52.2): resource and record attributes
// as fields under their own names, every value a string (an int 3 is "3"), the body as _msg, the
// record's timestamp as _time (RFC 3339, nanoseconds; its observed time is not kept), scope.name,
// severity_text; a field whose value is empty is not kept at all. The writers told apart here are
// those of a collector's file (src/otlp/collector-file.ts): our export (every field) and the contrib
// k8s_events receiver through its otlphttp exporter (no series, no resourceVersion; a reporter only
// from newer releases). Anything else (an application's logs in the same store) is skipped.
import { isObject, stringOnly, stringOrNumber } from '../core/json.ts';
import { normaliseEvent, parseTime } from '../core/event.ts';
import type { Event } from '../core/event.ts';
import type { Json } from '../core/json.ts';
import type { OtlpWriter } from '../core/source.ts';
import { K8S, OUR, SCOPE_NAME } from '../otlp/logs.ts';
import { fromAttributes, intOfText, K8S_REPORTING, parseGoTimeString } from '../otlp/collector-file.ts';

interface StoredVersion {
  event: Json;
  writer: OtlpWriter;
}

/** RFC 3339 with up to nine fractional digits as nanoseconds since the epoch (a decimal string); '' when it does not parse. */
const RFC3339 = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)$/;

export function rfc3339ToNanos(text: string): string {
  const m = RFC3339.exec(text);
  if (!m) return '';
  const ms = Date.parse(`${m[1]}${m[3]}`);
  if (Number.isNaN(ms)) return '';
  return (BigInt(ms) * 1_000_000n + BigInt((m[2] ?? '').padEnd(9, '0'))).toString();
}

/**
 * Every field a row is read by (rowToVersion, fromAttributes, keptReporter): the rows are asked for
 * these alone (`| fields ...`). A row of our export is about 1,270 bytes of JSON, 280 of them
 * `_stream` (the resource's attributes once more), `_stream_id`, `scope.version` and
 * `severity_number`, which nothing reads; each byte asked for is one the server writes and the
 * reader parses (docs/victorialogs/logsql.md, "fields pipe"). A field a row lacks is left out of the
 * answer, as every empty one is (keyConcepts.md: "Empty values are treated the same as missing").
 * `k8s.cluster.name` is not among them: nothing here reads it.
 */
export const ROW_FIELDS: readonly string[] = ['_msg', '_time', 'severity_text', 'scope.name', ...Object.values(OUR), ...Object.values(K8S).filter((key) => key !== K8S.cluster), ...Object.values(K8S_REPORTING)];

/** The fields rowToEvent and keptReporter read: those of ROW_FIELDS but the object's resourceVersion, which a normalised Event does not hold. */
export const EVENT_FIELDS: readonly string[] = ROW_FIELDS.filter((key) => key !== K8S.objectResourceVersion);

/** Where a row holds each field that rowToEvent, writerOf and keptReporter read. */
export interface RowNames {
  severity: string;
  scope: string;
  our: Record<keyof typeof OUR, string>;
  k8s: Record<keyof typeof K8S, string>;
  reporting: Record<keyof typeof K8S_REPORTING, string>;
}

/** Each field under its own name, as the store keeps it. */
export const FULL_NAMES: RowNames = { severity: 'severity_text', scope: 'scope.name', our: OUR, k8s: K8S, reporting: K8S_REPORTING };

const prefixed = <T extends Record<string, string>>(names: T, prefix: string) => Object.fromEntries(Object.keys(names).map((key) => [key, `${prefix}${key}`])) as Record<keyof T, string>;

/**
 * Each field as a normalising read asks for it (`| rename`, SHORT_RENAMES): its name in this code,
 * short. The stored names are long (`evtimeline.event.series.last_observed_time`) and come again in
 * every row: renamed, a row of our export is about 700 bytes where it was 949, bytes the server
 * writes and this process receives, decodes and parses.
 */
export const SHORT_NAMES: RowNames = { severity: 'sev', scope: 'scope', our: prefixed(OUR, 'o_'), k8s: prefixed(K8S, 'k_'), reporting: prefixed(K8S_REPORTING, 'r_') };

/** Pairs [stored name, short name] of every field of EVENT_FIELDS but _msg and _time (short already). */
export const SHORT_RENAMES: readonly (readonly [string, string])[] = (() => {
  const pairs: [string, string][] = [[FULL_NAMES.severity, SHORT_NAMES.severity], [FULL_NAMES.scope, SHORT_NAMES.scope]];
  for (const group of ['our', 'k8s', 'reporting'] as const) {
    const full = FULL_NAMES[group] as Record<string, string>;
    const short = SHORT_NAMES[group] as Record<string, string>;
    for (const key of Object.keys(full)) pairs.push([full[key] as string, short[key] as string]);
  }
  return pairs.filter(([full]) => EVENT_FIELDS.includes(full));
})();

/** A row read under SHORT_NAMES, with its fields under their stored names again (for rowToVersion). */
export function withFullNames(row: Json): Json {
  const out: Json = {};
  if ('_msg' in row) out._msg = row._msg;
  if ('_time' in row) out._time = row._time;
  for (const [full, short] of SHORT_RENAMES) if (short in row) out[full] = row[short];
  return out;
}

/** A stored row as an event version, or null when it is not about a Kubernetes event. */
export function rowToVersion(row: Json): StoredVersion | null {
  const writer = writerOf(row);
  if (writer === null) return null;
  const time = stringOnly(row._time);
  const record: Json = {
    body: { stringValue: stringOnly(row._msg) },
    severityText: stringOnly(row.severity_text),
  };
  const ms = timeMs(time);
  // A time the fast path does not take (before 1970, past 64 bits of nanoseconds) goes the collector file's way.
  if (ms === undefined) record.timeUnixNano = rfc3339ToNanos(time);
  // The row is read as it came (its ints as text): a row changed in place costs V8 a new map per row.
  const stored = ms === undefined ? { textInts: true } : { textInts: true, time: ms === null ? undefined : new Date(ms).toISOString() };
  return { event: fromAttributes(row, record, row, stored), writer };
}

/** Which writer a row is from; null when it is not about a Kubernetes event (as rowToVersion tells). */
function writerOf(row: Json, n: RowNames = FULL_NAMES): OtlpWriter | null {
  if (row[n.scope] === SCOPE_NAME && typeof row[n.our.namespace] === 'string') return 'evtimeline';
  return typeof row[n.k8s.eventUid] === 'string' && typeof row[n.k8s.reason] === 'string' ? 'k8s_events' : null;
}

/**
 * A stored row as the normalised event, for a fold that keeps no raw version: what
 * normaliseEvent(rowToVersion(row).event) is (a property test holds them equal), without the raw
 * Event, its four nested objects and their compacted copies made per row and dropped at once:
 * for 220,000 rows that was a fifth of the reader's CPU and much of its garbage. A _time outside
 * 1971-2553 (before the epoch, or past 64 bits of nanoseconds, which the collector file's reader
 * refuses) goes rowToVersion's way.
 * It repeats what fromAttributes and normaliseEvent read, on purpose: what they could share is the
 * raw Event between them, the very object this skips, and the merge tried before (one reader of a
 * row's fields that both build from) made one more object per row: not merged.
 * The property test (test/unit/stores/victorialogs.test.ts) keeps the two from drifting apart.
 */
export function rowToEvent(row: Json, n: RowNames = FULL_NAMES): { event: Event; writer: OtlpWriter } | null {
  const writer = writerOf(row, n);
  if (writer === null) return null;
  const time = stringOnly(row._time);
  if (!(time >= '1971' && time < '2554')) {
    const version = rowToVersion(n === FULL_NAMES ? row : withFullNames(row)) as StoredVersion;
    return { event: normaliseEvent(version.event), writer };
  }
  // As fromAttributes tells them: by the field alone (a receiver's row could carry it too).
  const ours = n.our.namespace in row;
  const text = (key: string): string => stringOrNumber(row[key]);
  // k8s.event.start_time (Go's time.Time.String()) is read only when no other time says when it began.
  const created = (): number | null => parseTime(parseGoTimeString(row[n.k8s.startTime]));
  const severity = stringOnly(row[n.severity]);
  const count = positiveInt(intOfText(row[n.k8s.count]));
  let eventTime: number | null = null;
  let firstSeen: number | null;
  let lastSeen: number | null;
  let seriesCount: number | null = null;
  let seriesStyle = false;
  if (ours) {
    eventTime = parseTime(text(n.our.eventTime));
    firstSeen = eventTime ?? parseTime(text(n.our.firstTimestamp)) ?? created();
    const series = intOfText(row[n.our.seriesCount]);
    const lastObserved = text(n.our.seriesLastObserved);
    seriesCount = positiveInt(series);
    seriesStyle = eventTime !== null || series !== undefined || lastObserved !== '';
    lastSeen = parseTime(lastObserved) ?? parseTime(text(n.our.lastTimestamp)) ?? firstSeen;
  } else {
    // The receiver's one timestamp is its last (fromAttributes: lastTimestamp).
    firstSeen = created();
    const ms = timeMs(time);
    lastSeen = (ms === null || ms === undefined ? null : parseTime(new Date(ms).toISOString())) ?? firstSeen;
  }
  const namespace = ours ? text(n.our.namespace) : text(n.k8s.namespace);
  const event: Event = {
    uid: text(n.k8s.eventUid),
    name: text(n.k8s.eventName),
    namespace,
    resourceVersion: text(n.our.resourceVersion),
    type: ours ? stringOrNumber(row[n.our.type] ?? severity) : severity,
    reason: text(n.k8s.reason),
    message: stringOnly(row._msg),
    action: text(n.k8s.action),
    object: { apiVersion: text(n.k8s.apiVersion), kind: text(n.k8s.kind), name: text(n.k8s.name), namespace: text(n.k8s.namespace), uid: text(n.k8s.uid), fieldPath: text(n.k8s.fieldPath) },
    reporter: text(ours ? n.our.reportingController : n.reporting.controller) || text(n.our.sourceComponent),
    instance: text(ours ? n.our.reportingInstance : n.reporting.instance) || text(n.k8s.node),
    count: seriesCount ?? count ?? 1,
    firstSeen,
    lastSeen,
    seriesStyle,
  };
  return { event, writer };
}

function positiveInt(value: number | undefined): number | null {
  return value !== undefined && Number.isInteger(value) && value > 0 ? value : null;
}

/** 2^64 - 1 nanoseconds (OTLP's fixed64) in ms: a later time is the collector file reader's to refuse. */
const MAX_MS = 18_446_744_073_709;

/**
 * _time as epoch ms, as rfc3339ToNanos and then the collector file's nanosToMs would make it
 * (truncated to the ms; null for what does not parse and for the epoch itself), without BigInt;
 * undefined for what only that way can tell (before the epoch, past 64 bits).
 */
function timeMs(text: string): number | null | undefined {
  const m = RFC3339.exec(text);
  if (!m) return null;
  const seconds = Date.parse(`${m[1]}${m[3]}`);
  if (Number.isNaN(seconds)) return null;
  if (seconds <= 0 || seconds >= MAX_MS) return undefined;
  return seconds + Number((m[2] ?? '').padEnd(3, '0').slice(0, 3));
}

/** Whether a k8s_events receiver's row kept the reporter (newer releases do). */
export function keptReporter(row: Json, n: RowNames = FULL_NAMES): boolean {
  return typeof row[n.reporting.controller] === 'string';
}

/** A line of the answer as a row; null when it is not a JSON object. */
export function parseRow(line: string): Json | null {
  try {
    const value: unknown = JSON.parse(line);
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

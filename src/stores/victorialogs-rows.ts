// One row of VictoriaLogs' /select/logsql/query answer as an event version. VictoriaLogs keeps an
// OTLP log record flat (app/vlinsert/opentelemetry/pb.go, v1.52.2): resource and record attributes
// as fields under their own names, every value a string (an int 3 is "3"), the body as _msg, the
// record's timestamp as _time (RFC 3339, nanoseconds; its observed time is not kept), scope.name,
// severity_text; a field whose value is empty is not kept at all. The writers told apart here are
// those of a collector's file (src/otlp/collector-file.ts): our export (every field) and the contrib
// k8s_events receiver through its otlphttp exporter (no series, no resourceVersion; a reporter only
// from newer releases). Anything else (an application's logs in the same store) is skipped.
import { isObject, stringOnly } from '../core/json.ts';
import type { Json } from '../core/json.ts';
import type { OtlpWriter } from '../core/source.ts';
import { K8S, OUR, SCOPE_NAME } from '../otlp/logs.ts';
import { fromAttributes, K8S_REPORTING } from '../otlp/collector-file.ts';

interface StoredVersion {
  event: Json;
  writer: OtlpWriter;
  /** epoch ms of the row's _time: the writer's timestamp (eventTime, else lastTimestamp) */
  at: number | null;
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

/** A stored row as an event version, or null when it is not about a Kubernetes event. */
export function rowToVersion(row: Json): StoredVersion | null {
  const ours = row['scope.name'] === SCOPE_NAME && typeof row[OUR.namespace] === 'string';
  const receiver = !ours && typeof row[K8S.eventUid] === 'string' && typeof row[K8S.reason] === 'string';
  if (!ours && !receiver) return null;
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
  const at = Date.parse(time);
  return { event: fromAttributes(row, record, row, stored), writer: ours ? 'evtimeline' : 'k8s_events', at: Number.isNaN(at) ? null : at };
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
export function keptReporter(row: Json): boolean {
  return typeof row[K8S_REPORTING.controller] === 'string';
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

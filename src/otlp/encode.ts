// OTLP/HTTP request bodies for log records, encoded by the official OpenTelemetry JS serializer
// (@opentelemetry/otlp-transformer: the code every OpenTelemetry JS exporter sends with), so
// the protobuf and JSON wire formats are the project's, not ours to get wrong: field numbers,
// fixed64 nanosecond times, int64-as-string in JSON, grouping by resource and scope.
//
// The library is loaded on the first batch only: verbs that never export, and --version, do not
// pay for it: it is a chunk of its own in the executable (src/otlp/transformer.ts).
import { runChunk } from '../chunk.ts';
import type { OtlpLog } from './logs.ts';
import { SCOPE_NAME } from './logs.ts';
import { VERSION } from '../version.ts';

export type Encoding = 'protobuf' | 'json';

type Transformer = typeof import('./transformer.ts');
/** The SDK's ReadableLogRecord, as the serializer takes it. */
type ReadableLogRecord = Parameters<Transformer['ProtobufLogsSerializer']['serializeRequest']>[0][number];

// Set by build.mjs (esbuild define) to the chunk's file name; undefined when run from source.
declare const __EVTIMELINE_OTLP_CHUNK__: string | undefined;

let transformer: Promise<Transformer> | undefined;

function loadTransformer(): Promise<Transformer> {
  transformer ??=
    typeof __EVTIMELINE_OTLP_CHUNK__ === 'string'
      ? Promise.resolve(runChunk(__EVTIMELINE_OTLP_CHUNK__) as Transformer)
      : import('./transformer.ts');
  return transformer;
}

export const CONTENT_TYPE: Record<Encoding, string> = {
  protobuf: 'application/x-protobuf',
  json: 'application/json',
};

const SCOPE = { name: SCOPE_NAME, version: VERSION };

/**
 * The serializer reads these fields of an SDK log record, nothing else (its Resource is read for
 * `attributes` and `schemaUrl` only). Records of one resource share one object, which is how the
 * serializer groups them into one ResourceLogs.
 */
function toReadable(logs: OtlpLog[]): ReadableLogRecord[] {
  const resources = new Map<string, { attributes: OtlpLog['resource'] }>();
  return logs.map((log) => {
    const key = JSON.stringify(log.resource);
    let resource = resources.get(key);
    if (resource === undefined) {
      resource = { attributes: log.resource };
      resources.set(key, resource);
    }
    const record = {
      hrTime: log.time,
      hrTimeObserved: log.observed,
      severityNumber: log.severityNumber,
      severityText: log.severityText,
      body: log.body,
      attributes: log.attributes,
      droppedAttributesCount: 0,
      resource,
      instrumentationScope: SCOPE,
    };
    return record as unknown as ReadableLogRecord;
  });
}

/** An ExportLogsServiceRequest holding `logs`. */
export async function encodeLogs(logs: OtlpLog[], encoding: Encoding): Promise<Uint8Array> {
  const { ProtobufLogsSerializer, JsonLogsSerializer } = await loadTransformer();
  const serializer = encoding === 'json' ? JsonLogsSerializer : ProtobufLogsSerializer;
  const body = serializer.serializeRequest(toReadable(logs));
  if (body === undefined) throw new Error('the OTLP serializer produced no request');
  return body;
}

/** How many log records an ExportLogsServiceResponse says the server rejected (partial success), with its message. */
export async function rejectedLogs(body: Uint8Array, encoding: Encoding): Promise<{ rejected: number; message: string }> {
  if (body.length === 0) return { rejected: 0, message: '' };
  const { ProtobufLogsSerializer, JsonLogsSerializer } = await loadTransformer();
  const serializer = encoding === 'json' ? JsonLogsSerializer : ProtobufLogsSerializer;
  try {
    const partial = serializer.deserializeResponse(body).partialSuccess;
    return { rejected: Number(partial?.rejectedLogRecords ?? 0), message: partial?.errorMessage ?? '' };
  } catch {
    return { rejected: 0, message: '' };
  }
}

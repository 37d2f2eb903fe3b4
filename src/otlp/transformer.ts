// The part of @opentelemetry/otlp-transformer this project uses: the logs serializers. build.mjs
// bundles this file alone as a chunk (src/chunk.ts) that export and record --otlp load on their
// first batch; no other verb, and not --version, pays for it.
export { JsonLogsSerializer, ProtobufLogsSerializer } from '@opentelemetry/otlp-transformer';

// --otlp and its companions, shared by export and record: raw flag strings to a typed target once.
import { UsageError } from '../errors.ts';
import type { Encoding } from '../otlp/encode.ts';
import { DEFAULT_BATCH, DEFAULT_OTLP_RETRY } from '../otlp/ship.ts';
import type { RetryPolicy } from '../core/retry.ts';
import { parseDurationFlag } from './raw.ts';
import type { RawOptions } from './raw.ts';

export interface OtlpOptions {
  url: URL;
  encoding: Encoding;
  headers: Record<string, string>;
  /** --otlp-ca: a PEM file of CAs to trust (read when the verb runs) */
  caFile?: string;
  /** --otlp-client-cert and --otlp-client-key: PEM files for mutual TLS (read when the verb runs) */
  clientCert?: { certFile: string; keyFile: string };
  timeoutMs: number;
  batchSize: number;
  /** no flag: tests shorten it */
  retry: RetryPolicy;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * The logs endpoint. A URL with no path is a collector's base address, and gets /v1/logs as the
 * OTLP exporter specification does for OTEL_EXPORTER_OTLP_ENDPOINT; any other path is used as given.
 */
export function parseOtlpUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--otlp ${JSON.stringify(text)}: want an http or https URL, e.g. http://localhost:4318/v1/logs`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`--otlp ${JSON.stringify(text)}: want an http or https URL (OTLP/HTTP; gRPC is not supported)`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new UsageError('--otlp: put credentials in --otlp-header Authorization=..., not in the URL');
  }
  if (url.pathname === '/' || url.pathname === '') url.pathname = '/v1/logs';
  return url;
}

// An HTTP header name is a token (RFC 9110 5.1).
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// Headers the sender sets itself: letting a flag override them would break the request.
const RESERVED = new Set(['content-type', 'content-length', 'host', 'transfer-encoding', 'connection']);

/** --otlp-header K=V (repeatable; --from-header too): the value may hold '=' and is kept exactly, spaces included. */
export function parseOtlpHeaders(values: unknown, flag = '--otlp-header'): Record<string, string> {
  const list = values === undefined ? [] : Array.isArray(values) ? values.map(String) : [String(values)];
  const headers: Record<string, string> = {};
  for (const item of list) {
    const eq = item.indexOf('=');
    const name = eq < 0 ? item : item.slice(0, eq);
    if (eq < 0 || !TOKEN.test(name)) throw new UsageError(`${flag} ${JSON.stringify(item)}: want NAME=VALUE, e.g. Authorization=Bearer abc`);
    if (RESERVED.has(name.toLowerCase())) throw new UsageError(`${flag} ${name}: set by the plugin itself`);
    const value = item.slice(eq + 1);
    if (/[\r\n\0]/.test(value)) throw new UsageError(`${flag} ${name}: the value holds a line break`);
    headers[name] = value;
  }
  return headers;
}

function parseBatchSize(value: unknown): number {
  if (value === undefined) return DEFAULT_BATCH;
  const text = String(value);
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > 100_000) {
    throw new UsageError(`--otlp-batch ${JSON.stringify(text)}: want a number of log records from 1 to 100000`);
  }
  return Number(text);
}

/** --otlp-client-cert with --otlp-client-key (a collector's confighttp `client_ca_file` asks for both), https only. */
function parseClientCert(raw: RawOptions, url: URL): { certFile: string; keyFile: string } | undefined {
  const certFile = typeof raw.otlpClientCert === 'string' ? raw.otlpClientCert : undefined;
  const keyFile = typeof raw.otlpClientKey === 'string' ? raw.otlpClientKey : undefined;
  if (certFile === undefined && keyFile === undefined) return undefined;
  if (certFile === undefined) throw new UsageError('--otlp-client-key needs --otlp-client-cert');
  if (keyFile === undefined) throw new UsageError('--otlp-client-cert needs --otlp-client-key');
  if (url.protocol !== 'https:') throw new UsageError('--otlp-client-cert applies to an https URL');
  return { certFile, keyFile };
}

/** The OTLP target, or null without --otlp (then no other --otlp-* flag may be given). */
export function parseOtlpOptions(raw: RawOptions): OtlpOptions | null {
  if (typeof raw.otlp !== 'string') {
    const stray = ['otlpJson', 'otlpHeader', 'otlpCa', 'otlpClientCert', 'otlpClientKey', 'otlpTimeout', 'otlpBatch'].find((key) => raw[key] !== undefined);
    if (stray !== undefined) {
      const flag = `--${stray.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
      throw new UsageError(`${flag} needs --otlp URL`);
    }
    return null;
  }
  const caFile = typeof raw.otlpCa === 'string' ? raw.otlpCa : undefined;
  const url = parseOtlpUrl(raw.otlp);
  if (caFile !== undefined && url.protocol !== 'https:') throw new UsageError('--otlp-ca applies to an https URL');
  const clientCert = parseClientCert(raw, url);
  return {
    url,
    encoding: raw.otlpJson === true ? 'json' : 'protobuf',
    headers: parseOtlpHeaders(raw.otlpHeader),
    ...(caFile !== undefined ? { caFile } : {}),
    ...(clientCert !== undefined ? { clientCert } : {}),
    timeoutMs: parseDurationFlag('--otlp-timeout', typeof raw.otlpTimeout === 'string' ? raw.otlpTimeout : undefined) ?? DEFAULT_TIMEOUT_MS,
    batchSize: parseBatchSize(raw.otlpBatch),
    retry: DEFAULT_OTLP_RETRY,
  };
}

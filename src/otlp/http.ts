// One OTLP/HTTP export request (POST <url>, normally a collector's /v1/logs), and what its answer
// means for a sender: done, try again later (429, 502, 503, 504, a lost connection, as the OTLP
// specification's "retryable" responses), or give up (any other status: the data or the
// credentials are wrong, and sending them again will not help).
import { readFile } from 'node:fs/promises';
import type { Agent } from 'node:http';
import { VERSION } from '../version.ts';
import { errnoText } from '../io/errno.ts';

export interface OtlpEndpoint {
  url: URL;
  /** added to every request (--otlp-header K=V), e.g. Authorization */
  headers: Record<string, string>;
  /** PEM of the CAs to trust for https (--otlp-ca); default: the system's */
  ca?: string;
  /** PEM client certificate and key for mutual TLS (--otlp-client-cert, --otlp-client-key) */
  clientCert?: { cert: string; key: string };
  /** whole-request deadline */
  timeoutMs: number;
}

export type SendOutcome =
  | { kind: 'ok'; body: Uint8Array }
  | { kind: 'retry'; why: string; retryAfterMs?: number }
  | { kind: 'fail'; why: string };

// The OTLP/HTTP specification: 429, 502, 503 and 504 are retryable; every other error is not.
const RETRYABLE = new Set([429, 502, 503, 504]);

/** Retry-After in seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | undefined, now: number): number | undefined {
  if (header === undefined || header.trim() === '') return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The first line of a response body, for an error message (collectors answer with a Status or plain text). */
function firstLine(body: Buffer): string {
  return body.toString('utf8', 0, Math.min(body.length, 300)).split('\n')[0]?.trim() ?? '';
}

// Loaded on first use, as src/kube/http.ts does: start-up does not pay for http and https.
const agents = new Map<string, Agent>();

export function postOtlp(endpoint: OtlpEndpoint, contentType: string, body: Uint8Array): Promise<SendOutcome> {
  const { url } = endpoint;
  const secure = url.protocol === 'https:';
  const transport = process.getBuiltinModule(secure ? 'node:https' : 'node:http');
  const request = transport.request;
  let agent = agents.get(url.protocol);
  if (agent === undefined) {
    // Keep-alive: one connection carries every batch of an export.
    agent = new transport.Agent({ keepAlive: true });
    agents.set(url.protocol, agent);
  }
  return new Promise((resolve) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        ...(secure && endpoint.ca !== undefined ? { ca: endpoint.ca } : {}),
        ...(secure && endpoint.clientCert !== undefined ? endpoint.clientCert : {}),
        headers: {
          ...endpoint.headers,
          'Content-Type': contentType,
          'Content-Length': String(body.byteLength),
        },
        timeout: endpoint.timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', (error) => resolve({ kind: 'retry', why: `the response broke off (${error.message})` }));
        res.on('end', () => {
          const data = Buffer.concat(chunks);
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) return resolve({ kind: 'ok', body: new Uint8Array(data) });
          const why = `HTTP ${status}${firstLine(data) ? `: ${firstLine(data)}` : ''}`;
          if (RETRYABLE.has(status)) {
            const after = retryAfterMs(res.headers['retry-after'], Date.now());
            return resolve({ kind: 'retry', why, ...(after !== undefined ? { retryAfterMs: after } : {}) });
          }
          resolve({ kind: 'fail', why });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${endpoint.timeoutMs / 1000} s`)));
    req.on('error', (error: NodeJS.ErrnoException) => {
      // A TLS failure is a configuration problem: retrying cannot fix a certificate.
      if (/certificate|self[- ]signed|SSL|TLS/i.test(`${error.code ?? ''} ${error.message}`) && !/ECONNRESET/.test(error.code ?? '')) {
        return resolve({ kind: 'fail', why: `TLS: ${error.code ?? error.message}${error.code ? ` (${error.message})` : ''}` });
      }
      resolve({ kind: 'retry', why: error.code ? `${error.code} (${error.message})` : error.message });
    });
    req.end(body);
  });
}

/** Which endpoint a PEM file is for: a collector (export, record --otlp) or a log store (--from). */
type PemEndpoint = 'collector' | 'store';
type PemRole = 'ca' | 'client-cert' | 'client-key';

/**
 * A PEM file that cannot be read (`detail`: the file system's words) or holds no PEM block of its
 * kind; src/options/user-errors.ts names the flag it came from.
 */
export class PemFileError extends Error {
  constructor(
    readonly endpoint: PemEndpoint,
    readonly role: PemRole,
    readonly file: string,
    readonly problem: 'unreadable' | 'not-pem',
    readonly detail: string,
  ) {
    super(`${file}: ${detail}`);
  }
}

/** A PEM file: refused when it cannot be read or holds no `marker` block. */
async function readPem(endpoint: PemEndpoint, role: PemRole, file: string, marker: RegExp): Promise<string> {
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new PemFileError(endpoint, role, file, 'unreadable', error.code === 'ENOENT' ? 'no such file' : errnoText(error));
  });
  if (!marker.test(text)) throw new PemFileError(endpoint, role, file, 'not-pem', 'no PEM block');
  return text;
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----/;
// PKCS#8 (`PRIVATE KEY`, `ENCRYPTED PRIVATE KEY`), PKCS#1 (`RSA PRIVATE KEY`) and SEC 1 (`EC PRIVATE KEY`).
const PEM_PRIVATE_KEY = /-----BEGIN ([A-Z]+ )?PRIVATE KEY-----/;

/**
 * The endpoint for a collector or a log store, its CA and client certificate read (a PemFileError
 * for a file that cannot be read or is not PEM).
 */
export async function openEndpoint(opts: {
  url: URL;
  headers: Record<string, string>;
  caFile?: string;
  clientCert?: { certFile: string; keyFile: string };
  timeoutMs: number;
  /** whose TLS files these are, for the error that names their flag: a collector's unless said */
  endpoint?: PemEndpoint;
}): Promise<OtlpEndpoint> {
  const endpoint = opts.endpoint ?? 'collector';
  const ca = opts.caFile === undefined ? undefined : await readPem(endpoint, 'ca', opts.caFile, PEM_CERTIFICATE);
  const clientCert =
    opts.clientCert === undefined
      ? undefined
      : {
          cert: await readPem(endpoint, 'client-cert', opts.clientCert.certFile, PEM_CERTIFICATE),
          key: await readPem(endpoint, 'client-key', opts.clientCert.keyFile, PEM_PRIVATE_KEY),
        };
  const headers = { 'User-Agent': `kubectl-evtimeline/${VERSION}`, ...opts.headers };
  return { url: opts.url, headers, ...(ca !== undefined ? { ca } : {}), ...(clientCert !== undefined ? { clientCert } : {}), timeoutMs: opts.timeoutMs };
}

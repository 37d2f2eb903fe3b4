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
  | {
      kind: 'retry';
      why: string;
      retryAfterMs?: number;
      /** nothing listens there, or the name does not resolve: no connection was made */
      unreachable?: boolean;
    }
  | {
      kind: 'fail';
      why: string;
      /** the endpoint refused the data itself (400 Bad Request): other data may be taken */
      badData?: boolean;
    };

// The OTLP/HTTP specification: 429, 502, 503 and 504 are retryable; every other error is not.
const RETRYABLE = new Set([429, 502, 503, 504]);

/**
 * The most of an answer read: an ExportLogsServiceResponse is a few bytes (a partial-success count
 * and a message), an error a Status or a line of text. A collector, proxy or impostor that sends
 * more is not read further (an endless body reached 15-17 GB in 30 s and killed the process).
 */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;
/** Of an error answer, only the start is kept for the message: the status already decides. */
const ERROR_BYTES = 4096;

/** Connection errors that say nothing listens at the endpoint, or its name does not resolve. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

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

/** The flags that give an endpoint's TLS files, which a TLS failure's words point to. */
export interface TlsFlags {
  ca: string;
  clientCert: string;
}

const OTLP_TLS_FLAGS: TlsFlags = { ca: '--otlp-ca', clientCert: '--otlp-client-cert' };

/**
 * A TLS failure in one line of words, without OpenSSL's internals (`error:0A00010B:SSL
 * routines:...:../deps/openssl/...`) and without Node's advice to run node with --use-system-ca,
 * which a user of the single executable cannot pass. What to do is said where we know it.
 */
export function tlsFailureText(error: NodeJS.ErrnoException, flags: TlsFlags = OTLP_TLS_FLAGS): string {
  const code = error.code ?? '';
  if (/WRONG_VERSION_NUMBER|HTTP_REQUEST|PACKET_LENGTH_TOO_LONG|wrong version number|packet length too long/.test(`${code} ${error.message}`)) return 'the endpoint does not speak TLS (is it http://?)';
  if (/SELF_SIGNED|UNABLE_TO_GET_ISSUER_CERT|UNABLE_TO_VERIFY_LEAF_SIGNATURE|ISSUER_CERT/.test(code)) {
    return `certificate signed by unknown authority: give the CA that signed it with ${flags.ca} FILE`;
  }
  if (code === 'CERT_HAS_EXPIRED') return 'the endpoint\'s certificate has expired';
  if (code === 'CERT_NOT_YET_VALID') return 'the endpoint\'s certificate is not yet valid';
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    const host = (error as { host?: unknown }).host;
    return `the endpoint's certificate is not valid for ${typeof host === 'string' ? host : 'its name'}`;
  }
  if (/ALERT_CERTIFICATE_REQUIRED|ALERT_BAD_CERTIFICATE|ALERT_UNKNOWN_CA|ALERT_HANDSHAKE_FAILURE|ALERT_ACCESS_DENIED/.test(code)) {
    return `the endpoint did not take our client certificate (${flags.clientCert})`;
  }
  // Another: OpenSSL's reason alone (`error:0A000410:SSL routines:ssl3_read_bytes:sslv3 alert ...:../deps/...`).
  const first = (error.message.split('\n')[0] ?? '').replace(/; if the root CA is installed locally.*$/, '');
  const reason = /error:[0-9A-F]+:[^:]*:[^:]*:([^:]+)/.exec(first)?.[1] ?? first;
  return reason.trim() || code;
}

// OpenSSL's verification codes as Node reports them, its hostname check, and its TLS errors.
const TLS_FAILURE = /CERT|SELF_SIGNED|ISSUER|LEAF_SIGNATURE|ALTNAME|ERR_SSL|ERR_TLS|EPROTO/;

/** Whether a request's error is a TLS failure (a certificate, a handshake), not the network's. */
export function isTlsFailure(error: NodeJS.ErrnoException): boolean {
  const code = error.code ?? '';
  return (TLS_FAILURE.test(code) || /certificate|SSL routines/i.test(error.message)) && code !== 'ECONNRESET';
}

// Loaded on first use, as src/kube/http.ts does: start-up does not pay for http and https.
const agents = new Map<string, Agent>();

/**
 * One POST, its answer read up to MAX_ANSWER_BYTES, within `timeoutMs` for the whole exchange
 * (--otlp-timeout: connecting, sending, and reading the answer; a collector dripping a byte a
 * second is cut off). `signal` ends it at once (a recorder stopping).
 */
export function postOtlp(endpoint: OtlpEndpoint, contentType: string, body: Uint8Array, signal?: AbortSignal): Promise<SendOutcome> {
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
    let settled = false;
    const settle = (outcome: SendOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      signal?.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
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
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const accepted = status >= 200 && status < 300;
        const limit = accepted ? MAX_ANSWER_BYTES : ERROR_BYTES;
        const chunks: Buffer[] = [];
        let size = 0;
        const decide = (): void => {
          const data = Buffer.concat(chunks);
          if (accepted) return settle({ kind: 'ok', body: new Uint8Array(data) });
          const why = `HTTP ${status}${firstLine(data) ? `: ${firstLine(data)}` : ''}`;
          if (RETRYABLE.has(status)) {
            const after = retryAfterMs(res.headers['retry-after'], Date.now());
            return settle({ kind: 'retry', why, ...(after !== undefined ? { retryAfterMs: after } : {}) });
          }
          settle({ kind: 'fail', why, ...(status === 400 ? { badData: true } : {}) });
        };
        res.on('data', (chunk: Buffer) => {
          if (settled) return;
          size += chunk.length;
          if (size <= limit) return void chunks.push(chunk);
          // The status has come: an error's start is enough. An acceptance with a body past any
          // real response is not one: the batch may or may not have been taken, so it is not
          // sent again (it could arrive twice) and the run stops with the reason.
          if (!accepted) chunks.push(chunk.subarray(0, Math.max(0, limit - (size - chunk.length))));
          req.destroy();
          if (!accepted) return decide();
          settle({ kind: 'fail', why: `HTTP ${status} with an answer larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB (an ExportLogsServiceResponse is a few bytes): not read` });
        });
        res.on('error', (error) => settle({ kind: 'retry', why: `the response broke off (${error.message})` }));
        res.on('end', decide);
      },
    );
    const deadline = setTimeout(() => {
      req.destroy();
      settle({ kind: 'retry', why: `no whole answer within ${endpoint.timeoutMs / 1000} s (--otlp-timeout)` });
    }, endpoint.timeoutMs);
    const onAbort = (): void => {
      req.destroy();
      settle({ kind: 'retry', why: 'stopped' });
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) onAbort();
    req.on('error', (error: NodeJS.ErrnoException) => {
      const code = error.code ?? '';
      // A TLS failure is a configuration problem: retrying cannot fix a certificate.
      if (isTlsFailure(error)) return settle({ kind: 'fail', why: `TLS: ${tlsFailureText(error)}` });
      if (UNREACHABLE.has(code)) return settle({ kind: 'retry', why: unreachableText(error, url), unreachable: true });
      settle({ kind: 'retry', why: code ? `${code} (${error.message.split('\n')[0] ?? ''})` : (error.message.split('\n')[0] ?? '') });
    });
    req.end(body);
  });
}

/** `connection refused`, `no such host` in Go's words, naming host and port. */
function unreachableText(error: NodeJS.ErrnoException, url: URL): string {
  const where = `${url.hostname}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
  if (error.code === 'ECONNREFUSED') return `connect ${where}: connection refused (nothing listens there)`;
  if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN') return `lookup ${url.hostname}: no such host`;
  return `connect ${where}: ${error.code === 'EHOSTUNREACH' ? 'no route to host' : 'network is unreachable'}`;
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
    readonly problem: 'unreadable' | 'no-such-file' | 'not-pem',
    /** unreadable: the file system's words */
    readonly detail = '',
  ) {
    super(`${file}: ${detail || problem}`);
  }
}

/** A PEM file: refused when it cannot be read or holds no `marker` block. */
async function readPem(endpoint: PemEndpoint, role: PemRole, file: string, marker: RegExp): Promise<string> {
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw error.code === 'ENOENT' ? new PemFileError(endpoint, role, file, 'no-such-file') : new PemFileError(endpoint, role, file, 'unreadable', errnoText(error));
  });
  if (!marker.test(text)) throw new PemFileError(endpoint, role, file, 'not-pem');
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

// Raw JSON requests to the API server, authenticated through client-node's KubeConfig.
// We keep the wire JSON as the server sent it (client-node's typed models turn some times into
// Date and leave others as strings), so -o json and saved captures hold the exact values.
import type http from 'node:http';
import type https from 'node:https';
import { finished } from 'node:stream';
import { RuntimeError } from '../errors.ts';
import { CredentialProblem } from './credential-error.ts';
import { ClusterError } from './cluster-error.ts';
import type { ClientKeyPair, ClusterProblem } from '../core/cluster-problems.ts';
import { clusterProblemText } from '../render/cluster-words.ts';
import { applyAuth, refusedExecCredential, unauthorizedMessage } from './auth.ts';
import type { KubeTarget } from './kubeconfig.ts';
import { errnoText, pathErrorText } from '../io/errno.ts';
import { withoutManagedFields } from './managed-fields.ts';
import { listItemReader } from './list-items.ts';
import { PROTOBUF, statusTextFromProtobuf } from './pod-proto.ts';
import { GzipAnswer, isGzip } from './gzip-answer.ts';

/** Items per LIST page, as kubectl asks (its --chunk-size defaults to 500): a long list arrives in several round trips. */
export const PAGE_SIZE = 500;

interface ApiRequest {
  method: 'GET' | 'PATCH';
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  contentType?: string;
  /** the Accept header; plain JSON unless asked otherwise */
  accept?: string;
  /** asks for a gzip answer (gzip-answer.ts); only apiRequest reads one, a watch or a log is never compressed */
  gzip?: boolean;
  /** 0 means no limit (kubectl's --request-timeout=0) */
  timeoutMs?: number;
  /** the answer's managedFields are cut before parsing (managed-fields.ts): for a caller that never reads them */
  dropManagedFields?: boolean;
  /** a list's items, parsed one at a time as they arrive (list-items.ts); the answer then comes back with its items empty */
  eachItem?: (item: unknown) => void;
  /**
   * Protobuf is asked for before JSON (as client-go's clientsets ask) and an answer in it is read by
   * this (pod-proto.ts); an answer in JSON (a server or proxy that offers no Protobuf) is parsed as usual.
   */
  protobuf?: (body: Buffer) => unknown;
}

/** A non-2xx answer from the API server, carrying its Status reason and code. */
export class ApiError extends RuntimeError {
  override name = 'ApiError';
  constructor(
    message: string,
    readonly code: number,
    readonly reason: string,
    /** the Retry-After header in seconds, when the answer had one */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** A 401 to a request whose token an exec plugin gave: the plugin runs again for the next request, which may be accepted. */
export class ExecCredentialRefused extends ApiError {
  override name = 'ExecCredentialRefused';
}

/**
 * Of an error answer, only the start is read (as the stores and the OTLP exporter do). A Status is
 * mostly a few hundred bytes, but one that lists every field a request got wrong, or quotes an
 * admission webhook's denial, runs to KiBs: its reason and message must survive the cut.
 */
const ERROR_BYTES = 64 * 1024;
/**
 * Of a compressed error answer, only this much is read as sent: the API server compresses only
 * bodies over 128 KiB (responsewriters/writers.go), which no Status is, so it comes from a proxy,
 * and inflated it is cut at ERROR_BYTES; a 64 KiB start could inflate to some 64 MiB first.
 */
const GZIP_ERROR_BYTES = 4096;
/** An answer that is not a Status is told by its first line, cut at this many characters. */
const ERROR_LINE_CHARS = 4096;

/** The largest answer read into memory: a page of 500 events is a few MiB; a body past this is refused, not read whole. */
const MAX_RESPONSE_BYTES = 128 * 1024 * 1024;

/**
 * The server's URL plus an already-encoded path. The URL parser resolves dot segments (`/x/..` is
 * `/`): a path that does not survive parsing unchanged is refused, whatever built it.
 */
export function buildUrl(server: string, path: string, query: ApiRequest['query'] = {}): URL {
  const base = server.replace(/\/+$/, '');
  const url = new URL(base + path);
  const wanted = new URL(base).pathname.replace(/\/+$/, '') + (path.split('?')[0] ?? '');
  if (url.pathname !== wanted) throw new ClusterError({ kind: 'path-resolves-elsewhere', path, resolved: url.pathname });
  for (const [key, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(key, String(value));
  return url;
}

/**
 * Why client-node could not prepare a request, in words with the file's path: a CA or client
 * certificate that is missing says its path (`open /x: no such file or directory`), but one that is
 * a folder fails in a read that names none, so the target's files are tried to find it.
 */
function prepareFailure(error: unknown, target: KubeTarget): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code !== undefined && (error as NodeJS.ErrnoException).path === undefined) {
    const files = [target.config.getCurrentCluster()?.caFile, target.config.getCurrentUser()?.certFile, target.config.getCurrentUser()?.keyFile];
    for (const file of files) {
      if (!file) continue;
      try {
        process.getBuiltinModule('node:fs').readFileSync(file);
      } catch (failure) {
        if ((failure as NodeJS.ErrnoException).code === code) return `read ${file}: ${errnoText(failure)}`;
      }
    }
  }
  return pathErrorText(error).trim().split('\n')[0] ?? '';
}

/** Client certificate and key pairs already found to load: the check costs a key parse per request otherwise. */
const loadedPairs = new Set<string>();

/**
 * The client certificate and key the kubeconfig names, loaded once as the TLS connection will load
 * them: a key that does not match its certificate, or that is not PEM, surfaced as OpenSSL's
 * `error:05800074:x509 certificate routines::key values mismatch` from inside the request, an
 * internal error, which -w and record retried for minutes.
 */
function checkClientPair(options: https.RequestOptions, target: KubeTarget): void {
  const { cert, key } = options;
  if (cert === undefined || key === undefined) return;
  const id = `${String(cert)}\0${String(key)}`;
  if (loadedPairs.has(id)) return;
  const user = target.config.getCurrentUser();
  const files = { ...(user?.certFile ? { cert: user.certFile } : {}), ...(user?.keyFile ? { key: user.keyFile } : {}) };
  // Final at once under -w and record too (a LocalCredentialError), in Go crypto/tls's words
  // (render/cluster-words.ts), as client-go reports it: cert_rotation.go "Loading client cert failed".
  const refuse = (pair: ClientKeyPair, detail = ''): never => {
    throw new CredentialProblem({ kind: 'client-key-pair', server: target.server, context: target.context, pair, files, detail });
  };
  // Go reads PEM blocks before any parse: a file with none is told as such.
  if (!/-----BEGIN [A-Z0-9 ]*CERTIFICATE-----/.test(String(cert))) refuse('cert-not-pem');
  if (!/-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/.test(String(key))) refuse('key-not-pem');
  try {
    process.getBuiltinModule('node:tls').createSecureContext({ cert, key });
  } catch (error) {
    const text = `${(error as NodeJS.ErrnoException).code ?? ''} ${error instanceof Error ? error.message : String(error)}`;
    if (/KEY_VALUES_MISMATCH|key values mismatch/i.test(text)) refuse('mismatch');
    refuse('unparsable', /error:[0-9A-F]+:[^:]*:[^:]*:([^:\n]+)/.exec(text)?.[1] ?? text.trim());
  }
  loadedPairs.add(id);
}

/**
 * The HTTP options (TLS material, Authorization header, proxy agent) kubectl would use for this
 * target: client-node's TLS, token and auth-provider handling, then what it lacks (auth.ts).
 */
export async function requestOptions(target: KubeTarget): Promise<https.RequestOptions> {
  const options: https.RequestOptions = { headers: {} };
  try {
    await target.config.applyToHTTPSOptions(options);
  } catch (error) {
    // A CA, client certificate or key that cannot be read: final, even under -w (credential-error.ts).
    throw new CredentialProblem({ kind: 'cannot-prepare', server: target.server, context: target.context, why: prepareFailure(error, target) });
  }
  checkClientPair(options, target);
  // client-node hands out one cached Agent per cluster and user, made without keepAlive: every
  // request then opened its own connection and TLS handshake (47 for a 20,000-event read with its
  // object lookups). Node's ClientRequest reads agent.keepAlive when the request is made.
  if (options.agent instanceof process.getBuiltinModule('node:http').Agent) (options.agent as unknown as { keepAlive: boolean }).keepAlive = true;
  if (target.auth) await applyAuth(options, target.auth, target);
  return options;
}

function statusError(code: number, text: string, url: URL, retryAfter?: string): ApiError {
  let message = `${code} from ${url.pathname}`;
  let reason = '';
  try {
    const status = JSON.parse(text) as { message?: unknown; reason?: unknown };
    if (typeof status.message === 'string' && status.message) message = status.message;
    if (typeof status.reason === 'string') reason = status.reason;
  } catch {
    if (text.trim()) message = `${code}: ${(text.trim().split('\n')[0] ?? '').slice(0, ERROR_LINE_CHARS)}`;
  }
  const seconds = retryAfter !== undefined && /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter) : undefined;
  return new ApiError(message, code, reason, seconds);
}

/**
 * The server's certificate did not verify (unknown CA, wrong name, expired) or it refused ours.
 * Asking again brings the same answer, as a 401 would: a watch does not retry it.
 */
export class TlsVerificationError extends RuntimeError {
  override name = 'TlsVerificationError';
  constructor(readonly problem: ClusterProblem) {
    super(clusterProblemText(problem));
  }
}

/**
 * The connection was reset or closed before any answer came (a load balancer dropping it, a server
 * closing an idle keep-alive connection as we reused it). client-go asks a GET again after a second
 * (rest/request.go isErrRetryableFunc: IsConnectionReset, IsProbableEOF); a write is not idempotent.
 */
class ConnectionResetError extends ClusterError {
  override name = 'ConnectionResetError';
}

// OpenSSL's verification codes as Node reports them, its hostname check, and TLS alerts about our certificate.
const TLS_VERIFICATION = /CERT|SELF_SIGNED|ISSUER|LEAF_SIGNATURE|HOSTNAME_MISMATCH|INVALID_CA|ALTNAME/;

function networkError(error: NodeJS.ErrnoException, target: KubeTarget): RuntimeError {
  if (error.code !== undefined && TLS_VERIFICATION.test(error.code)) {
    // Node adds advice for its own command line (`try running Node.js with --use-system-ca`), which a plugin user cannot act on.
    const why = (error.message.split('\n')[0] ?? '').replace(/; if the root CA is installed locally.*$/, '');
    return new TlsVerificationError({ kind: 'tls-untrusted', server: target.server, context: target.context, code: error.code, why });
  }
  // The connect and handshake deadlines (armConnectDeadlines) say what they waited for, in Go's words.
  const what = error.code === 'ETLSHANDSHAKETIMEOUT' || error.code === 'ECONNECTTIMEOUT' ? error.message : error.code ? `${error.code}` : error.message;
  const unreachable: ClusterProblem = { kind: 'unreachable', server: target.server, context: target.context, why: what };
  return error.code === 'ECONNRESET' || error.code === 'EPIPE' ? new ConnectionResetError(unreachable) : new ClusterError(unreachable);
}

/**
 * kubectl -v=6: one line per request on stderr, in klog's shape (round_trippers.go), with the
 * method, URL, status and time. The URL never holds a credential; headers are never logged.
 */
function logResponse(target: KubeTarget, method: string, url: URL, code: number, status: string, ms: number): void {
  if ((target.verbosity ?? 0) < 6 || !target.log) return;
  const now = new Date();
  const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
  const stamp = `I${pad(now.getMonth() + 1)}${pad(now.getDate())} ${pad(now.getHours())}:${pad(now.getMinutes())}:${pad(now.getSeconds())}.${pad(now.getMilliseconds(), 3)}000`;
  target.log(`${stamp} ${String(process.pid).padStart(7)} round_trippers.go:632] "Response" verb="${method}" url="${url.href}" status="${code} ${status}" milliseconds=${ms}\n`);
}

/**
 * client-go's transport deadlines, whatever --request-timeout says (that one bounds the whole
 * exchange, and 0 lifts only it): a TCP connection within 30 s (transport/cache.go:122, the
 * net.Dialer's Timeout; KeepAlive 30 s at :123) and the TLS handshake within 10 s after it
 * (TLSHandshakeTimeout, :149; apimachinery util/net/http.go:120 sets the same default). A load
 * balancer that accepts TCP and never answers the ClientHello is then an error kubectl also gives
 * (`net/http: TLS handshake timeout`), which -w and record retry with their back-off.
 */
export const CONNECT_TIMEOUT_MS = 30_000;
export const TLS_HANDSHAKE_TIMEOUT_MS = 10_000;
const KEEPALIVE_MS = 30_000;

/**
 * Arms the connect and handshake deadlines on the request's socket. A reused keep-alive socket is
 * already connected and secure: nothing to arm. Through a CONNECT proxy the agent hands the socket
 * over once the tunnel is up; the deadlines then bound the tunnelled handshake.
 */
function armConnectDeadlines(request: http.ClientRequest): void {
  request.once('socket', (socket) => {
    const fail = (code: string, message: string): void => {
      request.destroy(Object.assign(new Error(message), { code }));
    };
    const secure = 'encrypted' in socket && (socket as { encrypted?: boolean }).encrypted === true;
    const handshake = (): void => {
      if (!secure) return;
      const timer = setTimeout(() => fail('ETLSHANDSHAKETIMEOUT', 'net/http: TLS handshake timeout'), TLS_HANDSHAKE_TIMEOUT_MS);
      socket.once('secureConnect', () => clearTimeout(timer));
      socket.once('close', () => clearTimeout(timer));
    };
    if (!socket.connecting) {
      // A fresh TLS socket over an already-connected one (a proxy's tunnel) still has its handshake ahead.
      if (secure && !(socket as { authorized?: boolean; _secureEstablished?: boolean })._secureEstablished) handshake();
      return;
    }
    socket.setKeepAlive(true, KEEPALIVE_MS);
    const timer = setTimeout(() => fail('ECONNECTTIMEOUT', `dial tcp: i/o timeout (no connection within ${CONNECT_TIMEOUT_MS / 1000} s)`), CONNECT_TIMEOUT_MS);
    socket.once('connect', () => {
      clearTimeout(timer);
      handshake();
    });
    socket.once('close', () => clearTimeout(timer));
  });
}

/** Opens a request and hands back the live response (used for watches) after a 2xx status. */
export async function openStream(target: KubeTarget, req: ApiRequest): Promise<http.IncomingMessage> {
  const url = buildUrl(target.server, req.path, req.query);
  const base = await requestOptions(target);
  const body = req.body === undefined ? undefined : JSON.stringify(req.body);
  const accept = req.accept ?? (req.protobuf ? `${PROTOBUF}, application/json` : 'application/json');
  const headers: Record<string, string> = { ...(base.headers as Record<string, string>), Accept: accept };
  if (req.gzip) headers['Accept-Encoding'] = 'gzip';
  if (body !== undefined) headers['Content-Type'] = req.contentType ?? 'application/json';
  // Loaded on the first request, not at start-up: https brings TLS and OpenSSL (about 20 ms and
  // 8 MiB), which --version, --help and --from never need.
  const transport = process.getBuiltinModule(url.protocol === 'http:' ? 'node:http' : 'node:https');
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const request = transport.request(url, { ...base, method: req.method, headers }, (response) => {
      const code = response.statusCode ?? 0;
      logResponse(target, req.method, url, code, response.statusMessage ?? '', Date.now() - started);
      if (code >= 200 && code < 300) return resolve(response);
      if (code === 401 && target.auth) {
        // Its body says nothing the message does not: the connection goes, rather than a body of any length being read.
        response.destroy();
        const message = unauthorizedMessage(target.server, target.auth.description);
        return reject(refusedExecCredential(base, target.auth) ? new ExecCredentialRefused(message, code, 'Unauthorized') : new ApiError(message, code, 'Unauthorized'));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      const retryAfter = response.headers['retry-after'];
      const settle = (): void => {
        // An error answered to a request that accepts Protobuf is a Status in Protobuf: read as the JSON one would be.
        const body = inflatedStatus(Buffer.concat(chunks), response.headers['content-encoding']);
        const inProtobuf = (response.headers['content-type'] ?? '').startsWith(PROTOBUF);
        const text = (inProtobuf ? statusTextFromProtobuf(body) : null) ?? body.toString('utf8');
        reject(statusError(code, text, url, typeof retryAfter === 'string' ? retryAfter : undefined));
      };
      // Only the start of an error's body is kept: the status already decides, and a server or
      // proxy answering 500 with an endless body was otherwise read whole into memory.
      const limit = isGzip(response.headers['content-encoding']) ? GZIP_ERROR_BYTES : ERROR_BYTES;
      response.on('data', (chunk: Buffer) => {
        if (size > limit) return;
        size += chunk.length;
        if (size <= limit) return void chunks.push(chunk);
        chunks.push(chunk.subarray(0, chunk.length - (size - limit)));
        response.destroy();
        settle();
      });
      response.on('end', settle);
      response.on('error', (error) => reject(networkError(error, target)));
    });
    armConnectDeadlines(request);
    if (req.timeoutMs) {
      request.setTimeout(req.timeoutMs, () =>
        request.destroy(Object.assign(new Error(`request timed out after ${req.timeoutMs} ms`), { code: 'timeout' })),
      );
    }
    request.on('error', (error: NodeJS.ErrnoException) => reject(networkError(error, target)));
    request.end(body);
  });
}

/**
 * An error's start as sent, inflated if it came compressed (a Status longer than 128 KiB would),
 * else as it is. A compressed start cut at GZIP_ERROR_BYTES inflates as far as it goes (a sync flush
 * instead of an error at its cut end); what that gives is cut at ERROR_BYTES.
 */
function inflatedStatus(body: Buffer, contentEncoding: string | undefined): Buffer {
  if (!isGzip(contentEncoding)) return body;
  const zlib = process.getBuiltinModule('node:zlib');
  try {
    // Deflate inflates at most about 1,032 times: GZIP_ERROR_BYTES never reach this limit.
    return zlib.gunzipSync(body, { finishFlush: zlib.constants.Z_SYNC_FLUSH, maxOutputLength: GZIP_ERROR_BYTES * 1100 }).subarray(0, ERROR_BYTES);
  } catch {
    return body;
  }
}

/** client-go's rest.Request: up to 10 more tries of an answer that asks for one (maxRetries). */
const MAX_RETRIES = 10;
/** client-go waits as long as Retry-After says; a server saying a day must not hang a CLI for a day. */
const MAX_RETRY_AFTER_SECONDS = 60;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One request, its JSON answer parsed. A 429 or 5xx that carries Retry-After (API Priority and
 * Fairness throttling, a server starting up) is tried again after that many seconds, as client-go's
 * checkWait does (rest/with_retry.go); without the header it is an error at once, as there. A GET
 * whose connection was reset before any answer is tried again after a second, as there; one cut off
 * mid-answer is not (client-go reads the body after its retry loop).
 */
export async function apiRequest(target: KubeTarget, req: ApiRequest): Promise<unknown> {
  for (let retries = 0; ; retries += 1) {
    try {
      return await apiRequestOnce(target, req);
    } catch (error) {
      const reset = error instanceof ConnectionResetError && req.method === 'GET' ? 1 : undefined;
      const wait = error instanceof ApiError && (error.code === 429 || error.code >= 500) ? error.retryAfterSeconds : reset;
      if (wait === undefined || retries >= MAX_RETRIES) throw error;
      await sleep(Math.min(wait, MAX_RETRY_AFTER_SECONDS) * 1000);
    }
  }
}

/**
 * One exchange, its JSON answer parsed. timeoutMs is a deadline for the whole exchange, as kubectl's
 * --request-timeout is (a socket timeout alone never trips on an answer that trickles in).
 */
async function apiRequestOnce(target: KubeTarget, req: ApiRequest): Promise<unknown> {
  const notJson = () => new ClusterError({ kind: 'not-json', path: req.path });
  const parse = (text: string): unknown => {
    try {
      return JSON.parse(req.dropManagedFields ? withoutManagedFields(text) : text) as unknown;
    } catch {
      throw notJson();
    }
  };
  const chunks: Buffer[] = [];
  // A list this cannot read item by item (an item not an object, items named twice): not a list of objects.
  const odd = () => new ClusterError({ kind: 'not-a-list', path: req.path.split('?')[0] ?? '', noun: 'objects' });
  // A list's items are parsed as the answer arrives, its chunks let go (list-items.ts); anything else is read whole.
  /** the answer's content type, known once its headers arrive */
  let contentType = '';
  const decodeProtobuf = req.protobuf;
  const whole = (): unknown => {
    if (decodeProtobuf === undefined || !contentType.startsWith(PROTOBUF)) return parse(Buffer.concat(chunks).toString('utf8'));
    try {
      return decodeProtobuf(Buffer.concat(chunks));
    } catch {
      throw odd();
    }
  };
  const body = req.eachItem === undefined ? { push: (chunk: Buffer) => void chunks.push(chunk), end: whole } : listItemReader({ parse, each: req.eachItem, notJson, odd });
  let timer: NodeJS.Timeout | undefined;
  const exchange = (async () => {
    const response = await openStream(target, { ...req, gzip: target.disableCompression !== true });
    contentType = response.headers['content-type'] ?? '';
    if (req.timeoutMs) {
      timer = setTimeout(() => response.destroy(Object.assign(new Error('timeout'), { code: 'timeout' })), req.timeoutMs);
    }
    const path = req.path.split('?')[0] ?? '';
    const tooLarge = () => new ClusterError({ kind: 'answer-too-large', method: req.method, path, mib: MAX_RESPONSE_BYTES / 1024 / 1024 });
    const gzip = isGzip(response.headers['content-encoding']) ? new GzipAnswer(body, MAX_RESPONSE_BYTES) : null;
    const sink = gzip ?? body;
    let size = 0;
    /** what ended the read early: an answer too large, or what reading an item threw (the caller's own error, or the text's): passed on as it is */
    let unread: { error: unknown } | undefined;
    // A 'data' listener, not `for await`: the API server writes a list in pieces of about 2 KB
    // (Go net/http server.go:341, bufferBeforeChunkingSize), so a page of 500 events comes as some
    // 400 chunks, and the async iterator's promise and microtask per chunk cost more than the
    // chunk's own scan (20,000 events: 15,700 chunks). `finished` settles as the iterator did (it
    // is what the iterator waits on): the stream's error, or premature close, or none.
    const ended = await new Promise<Error | null | undefined>((resolve) => {
      response.on('data', (chunk: Buffer) => {
        if (unread !== undefined) return;
        size += chunk.length;
        if (size > MAX_RESPONSE_BYTES) {
          unread = { error: tooLarge() };
          response.destroy();
          return;
        }
        try {
          sink.push(chunk);
        } catch (error) {
          unread = { error };
          response.destroy();
        }
      });
      finished(response, resolve);
    });
    if (unread !== undefined) throw unread.error;
    if (ended) {
      const error = ended;
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'timeout') throw new ClusterError({ kind: 'timed-out', server: target.server, ms: req.timeoutMs ?? 0 });
      // The server was reached and began to answer: "cannot reach" would send the user to the wrong place.
      const why = code ?? (error instanceof Error ? error.message : String(error));
      throw new ClusterError({ kind: 'cut-off', server: target.server, method: req.method, path, why });
    }
    const failure = gzip === null ? null : await gzip.end();
    if (failure?.kind === 'too-large') throw tooLarge();
    if (failure) throw new ClusterError({ kind: 'not-gzip', method: req.method, path, why: failure.why });
  })();
  try {
    await exchange;
  } finally {
    clearTimeout(timer);
  }
  return body.end();
}

/** GET one path and return its JSON; throws ApiError on a non-2xx answer. */
export type Getter = (path: string, accept?: string) => Promise<unknown>;

export function targetGetter(target: KubeTarget, timeoutMs: number): Getter {
  return (path, accept) => apiRequest(target, { method: 'GET', path, timeoutMs, accept });
}

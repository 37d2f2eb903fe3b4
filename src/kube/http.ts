// Raw JSON requests to the API server, authenticated through client-node's KubeConfig.
// We keep the wire JSON as the server sent it (client-node's typed models turn some times into
// Date and leave others as strings), so -o json and saved captures hold the exact values.
import type http from 'node:http';
import type https from 'node:https';
import { RuntimeError } from '../errors.ts';
import type { KubeTarget } from './kubeconfig.ts';

/** Items per LIST page, as kubectl asks (its --chunk-size defaults to 500): a long list arrives in several round trips. */
export const PAGE_SIZE = 500;

export interface ApiRequest {
  method: 'GET' | 'PATCH';
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  contentType?: string;
  /** the Accept header; plain JSON unless asked otherwise */
  accept?: string;
  /** 0 means no limit (kubectl's --request-timeout=0) */
  timeoutMs?: number;
}

/** A non-2xx answer from the API server, carrying its Status reason and code. */
export class ApiError extends RuntimeError {
  override name = 'ApiError';
  constructor(
    message: string,
    readonly code: number,
    readonly reason: string,
  ) {
    super(message);
  }
}

export function buildUrl(server: string, path: string, query: ApiRequest['query'] = {}): URL {
  const url = new URL(server.replace(/\/+$/, '') + path);
  for (const [key, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(key, String(value));
  return url;
}

/** The HTTP options (TLS material, Authorization header) kubectl would use for this target. */
export async function requestOptions(target: KubeTarget): Promise<https.RequestOptions> {
  const options: https.RequestOptions = { headers: {} };
  await target.config.applyToHTTPSOptions(options);
  return options;
}

function statusError(code: number, text: string, url: URL): ApiError {
  let message = `${code} from ${url.pathname}`;
  let reason = '';
  try {
    const status = JSON.parse(text) as { message?: unknown; reason?: unknown };
    if (typeof status.message === 'string' && status.message) message = status.message;
    if (typeof status.reason === 'string') reason = status.reason;
  } catch {
    if (text.trim()) message = `${code}: ${text.trim().split('\n')[0]}`;
  }
  return new ApiError(message, code, reason);
}

function networkError(error: NodeJS.ErrnoException, target: KubeTarget): RuntimeError {
  const what = error.code ? `${error.code}` : error.message;
  return new RuntimeError(`cannot reach the API server at ${target.server} (context "${target.context}"): ${what}`);
}

/** Opens a request and hands back the live response (used for watches) after a 2xx status. */
export async function openStream(target: KubeTarget, req: ApiRequest): Promise<http.IncomingMessage> {
  const url = buildUrl(target.server, req.path, req.query);
  const base = await requestOptions(target);
  const body = req.body === undefined ? undefined : JSON.stringify(req.body);
  const headers: Record<string, string> = { ...(base.headers as Record<string, string>), Accept: req.accept ?? 'application/json' };
  if (body !== undefined) headers['Content-Type'] = req.contentType ?? 'application/json';
  // Loaded on the first request, not at start-up: https brings TLS and OpenSSL (about 20 ms and
  // 8 MiB), which --version, --help and --from never need.
  const transport = process.getBuiltinModule(url.protocol === 'http:' ? 'node:http' : 'node:https');
  return new Promise((resolve, reject) => {
    const request = transport.request(url, { ...base, method: req.method, headers }, (response) => {
      const code = response.statusCode ?? 0;
      if (code >= 200 && code < 300) return resolve(response);
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => reject(statusError(code, text, url)));
      response.on('error', (error) => reject(networkError(error, target)));
    });
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
 * One request, its JSON answer parsed. timeoutMs is a deadline for the whole exchange, as kubectl's
 * --request-timeout is (a socket timeout alone never trips on an answer that trickles in).
 */
export async function apiRequest(target: KubeTarget, req: ApiRequest): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const exchange = (async () => {
    const response = await openStream(target, req);
    if (req.timeoutMs) {
      timer = setTimeout(() => response.destroy(Object.assign(new Error('timeout'), { code: 'timeout' })), req.timeoutMs);
    }
    let text = '';
    response.setEncoding('utf8');
    try {
      for await (const chunk of response) text += chunk as string;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'timeout') throw new RuntimeError(`request to ${target.server} timed out after ${req.timeoutMs} ms (--request-timeout)`);
      throw networkError(error as NodeJS.ErrnoException, target);
    }
    return text;
  })();
  let text: string;
  try {
    text = await exchange;
  } finally {
    clearTimeout(timer);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new RuntimeError(`the API server sent something that is not JSON for ${req.path}`);
  }
}

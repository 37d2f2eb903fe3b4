// A deliberately broken HTTP server on loopback, for the faults a healthy kube-apiserver never
// produces but a broken server, proxy or load balancer does: a continue token handed out again, a
// body shorter than its Content-Length, a body (or an error's) of hundreds of MiB, an answer that drips a byte at a
// time, 429 with Retry-After, 503, a GET answered with another object, a connection reset before any answer, a
// gzip answer that is broken. It is no API server: it
// answers the few paths a test points the plugin at with fixed JSON and the fault, and nothing more.
// Network faults against a correct server go through tcp-proxy.ts in front of the real one instead.
import http from 'node:http';
import { createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';

export type Fault =
  /** every page of a list says continue=same-token */
  | { kind: 'repeat-continue' }
  /** a list whose Content-Length promises more than is sent before the connection closes */
  | { kind: 'truncated-body' }
  /** a list body of `bytes` bytes, streamed (never held in the server's memory) */
  | { kind: 'huge-body'; bytes: number }
  /**
   * 500 with `start` (a Status by default) and then `fill` (spaces by default) up to `bytes` bytes,
   * streamed as the reader takes them; with gzip, all of it compressed and sent at once
   */
  | { kind: 'huge-error'; bytes: number; start?: string; fill?: string; gzip?: boolean }
  /** a list sent `bytesPerTick` bytes every `everyMs` */
  | { kind: 'slow-drip'; everyMs: number }
  /** `times` answers of 429 with Retry-After: `seconds`, then the list */
  | { kind: 'too-many-requests'; times: number; seconds: number }
  /** 503 with a Status, every time */
  | { kind: 'unavailable' }
  /** a GET of one event answered with a Namespace object */
  | { kind: 'wrong-object' }
  /** `times` connections reset (RST) as the request arrives, before any answer, then the list */
  | { kind: 'reset-before-answer'; times: number }
  /**
   * To a request that accepts gzip (any other gets the plain list), a list said to be gzip that is:
   * not gzip at all (`corrupt`), gzip that stops half-way in a body that is whole (`short`), gzip
   * whose connection closes half-way (`cut`), or a few KiB that inflate to 130 MiB (`bomb`).
   */
  | { kind: 'gzip'; how: 'corrupt' | 'short' | 'cut' | 'bomb' };

export interface MisbehavingServer {
  /** http://127.0.0.1:PORT */
  readonly url: string;
  /** a kubeconfig (written into `dir`) whose current context points here, namespace `op-events` */
  readonly kubeconfig: string;
  /** the method and path (with query) of every request received */
  readonly requests: string[];
  /** bytes of answer bodies handed to the connection so far (huge-body, huge-error) */
  handedOver(): number;
  close(): Promise<void>;
}

/** A kubeconfig whose current context `broken` points at `url` (namespace op-events, a token, no CA check for https). */
function writeKubeconfig(path: string, url: string): string {
  const tls = url.startsWith('https:') ? ', insecure-skip-tls-verify: true' : '';
  writeFileSync(
    path,
    [
      'apiVersion: v1',
      'kind: Config',
      'current-context: broken',
      `clusters: [{name: broken, cluster: {server: "${url}"${tls}}}]`,
      'users: [{name: broken, user: {token: not-a-secret}}]',
      'contexts: [{name: broken, context: {cluster: broken, user: broken, namespace: op-events}}]',
      '',
    ].join('\n'),
  );
  return path;
}

/**
 * A stuck load balancer or proxy: accepts TCP and never says a word, so a TLS ClientHello is never
 * answered. `url` is https://127.0.0.1:PORT; `connections` counts the connections accepted.
 */
export async function startBlackHole(dir: string): Promise<{ url: string; kubeconfig: string; connections(): number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server = createServer((socket) => {
    accepted += 1;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    kubeconfig: writeKubeconfig(join(dir, 'black-hole.kubeconfig'), url),
    connections: () => accepted,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function eventsList(items: unknown[], cont = ''): string {
  return JSON.stringify({ kind: 'EventList', apiVersion: 'v1', metadata: { resourceVersion: '42', ...(cont ? { continue: cont } : {}) }, items });
}

function status(code: number, reason: string, message: string): string {
  return JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });
}

function send(res: http.ServerResponse, code: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)), ...headers });
  res.end(body);
}

/** Writes `start`, then `piece` until `bytes` bytes have gone (or the reader left), respecting backpressure, then `end`; `sent` counts. */
function streamHuge(res: http.ServerResponse, parts: { start: string; piece: Buffer; end: string }, bytes: number, sent: (n: number) => void): void {
  let total = 0;
  const pump = (): void => {
    while (total < bytes && !res.destroyed) {
      total += parts.piece.length;
      sent(parts.piece.length);
      if (!res.write(parts.piece)) return void res.once('drain', pump);
    }
    res.end(parts.end);
  };
  res.write(parts.start);
  pump();
}

/** `{"items":[e,e,e...]}` of `bytes` bytes. */
function hugeList(res: http.ServerResponse, event: unknown, bytes: number, sent: (n: number) => void): void {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  const start = '{"kind":"EventList","apiVersion":"v1","metadata":{"resourceVersion":"42"},"items":[';
  streamHuge(res, { start, piece: Buffer.from(`${JSON.stringify(event)},`), end: `${JSON.stringify(event)}]}` }, bytes, sent);
}

/** 500: its start (a Status by default), then its fill (spaces: JSON still) to `bytes` bytes. */
function hugeError(res: http.ServerResponse, fault: Extract<Fault, { kind: 'huge-error' }>, sent: (n: number) => void): void {
  const start = fault.start ?? status(500, 'InternalError', 'etcdserver: request timed out');
  const fill = fault.fill ?? ' ';
  const type = start.startsWith('{') ? 'application/json' : 'text/html';
  if (fault.gzip === true) {
    res.writeHead(500, { 'Content-Type': type, 'Content-Encoding': 'gzip' });
    return void res.end(gzipSync(Buffer.concat([Buffer.from(start), Buffer.alloc(fault.bytes, fill)])));
  }
  res.writeHead(500, { 'Content-Type': type });
  sent(Buffer.byteLength(start));
  streamHuge(res, { start, piece: Buffer.alloc(64 * 1024, fill), end: '' }, fault.bytes, sent);
}

/** The list (or, for `bomb`, 130 MiB of spaces) compressed, and what of it is sent. */
function sendGzip(res: http.ServerResponse, how: 'corrupt' | 'short' | 'cut' | 'bomb', list: string): void {
  const whole = how === 'corrupt' ? Buffer.from(list) : gzipSync(how === 'bomb' ? Buffer.alloc(130 * 1024 * 1024, 0x20) : list);
  const sent = how === 'short' || how === 'cut' ? whole.subarray(0, Math.floor(whole.length / 2)) : whole;
  const length = how === 'cut' ? whole.length : sent.length;
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip', 'Content-Length': String(length) });
  if (how !== 'cut') return void res.end(sent);
  res.write(sent);
  setImmediate(() => res.socket?.destroy());
}

export async function startMisbehavingServer(fault: Fault, events: unknown[], dir: string): Promise<MisbehavingServer> {
  const requests: string[] = [];
  let handedOver = 0;
  const sent = (n: number): void => void (handedOver += n);
  let tooMany = fault.kind === 'too-many-requests' ? fault.times : 0;
  let resets = fault.kind === 'reset-before-answer' ? fault.times : 0;
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.on('error', () => {}); // the client going away mid-answer is part of the test
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const isList = /\/events$/.test(path);
    switch (fault.kind) {
      case 'repeat-continue':
        return send(res, 200, eventsList(events, 'same-token'));
      case 'truncated-body': {
        const body = eventsList(events);
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body) + 1000) });
        res.write(body.slice(0, Math.floor(body.length / 2)));
        return void setImmediate(() => res.socket?.destroy());
      }
      case 'huge-body':
        return isList ? hugeList(res, events[0], fault.bytes, sent) : send(res, 404, status(404, 'NotFound', 'not here'));
      case 'huge-error':
        return hugeError(res, fault, sent);
      case 'slow-drip': {
        const body = Buffer.from(eventsList(events));
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(body.length) });
        let at = 0;
        const timer = setInterval(() => {
          if (at >= body.length || res.destroyed) {
            clearInterval(timer);
            timers.delete(timer);
            return void res.end();
          }
          res.write(body.subarray(at, at + 1));
          at += 1;
        }, fault.everyMs);
        timers.add(timer);
        return;
      }
      case 'too-many-requests':
        if (tooMany > 0) {
          tooMany -= 1;
          return send(res, 429, status(429, 'TooManyRequests', 'too many requests, please try again later'), { 'Retry-After': String(fault.seconds) });
        }
        return send(res, 200, eventsList(events));
      case 'reset-before-answer':
        if (resets > 0) {
          resets -= 1;
          return void req.socket.resetAndDestroy();
        }
        return send(res, 200, eventsList(events));
      case 'unavailable':
        return send(res, 503, status(503, 'ServiceUnavailable', 'the server is currently unable to handle the request'));
      case 'gzip':
        if (!/\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) return send(res, 200, eventsList(events));
        return sendGzip(res, fault.how, eventsList(events));
      case 'wrong-object':
        if (req.method !== 'GET') return send(res, 405, status(405, 'MethodNotAllowed', 'this server accepts no writes'));
        return send(res, 200, JSON.stringify({ kind: 'Namespace', apiVersion: 'v1', metadata: { name: 'op-events', uid: 'ns-uid', resourceVersion: '7' } }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const kubeconfig = writeKubeconfig(join(dir, `misbehaving-${fault.kind}${'how' in fault ? `-${fault.how}` : ''}.kubeconfig`), url);
  return {
    url,
    kubeconfig,
    requests,
    handedOver: () => handedOver,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearInterval(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// Following core/v1 Events as they change: a list, then a watch from the list's resourceVersion,
// resumed from the last resourceVersion seen whenever it ends, listed again when the server says
// that version is too old (410 Gone), retried with a bounded backoff when the network fails. A
// watch resumed from a caller's version (a record's newest) starts only once a list shows that the
// server has reached it.
//
// The watch is a raw GET ...?watch=1 read as JSON lines (one {"type","object"} per line), so the
// objects stay exactly as the server sent them (client-node's Watch would do, but its typed
// models are not used anywhere else). kube-apiserver keeps no watch cache for events, so a watch
// is served by etcd directly: a version older than the last etcd compaction gets an ERROR object
// with code 410 in the stream, and BOOKMARKs may never come (handled when they do).
import type { IncomingMessage } from 'node:http';
import { RuntimeError } from '../errors.ts';
import { eventsPath, listCollection } from './events-api.ts';
import { ApiError, ExecCredentialRefused, TlsVerificationError, apiRequest, openStream } from './http.ts';
import type { KubeTarget } from './kubeconfig.ts';
import { LocalCredentialError } from './credential-error.ts';
import { asObject, compareResourceVersions, isObject, resourceVersionOf } from '../core/json.ts';
import type { Json } from '../core/json.ts';
import type { FollowStep, ResumeVerdict } from '../core/source.ts';
import { backoffDelay, DEFAULT_RETRY } from '../core/retry.ts';
import type { RetryPolicy } from '../core/retry.ts';
import type { WatchNotice } from '../core/notices.ts';
import type { ClusterProblem } from '../core/cluster-problems.ts';
import { ClusterError } from './cluster-error.ts';
import { clusterProblemText } from '../render/cluster-words.ts';

/** How long the server keeps one watch open; it then ends it and we resume (client-go's reflector uses 5-10 min). */
const DEFAULT_WATCH_SECONDS = 300;

export interface FollowOptions {
  /** null: all namespaces */
  namespace: string | null;
  /** resume a watch from here (once the server is known to have reached it); '' or null lists first */
  resourceVersion?: string | null;
  /** stops following: the generator returns */
  signal: AbortSignal;
  /** what it meets and carries on from (a watch that expired, a retry), for stderr */
  notice(notice: WatchNotice): void;
  /** why the last attempt failed, before it is tried again (a recorder that never reached its server says why) */
  failed?(why: string): void;
  /** for lists; watches are bounded by watchSeconds instead */
  requestTimeoutMs?: number;
  watchSeconds?: number;
  retry?: RetryPolicy;
  /** sent with the list and every watch */
  fieldSelector?: string;
  /** another collection than the scope's core/v1 Events (one object's, by a metadata.name field selector): its path and what its items are */
  collection?: { path: string; noun: string };
}

/**
 * Whether a watch can resume from `from` on a server whose list is now at `current`. A watch from a
 * version the server has not reached yet is accepted and then waits for it, silently: a record of a
 * cluster since re-created at the same URL (kind, minikube) holds such versions. resourceVersions
 * are opaque by API convention but etcd revisions in practice: compared only when both are
 * integers, and otherwise not trusted (listing again costs less than waiting for nothing).
 */
export function judgeResume(from: string, current: string): ResumeVerdict {
  const order = compareResourceVersions(from, current);
  if (order === null) return 'unknown';
  return order > 0 ? 'ahead' : 'resume';
}

/** The resourceVersion the server's list of this scope is at now: a list of one item. */
async function currentResourceVersion(target: KubeTarget, path: string, timeoutMs?: number): Promise<string> {
  const page = await apiRequest(target, { method: 'GET', path, query: { limit: 1 }, timeoutMs });
  return resourceVersionOf(page);
}

/** One watch event is one object (etcd stores at most 1.5 MiB): a longer line is not a watch, and is never buffered whole. */
export const MAX_WATCH_LINE = 16 * 1024 * 1024;

/** A line past MAX_WATCH_LINE: asking again would bring the same, so it is not worth a retry. */
class LineTooLong extends ClusterError {}

/** A JSON line that is no {"type","object"}: retried as a line that is not JSON is. */
class NotAWatchEvent extends SyntaxError {
  constructor(line: string) {
    super(clusterProblemText({ kind: 'not-a-watch-event', line }));
  }
}

/** The server says the resourceVersion is too old (410 Gone / Expired): only a new list helps. */
class Expired extends Error {}

/** Worth another try: the network, a timeout, a server that is busy or restarting. */
class Transient extends Error {
  /** the words of what was met: the server's, or render/cluster-words.ts's for a problem of ours */
  constructor(why: string | ClusterProblem) {
    super(typeof why === 'string' ? why : clusterProblemText(why));
  }
}

function classify(error: unknown): Error {
  if (error instanceof Expired || error instanceof Transient) return error;
  if (error instanceof ApiError) {
    if (error.code === 410) return new Expired(error.message);
    if (error.code === 429 || error.code >= 500) return new Transient(error.message);
    return error; // 401, 403, 404...: asking again will not help
  }
  if (error instanceof LineTooLong || error instanceof TlsVerificationError || error instanceof LocalCredentialError) return error;
  if (error instanceof RuntimeError) return new Transient(error.message); // cannot reach the server
  if (error instanceof SyntaxError) return new Transient({ kind: 'watch-line-not-json', why: error.message });
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (error instanceof Error && (code !== undefined || /aborted|socket|premature/i.test(error.message))) {
    return new Transient(code ? `${code}: ${error.message}` : error.message);
  }
  return error instanceof Error ? error : new Error(String(error));
}

/** A watch's ERROR object: a metav1.Status. */
function statusError(object: unknown): Error {
  const status = asObject(object);
  const code = typeof status.code === 'number' ? status.code : 0;
  const message = typeof status.message === 'string' && status.message ? status.message : `watch error ${code}`;
  if (code === 410 || status.reason === 'Expired' || status.reason === 'Gone') return new Expired(message);
  if (code === 0 || code === 429 || code >= 500) return new Transient(message);
  return new ClusterError({ kind: 'watch-failed', why: message });
}

/** The JSON objects of a watch response, one per line; a line cut off by a dropped connection throws. */
export async function* readWatchLines(chunks: AsyncIterable<string | Buffer>): AsyncGenerator<Json> {
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const chunk of chunks) {
    buffered += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      if (line.trim() !== '') yield parseWatchLine(line);
    }
    if (buffered.length > MAX_WATCH_LINE) {
      throw new LineTooLong({ kind: 'watch-line-too-long', mib: MAX_WATCH_LINE / 1024 / 1024 });
    }
  }
  if (buffered.trim() !== '') yield parseWatchLine(buffered);
}

function parseWatchLine(line: string): Json {
  const value: unknown = JSON.parse(line);
  if (!isObject(value) || typeof value.type !== 'string') throw new NotAWatchEvent(line);
  return value;
}

/** Resolves like `promise`, or rejects at once when `signal` aborts (what `promise` later yields goes to `late`). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal, late: (value: T) => void = () => {}): Promise<T> {
  if (signal.aborted) {
    promise.then(late, () => {});
    return Promise.reject(new Error('aborted'));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => {
      promise.then(late, () => {});
      reject(new Error('aborted'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        if (signal.aborted) late(value);
        else resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

function openWatch(target: KubeTarget, path: string, resourceVersion: string, watchSeconds: number, signal: AbortSignal, fieldSelector?: string): Promise<IncomingMessage> {
  return abortable(
    openStream(target, {
      method: 'GET',
      path,
      query: { watch: 1, resourceVersion, allowWatchBookmarks: true, timeoutSeconds: watchSeconds, fieldSelector },
      // An idle socket: the server ends a watch after timeoutSeconds, so silence well past that
      // means a connection that died without a word.
      timeoutMs: (watchSeconds + 60) * 1000,
    }),
    signal,
    (late) => late.destroy(),
  );
}

/**
 * Where following stands. check-resume: a caller's resourceVersion waits for a list of one item to
 * show the server has reached it. list: every event in scope, at the start or after the watch
 * expired. watch: changes from `from`, the last resourceVersion the consumer has taken.
 */
type Phase =
  | { name: 'check-resume'; from: string }
  | { name: 'list'; why: 'start' | 'expired' }
  | { name: 'watch'; from: string };

/** Where following starts: a list, or the check that the server has reached the version to resume from. */
function firstPhase(resourceVersion: string): Phase {
  return resourceVersion === '' ? { name: 'list', why: 'start' } : { name: 'check-resume', from: resourceVersion };
}

/**
 * Lists (or, given a resourceVersion the server has reached, resumes), then watches, forever (until
 * `signal` aborts). Each step is handed over only when the previous one has been consumed, and the
 * resourceVersion to resume from advances only past steps the consumer has taken, so a consumer
 * that writes each step before asking for the next loses nothing across a dropped watch. Throws a
 * RuntimeError when the server refuses (401, 403, ...) or after retry.maxAttempts failures in a row.
 */
export async function* followEvents(target: KubeTarget, opts: FollowOptions): AsyncGenerator<FollowStep, void, undefined> {
  const { namespace, signal, notice } = opts;
  const retry = opts.retry ?? DEFAULT_RETRY;
  const watchSeconds = opts.watchSeconds ?? DEFAULT_WATCH_SECONDS;
  let phase = firstPhase(opts.resourceVersion ?? '');
  const path = opts.collection?.path ?? eventsPath('core', namespace);
  const noun = opts.collection?.noun ?? 'events';
  const listed = namespace === null ? `${noun} in all namespaces` : `${noun} in namespace ${namespace}`;
  let failures = 0;
  let expiredInARow = 0;
  // A token from an exec plugin that the server stops accepting (rotated, revoked, expired without
  // saying when) is asked for again once, as client-go's exec round tripper does after a 401; a
  // fresh one refused too is final.
  let credentialRenewed = false;

  while (!signal.aborted) {
    let response: IncomingMessage | undefined;
    const onAbort = (): void => {
      response?.destroy();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      switch (phase.name) {
        case 'check-resume': {
          const current = await abortable(currentResourceVersion(target, path, opts.requestTimeoutMs), signal);
          failures = 0;
          credentialRenewed = false;
          const verdict = judgeResume(phase.from, current);
          const step: FollowStep = { kind: 'resume', from: phase.from, current, verdict };
          phase = verdict === 'resume' ? { name: 'watch', from: phase.from } : { name: 'list', why: 'start' };
          yield step;
          break;
        }
        case 'list': {
          const list = await abortable(listCollection(target, path, listed, noun, { timeoutMs: opts.requestTimeoutMs, fieldSelector: opts.fieldSelector }), signal);
          failures = 0;
          credentialRenewed = false;
          const step: FollowStep = { kind: 'list', items: list.items.filter(isObject), resourceVersion: list.resourceVersion, why: phase.why };
          phase = { name: 'watch', from: list.resourceVersion };
          yield step;
          break;
        }
        case 'watch': {
          const opened = Date.now();
          response = await openWatch(target, path, phase.from, watchSeconds, signal, opts.fieldSelector);
          credentialRenewed = false; // the server took the credential
          let delivered = false;
          for await (const message of readWatchLines(response)) {
            const { type, object } = message;
            if (type === 'BOOKMARK') {
              phase = { name: 'watch', from: resourceVersionOf(object) || phase.from };
              continue;
            }
            if (type === 'ERROR') throw statusError(object);
            if ((type === 'ADDED' || type === 'MODIFIED' || type === 'DELETED') && isObject(object)) {
              delivered = true;
              failures = 0;
              expiredInARow = 0;
              yield { kind: 'change', type, object };
              // Only past a change the consumer has taken.
              phase = { name: 'watch', from: resourceVersionOf(object) || phase.from };
            }
          }
          if (signal.aborted) return;
          expiredInARow = 0;
          // A normal end (the server's timeoutSeconds, an apiserver restart): resume from where we
          // are. One that ends at once with nothing in it is a failure, or we would spin.
          if (!delivered && Date.now() - opened < 1000) throw new Transient({ kind: 'watch-ended-at-once' });
          break;
        }
      }
    } catch (caught) {
      if (signal.aborted) return;
      const what = phase.name === 'watch' ? 'watch' : 'list';
      if (caught instanceof ExecCredentialRefused && !credentialRenewed) {
        credentialRenewed = true;
        notice({ kind: 'credential-refused', what });
        continue;
      }
      const error = classify(caught);
      if (error instanceof Expired) {
        // A quiet namespace gets this after every long watch (no bookmarks come from etcd, so the
        // version to resume from grows old); only one that follows a fresh list again and again is wrong.
        expiredInARow += 1;
        if (expiredInARow > 5) throw new ClusterError({ kind: 'watch-keeps-expiring', why: error.message });
        notice({ kind: 'expired', what });
        phase = { name: 'list', why: 'expired' };
        continue;
      }
      if (!(error instanceof Transient)) throw error;
      failures += 1;
      if (failures >= retry.maxAttempts) {
        throw new ClusterError({ kind: 'gave-up-following', failures, why: error.message });
      }
      const delay = backoffDelay(failures, retry);
      opts.failed?.(error.message);
      notice({ kind: 'retrying', what, error: error.message, delayMs: delay });
      await sleep(delay, signal);
    } finally {
      signal.removeEventListener('abort', onAbort);
      response?.destroy();
    }
  }
}

// `wait`'s two follows, side by side until one ends the wait: the object itself (its versions judged
// as kubectl rollout status judges them, core/wait.ts) and the events of its tree (-w --tree's
// follow, app/tree-follow.ts), each new occurrence of this rollout handed on once. Both resume a
// dropped watch and list again after a 410 (kube/watch.ts); an event a relist hands back is not
// handed on again (core/follow.ts ShownOccurrences), and one deleted is let go. The wait ends at
// the first of: done, failed, the object deleted or re-created or changed again, the timeout,
// Ctrl-C, a Warning while settling.
import type { Deps } from '../deps.ts';
import { RuntimeError } from '../errors.ts';
import type { Event } from '../core/event.ts';
import { normaliseEvent } from '../core/event.ts';
import type { ObjectSelector } from '../core/filter.ts';
import { ShownOccurrences } from '../core/follow.ts';
import type { Json } from '../core/json.ts';
import { isObject } from '../core/json.ts';
import type { ObjectMeta } from '../core/ownership.ts';
import type { RolloutStatus, WaitTarget } from '../core/rollout-status.ts';
import type { EventSource, WatchedObject } from '../core/source.ts';
import type { WatchNotice } from '../core/notices.ts';
import { dedupeByUid } from '../core/timeline.ts';
import { firstSeen, judgeVersion, ofThisRollout, rolloutBegins, unsettledBy } from '../core/wait.ts';
import type { FirstSeen, WaitOutcome } from '../core/wait.ts';
import { followTree } from './tree-follow.ts';

export interface WaitRequest {
  watched: WatchedObject;
  selector: ObjectSelector;
  target: WaitTarget;
  /** `deployment "web"`, as the messages name it */
  what: string;
  /** 0: no timeout */
  timeoutMs: number;
  settleMs: number;
  waitForCreate: boolean;
  /** of this rollout's events, those the selection flags keep: printed, and their Warnings fail --settle */
  select(events: Event[]): Event[];
  /** a new occurrence of this rollout's events */
  onEvent(ev: Event, began: number): void;
  /** an event the server no longer holds (deleted, or left out of a relist): what `select` learnt of it is let go */
  forget(ev: Event): void;
  /** the object's latest status (null: not created yet) */
  onStatus(status: RolloutStatus | null): void;
  /** the object's first version: the rollout began at `began` */
  onFirst?(began: number): void;
  onNotice(notice: WatchNotice): void;
}

export interface WaitEnd {
  outcome: WaitOutcome;
  message: string;
  status: RolloutStatus | null;
  first: FirstSeen | null;
  began: number | null;
  startedAt: number;
  endedAt: number;
  succeededAt: number | null;
  /** this rollout's events, latest version of each, in the order first seen */
  events: Event[];
}

/** The revisions a rollout makes, whose newest tells when it began. */
const REVISIONS: Record<string, { group: string; version: string; resource: string; kind: string }> = {
  Deployment: { group: 'apps', version: 'v1', resource: 'replicasets', kind: 'ReplicaSet' },
  StatefulSet: { group: 'apps', version: 'v1', resource: 'controllerrevisions', kind: 'ControllerRevision' },
  DaemonSet: { group: 'apps', version: 'v1', resource: 'controllerrevisions', kind: 'ControllerRevision' },
};

async function revisionsOf(source: EventSource, watched: WatchedObject, uid: string): Promise<ObjectMeta[]> {
  const of = watched.group === 'apps' ? REVISIONS[watched.kind] : undefined;
  if (of === undefined || source.ownedBy === undefined) return [];
  // Not readable (no right to list them): the rollout is taken to begin with the wait.
  return source.ownedBy(of, watched.namespace, uid).catch(() => []);
}

export async function followWait(source: EventSource, req: WaitRequest, deps: Deps): Promise<WaitEnd> {
  const { followObject, follow } = source;
  if (followObject === undefined || follow === undefined) throw new RuntimeError('wait follows the live cluster: this source cannot be followed');
  const startedAt = deps.now();
  const controller = new AbortController();
  const { signal } = controller;
  let first: FirstSeen | null = null;
  let status: RolloutStatus | null = null;
  let began: number | null = null;
  let succeededAt: number | null = null;
  const events = new Map<string, Event>();
  let failure: unknown;
  let finish: (e: { outcome: WaitOutcome; message: string }) => void = () => {};
  const finished = new Promise<{ outcome: WaitOutcome; message: string }>((resolve) => (finish = resolve));
  let done = false;
  const end = (e: { outcome: WaitOutcome; message: string }): void => {
    if (done) return;
    done = true;
    controller.abort();
    finish(e);
  };
  const fail = (error: unknown): void => {
    if (done) return;
    failure = error;
    end({ outcome: 'failed', message: '' });
  };
  const timer = req.timeoutMs > 0 ? setTimeout(() => end({ outcome: 'timed-out', message: 'timed out waiting for the condition' }), req.timeoutMs) : undefined;
  let settleTimer: ReturnType<typeof setTimeout> | undefined;
  void deps.interrupted().then(() => end({ outcome: 'interrupted', message: 'interrupted' }));
  const notice = (n: WatchNotice): void => req.onNotice(n);

  // The tree and what was handed on, kept past the follow: the end catches up with one last read.
  let tree: ReturnType<typeof followTree> | null = null;
  let treeListed = false;
  const shown = new ShownOccurrences();
  const keyOf = (ev: Event): string => ev.uid || `${ev.namespace}/${ev.name}`;
  // A wait may run for days (--timeout 0): what it keeps follows the events the server holds, as -w
  // and record do. A deleted event cannot come again (a namesake has another uid).
  const drop = (ev: Event): void => {
    events.delete(keyOf(ev));
    shown.forget(ev);
    req.forget(ev);
  };
  /** A relist holds every event the server does: one kept that it lacks was deleted unseen (in a gap before 410 Gone). */
  const holdOnly = (listed: readonly Event[]): void => {
    const held = new Set(listed.map(keyOf));
    for (const ev of [...events.values()]) if (!held.has(keyOf(ev))) drop(ev);
  };
  const take = (candidates: Event[], from: number): void => {
    const mine = ofThisRollout(candidates, from);
    for (const ev of mine) events.set(keyOf(ev), ev);
    const selected = req.select(mine);
    for (const ev of shown.takeNew(selected)) req.onEvent(ev, from);
    const late = succeededAt === null ? [] : unsettledBy(selected, succeededAt);
    if (late[0] !== undefined) end({ outcome: 'unsettled', message: unsettledWords(late[0]) });
  };
  const eventLoop = async (from: number): Promise<void> => {
    const grown = (tree = followTree(source, req.selector, deps));
    for await (const step of follow({ resourceVersion: '', signal, notice })) {
      let candidates: Event[];
      if (step.kind === 'list') {
        const listed = dedupeByUid(step.items.map(normaliseEvent));
        holdOnly(listed);
        await grown.listed(listed);
        treeListed = true;
        candidates = listed.filter((ev) => grown.chainOf(ev) !== undefined);
      } else if (step.kind === 'change' && step.type !== 'DELETED') {
        const ev = normaliseEvent(step.object);
        candidates = (await grown.place(ev)) === undefined ? [] : [ev];
      } else if (step.kind === 'change') {
        drop(normaliseEvent(step.object));
        continue;
      } else continue;
      if (done) return;
      take(candidates, from);
    }
  };
  /**
   * The events the follow had not handed on when the object's verdict came (a rollout is often
   * done before the watch of its events delivers the last Started): one list, read once the wait
   * has ended, the tree grown to hold them.
   */
  const catchUp = async (from: number): Promise<void> => {
    const grown = tree ?? followTree(source, req.selector, deps);
    const listed = dedupeByUid((await source.read()).events);
    if (!treeListed) await grown.listed(listed);
    else for (const ev of listed) if (grown.chainOf(ev) === undefined) await grown.place(ev);
    take(listed.filter((ev) => grown.chainOf(ev) !== undefined), from);
  };
  let eventsDone: Promise<void> = Promise.resolve();

  const onVersion = async (object: Json): Promise<void> => {
    if (first === null) {
      first = firstSeen(object);
      began = rolloutBegins(startedAt, object, await revisionsOf(source, req.watched, first.uid));
      req.onFirst?.(began);
      eventsDone = eventLoop(began).catch(fail);
    }
    const verdict = judgeVersion(first, object, req.target, req.what);
    status = verdict.status ?? status;
    if (!verdict.ended) {
      if (succeededAt === null) req.onStatus(status);
      return;
    }
    if (verdict.outcome !== 'succeeded' || req.settleMs === 0) return end(verdict);
    if (succeededAt !== null) return;
    succeededAt = deps.now();
    req.onStatus(status);
    // Warnings already seen after success end it at once; the window passing in quiet is success.
    const late = unsettledBy(req.select([...events.values()]), succeededAt);
    if (late[0] !== undefined) return end({ outcome: 'unsettled', message: unsettledWords(late[0]) });
    settleTimer = setTimeout(() => end(verdict), req.settleMs);
  };

  const objectLoop = async (): Promise<void> => {
    for await (const step of followObject(req.watched, { resourceVersion: '', signal, notice })) {
      if (done) return;
      if (step.kind === 'list') {
        const item = step.items.find(isObject);
        if (item !== undefined) await onVersion(item);
        else if (first !== null) end({ outcome: 'deleted', message: `${req.what} was deleted while waiting` });
        else if (!req.waitForCreate) fail(new NotFound(req));
        else req.onStatus(null);
      } else if (step.kind === 'change') {
        const uid = isObject(step.object.metadata) ? step.object.metadata.uid : undefined;
        if (step.type !== 'DELETED') await onVersion(step.object);
        else if (first !== null && uid === first.uid) end({ outcome: 'deleted', message: `${req.what} was deleted while waiting` });
      }
    }
  };
  const objectDone = objectLoop().catch(fail);

  const result = await finished;
  clearTimeout(timer);
  clearTimeout(settleTimer);
  await Promise.allSettled([objectDone, eventsDone]);
  if (failure !== undefined) throw failure;
  // Not after Ctrl-C: the user asked to stop now.
  if (began !== null && result.outcome !== 'interrupted') await catchUp(began).catch(() => {});
  return { ...result, status, first, began, startedAt, endedAt: deps.now(), succeededAt, events: [...events.values()] };
}

function unsettledWords(ev: Event): string {
  return `a Warning fired after the rollout succeeded: ${ev.reason} on ${ev.object.kind}/${ev.object.name}: ${ev.message}`;
}

/** The object is not there and --wait-for-create was not given: the API server's words for a GET of it (apimachinery errors.NewNotFound). */
export class NotFound extends RuntimeError {
  constructor(req: Pick<WaitRequest, 'watched'>) {
    const { resource, group, name } = req.watched;
    super(`${resource}${group === '' ? '' : `.${group}`} "${name}" not found`);
  }
}

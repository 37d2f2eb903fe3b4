// The wait's decisions, apart from any watch: what a new version of the object means for the wait
// (still waiting, done, failed, or a different story: re-created or superseded), when this rollout
// began (which events are its own), and which Warnings fail a --settle window. `now` is passed in.
import { asObject, asString } from './json.ts';
import type { Json } from './json.ts';
import type { Event } from './event.ts';
import type { ObjectMeta } from './ownership.ts';
import { judgeRollout } from './rollout-status.ts';
import type { RolloutStatus, WaitTarget } from './rollout-status.ts';

export type WaitOutcome = 'succeeded' | 'failed' | 'unsettled' | 'timed-out' | 'deleted' | 'recreated' | 'superseded' | 'interrupted';

/**
 * Each outcome's exit code (README "Exit codes"): kubectl's 1 (API error, not found) and 2 (usage)
 * keep their meaning and 3, 4 are the read verbs'; 130 is what a shell reports for Ctrl-C.
 */
export const WAIT_EXIT: Record<WaitOutcome, number> = {
  succeeded: 0,
  failed: 5,
  unsettled: 5,
  'timed-out': 6,
  deleted: 7,
  recreated: 7,
  superseded: 8,
  interrupted: 130,
};

/** The object as the wait first saw it: a later version with another uid or a newer generation is another story. */
export interface FirstSeen {
  uid: string;
  generation: number;
}

export type Verdict = { ended: false; status: RolloutStatus } | { ended: true; outcome: WaitOutcome; message: string; status?: RolloutStatus };

const metaOf = (object: Json) => asObject(object.metadata);
const generationOf = (object: Json): number => {
  const g = metaOf(object).generation;
  return typeof g === 'number' ? g : 0;
};

export function firstSeen(object: Json): FirstSeen {
  return { uid: asString(metaOf(object).uid), generation: generationOf(object) };
}

/** What one version of the followed object means; `what` is `deployment "web"` as messages name it. */
export function judgeVersion(first: FirstSeen, object: Json, target: WaitTarget, what: string): Verdict {
  const uid = asString(metaOf(object).uid);
  if (uid !== first.uid) return { ended: true, outcome: 'recreated', message: `${what} was deleted and created again while waiting (uid ${first.uid}, now ${uid}): a new object is a new story` };
  const status = judgeRollout(target, object);
  // A change to the spec after the wait began (a new image, a scale) is a rollout of its own; this one
  // will never be told as done or failed. kubectl rollout status would silently follow the newer one.
  const generation = generationOf(object);
  if (generation > first.generation && status.state !== 'done') {
    return { ended: true, outcome: 'superseded', message: `${what} was changed again while waiting (generation ${generation}; the wait began at ${first.generation}): this rollout was superseded`, status };
  }
  if (status.state === 'done') return { ended: true, outcome: 'succeeded', message: status.message, status };
  if (status.state === 'failed') return { ended: true, outcome: 'failed', message: status.message, status };
  return { ended: false, status };
}

/** API-server times are whole seconds: the wait's start is counted from the start of its second. */
const toSecond = (ms: number): number => Math.floor(ms / 1000) * 1000;

/**
 * When this rollout began, so its events are told and older ones are not. An object never changed
 * since it was created (metadata.generation 1, or 0 where the Kind keeps none) began with its
 * creation. Otherwise, a rollout the controller had already acted on when the wait began (status
 * observedGeneration equal to generation) began when its newest revision (a ReplicaSet or a
 * ControllerRevision it owns) was made; one not yet acted on begins now. Never later than the wait's start.
 */
export function rolloutBegins(waitStart: number, object: Json, revisions: readonly ObjectMeta[]): number {
  const start = toSecond(waitStart);
  const created = Date.parse(asString(metaOf(object).creationTimestamp));
  const generation = generationOf(object);
  if (generation <= 1 && Number.isFinite(created)) return Math.min(start, created);
  const observed = asObject(object.status).observedGeneration;
  if (observed !== generation) return start;
  const newest = Math.max(...revisions.map((r) => r.created ?? Number.NEGATIVE_INFINITY));
  return Number.isFinite(newest) ? Math.min(start, newest) : start;
}

/** The events of this rollout: occurring (last seen) at or after its beginning. */
export function ofThisRollout(events: readonly Event[], began: number): Event[] {
  return events.filter((ev) => ev.lastSeen !== null && ev.lastSeen >= began);
}

/**
 * --settle: the Warnings that fail the window, occurring strictly after success (to the second the
 * API server keeps); a Warning that stopped before success is no reason to fail.
 */
export function unsettledBy(events: readonly Event[], succeededAt: number): Event[] {
  return events.filter((ev) => ev.type === 'Warning' && ev.lastSeen !== null && ev.lastSeen > succeededAt);
}

// The wait's decisions on a fixed clock: versions of the followed object, when the rollout began,
// which Warnings fail --settle.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { firstSeen, judgeVersion, ofThisRollout, rolloutBegins, unsettledBy, WAIT_EXIT } from '../../../src/core/wait.ts';
import type { WaitTarget } from '../../../src/core/rollout-status.ts';
import { normaliseEvent } from '../../../src/core/event.ts';
import { ago, ev, NOW } from '../../support/builders.ts';

const deploy: WaitTarget = { kind: 'rollout', group: 'apps', objectKind: 'Deployment' };
const d = (uid: string, generation: number, status: object, created = ago(600)) => ({ metadata: { name: 'web', uid, generation, creationTimestamp: created }, spec: { replicas: 1 }, status });
const meta = (createdSecondsAgo: number) => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', namespace: 'shop', name: `rs-${createdSecondsAgo}`, uid: `u${createdSecondsAgo}`, owners: [], created: NOW - createdSecondsAgo * 1000, deleting: null });

test('a version with another uid is a re-created object: its own story, exit 7', () => {
  const v = judgeVersion(firstSeen(d('a', 2, {})), d('b', 1, {}), deploy, 'deployment "web"');
  assert.deepEqual(v.ended && [v.outcome, v.message], ['recreated', 'deployment "web" was deleted and created again while waiting (uid a, now b): a new object is a new story']);
  assert.equal(WAIT_EXIT.recreated, 7);
});
test('a newer generation while waiting supersedes the rollout (exit 8); the generation the wait began at does not', () => {
  const first = firstSeen(d('a', 2, { observedGeneration: 1 }));
  assert.equal(judgeVersion(first, d('a', 2, { observedGeneration: 1 }), deploy, 'x').ended, false);
  const v = judgeVersion(first, d('a', 3, { observedGeneration: 2 }), deploy, 'deployment "web"');
  assert.deepEqual(v.ended && [v.outcome, v.message], ['superseded', 'deployment "web" was changed again while waiting (generation 3; the wait began at 2): this rollout was superseded']);
  assert.equal(WAIT_EXIT.superseded, 8);
});
test('done and failed end the wait with kubectl\'s line; failed and timed out have distinct codes', () => {
  const first = firstSeen(d('a', 2, {}));
  const done = judgeVersion(first, d('a', 2, { observedGeneration: 2, updatedReplicas: 1, replicas: 1, availableReplicas: 1 }), deploy, 'x');
  assert.deepEqual(done.ended && [done.outcome, done.message], ['succeeded', 'deployment "web" successfully rolled out']);
  const failed = judgeVersion(first, d('a', 2, { observedGeneration: 2, conditions: [{ type: 'Progressing', reason: 'ProgressDeadlineExceeded' }] }), deploy, 'x');
  assert.equal(failed.ended && failed.outcome, 'failed');
  assert.deepEqual([WAIT_EXIT.failed, WAIT_EXIT['timed-out'], WAIT_EXIT.interrupted], [5, 6, 130]);
});
test('a Deployment never changed since created began at its creation', () => {
  assert.equal(rolloutBegins(NOW, d('a', 1, {}, ago(30)), []), NOW - 30_000);
});
test('a changed Deployment the controller has acted on began at its newest ReplicaSet, if before the wait', () => {
  assert.equal(rolloutBegins(NOW, d('a', 4, { observedGeneration: 4 }), [meta(3000), meta(20), meta(900)]), NOW - 20_000);
});
test('a change the controller has not observed yet begins when the wait does, counted from its whole second', () => {
  assert.equal(rolloutBegins(NOW + 700, d('a', 4, { observedGeneration: 3 }), [meta(20)]), NOW);
});
test('a revision made after the wait began does not move the beginning later', () => {
  assert.equal(rolloutBegins(NOW, d('a', 4, { observedGeneration: 4 }), [{ ...meta(0), created: NOW + 5000 }]), NOW);
});
test('the events of this rollout are those occurring since it began', () => {
  const events = [ev({ name: 'old', first: 900, last: 900 }), ev({ name: 'again', first: 900, last: 10 }), ev({ name: 'new', first: 5 })].map(normaliseEvent);
  assert.deepEqual(ofThisRollout(events, NOW - 60_000).map((e) => e.name), ['again', 'new']);
});
test('--settle: a Warning occurring after success fails it; one that stopped before, or a Normal, does not', () => {
  const events = [
    ev({ name: 'before', type: 'Warning', reason: 'Unhealthy', first: 100, last: 40 }),
    ev({ name: 'after', type: 'Warning', reason: 'BackOff', first: 100, last: 5 }),
    ev({ name: 'normal', reason: 'Started', last: 5 }),
  ].map(normaliseEvent);
  assert.deepEqual(unsettledBy(events, NOW - 30_000).map((e) => e.name), ['after']);
});

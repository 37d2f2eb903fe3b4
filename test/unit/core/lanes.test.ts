import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normaliseEvent } from '../../../src/core/event.ts';
import { buildLanes } from '../../../src/core/lanes.ts';
import { sortTimeline } from '../../../src/core/timeline.ts';
import { ev, labEvents } from '../../support/builders.ts';
import { about, handTree, SMALL_ROLLOUT } from '../../support/trees.ts';

const lanesOf = (raw: Record<string, unknown>[]) => buildLanes(sortTimeline(raw.map(normaliseEvent)));

test('the lab is one namespace with a lane per object, the first to speak on top', () => {
  const groups = lanesOf(labEvents());
  assert.deepEqual(groups.map((g) => g.namespace), ['op-events']);
  const lanes = groups[0]?.lanes ?? [];
  assert.deepEqual(lanes.map((l) => `${l.object.kind}/${l.object.name}`), ['Pipeline/build-1', 'Pod/hungry']);
  assert.deepEqual(lanes.map((l) => l.size), [3, 1]);
  assert.deepEqual(lanes[0]?.tracks.map((t) => `${t.type} ${t.reason}`), ['Normal ReconcileStarted', 'Critical StageUnknown', 'Normal ReconcileSucceeded']);
  assert.ok(lanes.every((l) => l.owner === null));
});

test('a re-created object with the same name gets a lane of its own (its uid differs)', () => {
  const groups = lanesOf([
    ev({ objectName: 'build-1', objectUid: 'old', first: 90 }),
    ev({ objectName: 'build-1', objectUid: 'new', first: 30 }),
  ]);
  assert.deepEqual(groups[0]?.lanes.map((l) => l.object.uid), ['old', 'new']);
});

test('objects without a uid are told apart by apiVersion, kind, namespace and name', () => {
  const groups = lanesOf([
    ev({ kind: 'Pod', objectName: 'a', objectUid: '', first: 50 }),
    ev({ kind: 'Pod', objectName: 'a', objectUid: '', first: 40 }),
    ev({ kind: 'Pod', objectName: 'b', objectUid: '', first: 30 }),
  ]);
  assert.deepEqual(groups[0]?.lanes.map((l) => `${l.object.name}:${l.size}`), ['a:2', 'b:1']);
});

test('namespaces come in byte order, and the same reason under two types is two tracks', () => {
  const groups = lanesOf([
    ev({ namespace: 'zeta', first: 10 }),
    ev({ namespace: 'Alpha', reason: 'Odd', type: 'warning', objectUid: 'x', first: 20 }),
    ev({ namespace: 'Alpha', reason: 'Odd', type: 'Warning', objectUid: 'x', first: 5 }),
  ]);
  assert.deepEqual(groups.map((g) => g.namespace), ['Alpha', 'zeta']);
  assert.deepEqual(groups[0]?.lanes[0]?.tracks.map((t) => t.type), ['warning', 'Warning']);
});

// --tree: lanes owner first, each naming its owner's lane.
const tree = handTree(SMALL_ROLLOUT);

test('with a tree, lanes come owner first, each member after its owner and naming its lane', () => {
  // In time order the Pods spoke first; owner first puts them under their ReplicaSets.
  const events = [
    about('Pod', 'web-7c9d8f6b5-m4x7q', 90),
    about('Pod', 'web-5d4f7c9b8-b7fzw', 80),
    about('Pod', 'web-5d4f7c9b8-x2k4q', 70),
    about('ReplicaSet', 'web-7c9d8f6b5', 60),
    about('Deployment', 'web', 50),
    about('ReplicaSet', 'web-5d4f7c9b8', 40),
    about('Pipeline', 'elsewhere', 95, { apiVersion: 'ev.labhub.io/v1' }),
  ].map(normaliseEvent);
  const lanes = buildLanes(sortTimeline(events), tree)[0]?.lanes ?? [];
  const named = lanes.map((l) => `${l.object.kind}/${l.object.name}`);
  assert.deepEqual(named, [
    'Deployment/web',
    'ReplicaSet/web-5d4f7c9b8',
    'Pod/web-5d4f7c9b8-x2k4q',
    'Pod/web-5d4f7c9b8-b7fzw',
    'ReplicaSet/web-7c9d8f6b5',
    'Pod/web-7c9d8f6b5-m4x7q',
    'Pipeline/elsewhere',
  ]);
  assert.deepEqual(lanes.map((l) => (l.owner === null ? null : named[l.owner])), [null, 'Deployment/web', 'ReplicaSet/web-5d4f7c9b8', 'ReplicaSet/web-5d4f7c9b8', 'Deployment/web', 'ReplicaSet/web-7c9d8f6b5', null]);
  assert.deepEqual(lanes.map((l) => l.gone), [false, false, false, true, false, false, false]);
});

test('with a tree, an owner no event is about gets an empty lane so that what it owns hangs under it', () => {
  const events = [about('Pod', 'web-5d4f7c9b8-x2k4q', 70), about('Pod', 'web-7c9d8f6b5-m4x7q', 60)].map(normaliseEvent);
  const lanes = buildLanes(sortTimeline(events), tree)[0]?.lanes ?? [];
  assert.deepEqual(lanes.map((l) => `${l.object.kind}/${l.object.name}:${l.size}:${l.owner}`), [
    'Deployment/web:0:null',
    'ReplicaSet/web-5d4f7c9b8:0:0',
    'Pod/web-5d4f7c9b8-x2k4q:1:1',
    'ReplicaSet/web-7c9d8f6b5:0:0',
    'Pod/web-7c9d8f6b5-m4x7q:1:3',
  ]);
  assert.deepEqual(lanes[0]?.tracks, []);
});

test('without a tree the lanes stay in the order of their first event, owning nothing', () => {
  const events = [about('Pod', 'web-5d4f7c9b8-x2k4q', 70), about('Deployment', 'web', 50)].map(normaliseEvent);
  const lanes = buildLanes(sortTimeline(events))[0]?.lanes ?? [];
  assert.deepEqual(lanes.map((l) => [l.object.kind, l.owner, l.gone]), [['Pod', null, false], ['Deployment', null, false]]);
});

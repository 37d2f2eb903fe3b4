import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normaliseEvent } from '../../src/core/event.ts';
import { buildLanes } from '../../src/core/lanes.ts';
import { sortTimeline } from '../../src/core/timeline.ts';
import { ev, labEvents } from '../support/builders.ts';

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

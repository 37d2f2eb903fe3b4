import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AggregateError, applyMergePatch, planAggregate } from '../../../src/core/aggregate.ts';
import type { AggregateProblem, AggregateRequest } from '../../../src/core/aggregate.ts';
import { NOW, ev, eventsV1, newEv } from '../../support/builders.ts';

function withRv(raw: Record<string, unknown>, rv: string): Record<string, unknown> {
  (raw.metadata as Record<string, unknown>).resourceVersion = rv;
  return raw;
}

const AT = NOW + 123; // a repeat at 12:00:00.123
const ONE = { add: 1 };

describe('planAggregate on a legacy core/v1 event', () => {
  const started = () => withRv(ev({ name: 'build-1-started', count: 1, first: 120 }), '2001');

  test('patches count and lastTimestamp (whole seconds) with the resourceVersion, like the lab step 5', () => {
    const plan = planAggregate(started(), { change: { count: 5 }, at: AT });
    assert.equal(plan.style, 'legacy');
    assert.deepEqual(plan.patch, {
      metadata: { resourceVersion: '2001' },
      count: 5,
      lastTimestamp: '2026-11-30T12:00:00Z',
    });
  });

  test('shows before and after as normalised events', () => {
    const plan = planAggregate(started(), { change: { count: 5 }, at: AT });
    assert.deepEqual([plan.before.count, plan.after.count], [1, 5]);
    assert.deepEqual([plan.before.lastSeen, plan.after.lastSeen], [NOW - 120_000, NOW]);
    assert.equal(plan.after.firstSeen, NOW - 120_000);
  });

  test('adds one occurrence when neither --add nor --count is given', () => {
    assert.equal(planAggregate(withRv(ev({ count: 3 }), '1'), { change: ONE, at: AT }).patch.count, 4);
  });

  test('adds --add occurrences', () => {
    assert.equal(planAggregate(withRv(ev({ count: 3 }), '1'), { change: { add: 4 }, at: AT }).patch.count, 7);
  });

  test('counts an unset count (0) as the one occurrence the event is', () => {
    assert.equal(planAggregate(withRv(ev({ count: 0 }), '1'), { change: ONE, at: AT }).patch.count, 2);
  });

  test('leaves metadata out when the event has no resourceVersion', () => {
    const plan = planAggregate(withRv(ev({}), ''), { change: ONE, at: AT });
    assert.equal('metadata' in plan.patch, false);
  });
});

describe('planAggregate on an events.k8s.io/v1 event (core/v1 view)', () => {
  test('starts a series at 2 when there is none yet, with a microsecond lastObservedTime', () => {
    const plan = planAggregate(withRv(newEv({ name: 'build-1-done' }), '3001'), { change: ONE, at: AT });
    assert.equal(plan.style, 'series');
    assert.deepEqual(plan.patch, {
      metadata: { resourceVersion: '3001' },
      series: { count: 2, lastObservedTime: '2026-11-30T12:00:00.123000Z' },
    });
    assert.equal(plan.after.count, 2);
    assert.equal(plan.after.lastSeen, AT);
  });

  test('adds to an existing series.count and leaves count and lastTimestamp alone', () => {
    const plan = planAggregate(withRv(newEv({ seriesCount: 4, seriesLast: 10 }), '1'), { change: { add: 2 }, at: AT });
    assert.deepEqual(plan.patch.series, { count: 6, lastObservedTime: '2026-11-30T12:00:00.123000Z' });
    assert.equal('count' in plan.patch, false);
    assert.equal('lastTimestamp' in plan.patch, false);
    assert.deepEqual([plan.before.count, plan.after.count], [4, 6]);
  });

  test('sets series.count with --count', () => {
    const plan = planAggregate(withRv(newEv({ seriesCount: 4 }), '1'), { change: { count: 10 }, at: AT });
    assert.equal((plan.patch.series as { count: number }).count, 10);
  });
});

describe('planAggregate refuses', () => {
  const cases: [string, unknown, AggregateRequest, AggregateProblem][] = [
    ['a total below the current count (recorders never decrease it)', ev({ count: 5 }), { change: { count: 4 }, at: AT }, { kind: 'count-below-current', count: 4, current: 5 }],
    ['a series total of 1 (events.k8s.io/v1 needs at least 2)', newEv({}), { change: { count: 1 }, at: AT }, { kind: 'series-too-small', count: 1 }],
    ['a time that is not a number', ev({}), { change: ONE, at: Number.NaN }, { kind: 'invalid-time' }],
    ['something that is not an object', 'build-1-started', { change: ONE, at: AT }, { kind: 'not-an-event' }],
    ['the events.k8s.io/v1 view', eventsV1({}), { change: ONE, at: AT }, { kind: 'new-api-view' }],
  ];
  for (const [name, raw, req, problem] of cases) {
    test(name, () => assert.throws(() => planAggregate(raw, req), (e: unknown) => e instanceof AggregateError && (assert.deepEqual(e.problem, problem), true)));
  }

  test('accepts a --count equal to the current count so re-running is harmless', () => {
    assert.equal(planAggregate(ev({ count: 5 }), { change: { count: 5 }, at: AT }).patch.count, 5);
  });
});

describe('applyMergePatch (RFC 7386)', () => {
  const cases: [string, unknown, unknown, unknown][] = [
    ['merges nested objects', { a: { b: 1, c: 2 } }, { a: { b: 3 } }, { a: { b: 3, c: 2 } }],
    ['deletes a key set to null', { a: 1, b: 2 }, { a: null }, { b: 2 }],
    ['replaces arrays whole', { a: [1, 2] }, { a: [3] }, { a: [3] }],
    ['creates missing objects', {}, { series: { count: 2 } }, { series: { count: 2 } }],
  ];
  for (const [name, target, patch, want] of cases) {
    test(name, () => assert.deepEqual(applyMergePatch(target, patch), want));
  }

  test('does not change the target', () => {
    const target = { a: { b: 1 } };
    applyMergePatch(target, { a: { b: 2 } });
    assert.deepEqual(target, { a: { b: 1 } });
  });
});

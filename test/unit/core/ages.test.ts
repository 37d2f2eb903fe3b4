// Where ages count from: one rule for every read verb (src/core/ages.ts), at a fixed clock.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { agesFrom } from '../../../src/core/ages.ts';
import { normaliseEvent } from '../../../src/core/event.ts';
import { ev, NOW } from '../../support/builders.ts';
import { fromCapture, fromCluster, fromList, fromRecord, fromStableTable } from '../../support/sources.ts';
import type { OtlpProvenance } from '../../../src/core/source.ts';

const events = [ev({ first: 600 }), ev({ first: 300, last: 120 })].map(normaliseEvent);
const otlp = (lastObserved: number | null): OtlpProvenance => ({ ...fromList(), kind: 'otlp', writers: ['evtimeline'], skipped: 0, unreadable: null, firstObserved: null, lastObserved });

describe('agesFrom', () => {
  test('counts a live read from now', () => {
    assert.deepEqual(agesFrom(fromCluster(), events, NOW), { at: NOW, basis: 'now' });
  });
  test('counts a capture from when it was taken', () => {
    assert.deepEqual(agesFrom(fromCapture({ capturedAt: NOW - 86_400_000 }), events, NOW), { at: NOW - 86_400_000, basis: 'capture' });
  });
  test('counts a record from its last observation', () => {
    assert.deepEqual(agesFrom(fromRecord({ lastObserved: NOW - 60_000 }), events, NOW), { at: NOW - 60_000, basis: 'record' });
  });
  test('counts a plain list from its newest event, which is not always the last one listed', () => {
    assert.deepEqual(agesFrom(fromList(), events, NOW), { at: NOW - 120_000, basis: 'newest-event' });
  });
  test('counts a stable table, which carries no times, from now', () => {
    assert.deepEqual(agesFrom(fromStableTable(), [], NOW), { at: NOW, basis: 'now' });
  });
  test("counts a collector's file from its last observed time unless an event in it is newer", () => {
    assert.deepEqual(agesFrom(otlp(NOW - 30_000), events, NOW), { at: NOW - 30_000, basis: 'collector' });
    assert.deepEqual(agesFrom(otlp(NOW - 900_000), events, NOW), { at: NOW - 120_000, basis: 'newest-event' });
  });
});

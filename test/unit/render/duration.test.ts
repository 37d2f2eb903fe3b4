// src/render/duration.ts: kubectl's ages (apimachinery's HumanDuration), as every table prints them.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { formatAge, humanDuration } from '../../../src/render/duration.ts';
import { NOW } from '../../support/builders.ts';

const SEC = 1000;
const MIN = 60 * SEC;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

describe('humanDuration (apimachinery HumanDuration)', () => {
  // Expected values are those of apimachinery's duration_test.go where it has them.
  const cases: [string, number, string][] = [
    ['two seconds in the future is invalid', -2 * SEC, '<invalid>'],
    ['1.9 seconds in the future is still now (clock skew)', -1.9 * SEC, '0s'],
    ['one second in the future is now', -1 * SEC, '0s'],
    ['zero is 0s', 0, '0s'],
    ['half a second truncates to 0s', 500, '0s'],
    ['59.9 seconds truncates to 59s', 59_900, '59s'],
    ['under two minutes stays in seconds', 119 * SEC, '119s'],
    ['two minutes is 2m', 2 * MIN, '2m'],
    ['2m30s keeps its seconds', 2 * MIN + 30 * SEC, '2m30s'],
    ['9m59s keeps its seconds', 9 * MIN + 59 * SEC, '9m59s'],
    ['ten minutes drops the seconds', 10 * MIN + 59 * SEC, '10m'],
    ['under three hours stays in minutes', 179 * MIN, '179m'],
    ['three hours is 3h', 3 * HOUR, '3h'],
    ['3h5m keeps its minutes', 3 * HOUR + 5 * MIN, '3h5m'],
    ['eight hours drops the minutes', 8 * HOUR + 59 * MIN, '8h'],
    ['under two days stays in hours', 47 * HOUR, '47h'],
    ['two days is 2d', 2 * DAY, '2d'],
    ['2d3h keeps its hours', 2 * DAY + 3 * HOUR, '2d3h'],
    ['eight days drops the hours', 8 * DAY + 3 * HOUR, '8d'],
    ['under two years stays in days', 729 * DAY, '729d'],
    ['two years is 2y', 730 * DAY, '2y'],
    ['2y3d keeps its days', 733 * DAY, '2y3d'],
    ['eight years drops the days', 8 * 365 * DAY + 100 * DAY, '8y'],
    ['a non-number is invalid', Number.NaN, '<invalid>'],
  ];
  for (const [name, ms, want] of cases) {
    test(name, () => assert.equal(humanDuration(ms), want));
  }
});

// apimachinery duration_test.go TestHumanDuration and TestHumanDurationBoundaries, case by case
// (Go's `-2s + 1ns` becomes -1999 ms: we count in milliseconds).
describe('humanDuration matches the upstream Go test table', () => {
  const Y = 365 * DAY;
  const upstream: [number, string][] = [
    [SEC, '1s'], [70 * SEC, '70s'], [190 * SEC, '3m10s'], [70 * MIN, '70m'], [47 * HOUR, '47h'],
    [49 * HOUR, '2d1h'], [(8 * 24 + 2) * HOUR, '8d'], [367 * DAY, '367d'], [(365 * 2 * 24 + 25) * HOUR, '2y1d'],
    [(365 * 8 * 24 + 2) * HOUR, '8y'],
    [-2 * SEC, '<invalid>'], [-1999, '0s'], [0, '0s'], [SEC - 1, '0s'], [2 * MIN - 1, '119s'], [2 * MIN, '2m'],
    [2 * MIN + SEC, '2m1s'], [10 * MIN - 1, '9m59s'], [10 * MIN, '10m'], [10 * MIN + SEC, '10m'],
    [3 * HOUR - 1, '179m'], [3 * HOUR, '3h'], [3 * HOUR + MIN, '3h1m'], [8 * HOUR - 1, '7h59m'], [8 * HOUR, '8h'],
    [8 * HOUR + 59 * MIN, '8h'], [2 * DAY - 1, '47h'], [2 * DAY, '2d'], [2 * DAY + HOUR, '2d1h'], [8 * DAY - 1, '7d23h'],
    [8 * DAY, '8d'], [8 * DAY + 23 * HOUR, '8d'], [2 * Y - 1, '729d'], [2 * Y, '2y'], [2 * Y + 23 * HOUR, '2y'],
    [2 * Y + 23 * HOUR + 59 * MIN, '2y'], [2 * Y + DAY - 1, '2y'], [2 * Y + DAY, '2y1d'], [3 * Y, '3y'], [4 * Y, '4y'],
    [5 * Y, '5y'], [6 * Y, '6y'], [7 * Y, '7y'], [8 * Y - 1, '7y364d'], [8 * Y, '8y'], [8 * Y + 364 * DAY, '8y'], [9 * Y, '9y'],
  ];
  for (const [ms, want] of upstream) {
    test(`${ms} ms is ${want}`, () => assert.equal(humanDuration(ms), want));
  }
});

describe('formatAge', () => {
  const cases: [string, number | null, string][] = [
    ['an unset time is <unknown> like kubectl', null, '<unknown>'],
    ['three seconds ago is 3s', NOW - 3 * SEC, '3s'],
    ['a time far in the future is <invalid>', NOW + HOUR, '<invalid>'],
  ];
  for (const [name, from, want] of cases) {
    test(name, () => assert.equal(formatAge(from, NOW), want));
  }
});

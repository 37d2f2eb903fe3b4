import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDuration } from '../../../src/core/duration.ts';

const SEC = 1000;
const MIN = 60 * SEC;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

describe('parseDuration', () => {
  const cases: [string, string, number | null][] = [
    ['seconds', '90s', 90 * SEC],
    ['minutes', '5m', 5 * MIN],
    ['hours and minutes', '1h30m', HOUR + 30 * MIN],
    ['hours', '2h', 2 * HOUR],
    ['days', '7d', 7 * DAY],
    ['days, hours, minutes, seconds', '1d2h3m4s', DAY + 2 * HOUR + 3 * MIN + 4 * SEC],
    ['milliseconds', '250ms', 250],
    ['a fraction', '1.5h', 90 * MIN],
    ['a leading dot like Go', '.5m', 30 * SEC],
    ['a trailing dot like Go', '1.m', MIN],
    ['microseconds rounded to milliseconds', '1500us', 2],
    ['a bare zero like Go', '0', 0],
    ['zero with a unit', '0s', 0],
    ['empty text as invalid', '', null],
    ['a number without unit as invalid', '90', null],
    ['a missing unit at the end as invalid', '1h30', null],
    ['a negative duration as invalid', '-5m', null],
    ['an upper-case unit as invalid (Go is case-sensitive)', '5M', null],
    ['a lone dot as invalid', '.s', null],
    ['spaces as invalid', '5 m', null],
    ['an unknown unit as invalid', '3w', null],
    ['a duration beyond safe integers as invalid', '99999999999999999999h', null],
    ['an exponent as invalid', '1e3s', null],
    ["Go's longest duration", '2562047h47m16.854s', 9_223_372_036_854],
    ["past Go's longest duration as invalid, as Go's ParseDuration has it", '2562048h', null],
    ['a billion hours as invalid (once year -112053)', '1000000000h', null],
  ];
  for (const [name, text, want] of cases) {
    test(`reads ${name}: ${JSON.stringify(text)}`, () => assert.equal(parseDuration(text), want));
  }
});

// The page's time axis (no browser): a clock step for spans up to a week, then calendar months and
// years, at least 110 px apart and never more than 24 ticks, whatever the span.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { axisTicks } from '../../../../../src/render/page/script/ticks.ts';

const at = (iso: string): number => Date.parse(iso);
const labels = (start: string, end: string, width: number): string[] => axisTicks(at(start), at(end), width).map((t) => t.label);

test('a minute on 1,100 px: a tick every 10 s on the second, labelled with the clock to the second', () => {
  assert.deepEqual(labels('2026-03-01T12:00:00Z', '2026-03-01T12:01:00Z', 1100), ['12:00:00', '12:00:10', '12:00:20', '12:00:30', '12:00:40', '12:00:50', '12:01:00']);
});

test('under a second: milliseconds in the label (a whole second as the ISO time writes it, without them)', () => {
  assert.deepEqual(labels('2026-03-01T12:00:00.000Z', '2026-03-01T12:00:00.100Z', 600), ['12:00:00Z', '12:00:00.020', '12:00:00.040', '12:00:00.060', '12:00:00.080', '12:00:00.100']);
});

test('two days: every six hours on the UTC clock, each label with its day', () => {
  assert.deepEqual(labels('2026-03-01T00:00:00Z', '2026-03-03T00:00:00Z', 1100), ['03-01 00:00', '03-01 06:00', '03-01 12:00', '03-01 18:00', '03-02 00:00', '03-02 06:00', '03-02 12:00', '03-02 18:00', '03-03 00:00']);
});

test('a century: calendar decades on 1,300 px (20 years on 1,100), each on the first of January, labelled with the year', () => {
  assert.deepEqual(labels('2000-01-01T00:00:00Z', '2100-01-01T00:00:00Z', 1100), ['2000', '2020', '2040', '2060', '2080', '2100']);
  const ticks = axisTicks(at('2000-01-01T00:00:00Z'), at('2100-01-01T00:00:00Z'), 1300);
  assert.deepEqual(ticks.map((t) => t.label), ['2000', '2010', '2020', '2030', '2040', '2050', '2060', '2070', '2080', '2090', '2100']);
  assert.equal(ticks[3]?.ms, at('2030-01-01T00:00:00Z'));
});

test('a year and a half: quarters, labelled with the month', () => {
  assert.deepEqual(labels('2026-02-15T00:00:00Z', '2027-08-01T00:00:00Z', 800), ['2026-04', '2026-07', '2026-10', '2027-01', '2027-04', '2027-07']);
});

test('the first century AD: years 10 to 100, not 1910 (Date.UTC reads years 0 to 99 as 19xx)', () => {
  const ticks = axisTicks(at('0001-01-01T00:00:00Z'), at('0100-01-01T00:00:00Z'), 1100);
  assert.deepEqual(ticks.map((t) => t.label), ['0010', '0020', '0030', '0040', '0050', '0060', '0070', '0080', '0090', '0100']);
  assert.equal(ticks[0]?.ms, at('0010-01-01T00:00:00Z'));
});

test('never more than 24 ticks, in order and inside the span, from a millisecond to all of Date\'s range', () => {
  const spans: [number, number][] = [
    [0, 1],
    [at('2026-03-01T00:00:00Z'), at('2026-03-08T00:00:00Z')],
    [at('1970-01-01T00:00:00Z'), at('2262-04-11T23:47:16Z')],
    [-8.64e15, 8.64e15],
  ];
  for (const [start, end] of spans) {
    for (const width of [100, 1100, 100_000]) {
      const ticks = axisTicks(start, end, width);
      assert.ok(ticks.length >= 1 && ticks.length <= 24, `${start}..${end} on ${width} px: ${ticks.length} ticks`);
      ticks.forEach((t, i) => {
        assert.ok(t.ms >= start && t.ms <= end, `tick ${t.label} inside the span`);
        if (i > 0) assert.ok(t.ms > (ticks[i - 1]?.ms ?? -Infinity), 'in order');
      });
    }
  }
});

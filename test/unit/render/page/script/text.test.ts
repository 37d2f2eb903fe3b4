// The page's words for numbers, times and untrusted text (no browser): the precise length of time
// the page shows (not kubectl's rounded age, render/duration.ts), and controls shown as the terminal shows them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { iso, length, plural, thousands, visible } from '../../../../../src/render/page/script/text.ts';

test('a length of time to the precision a zoomed timeline needs: 850ms, 12.3s, 4m05s, 2h03m, 3d04h', () => {
  const cases: [number, string][] = [
    [0, '0ms'],
    [850, '850ms'],
    [1000, '1s'],
    [1500, '1.5s'],
    [9999, '9.999s'],
    [12_345, '12.3s'],
    [245_000, '4m05s'],
    [3_599_999, '59m59s'],
    [7_380_000, '2h03m'],
    [273_600_000, '3d04h'],
    [-245_000, '4m05s'],
  ];
  for (const [ms, want] of cases) assert.equal(length(ms), want, `${ms} ms`);
});

test('counts with thousands separators and a plural that agrees', () => {
  assert.equal(thousands(20_000), '20,000');
  assert.equal(thousands(1_234_567), '1,234,567');
  assert.equal(thousands(999), '999');
  assert.equal(plural(1, 'event'), '1 event');
  assert.equal(plural(20_000, 'event'), '20,000 events');
  assert.equal(plural(0, 'event'), '0 events');
});

test('a time in UTC, without milliseconds when there are none', () => {
  assert.equal(iso(Date.parse('2026-03-01T12:00:00Z')), '2026-03-01T12:00:00Z');
  assert.equal(iso(Date.parse('2026-03-01T12:00:00.250Z')), '2026-03-01T12:00:00.250Z');
});

test('untrusted text: newlines and tabs kept, every other control and invisible character as the terminal shows it', () => {
  assert.equal(visible('line one\nline\ttwo'), 'line one\nline\ttwo');
  assert.equal(visible('a\u001b[31mb'), 'a^[[31mb');
  assert.equal(visible('ok\rFAKE'), 'ok\\rFAKE');
  assert.equal(visible('abc\u202edef'), 'abc\\u202edef');
  assert.equal(visible('Back\u200bOff'), 'Back\\u200bOff');
  assert.equal(visible('Ünïcödé 日本'), 'Ünïcödé 日本');
});

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { formatTime, formatTimeAndAge, isoOrNull, toIso } from '../../../src/render/time.ts';
import { escapeOrNone, plural } from '../../../src/render/words.ts';
import { NOW } from '../../support/builders.ts';

describe('ISO times for JSON', () => {
  test('always shows milliseconds', () => assert.equal(toIso(NOW), '2026-11-30T12:00:00.000Z'));
  test('gives null for an unset time', () => assert.equal(isoOrNull(null), null));
  test('gives the ISO time for a set one', () => assert.equal(isoOrNull(NOW + 83), '2026-11-30T12:00:00.083Z'));
  // toIso keeps the times it spelled lately, one per second's slot: the same second, other
  // milliseconds in it, and times 256 s apart (one slot) must still be spelled as Date spells them.
  test('spells every time as Date does, whatever came before', () => {
    const times = [NOW, NOW + 83, NOW, NOW + 256_000, NOW + 83, NOW + 999, NOW + 1000, NOW + 256_000 + 83, -1, -1000, 0, -0, 1, 253_402_300_799_999, -62_135_596_800_001, NOW + 0.5, NOW + 0.75];
    for (const t of [...times, ...[...times].reverse(), ...times]) assert.equal(toIso(t), new Date(t).toISOString(), String(t));
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -2, max: 600 }), { maxLength: 50 }), fc.integer({ min: 0, max: 999 }), (seconds, ms) =>
        seconds.every((s) => toIso(NOW + s * 1000 + (s % 2 === 0 ? ms : 0)) === new Date(NOW + s * 1000 + (s % 2 === 0 ? ms : 0)).toISOString()),
      ),
    );
  });
});

describe('times for people (render)', () => {
  const cases: [string, number | string, string][] = [
    ['epoch ms drop a zero millisecond part', NOW, '2026-11-30T12:00:00Z'],
    ['epoch ms keep a non-zero one', NOW + 83, '2026-11-30T12:00:00.083Z'],
    ['ISO text drops a zero millisecond part', '2026-11-30T11:59:30.000Z', '2026-11-30T11:59:30Z'],
    ['ISO text a server sent is passed through otherwise', '2026-11-30T11:59:30Z', '2026-11-30T11:59:30Z'],
  ];
  for (const [name, time, want] of cases) test(name, () => assert.equal(formatTime(time), want));

  test('adds the age in brackets', () => assert.equal(formatTimeAndAge(NOW - 45_000, NOW), '2026-11-30T11:59:15Z (45s ago)'));
  test('says <unknown> for an unset time', () => assert.equal(formatTimeAndAge(null, NOW), '<unknown>'));
});

describe('words', () => {
  test('one event', () => assert.equal(plural(1, 'event'), '1 event'));
  test('no events', () => assert.equal(plural(0, 'event'), '0 events'));
  test('an irregular plural with its verb', () => assert.equal(plural(2, 'event is', 'events are'), '2 events are'));
  test('an empty value shows as <none>', () => assert.equal(escapeOrNone(''), '<none>'));
  test('a value is escaped', () => assert.equal(escapeOrNone('a\u001b[2J\u202e'), 'a^[[2J\\u202e'));
});

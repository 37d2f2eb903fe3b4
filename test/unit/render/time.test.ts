import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { formatTime, formatTimeAndAge, isoOrNull, toIso } from '../../../src/render/time.ts';
import { escapeOrNone, plural } from '../../../src/render/words.ts';
import { NOW } from '../../support/builders.ts';

describe('ISO times for JSON', () => {
  test('always shows milliseconds', () => assert.equal(toIso(NOW), '2026-11-30T12:00:00.000Z'));
  test('gives null for an unset time', () => assert.equal(isoOrNull(null), null));
  test('gives the ISO time for a set one', () => assert.equal(isoOrNull(NOW + 83), '2026-11-30T12:00:00.083Z'));
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

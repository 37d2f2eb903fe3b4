import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SlotIndex } from '../../../src/io/slot-index.ts';

const uid = (i: number): string => `0b5e7a11-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;

describe('SlotIndex', () => {
  test('finds the slot each key was given, through many growths, and nothing for a key never given one', () => {
    const index = new SlotIndex();
    // Every other slot, as when the slots between go to events without a uid (another index).
    for (let i = 0; i < 20_000; i += 1) index.set(uid(i), 2 * i);
    for (let i = 0; i < 20_000; i += 1) assert.equal(index.get(uid(i)), 2 * i);
    assert.equal(index.get(uid(20_000)), undefined);
    assert.equal(index.get(''), undefined);
    assert.equal(index.get(uid(5).toUpperCase()), undefined);
  });

  test('tells apart keys that differ in one unit, and keys beyond Latin-1', () => {
    const index = new SlotIndex();
    const keys = ['a', 'b', 'ab', 'ba', '', 'ä', 'é', 'e\u0301', '\u{1F600}', 'ns/name', 'ns/nam'];
    keys.forEach((key, slot) => index.set(key, slot));
    keys.forEach((key, slot) => assert.equal(index.get(key), slot));
    assert.equal(index.get('c'), undefined);
  });

  test('keeps slot 0 apart from a free place', () => {
    const index = new SlotIndex();
    assert.equal(index.get('first'), undefined);
    index.set('first', 0);
    assert.equal(index.get('first'), 0);
  });
});

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

  test("a key the reader keeps is not copied: the index asks the reader, by slot, whether it is the key looked up", () => {
    // The reader's kept uids, by slot: what core/keep.ts uidIs answers from.
    const kept: string[] = [];
    const asked: number[] = [];
    const index = new SlotIndex((slot, key) => {
      asked.push(slot);
      return kept[slot] === key;
    });
    for (let i = 0; i < 5_000; i += 1) {
      index.set(uid(i), i, true);
      kept[i] = uid(i);
    }
    index.set('ns/own-key', 5_000);
    for (let i = 0; i < 5_000; i += 1) assert.equal(index.get(uid(i)), i);
    assert.equal(index.get('ns/own-key'), 5_000);
    assert.equal(index.get(uid(5_000)), undefined);
    assert.ok(asked.length >= 5_000);
    // The index held no copy: once the reader keeps another text in a slot, its old key finds nothing.
    kept[7] = 'something else';
    assert.equal(index.get(uid(7)), undefined);
  });
});

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { writeSlots } from '../../support/slot-writes.ts';
import { TextColumn } from '../../../src/core/text-column.ts';

describe('TextColumn', () => {
  test('gives back every text kept, whatever it holds, as slots are kept and written over', () => {
    // Any text: ASCII (kept as bytes), Latin-1, astral and lone surrogates (kept as strings), long ones.
    const text = fc.oneof(fc.string({ unit: 'binary-ascii', maxLength: 60 }), fc.string({ unit: 'grapheme', maxLength: 20 }), fc.string({ unit: 'binary', maxLength: 20 }), fc.string({ minLength: 1020, maxLength: 1030 }));
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(5000), text), { maxLength: 300 }), (writes) => {
        const column = new TextColumn();
        const want = writeSlots(column, writes);
        for (const [slot, value] of want) {
          assert.equal(column.get(slot), value);
          assert.ok(column.equals(slot, value));
          assert.ok(!column.equals(slot, `${value}x`));
          if (value !== '') assert.ok(!column.equals(slot, value.slice(1)));
        }
      }),
    );
  });

  test('fills chunk after chunk without splitting a text across two', () => {
    const column = new TextColumn();
    // 36 bytes each: 1,820 fill a 64 KiB chunk with 16 bytes left, so the next starts a new chunk.
    const uid = (i: number) => `0b5e7a11-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
    for (let i = 0; i < 20_000; i += 1) column.set(i, uid(i));
    for (let i = 0; i < 20_000; i += 1) assert.equal(column.get(i), uid(i));
    assert.ok(column.equals(1820, uid(1820)));
    assert.ok(!column.equals(1820, uid(1821)));
  });

  test('starts a new chunk after one filled to its last byte', () => {
    const column = new TextColumn();
    // 64 texts of 1,024 bytes fill the first 64 KiB chunk exactly.
    const text = (i: number) => String(i).padStart(1024, '-');
    for (let i = 0; i < 200; i += 1) column.set(i, text(i));
    for (let i = 0; i < 200; i += 1) assert.equal(column.get(i), text(i));
  });
});

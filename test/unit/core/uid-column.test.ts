import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { writeSlots } from '../../support/slot-writes.ts';
import { UidColumn } from '../../../src/core/uid-column.ts';

describe('UidColumn', () => {
  test('gives back every uid kept, canonical UUIDs or any other text, as slots are kept and written over', () => {
    // The API server's form (lowercase), the same in capitals (not canonical: kept as text), and any text.
    const uid = fc.oneof(fc.uuid(), fc.uuid().map((u) => u.toUpperCase()), fc.string({ unit: 'binary', maxLength: 40 }), fc.string({ unit: fc.constantFrom('a', 'f', '0', '9', '-', 'g', 'A'), minLength: 36, maxLength: 36 }));
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(9000), uid), { maxLength: 300 }), fc.array(uid, { maxLength: 20 }), (writes, probes) => {
        const column = new UidColumn();
        const want = writeSlots(column, writes);
        for (const [slot, value] of want) {
          assert.equal(column.get(slot), value);
          assert.ok(column.equals(slot, value));
          // equals is string equality, whatever the other text is
          for (const other of [...probes, value.toUpperCase(), value.replaceAll('-', '_'), `${value}0`, value.slice(1)]) assert.equal(column.equals(slot, other), other === value, `${value} vs ${other}`);
        }
      }),
    );
  });

  test('keeps uids across chunks and says no for a slot never kept', () => {
    const column = new UidColumn();
    const uid = (i: number) => `0b5e7a11-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
    for (let i = 0; i < 10_000; i += 1) column.set(i, uid(i));
    for (let i = 0; i < 10_000; i += 1) assert.equal(column.get(i), uid(i));
    assert.ok(column.equals(4096, uid(4096)));
    assert.ok(!column.equals(4096, uid(4097)));
    assert.ok(!column.equals(20_000, uid(20_000)));
  });
});

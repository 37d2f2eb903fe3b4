import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ChunkedList } from '../../../src/core/chunked-list.ts';

describe('ChunkedList', () => {
  for (const n of [0, 1, 4095, 4096, 4097, 10_000]) {
    test(`holds ${n} items across chunks, replaced in place, and gives them back as one array`, () => {
      const list = new ChunkedList<string>();
      for (let i = 0; i < n; i += 1) list.set(i, `v${i}`);
      for (let i = 0; i < n; i += 7) list.set(i, `w${i}`);
      const expected = Array.from({ length: n }, (_, i) => (i % 7 === 0 ? `w${i}` : `v${i}`));
      assert.equal(list.length, n);
      assert.deepEqual(list.toArray(), expected);
      if (n > 0) assert.equal(list.get(n - 1), expected[n - 1]);
    });
  }

  test('refuses an index past the end, and reads none outside', () => {
    const list = new ChunkedList<number>();
    list.set(0, 0);
    assert.throws(() => list.set(2, 2), RangeError);
    assert.throws(() => list.get(1), RangeError);
    assert.throws(() => list.get(-1), RangeError);
  });
});

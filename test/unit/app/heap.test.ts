import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { collectGarbage } from '../../../src/app/heap.ts';

function dropped(): WeakRef<object> {
  return new WeakRef({ pages: Array.from({ length: 1000 }, (_, i) => `page ${i}`) });
}

test('collectGarbage collects what nothing holds any longer, the first time and again', async () => {
  for (let round = 0; round < 2; round += 1) {
    const ref = dropped();
    // A WeakRef holds its object until the turn that made it ends.
    await nextTurn();
    collectGarbage();
    assert.equal(ref.deref(), undefined);
  }
});

// src/core/bounded.ts: a few requests at a time, never all at once, never one by one; answers in
// the items' order whatever order the work finishes in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eachLimited, mapBounded, sharedBound } from '../../../src/core/bounded.ts';

/** Work that waits for `release` calls, counting how many run at once. */
function gate() {
  let running = 0;
  let most = 0;
  const waiting: (() => void)[] = [];
  return {
    work: async (n: number): Promise<number> => {
      running += 1;
      most = Math.max(most, running);
      await new Promise<void>((resolve) => waiting.push(resolve));
      running -= 1;
      return n * 10;
    },
    /** lets the waiting work finish, the last started first */
    releaseAll: () => {
      while (waiting.length > 0) waiting.pop()?.();
    },
    running: () => running,
    most: () => most,
  };
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

test('runs at most `limit` at a time, starts the next as one ends, and answers in the items\' order', async () => {
  const g = gate();
  const done = mapBounded([1, 2, 3, 4, 5, 6, 7], 3, g.work);
  await settle();
  assert.equal(g.running(), 3, 'three start at once, not one and not seven');
  for (let i = 0; i < 4; i += 1) {
    g.releaseAll();
    await settle();
  }
  assert.deepEqual(await done, [10, 20, 30, 40, 50, 60, 70]);
  assert.equal(g.most(), 3);
});

test('fewer items than the limit: each starts at once; none: an empty answer', async () => {
  const g = gate();
  const done = mapBounded([1, 2], 8, g.work);
  await settle();
  assert.equal(g.running(), 2);
  g.releaseAll();
  assert.deepEqual(await done, [10, 20]);
  assert.deepEqual(await mapBounded([], 4, g.work), []);
});

test('a failure rejects the whole; eachLimited runs every item', async () => {
  await assert.rejects(mapBounded([1, 2, 3], 2, async (n) => {
    if (n === 2) throw new Error('two failed');
    return n;
  }), /two failed/);
  const seen: number[] = [];
  await eachLimited([3, 1, 2], 2, async (n) => seen.push(n));
  assert.deepEqual(seen.sort(), [1, 2, 3]);
});

test('sharedBound: work begun at different moments runs at most `limit` at once, in the order it came; a failure frees its slot', async () => {
  const run = sharedBound(2);
  let running = 0;
  let most = 0;
  const began: string[] = [];
  const task = (name: string, fail = false) => () => {
    began.push(name);
    running += 1;
    most = Math.max(most, running);
    return new Promise<string>((resolve, reject) =>
      setImmediate(() => {
        running -= 1;
        if (fail) reject(new Error(name));
        else resolve(name);
      }),
    );
  };
  const first = [run(task('a', true)), run(task('b')), run(task('c'))];
  await Promise.resolve();
  const later = [run(task('d')), run(task('e'))];
  const settled = await Promise.allSettled([...first, ...later]);
  assert.equal(most, 2);
  assert.deepEqual(began, ['a', 'b', 'c', 'd', 'e']);
  assert.deepEqual(
    settled.map((s) => (s.status === 'fulfilled' ? s.value : `failed ${(s.reason as Error).message}`)),
    ['failed a', 'b', 'c', 'd', 'e'],
  );
});

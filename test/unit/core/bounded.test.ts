import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedBound } from '../../../src/core/bounded.ts';

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

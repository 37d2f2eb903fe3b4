// test/harness/file-pool.ts: the integration runner's slots. Files start in their order, never more
// than the slots at once, a slot taking the next file the moment its last one ends.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runPool } from '../../harness/file-pool.ts';

/** A start function whose files end when the test says; it logs each start and end. */
function controlled() {
  const log: string[] = [];
  const ends = new Map<string, () => void>();
  let running = 0;
  let most = 0;
  const start = (file: string) =>
    new Promise<void>((resolve) => {
      running += 1;
      most = Math.max(most, running);
      log.push(`start ${file}`);
      ends.set(file, () => {
        running -= 1;
        log.push(`end ${file}`);
        resolve();
      });
    });
  const end = async (file: string) => {
    const finish = ends.get(file);
    assert.ok(finish, `${file} has not started: ${log.join(', ')}`);
    finish();
    await new Promise((r) => setImmediate(r));
  };
  return { log, start, end, most: () => most };
}

const settle = () => new Promise((r) => setImmediate(r));

test('the files start in their order, two at a time, the next as soon as a slot comes free', async () => {
  const c = controlled();
  const done = runPool(['a', 'b', 'c', 'd'], 2, c.start);
  await settle();
  assert.deepEqual(c.log, ['start a', 'start b']);
  await c.end('b');
  assert.deepEqual(c.log.slice(2), ['end b', 'start c']);
  await c.end('a');
  await c.end('c');
  await c.end('d');
  await done;
  assert.equal(c.most(), 2);
  assert.deepEqual(c.log.filter((l) => l.startsWith('start')), ['start a', 'start b', 'start c', 'start d']);
});

test('one slot runs the files one after another; no files, nothing started', async () => {
  const c = controlled();
  const done = runPool(['x', 'y'], 1, c.start);
  await settle();
  await c.end('x');
  await c.end('y');
  await done;
  assert.deepEqual(c.log, ['start x', 'end x', 'start y', 'end y']);
  let started = 0;
  await runPool([], 2, async () => void (started += 1));
  assert.equal(started, 0);
});

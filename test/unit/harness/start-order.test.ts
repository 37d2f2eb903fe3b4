// test/harness/start-order.ts: the integration runner's order. Longest first (so no long file runs
// alone at the end), and the files that need the release archives, packaged beside the tests, no
// earlier than the archives are foretold to be ready.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startOrder } from '../../harness/start-order.ts';

const none = new Set<string>();

test('longest first by the kept times; a file with none first of all; equals by name', () => {
  const seconds = { 'a.ts': 10, 'b.ts': 50, 'c.ts': 30, 'e.ts': 30 };
  assert.deepEqual(startOrder(['a.ts', 'b.ts', 'c.ts', 'd.ts', 'e.ts'], seconds, 2, none, 0), ['d.ts', 'b.ts', 'c.ts', 'e.ts', 'a.ts']);
});

test('a late file takes the first place at which a slot is foretold to come free at or after readyAt', () => {
  // Two slots: w (100) and x (90) start at 0; x ends at 90, w at 100, y (80) at 170.
  const seconds = { 'w.ts': 100, 'x.ts': 90, 'y.ts': 80, 'z.ts': 10, 'late.ts': 200 };
  const files = ['late.ts', 'w.ts', 'x.ts', 'y.ts', 'z.ts'];
  // Ready at 95: the slot that comes free at 90 is too early (y takes it); the one free at 100 is not.
  assert.deepEqual(startOrder(files, seconds, 2, new Set(['late.ts']), 95), ['w.ts', 'x.ts', 'y.ts', 'late.ts', 'z.ts']);
  // Ready at once: it is simply the longest.
  assert.deepEqual(startOrder(files, seconds, 2, new Set(['late.ts']), 0), ['late.ts', 'w.ts', 'x.ts', 'y.ts', 'z.ts']);
  // Ready later than every slot comes free: last.
  assert.deepEqual(startOrder(files, seconds, 2, new Set(['late.ts']), 10_000), ['w.ts', 'x.ts', 'y.ts', 'z.ts', 'late.ts']);
});

test('several late files, longest of them first, each taking a slot as it comes free', () => {
  const seconds = { 'a.ts': 60, 'b.ts': 60, 'c.ts': 60, 'd.ts': 60, 'p.ts': 90, 'k.ts': 50 };
  const order = startOrder(['a.ts', 'b.ts', 'c.ts', 'd.ts', 'k.ts', 'p.ts'], seconds, 2, new Set(['k.ts', 'p.ts']), 60);
  // a and b end at 60: both slots are free at the time the archives are, so p and then k take them.
  assert.deepEqual(order, ['a.ts', 'b.ts', 'p.ts', 'k.ts', 'c.ts', 'd.ts']);
});

test('a file with no time kept is foretold to take a minute; one slot runs them one after another', () => {
  const order = startOrder(['new.ts', 'old.ts', 'late.ts'], { 'old.ts': 30, 'late.ts': 5 }, 1, new Set(['late.ts']), 70);
  // new (60, unknown) then old (30) ends at 90 >= 70 only after old; after new alone (60) it is too early.
  assert.deepEqual(order, ['new.ts', 'old.ts', 'late.ts']);
  assert.deepEqual(startOrder(['new.ts', 'old.ts', 'late.ts'], { 'old.ts': 30, 'late.ts': 5 }, 1, new Set(['late.ts']), 60), ['new.ts', 'late.ts', 'old.ts']);
});

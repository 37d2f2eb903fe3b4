// Where the page's rows lie, from the model alone (no browser): the virtual lanes put in the
// document only the rows this says meet the screen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { itemsBetween, layOut } from '../../../../../src/render/page/script/layout.ts';
import type { Shown } from '../../../../../src/render/page/script/layout.ts';

const SIZES = { group: 30, lane: 26, row: 22 };

/** Two groups: lanes 0 (tracks 0, 1) and 1 (track 2) in the first, lane 2 (track 3) in the second. */
function shown(over: Partial<Shown> = {}): Shown {
  return {
    groups: [{ lanes: [0, 1] }, { lanes: [2] }],
    laneTracks: [[0, 1], [2], [3]],
    laneShown: () => true,
    trackShown: () => true,
    collapsed: () => false,
    ...over,
  };
}

const rows = (layout: ReturnType<typeof layOut>) => layout.items.map((it) => `${it.kind}${it.kind === 'group' ? it.group : it.kind === 'lane' ? it.lane : it.track}@${it.y}+${it.extent}`);

test('every shown row, top to bottom, each at the sum of the fixed heights above it', () => {
  const layout = layOut(shown(), SIZES);
  assert.deepEqual(rows(layout), ['group0@0+148', 'lane0@30+70', 'track0@56+22', 'track1@78+22', 'lane1@100+48', 'track2@126+22', 'group1@148+78', 'lane2@178+48', 'track3@204+22']);
  assert.equal(layout.height, 226);
  assert.equal(layout.trackItem.get(3), 8);
  assert.equal(layout.laneItem.get(2), 7);
});

test('a filtered track, a collapsed lane and a group with nothing shown take no room', () => {
  const layout = layOut(shown({ trackShown: (t) => t !== 1, collapsed: (l) => l === 1, laneShown: (l) => l !== 2 }), SIZES);
  assert.deepEqual(rows(layout), ['group0@0+104', 'lane0@30+48', 'track0@56+22', 'lane1@78+26']);
  assert.equal(layout.height, 104);
  assert.equal(layout.trackItem.has(2), false, 'a collapsed lane has no track rows');
});

test('the rows that meet a window: found by a binary search, the first cut in half included', () => {
  const layout = layOut(shown(), SIZES);
  assert.deepEqual(itemsBetween(layout, 0, 1), [0, 1]);
  assert.deepEqual(itemsBetween(layout, 60, 101), [2, 5], 'track0 (56..78) to lane1 (100..126)');
  assert.deepEqual(itemsBetween(layout, 226, 500), [9, 9], 'nothing below the last row');
  assert.deepEqual(itemsBetween(layout, -300, -1), [0, 0], 'nothing above the first');
});

test('20,000 lanes: the window holds only what meets it', () => {
  const n = 20_000;
  const big = layOut(
    { groups: [{ lanes: Array.from({ length: n }, (_, i) => i) }], laneTracks: Array.from({ length: n }, (_, i) => [i]), laneShown: () => true, trackShown: () => true, collapsed: () => false },
    SIZES,
  );
  assert.equal(big.height, 30 + n * 48);
  const [from, to] = itemsBetween(big, 480_000, 480_800);
  assert.ok(to - from <= 800 / 22 + 2, `${to - from} rows in 800 px`);
  assert.equal(big.items[from]?.y, 479_982, 'the row the window begins in');
});

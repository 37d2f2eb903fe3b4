// src/io/latest-fold.ts: the newest version of each event as versions stream in (a store's rows, a
// collector's lines): the newer wins whatever order they come in, a tie goes to the writer that keeps
// more, events stay in the order each first appeared.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LatestFold } from '../../../src/io/latest-fold.ts';
import type { Json } from '../../../src/core/json.ts';

interface V {
  uid?: string;
  name?: string;
  rv?: string;
  count?: number;
  message?: string;
}

function version(v: V): Json {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { namespace: 'shop', ...(v.name === '' ? {} : { name: v.name ?? 'web.1' }), ...(v.uid === undefined ? {} : { uid: v.uid }), ...(v.rv === undefined ? {} : { resourceVersion: v.rv }) },
    involvedObject: { kind: 'Pod', namespace: 'shop', name: 'web' },
    type: 'Normal',
    reason: 'BackOff',
    message: v.message ?? 'm',
    count: v.count ?? 1,
    firstTimestamp: '2026-03-01T12:00:00Z',
    lastTimestamp: '2026-03-01T12:00:00Z',
  } as Json;
}

const said = (fold: LatestFold) => fold.events().map((e) => `${e.uid || e.name}:${e.message}`);

test('of two versions of one event the newer stays, whichever comes first; events keep the order they first appeared in', () => {
  for (const order of [0, 1]) {
    const fold = new LatestFold('all');
    const versions = [version({ uid: 'a', rv: '10', message: 'old' }), version({ uid: 'a', rv: '12', message: 'new' })];
    if (order === 1) versions.reverse();
    fold.add(version({ uid: 'z', name: 'z', rv: '5', message: 'first' }));
    for (const v of versions) fold.add(v);
    fold.add(version({ uid: 'b', name: 'b', rv: '11', message: 'last' }));
    assert.deepEqual(said(fold), ['z:first', 'a:new', 'b:last'], `order ${order}`);
  }
});

test('versions that cannot be told apart: the writer of equal or higher rank replaces, a lower one does not', () => {
  const fold = new LatestFold('all', true);
  fold.add(version({ uid: 'a', message: 'receiver' }), 0);
  fold.add(version({ uid: 'a', message: 'recorder' }), 1);
  fold.add(version({ uid: 'a', message: 'receiver again' }), 0);
  fold.add(version({ uid: 'b', name: 'b', message: 'one' }), 1);
  fold.add(version({ uid: 'b', name: 'b', message: 'two' }), 1);
  assert.deepEqual(said(fold), ['a:recorder', 'b:two'], 'of equal rank, the later');
  assert.deepEqual([...fold.keptRanks()], [1]);
  assert.equal((fold.rawEvents()[0] as { message: string }).message, 'recorder', 'the raw object kept is the version kept');
});

test('without a uid an event is told by its namespace and name; with neither, each version is kept as it is', () => {
  const fold = new LatestFold('all');
  fold.add(version({ name: 'web.1', count: 1, message: 'once' }));
  fold.add(version({ name: 'web.1', count: 3, message: 'thrice' }));
  fold.add(version({ name: '', message: 'nameless' }));
  fold.add(version({ name: '', message: 'nameless' }));
  assert.deepEqual(said(fold), ['web.1:thrice', ':nameless', ':nameless']);
  assert.deepEqual(fold.rawEvents(), [], 'raw objects only when asked for');
});

test("with raw objects, each one's context, one for one, past the first chunk of slots (4,096) and where a newer version replaced the kept one", () => {
  const fold = new LatestFold('all', true);
  const east = { context: 'east', server: '' };
  const west = { context: 'west\u001b[2J', server: '' };
  // 5,000 events in east, the first 100 of them (the same uids) also in west, and a context-less one.
  for (let i = 0; i < 5_000; i += 1) fold.add(version({ uid: `u${i}`, name: `e${i}`, rv: '1' }), 1, east);
  for (let i = 0; i < 100; i += 1) fold.add(version({ uid: `u${i}`, name: `e${i}`, rv: '1' }), 1, west);
  fold.add(version({ uid: 'plain', name: 'plain', rv: '1' }), 1);
  // Newer versions: in east past the first chunk, in west at its start.
  fold.add(version({ uid: 'u4500', name: 'e4500', rv: '2', message: 'newer' }), 1, east);
  fold.add(version({ uid: 'u0', name: 'e0', rv: '2', message: 'newer' }), 1, west);
  const raws = fold.rawEvents() as { metadata: { uid: string }; message: string }[];
  const contexts = fold.rawContexts();
  assert.equal(raws.length, 5_101);
  assert.equal(contexts.length, 5_101);
  assert.deepEqual(
    [0, 4095, 4096, 4500, 4999, 5000, 5099, 5100].map((slot) => `${contexts[slot]} ${raws[slot]?.metadata.uid} ${raws[slot]?.message}`),
    ['east u0 m', 'east u4095 m', 'east u4096 m', 'east u4500 newer', 'east u4999 m', 'west\u001b[2J u0 newer', 'west\u001b[2J u99 m', ' plain m'],
  );
});

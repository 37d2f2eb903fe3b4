import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normaliseEvent } from '../../../src/core/event.ts';
import { ShownOccurrences } from '../../../src/core/follow.ts';
import { ev } from '../../support/builders.ts';

function event(uid: string, count: number, last: number, labels?: Record<string, string>) {
  const raw = ev({ name: uid, count, first: 100, last }) as { metadata: Record<string, unknown> };
  raw.metadata = { ...raw.metadata, uid, ...(labels ? { labels } : {}) };
  return normaliseEvent(raw);
}

test('a version already shown is not shown again, after a relist too', () => {
  const shown = new ShownOccurrences();
  assert.equal(shown.takeNew([event('a', 1, 60)]).length, 1);
  assert.equal(shown.takeNew([event('a', 1, 60)]).length, 0);
});
test('a count bump is a new occurrence', () => {
  const shown = new ShownOccurrences();
  shown.takeNew([event('a', 1, 60)]);
  assert.deepEqual(shown.takeNew([event('a', 2, 30)]).map((e) => e.count), [2]);
});
test('a change that is no new occurrence (a label) prints nothing', () => {
  const shown = new ShownOccurrences();
  shown.takeNew([event('a', 1, 60)]);
  assert.equal(shown.takeNew([event('a', 1, 60, { seen: 'yes' })]).length, 0);
});
test('new occurrences come back in timeline order', () => {
  const shown = new ShownOccurrences();
  assert.deepEqual(shown.takeNew([event('late', 1, 10), event('early', 1, 50)]).map((e) => e.name), ['early', 'late']);
});

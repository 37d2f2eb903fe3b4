import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normaliseEvent } from '../../../src/core/event.ts';
import { FollowVerdicts, ShownLines, ShownOccurrences } from '../../../src/core/follow.ts';
import { escapeTerminal } from '../../../src/render/escape.ts';
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

// A follow runs for days: at 50 events/s the server's TTL deletes as many events as are created,
// and what -w remembers must follow what the server holds, not every event it ever showed.
test('a follow remembers the events that still exist: 20,000 shown and then deleted leave nothing behind', () => {
  const shown = new ShownOccurrences();
  for (let i = 0; i < 20_000; i += 1) {
    const e = event(`e${i}`, 1, 60);
    assert.equal(shown.takeNew([e]).length, 1);
    shown.takeNew([event(`e${i}`, 1, 60, { relabelled: 'yes' })]);
    shown.forget(e);
  }
  assert.equal(shown.size, 0);
});
test('only the occurrence shown last is kept: a bump, the same version again after a relist, then another bump', () => {
  const shown = new ShownOccurrences();
  shown.takeNew([event('a', 1, 60)]);
  assert.equal(shown.takeNew([event('a', 2, 30)]).length, 1);
  assert.equal(shown.takeNew([event('a', 2, 30)]).length, 0, 'the relist hands back the current version');
  assert.equal(shown.takeNew([event('a', 3, 10)]).length, 1);
  assert.equal(shown.size, 1);
});
test('an event forgotten is shown when it comes again: a namesake created later has another uid and is its own event', () => {
  const shown = new ShownOccurrences();
  const first = event('a', 1, 60);
  shown.takeNew([first]);
  shown.forget(first);
  assert.equal(shown.takeNew([event('b', 1, 60)]).length, 1);
  assert.equal(shown.takeNew([event('a', 1, 60)]).length, 1);
});

test('what the selection hid counts every event once, deleted or not, and keeps only the live ones one by one', () => {
  const verdicts = new FollowVerdicts();
  for (let i = 0; i < 10_000; i += 1) {
    const e = event(`e${i}`, 1, 60);
    verdicts.judge(e, i % 2 === 0 ? 'reasons' : null);
    verdicts.judge(e, i % 2 === 0 ? 'reasons' : 'types'); // a new version judged otherwise: the latest verdict counts
    if (i < 9_000) verdicts.settle(e);
  }
  assert.deepEqual(verdicts.hidden(), [
    { criterion: 'types', events: 5_000 },
    { criterion: 'reasons', events: 5_000 },
  ]);
  assert.equal(verdicts.size, 1_000);
});

// -w -o stable: each line once while the server holds an event that says it.
function about(uid: string, pod: string, reason = 'Pulled') {
  const raw = ev({ name: uid, reason, apiVersion: 'v1', kind: 'Pod', objectName: pod }) as { metadata: Record<string, unknown> };
  raw.metadata = { ...raw.metadata, uid };
  return normaliseEvent(raw);
}

test('-o stable under -w: a line two events say prints once, and again only after both were deleted and it comes back', () => {
  const lines = new ShownLines(escapeTerminal);
  assert.deepEqual(lines.takeNew([about('a', 'web-1'), about('b', 'web-1')]), ['Normal Pulled Pod/web-1']);
  assert.deepEqual(lines.takeNew([about('a', 'web-1')]), []);
  lines.forget(about('a', 'web-1'));
  assert.deepEqual(lines.takeNew([about('c', 'web-1')]), []);
  lines.forget(about('b', 'web-1'));
  lines.forget(about('c', 'web-1'));
  assert.equal(lines.size, 0);
  assert.deepEqual(lines.takeNew([about('d', 'web-1')]), ['Normal Pulled Pod/web-1']);
});

test('-o stable under -w: new lines come sorted byte-wise, escaped, and 20,000 Pods come and gone leave nothing behind', () => {
  const lines = new ShownLines(escapeTerminal);
  assert.deepEqual(lines.takeNew([about('z', 'web-b'), about('y', 'web-a', 'Killing'), about('x', 'evil\u001b[2J')]), ['Normal Killing Pod/web-a', 'Normal Pulled Pod/evil^[[2J', 'Normal Pulled Pod/web-b']);
  for (let i = 0; i < 20_000; i += 1) {
    assert.equal(lines.takeNew([about(`e${i}`, `pod-${i}`)]).length, 1);
    lines.forget(about(`e${i}`, `pod-${i}`));
  }
  assert.equal(lines.size, 3);
});

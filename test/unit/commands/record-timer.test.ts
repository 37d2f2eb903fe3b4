// `record --duration` past 24.8 days: setTimeout holds at most 2^31-1 ms and fires after 1 ms
// beyond, so the wait is taken in steps (src/commands/record-timer.ts).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_TIMER_MS, afterLongDelay } from '../../../src/commands/record-timer.ts';
import type { Timers } from '../../../src/commands/record-timer.ts';

const DAY = 24 * 60 * 60 * 1000;

/**
 * Timers on a clock the test moves. Like Node, a delay past 2^31-1 ms becomes 1 ms: a caller that
 * hands it such a delay sees its timer fire at once, as a user would.
 */
function fakeTimers() {
  let clock = 0;
  let nextId = 1;
  const pending = new Map<number, { at: number; fire: () => void }>();
  const asked: number[] = [];
  const timers: Timers = {
    setTimeout(fire, ms) {
      asked.push(ms);
      const id = nextId++;
      pending.set(id, { at: clock + (ms > MAX_TIMER_MS ? 1 : ms), fire });
      return id;
    },
    clearTimeout(handle) {
      pending.delete(handle as number);
    },
  };
  /** Moves the clock by `ms`, firing what falls due on the way, in order. */
  const advance = (ms: number): void => {
    const end = clock + ms;
    for (;;) {
      const due = [...pending.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (due === undefined) break;
      pending.delete(due[0]);
      clock = due[1].at;
      due[1].fire();
    }
    clock = end;
  };
  return { timers, advance, asked, pending, now: () => clock };
}

describe('afterLongDelay', () => {
  test('a short wait is one timer', () => {
    const t = fakeTimers();
    let fired = 0;
    afterLongDelay(90_000, () => (fired += 1), t.timers);
    t.advance(89_999);
    assert.equal(fired, 0);
    t.advance(1);
    assert.equal(fired, 1);
    assert.deepEqual(t.asked, [90_000]);
  });

  test('exactly 2^31-1 ms is still one timer', () => {
    const t = fakeTimers();
    let fired = 0;
    afterLongDelay(MAX_TIMER_MS, () => (fired += 1), t.timers);
    t.advance(MAX_TIMER_MS - 1);
    assert.equal(fired, 0);
    t.advance(1);
    assert.equal(fired, 1);
    assert.deepEqual(t.asked, [MAX_TIMER_MS]);
  });

  test('30 days: not at once, not at 24.8 days, exactly at 30 days', () => {
    const t = fakeTimers();
    let firedAt: number | undefined;
    afterLongDelay(30 * DAY, () => (firedAt = t.now()), t.timers);
    t.advance(1000);
    assert.equal(firedAt, undefined, 'fired at once, as a bare setTimeout(30d) does');
    t.advance(MAX_TIMER_MS);
    assert.equal(firedAt, undefined);
    t.advance(30 * DAY);
    assert.equal(firedAt, 30 * DAY);
    assert.deepEqual(t.asked, [MAX_TIMER_MS, 30 * DAY - MAX_TIMER_MS]);
    assert.ok(t.asked.every((ms) => ms <= MAX_TIMER_MS));
  });

  test('a year takes as many steps as it needs, and fires once', () => {
    const t = fakeTimers();
    const fired: number[] = [];
    afterLongDelay(365 * DAY, () => fired.push(t.now()), t.timers);
    t.advance(400 * DAY);
    assert.deepEqual(fired, [365 * DAY]);
    assert.equal(t.asked.length, Math.ceil((365 * DAY) / MAX_TIMER_MS));
    assert.equal(
      t.asked.reduce((a, b) => a + b, 0),
      365 * DAY,
    );
  });

  test('cancelled between steps, it never fires and leaves no timer', () => {
    const t = fakeTimers();
    let fired = 0;
    const cancel = afterLongDelay(60 * DAY, () => (fired += 1), t.timers);
    t.advance(30 * DAY);
    assert.equal(t.pending.size, 1);
    cancel();
    assert.equal(t.pending.size, 0);
    t.advance(60 * DAY);
    assert.equal(fired, 0);
  });
});

describe('with Node timers', () => {
  test('a bare setTimeout past 2^31-1 ms fires before a 50 ms one (why the steps exist)', async () => {
    const order: string[] = [];
    await new Promise<void>((resolve) => {
      setTimeout(() => order.push('overflowed'), MAX_TIMER_MS + 1);
      setTimeout(() => {
        order.push('50ms');
        resolve();
      }, 50);
    });
    assert.deepEqual(order, ['overflowed', '50ms']);
  });

  test('afterLongDelay(30 days) has not fired when a 50 ms timer set after it fires', async () => {
    const order: string[] = [];
    const cancel = afterLongDelay(30 * DAY, () => order.push('30 days'));
    await new Promise<void>((resolve) => setTimeout(resolve, 50));
    cancel();
    assert.deepEqual(order, []);
  });
});

// A timer for waits longer than setTimeout holds. Node stores a delay in a signed 32-bit int: past
// 2^31-1 ms (24.8 days) it warns (TimeoutOverflowWarning) and fires after 1 ms, so
// `record --duration 30d` would stop at once. Longer waits are taken in steps of at most that.

export const MAX_TIMER_MS = 2 ** 31 - 1;

/** The timer functions this uses; tests hand in their own to see each step without waiting days. */
export interface Timers {
  setTimeout(fire: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const nodeTimers: Timers = {
  setTimeout: (fire, ms) => setTimeout(fire, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** Calls `fire` once `ms` have passed, however long that is; the result cancels it. */
export function afterLongDelay(ms: number, fire: () => void, timers: Timers = nodeTimers): () => void {
  let handle: unknown;
  const wait = (left: number): void => {
    handle = timers.setTimeout(() => (left > MAX_TIMER_MS ? wait(left - MAX_TIMER_MS) : fire()), Math.min(left, MAX_TIMER_MS));
  };
  wait(ms);
  return () => timers.clearTimeout(handle);
}

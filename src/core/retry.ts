// Retrying what failed for a reason that may pass (a server restarting, a busy collector): waits
// that double from a first delay up to a cap, and a number of failures in a row that ends it.
// Used by the watch (src/kube/watch.ts) and the OTLP sender (src/otlp/ship.ts).

export interface RetryPolicy {
  firstDelayMs: number;
  maxDelayMs: number;
  /** consecutive failures after which the caller gives up with an error */
  maxAttempts: number;
}

/** The wait after the n-th failure in a row: firstDelayMs doubled n-1 times, at most maxDelayMs. */
export function backoffDelay(failures: number, retry: RetryPolicy): number {
  return Math.min(retry.maxDelayMs, retry.firstDelayMs * 2 ** Math.max(0, failures - 1));
}

/** 0.5 s doubling to 30 s; the tenth failure in a row (after about two minutes of waits) gives up. */
export const DEFAULT_RETRY: RetryPolicy = { firstDelayMs: 500, maxDelayMs: 30_000, maxAttempts: 10 };

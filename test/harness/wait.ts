// Polling for what real controllers do in their own time. The deadline only stops a test that
// would otherwise hang: it is generous (a loaded 2-core machine must never reach it), and no
// test asserts how fast a controller was.

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export interface WaitOptions {
  /** Give up after this long (default 180 s): a hang guard, not a speed check. */
  timeoutMs?: number;
  /** Pause between probes (default 250 ms). */
  everyMs?: number;
}

/**
 * Calls probe until it returns a value other than undefined/false and returns that value. A probe
 * that throws is retried; the last error is reported if the deadline passes.
 */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined | false>, opts: WaitOptions = {}): Promise<T> {
  const timeoutMs = opts.timeoutMs ?? 180_000;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      const why = lastError instanceof Error ? `: ${lastError.message}` : '';
      throw new Error(`gave up after ${timeoutMs / 1000} s waiting for ${what}${why}`);
    }
    await sleep(opts.everyMs ?? 250);
  }
}

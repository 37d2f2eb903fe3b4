// Bounded concurrency: a few at a time, never all at once (a namespace of 400 objects or 50
// resources must not open 400 requests to one server; nor 40 contexts 40 lists), never one by one.

/** Runs `work` over `items`, at most `limit` at a time, keeping the items' order in the answer. */
export async function mapBounded<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const at = next++;
      out[at] = await work(items[at] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** Runs `work` on every item with at most `limit` at a time. */
export async function eachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<unknown>): Promise<void> {
  await mapBounded(items, limit, work);
}

/**
 * One bound shared by work that begins at different moments (lists begun as soon as what they need
 * is known, not in one batch): at most `limit` run at once, the others wait their turn in order.
 * A task must not wait for another task of the same gate (it could hold the slot that one needs).
 */
export function sharedBound(limit: number): <R>(work: () => Promise<R>) => Promise<R> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (work) => {
    if (running < limit) running += 1;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await work();
    } finally {
      // The slot passes straight to the next in line, else it is freed.
      const next = waiting.shift();
      if (next === undefined) running -= 1;
      else next();
    }
  };
}

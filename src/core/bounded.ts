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

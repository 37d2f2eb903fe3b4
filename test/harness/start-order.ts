// The order the integration runner starts its shared files in (integration-run.ts): pure, so that
// its unit test can hold it to what the comments say.

/** What a file with no time kept is taken to last when foretelling when slots come free. */
const UNKNOWN_SECONDS = 60;

/**
 * The files, longest first by their kept `seconds` (a file with none first of all, by name among
 * equals), `slots` of them running at a time; but a file in `late` starts no earlier than `readyAt`
 * seconds in, as far as the kept times foretell: it takes the first place in the order at which a
 * slot is foretold to come free at or after `readyAt` (longest of the late first), or the end.
 */
export function startOrder(files: string[], seconds: Record<string, number>, slots: number, late: Set<string>, readyAt: number): string[] {
  const longestFirst = (a: string, b: string) => (seconds[b] ?? Infinity) - (seconds[a] ?? Infinity) || a.localeCompare(b);
  const waiting = files.filter((f) => late.has(f)).sort(longestFirst);
  const free = Array.from({ length: Math.max(1, slots) }, () => 0);
  const order: string[] = [];
  const start = (file: string) => {
    const slot = free.indexOf(Math.min(...free));
    free[slot] = free[slot]! + (seconds[file] ?? UNKNOWN_SECONDS);
    order.push(file);
  };
  for (const file of files.filter((f) => !late.has(f)).sort(longestFirst)) {
    while (waiting.length > 0 && Math.min(...free) >= readyAt) start(waiting.shift()!);
    start(file);
  }
  for (const file of waiting) start(file);
  return order;
}

// How the integration runner starts its files (integration-run.ts): pure of node:test, so that its
// unit test can hold it to what the comments say.

/**
 * Calls `start(file)` for each of `files` in their order, `slots` at a time, each slot taking the
 * next file as soon as its last one ends. Resolves when every call has.
 */
export async function runPool(files: string[], slots: number, start: (file: string) => Promise<void>): Promise<void> {
  const queue = [...files];
  const slot = async (): Promise<void> => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) await start(file);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(slots, files.length)) }, slot));
}

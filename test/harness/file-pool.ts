// How the integration runner starts its files (integration-run.ts): pure of node:test, so that its
// unit test can hold it to what the comments say.

/**
 * Calls `start(file)` for each of `files` in their order, `slots` at a time, each slot taking the
 * next file as soon as its last one ends. A file in `gated` is passed over until `gate` settles
 * (resolved or rejected), holding no slot meanwhile; from then on it is taken in its place in the
 * order. Resolves when every call has.
 */
export async function runPool(
  files: string[],
  slots: number,
  start: (file: string) => Promise<void>,
  gated: ReadonlySet<string> = new Set(),
  gate: Promise<unknown> = Promise.resolve(),
): Promise<void> {
  const queue = [...files];
  let open = false;
  const opened = gate.then(
    () => void (open = true),
    () => void (open = true),
  );
  const take = (): string | undefined => {
    const i = queue.findIndex((file) => open || !gated.has(file));
    return i === -1 ? undefined : queue.splice(i, 1)[0];
  };
  const slot = async (): Promise<void> => {
    while (queue.length > 0) {
      const file = take();
      if (file === undefined) await opened;
      else await start(file);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(slots, files.length)) }, slot));
}

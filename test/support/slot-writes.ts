// Writes into a column of slots as a reader does: slots given in order (0, 1, 2...), then written
// over, as it keeps newer versions. The texts each slot should hold at the end.
export function writeSlots(column: { set(slot: number, text: string): void }, writes: readonly (readonly [number, string])[]): Map<number, string> {
  const want = new Map<number, string>();
  for (const [at, value] of writes) {
    const slot = want.size === 0 ? 0 : at % (want.size + 1);
    column.set(slot, value);
    want.set(slot, value);
  }
  return want;
}

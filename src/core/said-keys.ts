// Which key each of several items says (an event's -o stable line, the object an event is about),
// and per key how many items say it: a key is let go once no item says it any more. What -w -o
// stable prints once and what record reads the status of follow the events the server holds so.

export class SaidKeys {
  /** item identity -> the key it says */
  private readonly keyOf = new Map<string, string>();
  /** key -> how many items say it */
  private readonly sayers = new Map<string, number>();

  /**
   * `id` says `key` from now on: true when no other item said it already. The key it said before,
   * when no other says it, is handed to `gone`.
   */
  say(id: string, key: string, gone: (key: string) => void = () => {}): boolean {
    const before = this.keyOf.get(id);
    if (before === key) return false;
    if (before !== undefined) this.letGo(before, gone);
    this.keyOf.set(id, key);
    const n = this.sayers.get(key) ?? 0;
    this.sayers.set(key, n + 1);
    return n === 0;
  }

  /** `id` says nothing any more (its event was deleted): its key, when no other says it, is handed to `gone`. */
  forget(id: string, gone: (key: string) => void = () => {}): void {
    const key = this.keyOf.get(id);
    if (key === undefined) return;
    this.keyOf.delete(id);
    this.letGo(key, gone);
  }

  /** Whether some item says `key`. */
  has(key: string): boolean {
    return this.sayers.has(key);
  }

  /** How many keys some item says. */
  get size(): number {
    return this.sayers.size;
  }

  private letGo(key: string, gone: (key: string) => void): void {
    const n = (this.sayers.get(key) ?? 1) - 1;
    if (n > 0) this.sayers.set(key, n);
    else {
      this.sayers.delete(key);
      gone(key);
    }
  }
}

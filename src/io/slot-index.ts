// Which slot a key was given, for a reader that numbers what it keeps (0, 1, 2, ... as each first
// appears) and looks up every line's uid: a record of 200,000 events. A Map of 200,000 uids ends
// at about 7 MiB in V8's large-object space and leaves as much behind in the tables it outgrew,
// and a full collection seldom runs after the first half of such a read: the record's table peaked
// on all of it. Here the table is a typed array, off V8's heap, and the keys are bytes in chunks
// that are never copied (core/text-column.ts): the uid strings read die young.
import { TextColumn } from '../core/text-column.ts';

/** FNV-1a over UTF-16 units: cheap, and spreads uids (hex and dashes) well enough for probing. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export class SlotIndex {
  /** open addressing, linear probing: slot + 1 at each position, 0 when free; at most half full */
  private table = new Int32Array(1024);
  /** the key of each slot given one */
  private readonly keys = new TextColumn();
  private size = 0;

  /** the slot given to `key`, undefined when none was */
  get(key: string): number | undefined {
    const mask = this.table.length - 1;
    for (let at = hash(key) & mask; ; at = (at + 1) & mask) {
      const entry = this.table[at] as number;
      if (entry === 0) return undefined;
      if (this.keys.equals(entry - 1, key)) return entry - 1;
    }
  }

  /** gives `key`, which has no slot yet, the slot `slot` */
  set(key: string, slot: number): void {
    this.keys.set(slot, key);
    this.size += 1;
    if (this.size * 2 > this.table.length) this.grow();
    this.place(this.table, slot, key);
  }

  private place(table: Int32Array, slot: number, key: string): void {
    const mask = table.length - 1;
    let at = hash(key) & mask;
    while (table[at] !== 0) at = (at + 1) & mask;
    table[at] = slot + 1;
  }

  private grow(): void {
    const grown = new Int32Array(this.table.length * 2);
    for (const entry of this.table) if (entry !== 0) this.place(grown, entry - 1, this.keys.get(entry - 1));
    this.table = grown;
  }
}

// Which slot a key was given, for a reader that numbers what it keeps (0, 1, 2, ... as each first
// appears) and looks up every line's uid: a record of 200,000 events. A Map of 200,000 uids ends
// at about 7 MiB in V8's large-object space and leaves as much behind in the tables it outgrew,
// and a full collection seldom runs after the first half of such a read: the record's table peaked
// on all of it. Here the table is a typed array, off V8's heap, and the keys are bytes in chunks
// that are never copied (core/text-column.ts): the uid strings read die young.
//
// A key the reader keeps anyway (an event's uid, in its kept version: core/keep.ts uidIs) is not
// kept twice: the index asks the reader whether a slot's key is the one looked up, and keeps of it
// only its hash (a second copy of 200,000 uids was 8.8 MiB). The hashes are kept per slot, so a
// growing table moves its slots without making each key's string again.
import { TextColumn } from '../core/text-column.ts';

/** FNV-1a over UTF-16 units: cheap, and spreads uids (hex and dashes) well enough for probing. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Slots per hash chunk (4 bytes a slot). */
const HASH_CHUNK = 4096;

export class SlotIndex {
  /** open addressing, linear probing: slot + 1 at each position, 0 when free; at most half full */
  private table = new Int32Array(1024);
  /** the key of each slot given one, but for a slot whose key the reader keeps */
  private readonly keys = new TextColumn();
  /** per slot: its key's hash */
  private readonly hashes: Uint32Array[] = [];
  /** per slot: 1 when the reader keeps its key */
  private readonly readerKept: Uint8Array[] = [];
  private size = 0;

  /** `kept`: whether `key` is the one the reader keeps for `slot` (set with `readerKeeps`) */
  constructor(private readonly kept: (slot: number, key: string) => boolean = () => false) {}

  /** the slot given to `key`, undefined when none was */
  get(key: string): number | undefined {
    const mask = this.table.length - 1;
    const h = hash(key);
    for (let at = h & mask; ; at = (at + 1) & mask) {
      const entry = this.table[at] as number;
      if (entry === 0) return undefined;
      const slot = entry - 1;
      if (this.hashOf(slot) !== h) continue;
      const readerKept = (this.readerKept[Math.floor(slot / HASH_CHUNK)] as Uint8Array)[slot % HASH_CHUNK] === 1;
      if (readerKept ? this.kept(slot, key) : this.keys.equals(slot, key)) return slot;
    }
  }

  /**
   * gives `key`, which has no slot yet, the slot `slot`; `readerKeeps`: the reader keeps it, as the
   * constructor's `kept` reads it, from before the next get on
   */
  set(key: string, slot: number, readerKeeps = false): void {
    const chunk = Math.floor(slot / HASH_CHUNK);
    if (readerKeeps) (this.readerKept[chunk] ??= new Uint8Array(HASH_CHUNK))[slot % HASH_CHUNK] = 1;
    else {
      this.readerKept[chunk] ??= new Uint8Array(HASH_CHUNK);
      this.keys.set(slot, key);
    }
    const h = hash(key);
    (this.hashes[chunk] ??= new Uint32Array(HASH_CHUNK))[slot % HASH_CHUNK] = h;
    this.size += 1;
    if (this.size * 2 > this.table.length) this.grow();
    this.place(this.table, slot, h);
  }

  private hashOf(slot: number): number {
    return (this.hashes[Math.floor(slot / HASH_CHUNK)] as Uint32Array)[slot % HASH_CHUNK] as number;
  }

  private place(table: Int32Array, slot: number, h: number): void {
    const mask = table.length - 1;
    let at = h & mask;
    while (table[at] !== 0) at = (at + 1) & mask;
    table[at] = slot + 1;
  }

  private grow(): void {
    const grown = new Int32Array(this.table.length * 2);
    for (const entry of this.table) if (entry !== 0) this.place(grown, entry - 1, this.hashOf(entry - 1));
    this.table = grown;
  }
}

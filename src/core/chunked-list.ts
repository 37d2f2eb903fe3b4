// A list that grows by chunks of a fixed size and never copies what it holds, for what a reader
// keeps per event by the hundred thousand. An array of 200,000 grows in V8's large-object space,
// each size it had left there until a full collection, and such a read seldom gets one after its
// first half: the copies it outgrew were part of the peak.

const CHUNK = 4096;

export class ChunkedList<T> {
  private readonly chunks: T[][] = [];
  private size = 0;

  get length(): number {
    return this.size;
  }

  /** `index` at most the length: an item replaced, or one added at the end */
  set(index: number, value: T): void {
    // A caller's bug, never a user's mistake: said as get says it (Array and Buffer raise RangeError too).
    if (index > this.size) throw new RangeError(`index ${index} outside 0..${this.size}`);
    // new Array(CHUNK): allocated once at its size (CHUNK is far below where V8 would make it a dictionary)
    (this.chunks[Math.floor(index / CHUNK)] ??= new Array<T>(CHUNK))[index % CHUNK] = value;
    if (index === this.size) this.size += 1;
  }

  get(index: number): T {
    if (index < 0 || index >= this.size) throw new RangeError(`index ${index} outside 0..${this.size - 1}`);
    return (this.chunks[Math.floor(index / CHUNK)] as T[])[index % CHUNK] as T;
  }

  /** The items as one array, allocated once at its length. */
  toArray(): T[] {
    const full = Math.floor(this.size / CHUNK);
    const parts = this.chunks.slice(0, full);
    if (this.size % CHUNK > 0) parts.push((this.chunks[full] as T[]).slice(0, this.size % CHUNK));
    return ([] as T[]).concat(...parts);
  }
}

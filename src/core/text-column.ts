// One short text per slot, for what a reader keeps per event by the hundred thousand and seldom
// reads (an event's uid, its resourceVersion): ASCII text is kept as its bytes in chunks off V8's
// heap, 8 bytes of position per slot. A string of 36 characters (a uid) is 56 bytes of V8's heap
// and, kept through a long read, old-generation memory that only a full collection frees once let
// go; here it is 36 bytes. Text with a character past ASCII, or longer than a chunk, stays a string.

/** Bytes per chunk: 64 KiB, each allocated once and never copied. */
const CHUNK_BYTES = 64 * 1024;
/** Slots per position chunk (two 32-bit numbers a slot: where the bytes start, and their length). */
const SLOT_CHUNK = 4096;
/** The length that marks a slot whose text is a string in `others`. */
const OTHER = 0xffffffff;
/** Longest text kept as bytes. */
const LONGEST = 1024;

export class TextColumn {
  private readonly bytes: Uint8Array[] = [];
  /** where the next text's bytes go in the last chunk */
  private offset = CHUNK_BYTES;
  private readonly places: Uint32Array[] = [];
  private readonly others = new Map<number, string>();

  /** keeps `text` in `slot` (a new slot, or one kept before: its old bytes are left unused) */
  set(slot: number, text: string): void {
    const places = (this.places[Math.floor(slot / SLOT_CHUNK)] ??= new Uint32Array(SLOT_CHUNK * 2));
    const at = (slot % SLOT_CHUNK) * 2;
    if (text.length > LONGEST || !isAscii(text)) {
      places[at + 1] = OTHER;
      this.others.set(slot, text);
      return;
    }
    this.others.delete(slot);
    if (text === '') {
      places[at] = 0;
      places[at + 1] = 0;
      return;
    }
    if (this.offset + text.length > CHUNK_BYTES) {
      this.bytes.push(new Uint8Array(CHUNK_BYTES));
      this.offset = 0;
    }
    const chunk = this.bytes[this.bytes.length - 1] as Uint8Array;
    for (let i = 0; i < text.length; i += 1) chunk[this.offset + i] = text.charCodeAt(i);
    places[at] = (this.bytes.length - 1) * CHUNK_BYTES + this.offset;
    places[at + 1] = text.length;
    this.offset += text.length;
  }

  /** the text kept in `slot` */
  get(slot: number): string {
    const places = this.places[Math.floor(slot / SLOT_CHUNK)] as Uint32Array;
    const at = (slot % SLOT_CHUNK) * 2;
    const length = places[at + 1] as number;
    if (length === OTHER) return this.others.get(slot) as string;
    if (length === 0) return '';
    const start = places[at] as number;
    const chunk = this.bytes[Math.floor(start / CHUNK_BYTES)] as Uint8Array;
    const offset = start % CHUNK_BYTES;
    return String.fromCharCode.apply(null, chunk.subarray(offset, offset + length) as unknown as number[]);
  }

  /** whether the text kept in `slot` is `text`, without making a string of it */
  equals(slot: number, text: string): boolean {
    const places = this.places[Math.floor(slot / SLOT_CHUNK)];
    if (places === undefined) return false;
    const at = (slot % SLOT_CHUNK) * 2;
    const length = places[at + 1] as number;
    if (length === OTHER) return this.others.get(slot) === text;
    if (length !== text.length) return false;
    const start = places[at] as number;
    const chunk = this.bytes[Math.floor(start / CHUNK_BYTES)] as Uint8Array;
    const offset = start % CHUNK_BYTES;
    for (let i = 0; i < length; i += 1) if (chunk[offset + i] !== text.charCodeAt(i)) return false;
    return true;
  }
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

// One uid per slot, for what a reader keeps per event by the hundred thousand (core/keep.ts). The
// API server gives every object a UUID in the canonical form, 36 characters of lowercase hex and
// dashes (apimachinery pkg/util/uuid/uuid.go:25 NewUUID: google/uuid's String()); as text bytes that is 36 a
// slot, here 16. Anything else (a saved file can say anything) is kept as text (core/text-column.ts).
import { TextColumn } from './text-column.ts';

/** Slots per chunk: 16 bytes each, 64 KiB a chunk. */
const SLOT_CHUNK = 4096;
/** Where each byte's two hex digits are in the text (the dashes skipped). */
const DIGIT_AT = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];
const CANONICAL = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Each byte's two lowercase hex digits. */
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** A lowercase hex digit's value; -1 for any other character. */
function digit(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  return code >= 97 && code <= 102 ? code - 87 : -1;
}

export class UidColumn {
  private readonly bytes: Uint8Array[] = [];
  /** per slot: 1 when its uid is in `bytes`, 0 when in `others` */
  private readonly packed: Uint8Array[] = [];
  private readonly others = new TextColumn();

  /** keeps `uid` in `slot` (a new slot, or one kept before) */
  set(slot: number, uid: string): void {
    const chunk = Math.floor(slot / SLOT_CHUNK);
    const packed = (this.packed[chunk] ??= new Uint8Array(SLOT_CHUNK));
    const at = slot % SLOT_CHUNK;
    if (!CANONICAL.test(uid)) {
      packed[at] = 0;
      this.others.set(slot, uid);
      return;
    }
    const bytes = (this.bytes[chunk] ??= new Uint8Array(SLOT_CHUNK * 16));
    for (let i = 0; i < 16; i += 1) {
      const p = DIGIT_AT[i] as number;
      bytes[at * 16 + i] = digit(uid.charCodeAt(p)) * 16 + digit(uid.charCodeAt(p + 1));
    }
    packed[at] = 1;
  }

  /** the uid kept in `slot` */
  get(slot: number): string {
    const chunk = Math.floor(slot / SLOT_CHUNK);
    const at = slot % SLOT_CHUNK;
    if (this.packed[chunk]?.[at] !== 1) return this.others.get(slot);
    const b = (this.bytes[chunk] as Uint8Array).subarray(at * 16, at * 16 + 16);
    const h = (i: number): string => HEX[b[i] as number] as string;
    return `${h(0)}${h(1)}${h(2)}${h(3)}-${h(4)}${h(5)}-${h(6)}${h(7)}-${h(8)}${h(9)}-${h(10)}${h(11)}${h(12)}${h(13)}${h(14)}${h(15)}`;
  }

  /** whether the uid kept in `slot` is `uid`, without making a string of it */
  equals(slot: number, uid: string): boolean {
    const chunk = Math.floor(slot / SLOT_CHUNK);
    const packed = this.packed[chunk];
    if (packed === undefined) return false;
    const at = slot % SLOT_CHUNK;
    if (packed[at] !== 1) return this.others.equals(slot, uid);
    if (uid.length !== 36) return false;
    const bytes = this.bytes[chunk] as Uint8Array;
    for (let i = 0; i < 16; i += 1) {
      const p = DIGIT_AT[i] as number;
      const hi = digit(uid.charCodeAt(p));
      const lo = digit(uid.charCodeAt(p + 1));
      if (hi < 0 || lo < 0 || bytes[at * 16 + i] !== hi * 16 + lo) return false;
    }
    // The dashes: a text with other characters there is another uid.
    return uid.charCodeAt(8) === 45 && uid.charCodeAt(13) === 45 && uid.charCodeAt(18) === 45 && uid.charCodeAt(23) === 45;
  }
}

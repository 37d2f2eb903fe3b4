// A LIST answer read one item at a time, as its bytes arrive. Parsed whole, a page of 500 events
// is 0.5 MiB of chunks, a copy of them joined, a 0.5 MiB string (and a second once managedFields is
// cut): V8 puts strings that large in its large-object space, which only a full collection frees,
// and ten contexts read together had ten pages in flight (npm run bench:fleet: 155 MiB against 133
// for the same 20,000 events from one namespace). Here each chunk is decoded and scanned as it
// comes, then let go, and each item's text, a kilobyte or two, is parsed on its own and dies young.
//
// The scan follows strings and brackets; what it cuts out is checked by JSON.parse itself: the items
// one by one, and the rest (`{"kind":...,"items":[]}`) at the end. A text that is not JSON fails
// (`notJson`, as it would whole). The one shape this does not read is a list with an item that does
// not start as an object, or that names `items` twice (`odd`): no API server writes either, and by
// then some items may have been handed on.

import { StringDecoder } from 'node:string_decoder';
import { QUOTE, BACKSLASH, OPEN_OBJECT, CLOSE_OBJECT, OPEN_ARRAY, CLOSE_ARRAY, COMMA, COLON } from '../core/json-chars.ts';


function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

interface Handlers {
  /** JSON.parse of a piece (an item, the rest), throwing the caller's error when it is not JSON */
  parse: (text: string) => unknown;
  each: (item: unknown) => void;
  notJson: () => Error;
  odd: (why: string) => Error;
}

export interface ListItemReader {
  push(chunk: Buffer): void;
  /** The answer: a list's other fields with its items empty (each went to `each`), or anything else parsed whole. */
  end(): unknown;
}

/**
 * Inside an item, where most of the text is: only its strings and brackets matter, in a loop of
 * its own, a character at a time (as fast as skipping strings by indexOf, measured). The index
 * after the item's closing bracket (depth back to 2); or, when the item goes on past `text`, the
 * state to go on from, encoded as a negative number (a function of locals only: V8 kept
 * deoptimising a method that wrote its fields on the way out).
 */
function endOfItem(text: string, from: number, depth: number, inString: boolean, escaped: boolean): number {
  for (let i = from; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (escaped) escaped = false;
      else if (c === BACKSLASH) escaped = true;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) depth += 1;
    else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth -= 1;
      if (depth === 2) return i + 1;
    }
  }
  return -(1 + depth * 4 + (inString ? 2 : 0) + (escaped ? 1 : 0));
}

/** The longest an item is held waiting for its marker before the scan takes over (events are 1-2 KiB). */
const JUMP_LIMIT = 256 * 1024;

/** `},{"key":` for an item that starts `{"key":` (a plain key), else null: nothing to jump to. */
function markerOf(item: string): string | null {
  const m = /^\{"([^"\\]{1,64})":/.exec(item);
  return m === null ? null : `},{"${m[1]}":`;
}

/** Where the scan is: before any byte but spaces, in an answer that is not an object, in the object outside its items, inside the items array, past the object's end. */
type Region = 'start' | 'whole' | 'head' | 'items' | 'done';

class Reader implements ListItemReader {
  private readonly decoder = new StringDecoder('utf8');
  private region: Region = 'start';
  /** the text outside the items array (with its `[` and `]`), or all of it in 'whole' */
  private readonly head: string[] = [];
  private depth = 0;
  private inString = false;
  /** backslashes right before the scan position inside a string: an odd run escapes the next quote */
  private slashes = 0;
  // The top-level object's keys, to find `"items": [`.
  private expectKey = false;
  private key: string[] | null = null;
  private lastKey = '';
  private itemsKeys = 0;
  private afterItemsColon = false;
  // Inside the items array: what may come next, and the item being read.
  private expect: 'first' | 'item' | 'separator' = 'first';
  private item: string[] | null = null;
  private itemInString = false;
  private itemEscaped = false;
  // Jumping from item to item (see the top): the marker learnt from the first item, the text held
  // from the current item's `{` while its marker has not come, and how much of it was searched.
  private marker: string | null | undefined = undefined;
  private pending: string | null = null;
  private searched = 0;
  /** the next item is scanned, not jumped over: its jump failed */
  private scanNext = false;

  constructor(private readonly h: Handlers) {}

  push(chunk: Buffer): void {
    const text = this.decoder.write(chunk);
    if (this.pending !== null) this.jump(this.pending + text);
    else this.scan(text);
  }

  end(): unknown {
    const text = this.decoder.end();
    // No more text to jump in: the scan reads the rest.
    this.marker = null;
    if (this.pending !== null) this.scanFromItem(this.pending + text);
    else this.scan(text);
    if (this.region === 'whole' || this.region === 'start') return this.h.parse(this.head.join(''));
    if (this.region !== 'done') throw this.h.notJson();
    return this.h.parse(this.head.join(''));
  }

  /** The index after the closing quote of the string the scan is in, or -1 when it goes on past `text`. */
  private endOfString(text: string, from: number): number {
    for (let at = from; ; ) {
      const q = text.indexOf('"', at);
      if (q < 0) {
        let run = 0;
        while (run < text.length - at && text.charCodeAt(text.length - 1 - run) === BACKSLASH) run += 1;
        this.slashes = run === text.length - at ? this.slashes + run : run;
        return -1;
      }
      let run = 0;
      while (q - 1 - run >= at && text.charCodeAt(q - 1 - run) === BACKSLASH) run += 1;
      if (q - run === at) run += this.slashes;
      this.slashes = 0;
      if (run % 2 === 0) return q + 1;
      at = q + 1;
    }
  }

  /**
   * `text` starts at an item's `{`, between items: each item whose marker has come is parsed at
   * it; the item the text ends in is held until the next chunk.
   */
  private jump(text: string): void {
    const marker = this.marker as string;
    let from = 0;
    for (;;) {
      const at = text.indexOf(marker, from + Math.max(1, this.searched));
      if (at < 0) {
        if (text.length - from > JUMP_LIMIT) {
          this.scanFromItem(text.slice(from));
          return;
        }
        this.pending = text.slice(from);
        this.searched = Math.max(0, this.pending.length - marker.length + 1);
        return;
      }
      this.searched = 0;
      let item: unknown;
      try {
        item = this.h.parse(text.slice(from, at + 1));
      } catch {
        this.scanFromItem(text.slice(from));
        return;
      }
      this.pending = null;
      this.expect = 'item';
      this.h.each(item);
      from = at + 2;
    }
  }

  /** The scan takes over at an item's `{` (its marker did not come, or did not end it). */
  private scanFromItem(text: string): void {
    this.pending = null;
    this.searched = 0;
    this.scanNext = true;
    this.scan(text);
  }

  private keyName(raw: string): string {
    if (!raw.includes('\\')) return raw.slice(1, -1);
    try {
      return String(JSON.parse(raw));
    } catch {
      throw this.h.notJson();
    }
  }

  private scan(text: string): void {
    if (this.region === 'whole') {
      this.head.push(text);
      return;
    }
    let headFrom = this.region === 'items' ? -1 : 0;
    let itemFrom = this.item !== null ? 0 : -1;
    let keyFrom = this.key !== null ? 0 : -1;
    for (let i = 0; i < text.length; ) {
      if (this.item !== null) {
        const end = endOfItem(text, i, this.depth, this.itemInString, this.itemEscaped);
        if (end < 0) {
          const state = -end - 1;
          this.depth = state >> 2;
          this.itemInString = (state & 2) !== 0;
          this.itemEscaped = (state & 1) !== 0;
          break;
        }
        this.depth = 2;
        this.itemInString = false;
        this.itemEscaped = false;
        this.item.push(text.slice(itemFrom, end));
        const parts = this.item;
        this.item = null;
        itemFrom = -1;
        this.expect = 'separator';
        const whole = parts.length === 1 ? (parts[0] as string) : parts.join('');
        if (this.marker === undefined) this.marker = markerOf(whole);
        this.h.each(this.h.parse(whole));
        i = end;
        continue;
      }
      if (this.inString) {
        const end = this.endOfString(text, i);
        if (end < 0) break;
        this.inString = false;
        i = end;
        if (this.key !== null) {
          this.key.push(text.slice(keyFrom, end));
          this.lastKey = this.keyName(this.key.join(''));
          this.key = null;
          keyFrom = -1;
          if (this.lastKey === 'items' && ++this.itemsKeys > 1) throw this.h.odd('it names items twice');
        }
        continue;
      }
      const c = text.charCodeAt(i);
      if (isSpace(c)) {
        i += 1;
        continue;
      }
      if (this.region === 'start') {
        if (c !== OPEN_OBJECT) {
          // Not an object: no list to split; kept whole for JSON.parse to judge.
          this.region = 'whole';
          this.head.push(text.slice(i));
          return;
        }
        this.region = 'head';
        this.depth = 1;
        this.expectKey = true;
        i += 1;
        continue;
      }
      if (this.region === 'done') throw this.h.notJson();
      if (this.region === 'items' && this.depth === 2 && this.item === null) {
        // Between items: `,`, `]` or the next item's `{`.
        if (c === CLOSE_ARRAY && this.expect !== 'item') {
          this.region = 'head';
          this.depth = 1;
          headFrom = i;
        } else if (c === COMMA && this.expect === 'separator') this.expect = 'item';
        else if (c === OPEN_OBJECT && this.expect !== 'separator') {
          if (this.marker && !this.scanNext) {
            this.jump(text.slice(i));
            return;
          }
          this.scanNext = false;
          this.item = [];
          itemFrom = i;
          this.depth = 3;
        } else if (c === COMMA || c === CLOSE_ARRAY || this.expect === 'separator') throw this.h.notJson();
        else throw this.h.odd('an item is not an object');
        i += 1;
        continue;
      }
      if (c === QUOTE) {
        this.inString = true;
        this.slashes = 0;
        if (this.region === 'head' && this.depth === 1 && this.expectKey) {
          this.key = [];
          keyFrom = i;
          this.expectKey = false;
        }
        i += 1;
        continue;
      }
      if (this.region === 'head' && this.depth === 1) {
        if (c === COLON) {
          this.afterItemsColon = this.lastKey === 'items';
          i += 1;
          continue;
        }
        if (c === COMMA) this.expectKey = true;
        else if (c === OPEN_ARRAY && this.afterItemsColon) {
          this.head.push(text.slice(headFrom, i + 1));
          headFrom = -1;
          this.region = 'items';
          this.depth = 2;
          this.expect = 'first';
          this.afterItemsColon = false;
          i += 1;
          continue;
        }
        this.afterItemsColon = false;
      }
      if (c === OPEN_OBJECT || c === OPEN_ARRAY) this.depth += 1;
      else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
        this.depth -= 1;
        if (this.depth === 0) this.region = 'done';
      }
      i += 1;
    }
    if (headFrom >= 0) this.head.push(text.slice(headFrom));
    if (this.item !== null && itemFrom >= 0) this.item.push(text.slice(itemFrom));
    if (this.key !== null && keyFrom >= 0) this.key.push(text.slice(keyFrom));
  }
}

export function listItemReader(h: Handlers): ListItemReader {
  return new Reader(h);
}

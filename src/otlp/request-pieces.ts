// A collector's file cut into what its lines hold, as the text arrives, without ever making a line
// one string. The file exporter writes one ExportLogsServiceRequest a line, `{"resourceLogs":[...]}`,
// 1.5 MB for 1,000 log records: made one string, each line went to V8's large-object space, and
// the 1,000 versions it held lived together long enough to be promoted, so a 22,000-version file
// peaked 80 MiB above the same versions as a record (single-threaded GC, same process). Here such a
// line is handed on one resourceLogs element at a time (one resource: one involved object's
// records, a few KB), and any other line whole, as src/otlp/collector-file.ts reads it.
//
// Pure: text chunks in (any split), pieces out; the same pieces whatever the chunks.

import { BACKSLASH, CLOSE_ARRAY, CLOSE_OBJECT, COMMA, OPEN_ARRAY, OPEN_OBJECT, QUOTE } from '../core/json-chars.ts';

export type Piece =
  /** one element of the resourceLogs array of line `line` (0-based), its JSON text */
  | { kind: 'element'; text: string; line: number }
  /** a line that does not start as the file exporter writes one, whole */
  | { kind: 'line'; text: string; line: number; complete: boolean }
  /**
   * the end of a line read element by element: `ok` when the array closed and the rest of the
   * line closes the request (as collector-file.ts's resourceLogsElements checks); `complete`
   * false for a last line without its newline
   */
  | { kind: 'end'; line: number; ok: boolean; complete: boolean };

/** How a line starts when the file exporter wrote it. */
const HEAD = /^\s*\{\s*"resourceLogs"\s*:\s*\[/;
/** Enough of a line to tell its start: the head is 17 characters, give or take whitespace. */
const HEAD_CHARS = 256;
/** After the array: nothing but the request's end (the file exporter writes no other key). */
const TAIL = /^\s*(,[\s\S]*)?\}\s*$/;

/** The pieces of a text that arrives in chunks. */
export function* requestPieces(chunks: Iterable<string>): Generator<Piece> {
  let line = 0;
  // 'head': the line's first characters, until they tell; 'whole': a line read whole;
  // 'elements': inside the resourceLogs array; 'tail': after it, to the line's end.
  let mode: 'head' | 'whole' | 'elements' | 'tail' = 'head';
  let parts: string[] = [];
  let partsLength = 0;
  // Inside the array: nesting below it, inside a string, after a backslash in one.
  let depth = 0;
  let inString = false;
  let escaped = false;

  const take = (): string => {
    const text = parts.length === 1 ? (parts[0] as string) : parts.join('');
    parts = [];
    partsLength = 0;
    return text;
  };
  const keep = (text: string): void => {
    if (text === '') return;
    parts.push(text);
    partsLength += text.length;
  };
  /** Leaves 'head' with what was gathered: the rest of it is scanned as the mode it chose. */
  const decide = (): string => {
    const head = take();
    const m = HEAD.exec(head);
    if (m === null) {
      mode = 'whole';
      keep(head);
      return '';
    }
    mode = 'elements';
    depth = 0;
    inString = false;
    escaped = false;
    return head.slice(m[0].length);
  };

  /** Scans `text` (no newline in it) in the current mode; yields what it completes. */
  function* scan(text: string): Generator<Piece> {
    let from = 0;
    while (from < text.length) {
      if (mode === 'head') {
        keep(text.slice(from));
        from = text.length;
        if (partsLength >= HEAD_CHARS) text = decide();
        else return;
        from = 0;
        continue;
      }
      if (mode === 'whole' || mode === 'tail') {
        keep(text.slice(from));
        return;
      }
      // 'elements'
      let i = from;
      for (; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (inString) {
          if (escaped) escaped = false;
          else if (c === BACKSLASH) escaped = true;
          else if (c === QUOTE) inString = false;
          continue;
        }
        if (c === QUOTE) inString = true;
        else if (c === OPEN_OBJECT || c === OPEN_ARRAY) depth += 1;
        else if (depth > 0) {
          if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth -= 1;
        } else if (c === COMMA || c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
          keep(text.slice(from, i));
          const element = take().trim();
          if (element !== '') yield { kind: 'element', text: element, line };
          from = i + 1;
          if (c !== COMMA) {
            mode = 'tail';
            break;
          }
        }
      }
      if (mode === 'elements') {
        keep(text.slice(from));
        return;
      }
    }
  }

  /** The line's end: `complete` when a newline ended it. */
  function* finish(complete: boolean): Generator<Piece> {
    if (mode === 'head') {
      if (partsLength === 0 && !complete) return;
      yield* scan(decide());
    }
    if (mode === 'whole') yield { kind: 'line', text: take(), line, complete };
    else if (mode === 'tail') yield { kind: 'end', line, ok: TAIL.test(take()), complete };
    else {
      take();
      yield { kind: 'end', line, ok: false, complete };
    }
    mode = 'head';
    line += 1;
  }

  for (const chunk of chunks) {
    let start = 0;
    for (let end = chunk.indexOf('\n'); end >= 0; end = chunk.indexOf('\n', start)) {
      yield* scan(chunk.slice(start, end));
      yield* finish(true);
      start = end + 1;
    }
    if (start < chunk.length) yield* scan(chunk.slice(start));
  }
  yield* finish(false);
}

// The one place untrusted text (event messages, reasons, names) is made safe for a terminal.
// Anyone who can create an Event can put escape sequences in it (kubernetes/kubernetes#101695).
// kubectl (cli-runtime pkg/printers/terminal.go) replaces only ESC with `^[` and CR with `\r`; that
// still lets BEL, backspace, C1 controls (U+009B is a one-byte CSI) and bidi overrides (Trojan
// Source) through, so we make every control visible. Human-readable, not reversible: a backslash
// is not doubled, so `\n` in the output may have been a newline or the two characters.

const NAMED: Record<string, string> = {
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

// Everything a terminal acts on or draws as nothing, by Unicode property rather than by list (a list
// always misses some): Cc (C0, DEL, C1), Cf (zero-width, bidi marks and overrides, soft hyphen, word
// joiner, invisible math operators, interlinear annotations, tags), Zl/Zp (line and paragraph
// separators), Cs (a lone surrogate half: a UTF-8 writer turns it into U+FFFD, hiding what was sent)
// and Default_Ignorable_Code_Point, which adds the invisible letters and marks that are not Cf: the
// Hangul fillers, the combining grapheme joiner, Mongolian and Unicode variation selectors, and the
// unassigned rest of the tag block. The `u` flag makes an astral character (U+E0041) one match.
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Default_Ignorable_Code_Point}]/gu;

/**
 * Printable ASCII holds none of them: a text of only these (most event text) is left as it is
 * without the Unicode-property search, which is several times slower over the same text.
 */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
/** The same with line feeds, for the JSON and YAML writers, whose hooks give a line feed back unchanged. */
const PRINTABLE_ASCII_LINES = /^[\x20-\x7e\n]*$/;

/** `\u00ad`, or `\u{e0041}` beyond the Basic Multilingual Plane. */
function hexEscape(code: number): string {
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

function escapeChar(ch: string): string {
  const named = NAMED[ch];
  if (named !== undefined) return named;
  const code = ch.codePointAt(0) ?? 0;
  // Caret notation, as terminals echo them: ESC -> ^[ (kubectl's form), BEL -> ^G, DEL -> ^?.
  if (code < 0x20) return `^${String.fromCharCode(code + 0x40)}`;
  if (code === 0x7f) return '^?';
  return hexEscape(code);
}

/** Makes every control and invisible character visible: `^[`, `\r`, `\n`, `\t`, `^G`, `\u009b`, `\u202e`, `\u{e0041}`. */
export function escapeTerminal(text: string): string {
  return PRINTABLE_ASCII.test(text) ? text : text.replace(UNSAFE, escapeChar);
}

/** Whether escapeTerminal would change anything in `text`. */
export function hasUnsafe(text: string): boolean {
  if (PRINTABLE_ASCII.test(text)) return false;
  UNSAFE.lastIndex = 0;
  return UNSAFE.test(text);
}

/**
 * Replaces each character escapeTerminal would change (one at a time, a whole code point even when
 * astral) with what `replace` returns: the JSON writer's hook, so both escape the same set.
 */
export function replaceUnsafe(text: string, replace: (ch: string) => string): string {
  return PRINTABLE_ASCII.test(text) ? text : text.replace(UNSAFE, replace);
}

/** replaceUnsafe for a writer whose `replace` gives a line feed back as it is (JSON, YAML text). */
export function replaceUnsafeKeepingLines(text: string, replace: (ch: string) => string): string {
  return PRINTABLE_ASCII_LINES.test(text) ? text : text.replace(UNSAFE, (ch) => (ch === '\n' ? ch : replace(ch)));
}

/**
 * Default cell width in the table: a 10 kB message must not turn the table into a wall, but
 * nothing a real writer sends may be cut where `kubectl events` shows it whole. 1024 is the most
 * an event with an eventTime may carry (k8s.io/kubernetes pkg/apis/core/validation/events.go
 * NoteLengthLimit), where kube-scheduler cuts its own messages (pkg/scheduler/schedule_one.go
 * truncateMessage); its FailedScheduling on two nodes is already over 200 characters.
 */
export const DEFAULT_CELL_WIDTH = 1024;

/**
 * Cuts (already escaped) text to at most `max` characters, ending in `...` when cut. `max <= 0` or
 * Infinity means no limit. Counts code points so an emoji is never split in half.
 * kubectl cuts a cell at the first newline; we escape newlines instead and cut only for length.
 */
export function truncateCell(text: string, max: number): string {
  if (!(max > 0) || !Number.isFinite(max)) return text;
  // No more UTF-16 units than the limit: no more code points either (most cells end here).
  if (text.length <= max) return text;
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const keep = Math.max(0, Math.floor(max) - 3);
  return `${chars.slice(0, keep).join('')}...`;
}

/** truncateCell keeping the end: `...` then the last characters (an owner chain's object is its end). */
export function truncateCellStart(text: string, max: number): string {
  if (!(max > 0) || !Number.isFinite(max) || text.length <= max) return text;
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const keep = Math.max(0, Math.floor(max) - 3);
  return `...${chars.slice(chars.length - keep).join('')}`;
}

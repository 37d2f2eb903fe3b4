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

// C0 controls and DEL; C1 controls; zero-width, direction marks, line/paragraph separators, bidi
// embeddings/overrides/isolates, the Arabic letter mark and the BOM.
const UNSAFE = /[\u0000-\u001f\u007f\u0080-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g;

function hex4(code: number): string {
  return `\\u${code.toString(16).padStart(4, '0')}`;
}

function escapeChar(ch: string): string {
  const named = NAMED[ch];
  if (named !== undefined) return named;
  const code = ch.charCodeAt(0);
  // Caret notation, as terminals echo them: ESC -> ^[ (kubectl's form), BEL -> ^G, DEL -> ^?.
  if (code < 0x20) return `^${String.fromCharCode(code + 0x40)}`;
  if (code === 0x7f) return '^?';
  return hex4(code);
}

/** Makes every control character visible: `^[`, `\r`, `\n`, `\t`, `^G`, `\u009b`, `\u202e`. */
export function escapeTerminal(text: string): string {
  return text.replace(UNSAFE, escapeChar);
}

/** Default cell width in the table; a 10 kB message must not turn the table into a wall. */
export const DEFAULT_CELL_WIDTH = 200;

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

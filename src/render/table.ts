// The one table writer: left-aligned columns laid out as kubectl's tabwriter lays them out
// (k8s.io/cli-runtime pkg/printers/tabwriter.go: text/tabwriter, padding 3 for kubectl events and
// kubectl get), each column as wide as its widest cell plus the gap, the last column not padded.
// Cells arrive escaped (render/escape.ts) and may carry this program's own SGR colour codes.
//
// Widths are display widths, not code points: an East Asian wide character or an emoji takes two
// terminal columns, a combining mark or a zero-width character none (Go's tabwriter counts runes,
// so kubectl misaligns such rows; we do not). Plain ASCII cells, nearly all of them, take a fast path.

/** Printable ASCII only: its width is its length. */
const PLAIN = /^[\x20-\x7e]*$/;
/** Select Graphic Rendition codes, the only escape sequences a cell can hold (palette colours). */
const SGR = /\u001b\[[0-9;]*m/g;
/** Emoji shown as a picture: two columns (an emoji presentation character, VS16, or a flag's regional indicators). */
const EMOJI = /\p{Emoji_Presentation}|\ufe0f|\p{Regional_Indicator}/u;
/** Takes no column: a nonspacing or enclosing mark, a format or control character, a Hangul medial or final jamo (as wcwidth). */
const ZERO_WIDTH = /[\p{Mn}\p{Me}\p{Cf}\p{Cc}\u1160-\u11ff\ud7b0-\ud7ff]/u;

/** East Asian Wide and Fullwidth ranges (Unicode EastAsianWidth.txt, W and F) outside the emoji. */
const WIDE_RANGES: [number, number][] = [
  [0x1100, 0x115f], [0x2329, 0x232a], [0x2e80, 0x303e], [0x3041, 0x33ff], [0x3400, 0x4dbf],
  [0x4e00, 0x9fff], [0xa000, 0xa4cf], [0xa960, 0xa97f], [0xac00, 0xd7a3], [0xf900, 0xfaff],
  [0xfe10, 0xfe19], [0xfe30, 0xfe6f], [0xff00, 0xff60], [0xffe0, 0xffe6], [0x16fe0, 0x16fe4],
  [0x17000, 0x18cff], [0x1aff0, 0x1b2ff], [0x1f200, 0x1f2ff], [0x20000, 0x2fffd], [0x30000, 0x3fffd],
];

function isWide(code: number): boolean {
  for (const [from, to] of WIDE_RANGES) {
    if (code < from) return false;
    if (code <= to) return true;
  }
  return false;
}

let segmenter: Intl.Segmenter | undefined;

/** An emoji cluster (a flag, a skin tone, a keycap) is one picture; otherwise each code point counts, as wcwidth counts. */
function clusterWidth(cluster: string): number {
  if (EMOJI.test(cluster)) return 2;
  let width = 0;
  for (const char of cluster) width += ZERO_WIDTH.test(char) ? 0 : isWide(char.codePointAt(0) ?? 0) ? 2 : 1;
  return width;
}

/** Terminal columns the text takes, SGR colour codes not counted. */
export function displayWidth(text: string): number {
  if (PLAIN.test(text)) return text.length;
  const visible = text.includes('\u001b') ? text.replace(SGR, '') : text;
  if (PLAIN.test(visible)) return visible.length;
  segmenter ??= new Intl.Segmenter('en', { granularity: 'grapheme' });
  let width = 0;
  for (const { segment } of segmenter.segment(visible)) width += clusterWidth(segment);
  return width;
}

/** Widens `widths` (each column's widest cell so far, in display width) to fit a row; returns the row's cell widths. */
export function widenColumns(widths: number[], row: readonly string[]): number[] {
  return row.map((cell, i) => {
    const width = displayWidth(cell);
    if (width > (widths[i] ?? 0) || widths[i] === undefined) widths[i] = width;
    return width;
  });
}

/**
 * Lays a row out for columns of these widths: every cell but the last padded to its column's width
 * plus `gap` spaces. `own`: the row's cell widths when already measured.
 */
export function rowLayout(widths: readonly number[], gap: number): (row: readonly string[], own?: readonly number[]) => string {
  const pads = widths.map((w) => w + gap);
  const spaces = ' '.repeat(Math.max(0, ...pads));
  return (row, own) => {
    let line = '';
    const last = row.length - 1;
    for (let i = 0; i < last; i += 1) {
      const cell = row[i] as string;
      line += cell + spaces.slice(0, (pads[i] as number) - (own?.[i] ?? displayWidth(cell)));
    }
    return last >= 0 ? line + (row[last] as string) : line;
  };
}

/**
 * Rows of cells as lines (no newlines): every column but the last padded to its widest cell plus
 * `gap` spaces. Rows may be shorter than others; a missing cell is empty.
 */
export function alignColumns(rows: readonly (readonly string[])[], gap: number): string[] {
  const widths: number[] = [];
  const cellWidths = rows.map((row) => widenColumns(widths, row));
  const layout = rowLayout(widths, gap);
  return rows.map((row, r) => layout(row, cellWidths[r]));
}

/// <reference lib="dom" />
// Text as the page shows it. Event text is untrusted: it is only ever put into the page as text
// nodes (textContent, createTextNode) or painted on a canvas; never innerHTML, never an attribute
// that loads or runs anything.
import { escapeTerminal, replaceUnsafe } from '../../escape.ts';

/**
 * Untrusted text as shown: newlines and tabs kept, every other control or invisible character in
 * the terminal escaper's notation (`^[` for ESC, `^?` for DEL, `\r`, `\u202e`), which the headline
 * above the lanes is written in: one character reads the same everywhere on the page.
 */
export function visible(text: string): string {
  return replaceUnsafe(text, (ch) => (ch === '\n' || ch === '\t' ? ch : escapeTerminal(ch)));
}

/** An element of the page, its text (if any) set as a text node. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls = '', text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (cls !== '') node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** `20,000`: toLocaleString does the same through Intl, at a cost that shows on thousands of rows. */
export const thousands = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
export const plural = (n: number, word: string): string => `${thousands(n)} ${word}${n === 1 ? '' : 's'}`;

export function iso(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

/**
 * A precise length of time: `850ms`, `12.3s`, `4m05s`, `2h03m`, `3d04h`. Not kubectl's
 * HumanDuration (render/duration.ts), which rounds an age to two figures: on a zoomed timeline the
 * seconds matter.
 */
export function length(ms: number): string {
  const abs = Math.abs(ms);
  const two = (n: number): string => String(Math.floor(n)).padStart(2, '0');
  if (abs < 1000) return `${Math.round(abs)}ms`;
  if (abs < 60_000) return `${(abs / 1000).toFixed(abs < 10_000 ? 3 : 1).replace(/\.?0+$/, '')}s`;
  if (abs < 3_600_000) return `${Math.floor(abs / 60_000)}m${two((abs % 60_000) / 1000)}s`;
  if (abs < 86_400_000) return `${Math.floor(abs / 3_600_000)}h${two((abs % 3_600_000) / 60_000)}m`;
  return `${Math.floor(abs / 86_400_000)}d${two((abs % 86_400_000) / 3_600_000)}h`;
}

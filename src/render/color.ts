// Colour has one owner: this file. Renderers ask a Palette; only choosePalette decides whether it paints.

import { isConventionalType } from '../core/types.ts';

export interface Palette {
  warning(s: string): string;
  unconventional(s: string): string;
  dim(s: string): string;
  bold(s: string): string;
}

type ColorFlag = 'auto' | 'always' | 'never';

const same = (s: string): string => s;

export const plainPalette: Palette = {
  warning: same,
  unconventional: same,
  dim: same,
  bold: same,
};

function sgr(on: number, off: number): (s: string) => string {
  return (s) => (s === '' ? s : `\u001b[${on}m${s}\u001b[${off}m`);
}

export const ansiPalette: Palette = {
  warning: sgr(33, 39), // yellow
  unconventional: sgr(35, 39), // magenta: not an error, but outside Normal/Warning
  dim: sgr(2, 22),
  bold: sgr(1, 22),
};

export interface ColorChoice {
  flag: ColorFlag;
  isTTY: boolean;
  env: Record<string, string | undefined>;
}

/**
 * --color=always/never win. Under auto: NO_COLOR (any non-empty value, no-color.org) turns colour off,
 * FORCE_COLOR (non-empty and not `0`/`false`) turns it on for pipes, TERM=dumb turns it off,
 * otherwise colour follows whether stdout is a terminal.
 */
export function choosePalette({ flag, isTTY, env }: ColorChoice): Palette {
  if (flag === 'always') return ansiPalette;
  if (flag === 'never') return plainPalette;
  if (env.NO_COLOR) return plainPalette;
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '') return force === '0' || force === 'false' ? plainPalette : ansiPalette;
  if (env.TERM === 'dumb') return plainPalette;
  return isTTY ? ansiPalette : plainPalette;
}

/**
 * An event type's text as every renderer paints it: Warning in the warning colour, a type other than
 * Normal or Warning in the unconventional one (with `mark` after it, for readers without colour).
 * `text` is already escaped.
 */
export function paintType(type: string, text: string, palette: Palette, mark = ''): string {
  if (type === 'Warning') return palette.warning(text);
  return isConventionalType(type) ? text : palette.unconventional(`${text}${mark}`);
}

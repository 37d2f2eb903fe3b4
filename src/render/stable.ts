// -o stable: the lab's timeline.sh output, safe for a terminal and for diff.

import type { Event } from '../core/event.ts';
import { sortUnique, stableLines } from '../core/timeline.ts';
import { escapeTerminal } from './escape.ts';

/**
 * One `<type> <reason> <Kind>/<name>` line per distinct event, ending in a newline ('' when none).
 * Sorted again after escaping so the order and uniqueness hold for the bytes actually printed.
 */
export function renderStable(events: Event[]): string {
  const lines = sortUnique(stableLines(events).map(escapeTerminal));
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

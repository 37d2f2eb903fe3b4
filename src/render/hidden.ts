// The footer that says how many events each selection criterion hid, so a filtered view never
// passes for the whole story. Criteria are named by the caller (the flags are the options' words).
import type { Criterion, Hidden } from '../core/filter.ts';

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** `Hidden: 12 events by --exclude-reason, 3 by ...`; nothing when nothing was hidden. */
export function renderHiddenFooter(hidden: readonly Hidden[], nameOf: (c: Criterion) => string): string {
  if (hidden.length === 0) return '';
  const parts = hidden.map((h, i) => `${i === 0 ? plural(h.events, 'event') : h.events} by ${nameOf(h.criterion)}`);
  return `Hidden: ${parts.join(', ')}.\n`;
}

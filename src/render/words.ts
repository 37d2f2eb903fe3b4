// Wording shared by the text renderers: an untrusted value as it may be shown, and a counted noun.

import { orNone } from '../core/timeline.ts';
import { escapeTerminal } from './escape.ts';

/** Escaped for a terminal, with `<none>` for an empty value (as `kubectl get` prints one). */
export function escapeOrNone(text: string): string {
  return escapeTerminal(orNone(text));
}

/** `1 event`, `3 events`; `plural(n, 'event is', 'events are')` where the verb agrees too. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

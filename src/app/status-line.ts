// The one status line on stderr: a running count redrawn in place, with notices printed above it.
// Drawn only on a terminal that can redraw a line (stderr is a TTY and TERM is not dumb); elsewhere
// the notices alone are written, one a line.
import type { Deps } from '../deps.ts';
import { escapeTerminal } from '../render/escape.ts';

const CLEAR_LINE = '\r\u001b[K';

interface StatusLine {
  /** draws `text` (already safe to print) in place of the current status; nothing when not drawn */
  show(text: string): void;
  /** one line above the status; escaped (notices carry the server's words) */
  notice(text: string): void;
  /** removes the status, leaving the cursor at the start of an empty line */
  clear(): void;
}

export function statusLine(deps: Deps): StatusLine {
  const drawn = deps.stderr.isTTY && deps.env.TERM !== 'dumb';
  let shown = '';
  const draw = (text: string): void => {
    shown = text;
    deps.stderr.write(`${CLEAR_LINE}${text}`);
  };
  return {
    show(text) {
      if (drawn) draw(text);
    },
    notice(text) {
      if (shown) deps.stderr.write(CLEAR_LINE);
      deps.stderr.write(`${escapeTerminal(text)}\n`);
      if (shown) draw(shown);
    },
    clear() {
      if (shown) deps.stderr.write(CLEAR_LINE);
      shown = '';
    },
  };
}

// A saved `-o stable` table (the lab's timeline.txt): `<type> <reason> <Kind>/<name>` a line. How a
// file is recognised as one, and how it is read back into minimal Events.

import type { Event } from './event.ts';
import { NONE } from './timeline.ts';

// A reason may be a sentence (the very thing type-audit flags), and an empty part prints as <none>.
const STABLE_LINE = /^\S+ .+ \S*\/\S*$/;

/** A line as `-o stable` prints it; a file is taken for a stable table when every non-blank line (trimmed) is one. */
export function isStableLine(line: string): boolean {
  return STABLE_LINE.test(line);
}

/**
 * Reads a saved `-o stable` table (`<type> <reason> <Kind>/<name>` a line, `<none>` for an empty field or an
 * empty table) back into minimal Events: no times, no reporter, no message, count 1. Nothing is rejected:
 * a line that does not fit keeps what can be read (a reason with spaces keeps its words).
 */
export function parseStableTable(text: string): Event[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.replace(/[ \t\r]+$/, ''))
    .filter((line) => line !== '' && line !== NONE)
    .map(parseStableLine);
}

function parseStableLine(line: string): Event {
  const fields = line.split(/[ \t]+/);
  const type = fields.shift() ?? '';
  const last = fields.at(-1);
  const objectField = last !== undefined && last.includes('/') ? (fields.pop() ?? '') : '';
  const slash = objectField.indexOf('/');
  const kind = slash < 0 ? '' : objectField.slice(0, slash);
  const name = slash < 0 ? '' : objectField.slice(slash + 1);
  return tableEvent(unNone(type), unNone(fields.join(' ')), unNone(kind), unNone(name));
}

function unNone(field: string): string {
  return field === NONE ? '' : field;
}

function tableEvent(type: string, reason: string, kind: string, name: string): Event {
  return {
    uid: '',
    name: '',
    namespace: '',
    resourceVersion: '',
    type,
    reason,
    message: '',
    action: '',
    object: { apiVersion: '', kind, name, namespace: '', uid: '', fieldPath: '' },
    reporter: '',
    instance: '',
    count: 1,
    firstSeen: null,
    lastSeen: null,
    seriesStyle: false,
  };
}

// A saved `-o stable` table (the lab's timeline.txt): `<type> <reason> <Kind>/<name>` a line. How a
// file is recognised as one, and how it is read back into minimal Events.

import type { Event, ObjectRef } from './event.ts';
import { NONE } from './timeline.ts';

// A reason may be a sentence (the very thing type-audit flags), and an empty part prints as <none>.
// An object's name may hold spaces and slashes (core/v1 accepts any involvedObject.name): the object
// starts at the last word that begins with a Kind and a slash (`Pod/`, `Pipeline.ev.labhub.io/`,
// `<none>/`), else at the last word holding a slash. A Kind never holds a space and begins with a
// capital letter by convention; a name's later words rarely do (`ConfigMap/a b/c` is ConfigMap "a b/c").
const STABLE_LINE = /^(\S*)[ \t]+(.+)[ \t]+(\S*\/.*)$/;
const BEFORE_KIND = /[ \t]+(?=(?:<none>|[A-Z][A-Za-z0-9]*(?:\.[A-Za-z0-9-]+)*)\/)/g;

/** type, reason and object of a line whose object begins with a Kind; null when no word does. */
function splitAtKind(line: string): [string, string, string] | null {
  const type = /^(\S*)[ \t]+/.exec(line);
  if (type === null) return null;
  const rest = line.slice(type[0].length);
  let last: RegExpExecArray | undefined;
  for (const gap of rest.matchAll(BEFORE_KIND)) last = gap;
  if (last === undefined || last.index === 0) return null;
  return [type[1] ?? '', rest.slice(0, last.index), rest.slice(last.index + last[0].length)];
}

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
  const match = splitAtKind(line) ?? STABLE_LINE.exec(line)?.slice(1);
  if (match === undefined) {
    // No object: keep what can be read (a reason with spaces keeps its words).
    const [type = '', ...reason] = line.split(/[ \t]+/);
    return tableEvent(unNone(type), unNone(reason.join(' ')), '', '');
  }
  const [type = '', reason = '', objectField = ''] = match;
  const slash = objectField.indexOf('/');
  const { kind, apiVersion } = splitQualifiedKind(unNone(objectField.slice(0, slash)));
  return tableEvent(unNone(type), unNone(reason), kind, unNone(objectField.slice(slash + 1)), apiVersion);
}

/**
 * `Kind.group` (written where two groups share a Kind, core/timeline.ts stableLines) back to the Kind
 * and an apiVersion of that group; a Kind has no dot, so the first one ends it. The version is not
 * in the table: `group/` keeps the group and names none.
 */
function splitQualifiedKind(field: string): { kind: string; apiVersion: string } {
  const dot = field.indexOf('.');
  if (dot <= 0) return { kind: field, apiVersion: '' };
  return { kind: field.slice(0, dot), apiVersion: `${field.slice(dot + 1)}/` };
}

function unNone(field: string): string {
  return field === NONE ? '' : field;
}

function tableEvent(type: string, reason: string, kind: string, name: string, apiVersion = ''): Event {
  return stableLineEvent(type, reason, { apiVersion, kind, name, namespace: '', uid: '', fieldPath: '' }, null, null);
}

/** An event of which only what a stable line says is known (and, kept from a record, the span of its times: core/keep.ts). */
export function stableLineEvent(type: string, reason: string, object: ObjectRef, firstSeen: number | null, lastSeen: number | null): Event {
  return {
    uid: '',
    name: '',
    namespace: '',
    resourceVersion: '',
    type,
    reason,
    message: '',
    action: '',
    object,
    reporter: '',
    instance: '',
    count: 1,
    firstSeen,
    lastSeen,
    seriesStyle: false,
  };
}

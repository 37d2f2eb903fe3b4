// -o json: the normalised events (and any account) as plain data, for scripts and golden files.
// Values are exact (never terminal-escaped): a script must see what the API server holds. The text
// is still safe to print: toJsonText writes every dangerous character as a \u escape.

import type { Event } from '../core/event.ts';
import type { EventStanding, Incarnation } from '../core/incarnation.ts';
import { isoOrNull } from './time.ts';
import { replaceUnsafeKeepingLines } from './escape.ts';
import type { TreeNode } from '../core/ownership.ts';
import { toJsonChain } from './tree.ts';
import type { JsonTreeNode } from './tree.ts';

/** An event as -o json prints it: the normalised Event with ISO times, then what the live cluster said. */
export type JsonEvent = Omit<Event, 'firstSeen' | 'lastSeen'> & {
  firstSeen: string | null;
  lastSeen: string | null;
  /** only when the live object was looked up (a live read, or --compare) */
  incarnation?: Incarnation;
  /** only with --compare: false when the server no longer has the event */
  onServer?: boolean;
  /** only with --tree: the owner chain of the event's object, root first, the object itself last */
  tree?: JsonTreeNode[];
  /** only when several contexts were read together: the one the event came from, and its API server */
  context?: string;
  server?: string;
};

/**
 * A fresh object with keys in a fixed order (whatever order the Event was built in) and ISO times;
 * what the live cluster said about the event, when it was asked, comes last.
 */
export function toJsonEvent(ev: Event, standing: EventStanding = {}, chain?: readonly TreeNode[]): JsonEvent {
  const json: JsonEvent = {
    uid: ev.uid,
    name: ev.name,
    namespace: ev.namespace,
    resourceVersion: ev.resourceVersion,
    type: ev.type,
    reason: ev.reason,
    message: ev.message,
    action: ev.action,
    object: {
      apiVersion: ev.object.apiVersion,
      kind: ev.object.kind,
      name: ev.object.name,
      namespace: ev.object.namespace,
      uid: ev.object.uid,
      fieldPath: ev.object.fieldPath,
    },
    reporter: ev.reporter,
    instance: ev.instance,
    count: ev.count,
    firstSeen: isoOrNull(ev.firstSeen),
    lastSeen: isoOrNull(ev.lastSeen),
    seriesStyle: ev.seriesStyle,
  };
  if (ev.cluster !== undefined) {
    json.context = ev.cluster.context;
    json.server = ev.cluster.server;
  }
  if (standing.incarnation !== undefined) json.incarnation = standing.incarnation;
  if (standing.onServer !== undefined) json.onServer = standing.onServer;
  if (chain !== undefined) json.tree = toJsonChain(chain);
  return json;
}

// JSON.stringify escapes only C0 controls (and lone surrogates); DEL, C1 controls (U+009B is a
// one-byte CSI on some terminals), bidi overrides, U+2028/2029, zero-width and other invisible
// characters pass raw, and -o json is read in terminals too. Outside strings JSON text is plain ASCII
// whitespace and punctuation, so any such character sits in a string, where \uXXXX (a surrogate pair
// for an astral one) means the same character. Dangerous means what escapeTerminal changes: one list.
function escapeForJson(ch: string): string {
  // Newlines and spaces of the indentation: JSON.stringify has already escaped any inside a string.
  if (ch < ' ') return ch;
  let out = '';
  for (let i = 0; i < ch.length; i += 1) out += `\\u${ch.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}

/**
 * Any JSON-able value as -o json prints it: two-space indented, ending in a newline, with every
 * character a terminal would act on written as a \u escape, so JSON.parse gives back the exact values.
 */
export function toJsonText(value: unknown): string {
  return `${escapeJsonUnsafe(JSON.stringify(value, null, 2))}\n`;
}

/** Arrays up to this many elements are stringified whole; longer ones element by element. */
const ELEMENTS_WHOLE = 100;

/**
 * Text written at a time, in UTF-16 units: a piece, even of two-byte text, stays below V8's
 * large-object size (128 KiB), so it dies young. Slices of 100 events' JSON (about 143 kB on a
 * record's events) were each a large object, and so was their escaped copy: only a full
 * collection frees those, and 200,000 events' -o json peaked with 70 MiB of them.
 */
const PIECE_UNITS = 32 * 1024;

/**
 * toJsonText's text in pieces, for a writer to send one at a time: an array of 20,000 events is
 * 15 MB of JSON, held twice over (the string, then the bytes written) if made whole. The pieces
 * join to exactly toJsonText(value): an element stringified inside a one-element array sits at the
 * same depth, with the same indentation, as in the whole array. `each` turns an array's elements
 * into what is printed as each is written (toJsonEvent), so the printed objects of 20,000 events
 * are never all held at once.
 */
export function* jsonTextChunks<T>(value: T[] | unknown, each: (element: T) => unknown = (element) => element): Generator<string> {
  if (!Array.isArray(value) || value.length <= ELEMENTS_WHOLE) {
    yield toJsonText(Array.isArray(value) ? (value as T[]).map((element) => each(element)) : value);
    return;
  }
  yield '[\n';
  let piece = '';
  const last = value.length - 1;
  for (let i = 0; i <= last; i += 1) {
    // `[\n  {...}\n]`: between `[\n` and `\n]`, the element two-space indented as in the whole array.
    piece += JSON.stringify([each((value as T[])[i] as T)], null, 2).slice(2, -2);
    piece += i < last ? ',\n' : '\n]\n';
    if (piece.length >= PIECE_UNITS || i === last) {
      yield escapeJsonUnsafe(piece);
      piece = '';
    }
  }
}

/** JSON text with every character a terminal would act on written as a \u escape (same value once parsed). */
export function escapeJsonUnsafe(json: string): string {
  return replaceUnsafeKeepingLines(json, escapeForJson);
}

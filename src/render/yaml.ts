// -o yaml: the same document as -o json, written by the `yaml` package (eemeli/yaml, pinned) in
// YAML 1.1 mode, so that readers in Go (sigs.k8s.io/yaml, which kubectl uses) and PyYAML read back
// the same types: `yes`, `no`, `on`, `0123` and timestamps stay quoted strings.
// Like -o json, the text is safe on a terminal without changing any value: a string holding a
// character a terminal would act on is written double-quoted, where \uXXXX means that character.
//
// The package builds a node tree of the whole document before writing a character: for 20,000
// events that was 5.8 s of CPU and 550 MiB. The common shapes (maps with plain keys, arrays,
// strings without a character to escape, whole numbers, booleans, null) are written here by the
// package's own rules (stringify/stringifyString.js plainString and quotedString with lineWidth 0:
// the quoting test, its YAML 1.1 tags, single quotes for a string with `"` and no `'`, else JSON's
// double quotes); anything else in an array element (an escape, a float, an odd key) hands that
// element to the package. The unit test compares both writers on hostile documents.
import { yamlLibrary } from '../chunk.ts';
import { hasUnsafe, replaceUnsafeKeepingLines } from './escape.ts';

type Yaml = typeof import('yaml');

function quoteUnsafe(value: unknown, Scalar: Yaml['Scalar']): unknown {
  if (typeof value === 'string') {
    // What escapeTerminal would change (LF and TAB among them, which YAML would otherwise fold into
    // block scalars): one list with the terminal and JSON writers.
    if (!hasUnsafe(value)) return value;
    const scalar = new Scalar(value);
    scalar.type = Scalar.QUOTE_DOUBLE;
    return scalar;
  }
  if (Array.isArray(value)) return value.map((v) => quoteUnsafe(v, Scalar));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, quoteUnsafe(v, Scalar)]));
  }
  return value;
}

/** A YAML double-quoted escape: \uXXXX, or \UXXXXXXXX beyond the Basic Multilingual Plane. */
function hex(ch: string): string {
  const code = ch.codePointAt(0) ?? 0;
  return code > 0xffff ? `\\U${code.toString(16).padStart(8, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** The package's writer, for any value (what the fast writer must equal). */
export function libraryYaml(value: unknown): string {
  // lineWidth 0: no folding, a message stays on one line as in -o json.
  const { Scalar, stringify } = yamlLibrary();
  const text = stringify(quoteUnsafe(value, Scalar), { version: '1.1', lineWidth: 0 });
  // Only double-quoted scalars can hold these characters now, and there the escape is exact.
  return replaceUnsafeKeepingLines(text, hex);
}

/** A value the fast writer does not write: its element (or the document) goes to the package. */
class NotPlain extends Error {}
const NOT_PLAIN = new NotPlain();

// stringifyString.js plainString: what makes a plain scalar need quotes (the newline cases are
// left to the package: a string with one always holds an unsafe character).
// In two: what can only match at the start, and what can match anywhere. Joined with
// the start-anchored tests below, the first makes a regular expression every alternative of which is
// anchored, which V8 tries at the first character only (irregexp's IsAnchoredAtStart); one
// unanchored alternative in it made V8 try all of them at every character of every message.
const NEEDS_QUOTES_AT_START = /^[\t ,[\]{}#&*!|>'"%@`]|^[?-]$|^[?-][ \t]/;
const NEEDS_QUOTES_ANYWHERE = /:[ \t]|[\t ]#|[\t :]$/;
const DOCUMENT_MARKER = /^(%|---|\.\.\.)/;
/** A key the package writes as is (stringifyPair: a key over 1024 characters is written explicit). */
const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_]{0,200}$/;

const TYPED_FIRST = /^[~NnYyTtFfOoEe0-9+.-]/;

/** The YAML 1.1 schema's tests for a plain scalar that would read back as something else than a string. */
function typedTests(): RegExp[] {
  const { Document } = yamlLibrary();
  const schema = new Document(null, { version: '1.1' }).schema as unknown as { tags: Tag[]; compat?: Tag[] | null };
  type Tag = { default?: boolean | string; tag: string; test?: RegExp };
  return [...schema.tags, ...(schema.compat ?? [])]
    .filter((t) => t.default === true && t.tag !== 'tag:yaml.org,2002:str' && t.test instanceof RegExp)
    .map((t) => t.test as RegExp);
}

let care: ((text: string) => boolean) | undefined;

/**
 * Whether a string without an unsafe character is anything but a plain scalar: a document marker,
 * `<<`, a text the package quotes, or one the YAML 1.1 schema reads as null, bool, int, float or
 * timestamp. Every event field asks this (20,000 events: about 500,000 strings), so the tests are
 * joined into one regular expression, built once from the package's own: one match per string
 * instead of up to sixteen (issue 27: -o yaml cost 1.4x the CPU of -o json).
 */
function needsCare(text: string): boolean {
  if (care === undefined) {
    const tests = [DOCUMENT_MARKER, NEEDS_QUOTES_AT_START, /^<<$/, ...typedTests()];
    // Joined, a test keeps its meaning only without flags or backreferences (group numbers shift).
    const joinable = tests.every((t) => t.flags === '' && !/\\[1-9k]/.test(t.source));
    if (joinable) {
      const one = new RegExp(tests.map((t) => `(?:${t.source})`).join('|'));
      care = (t) => one.test(t) || NEEDS_QUOTES_ANYWHERE.test(t);
    } else {
      const typed = tests.slice(3);
      care = (t) => DOCUMENT_MARKER.test(t) || NEEDS_QUOTES_AT_START.test(t) || NEEDS_QUOTES_ANYWHERE.test(t) || t === '<<' || ((t === '' || TYPED_FIRST.test(t)) && typed.some((test) => test.test(t)));
    }
  }
  return care(text);
}

/** A string as the package writes it as a value, or NOT_PLAIN for the package to do it. */
function scalarText(value: string): string {
  if (hasUnsafe(value)) throw NOT_PLAIN;
  if (!needsCare(value)) return value;
  // `<<` is YAML 1.1's merge key, a tag of its own that the package identifies (and writes plain).
  if (DOCUMENT_MARKER.test(value) || value === '<<') throw NOT_PLAIN;
  // quotedString: single quotes for a `"` without a `'`, double (JSON's, no escape left to rewrite) otherwise.
  return value.includes('"') && !value.includes("'") ? `'${value}'` : JSON.stringify(value);
}

/** Keys met (an event has about 40, the same in every event), and whether each is written plain. */
const keys = new Map<string, boolean>();

function keyText(key: string): string {
  let plain = keys.get(key);
  if (plain === undefined) {
    // A plain key holds no indicator, space or colon, so of the tests only the schema's can match.
    plain = PLAIN_KEY.test(key) && !needsCare(key);
    if (keys.size >= 10_000) keys.clear(); // hostile keys (annotations...) must not grow it without end
    keys.set(key, plain);
  }
  if (!plain) throw NOT_PLAIN;
  return key;
}

/** A scalar, `[]` or `{}` on the line it starts; undefined for a collection with something in it. */
function inline(value: unknown): string | undefined {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return scalarText(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isSafeInteger(value) || Object.is(value, -0)) throw NOT_PLAIN;
      return String(value);
    case 'object':
      if (Array.isArray(value)) return value.length === 0 ? '[]' : undefined;
      if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) throw NOT_PLAIN;
      for (const key in value) if ((value as Record<string, unknown>)[key] !== undefined) return undefined;
      return '{}';
    default:
      throw NOT_PLAIN;
  }
}

/**
 * A block collection's lines at `indent`; `first` is what starts its first line (`- ` of the
 * sequence item it is in). An object met twice is written twice, as the package writes the copy
 * quoteUnsafe hands it (never an anchor and alias).
 */
function block(value: object, indent: string, first: string): string {
  let out = '';
  let lead = first;
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      const item: unknown = value[i];
      if (item === undefined) throw NOT_PLAIN;
      const text = inline(item);
      // A collection in a sequence starts on the item's line; in a map, on the next.
      out += text !== undefined ? `${lead}- ${text}\n` : block(item as object, inner, `${lead}- `);
      lead = indent;
    }
    return out;
  }
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    if (item === undefined) continue;
    const head = keyText(key);
    const text = inline(item);
    out += text !== undefined ? `${lead}${head}: ${text}\n` : `${lead}${head}:\n${block(item as object, inner, inner)}`;
    lead = indent;
  }
  return out;
}

/** The whole document, in one piece. */
export function toYamlText(value: unknown): string {
  return [...yamlTextChunks(value)].join('');
}

/**
 * toYamlText's text in pieces, one array element at a time (an element the fast writer cannot
 * write goes to the package alone, as a one-element sequence: the same lines it has in the whole).
 * `each` makes an element printable as it is written (toJsonEvent), as jsonTextChunks does.
 */
export function* yamlTextChunks<T>(value: T[] | unknown, each: (element: T) => unknown = (element) => element): Generator<string> {
  if (!Array.isArray(value) || value.length === 0) {
    yield plainOr(value);
    return;
  }
  // Pieces of about 32 K units: fewer writes, and each below V8's large-object size even as two-byte text (json.ts says why).
  let piece = '';
  for (const element of value as T[]) {
    const item = each(element);
    try {
      const text = inline(item);
      piece += text !== undefined ? `- ${text}\n` : block(item as object, '  ', '- ');
    } catch (error) {
      if (!(error instanceof NotPlain)) throw error;
      piece += libraryYaml([item]);
    }
    if (piece.length >= 32 * 1024) {
      yield piece;
      piece = '';
    }
  }
  if (piece !== '') yield piece;
}

function plainOr(value: unknown): string {
  if (value !== null && typeof value === 'object') {
    try {
      const text = inline(value);
      return text !== undefined ? `${text}\n` : block(value, '', '');
    } catch (error) {
      if (!(error instanceof NotPlain)) throw error;
    }
  }
  return libraryYaml(value);
}

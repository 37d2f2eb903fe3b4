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

// What a first character can start that the tests above match (each of them is anchored at the
// start): 1, an indicator, a document marker, `<<`, or a YAML 1.1 int, float or timestamp; 2, a
// YAML 1.1 null or bool, the words of yaml's core/yaml-1.1 null and bool tests (`null`, `y`, `Yes`,
// `FALSE`, `off`...), none longer than five characters. TYPED_FIRST's set, split in two. Any other
// first character leaves only NEEDS_QUOTES_ANYWHERE to ask.
const CARE_AT_START = new Uint8Array(128);
for (const ch of '\t ,[]{}#&*!|>\'"%@`?-<~Ee0123456789+.') CARE_AT_START[ch.charCodeAt(0)] = 1;
for (const ch of 'NnYyTtFfOo') CARE_AT_START[ch.charCodeAt(0)] = 2;
const LONGEST_WORD = 5;

/**
 * Whether the package writes `value` as it is, decided in one pass over its characters: printable
 * ASCII (so nothing hasUnsafe looks for), a first character CARE_AT_START does not name (or a word
 * of its second kind longer than any null or bool), and none of NEEDS_QUOTES_ANYWHERE's `: `, ` #`,
 * or a space or colon at the end (a tab is not printable ASCII). False sends the string to the
 * tests themselves. Issue 27: most strings of an event (names, kinds, Normal, node-1) end here
 * instead of in three regular expressions each.
 */
function plainAscii(value: string): boolean {
  const last = value.length - 1;
  if (last < 0) return false;
  let c = value.charCodeAt(0);
  if (c >= 128) return false;
  const start = CARE_AT_START[c];
  if (start === 1 || (start === 2 && last < LONGEST_WORD)) return false;
  for (let i = 0; i <= last; i += 1) {
    c = value.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return false;
    if (c === 0x3a || c === 0x20) {
      // `:` or ` ` at the end; `: ` and ` #` inside.
      if (i === last) return false;
      const next = value.charCodeAt(i + 1);
      if (c === 0x3a ? next === 0x20 : next === 0x23) return false;
    }
  }
  return true;
}

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isLowerHex = (c: number): boolean => isDigit(c) || (c >= 0x61 && c <= 0x66);

/**
 * The three shapes of an event's strings that start with a digit (so plainAscii leaves them to the
 * tests), decided without them: the text the package writes, or undefined for the tests to decide.
 * Digits alone are a YAML 1.1 int (quoted: a resourceVersion); `2026-12-02T10:10:34.000Z` (how
 * times are printed) a timestamp (quoted); a canonical lowercase uid (8-4-4-4-12 hex digits) none
 * of the typed tests: four dashes are more than a float's two signs, no `:` for sexagesimal, no
 * `0x`/`0b` with only such digits after, and a dash at index 8, not 4, for a timestamp. Issue 27:
 * every event has two or three uids and five times.
 */
function digitFirst(value: string): string | undefined {
  const n = value.length;
  let i = 0;
  while (i < n && isDigit(value.charCodeAt(i))) i += 1;
  if (i === n) return `"${value}"`;
  if (n === 36) {
    for (let j = 0; j < 36; j += 1) {
      const c = value.charCodeAt(j);
      if (j === 8 || j === 13 || j === 18 || j === 23 ? c !== 0x2d : !isLowerHex(c)) return undefined;
    }
    return value;
  }
  if (i === 4 && n >= 20 && value.charCodeAt(n - 1) === 0x5a && TIMESTAMP_Z.test(value)) return `"${value}"`;
  return undefined;
}
const TIMESTAMP_Z = /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]+)?Z$/;

/** A string as the package writes it as a value, or NOT_PLAIN for the package to do it. */
function scalarText(value: string): string {
  if (plainAscii(value)) return value;
  if (value === '') return '""'; // the null test matches it: quoted, as below (`action: ""` in most events)
  if (isDigit(value.charCodeAt(0))) {
    const text = digitFirst(value);
    if (text !== undefined) return text;
  }
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

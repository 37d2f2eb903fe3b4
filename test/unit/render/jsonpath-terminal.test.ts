// -o jsonpath to a terminal: every value a template takes from the document is escaped (event text is
// untrusted), the template's own text is printed as written; to a pipe or file, client-go's exact bytes.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseJsonPath } from '../../../src/render/jsonpath/jsonpath.ts';
import { renderDocument } from '../../../src/render/document.ts';

/** One hostile character of each kind a terminal acts on or hides, and how the table shows it. */
const HOSTILE: [string, string, string][] = [
  ['ESC (a colour, a screen clear)', 'a\u001b[31mb\u001b[2J', 'a^[[31mb^[[2J'],
  ['CR (overwrites the line)', 'ok\rFAKE', 'ok\\rFAKE'],
  ['LF inside a value (a forged line)', 'one\ntwo', 'one\\ntwo'],
  ['a C1 control (U+009B, a one-byte CSI)', 'x\u009b31my', 'x\\u009b31my'],
  ['a bidi override', 'abc\u202edef', 'abc\\u202edef'],
  ['a zero-width space', 'Back\u200bOff', 'Back\\u200bOff'],
];

const NONE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b\u202e]/;

function run(template: string, data: unknown, terminal: boolean, outputJson = false): string {
  return parseJsonPath(template, { allowMissingKeys: true, outputJson }).execute(data, terminal);
}

describe('jsonpath values to a terminal', () => {
  for (const [what, raw, shown] of HOSTILE) {
    const doc = { items: [{ reason: raw, count: 2 }, { reason: 'Plain', count: 3 }] };
    const template = '{range .items[*]}{.reason}{"\\t"}{.count}{"\\n"}{end}';

    test(`${what}: escaped on a terminal, the template's tab and newline kept`, () => {
      assert.equal(run(template, doc, true), `${shown}\t2\nPlain\t3\n`);
    });

    test(`${what}: exact to a pipe`, () => {
      assert.equal(run(template, doc, false), `${raw}\t2\nPlain\t3\n`);
    });
  }

  test("leaves the template's own control characters alone, in plain text and in quoted literals", () => {
    const doc = { reason: 'x\u001b[0m' };
    // What the user wrote: bold on, the value, bold off (a \x escape in a quoted literal is text too).
    assert.equal(run('\u001b[1m{.reason}{"\\x1b[0m"}', doc, true), '\u001b[1mx^[[0m\u001b[0m');
  });

  test('escapes a map or list printed as JSON: what Go writes raw (C1, bidi) is made visible', () => {
    const doc = { object: { name: 'n\u009b2J', kind: 'P\u202eod' } };
    const out = run('{.object}', doc, true);
    assert.doesNotMatch(out, NONE);
    assert.equal(out, '{"kind":"P\\u202eod","name":"n\\u009b2J"}');
    assert.equal(run('{.object}', doc, false), '{"kind":"P\u202eod","name":"n\u009b2J"}');
  });

  test('a filter still compares the exact values on a terminal; only what it prints is escaped', () => {
    const doc = { items: [{ reason: 'a\u001bb', message: 'm\u001b[31m' }, { reason: 'c', message: 'n' }] };
    assert.equal(run('{.items[?(@.reason=="a\\x1bb")].message}', doc, true), 'm^[[31m');
  });

  test('a bracket union of paths is document text: escaped', () => {
    assert.equal(run("{.items[*]['reason','message']}", { items: [{ reason: 'r\u0007', message: 'm\r' }] }, true), 'r^G m\\r');
  });
});

describe('jsonpath-as-json to a terminal', () => {
  const doc = { items: [{ reason: 'a\u001b[31m\u009b\u202e\u200b\r\nb' }] };

  test('is JSON of the same values with nothing a terminal acts on left raw', () => {
    const out = run('{.items[*].reason}', doc, true, true);
    assert.doesNotMatch(out, NONE);
    assert.deepEqual(JSON.parse(out), ['a\u001b[31m\u009b\u202e\u200b\r\nb']);
  });

  test('to a pipe is what encoding/json writes: C0 escaped, C1 and bidi raw', () => {
    assert.equal(run('{.items[*].reason}', doc, false, true), '[\n    "a\\u001b[31m\u009b\u202e\u200b\\r\\nb"\n]\n');
  });
});

describe('-o name to a terminal', () => {
  const names = ['ok', 'evil\u001b]0;owned\u0007', 'two\nlines', 'rtl\u202e'];

  test('escapes each name, one a line', () => {
    assert.equal(renderDocument([], names, { kind: 'name' }, true), 'event/ok\nevent/evil^[]0;owned^G\nevent/two\\nlines\nevent/rtl\\u202e\n');
  });

  test('writes each name exactly to a pipe', () => {
    assert.equal(renderDocument([], names, { kind: 'name' }, false), names.map((n) => `event/${n}\n`).join(''));
  });
});

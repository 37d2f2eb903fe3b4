// Property tests of the one escaper and the JSON writer: whatever text an attacker puts in an event,
// nothing that acts on a terminal or draws as nothing reaches it, and -o json gives the text back exactly.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { escapeTerminal, truncateCell } from '../../../src/render/escape.ts';
import { parse as parseYaml } from 'yaml';
import { toJsonText } from '../../../src/render/json.ts';
import { toYamlText } from '../../../src/render/yaml.ts';

// Whatever Unicode says is a control, format, separator or invisible character, or a lone surrogate.
const FORBIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Default_Ignorable_Code_Point}]/u;

// Strings weighted towards the dangerous corners: controls, format characters, astral tags, halves of surrogate pairs.
const hostileChar = fc.oneof(
  fc.integer({ min: 0, max: 0x9f }).map((c) => String.fromCharCode(c)),
  fc.constantFrom('\u00ad', '\u034f', '\u061c', '\u115f', '\u1160', '\u180e', '\u200b', '\u200d', '\u2028', '\u202e', '\u2060', '\u2064', '\u2066', '\u206f', '\u3164', '\ufe0f', '\ufeff', '\ufff9', '\uffa0', '\ud800', '\udfff'),
  fc.integer({ min: 0xe0000, max: 0xe01ef }).map((c) => String.fromCodePoint(c)),
  fc.integer({ min: 0, max: 0x10ffff }).map((c) => String.fromCodePoint(c)),
  fc.string({ unit: 'grapheme', maxLength: 3 }),
);
const hostileText = fc.array(hostileChar, { maxLength: 40 }).map((parts) => parts.join(''));

describe('escapeTerminal, for any text', () => {
  test('leaves no control, format or invisible character in its output', () => {
    fc.assert(fc.property(hostileText, (text) => !FORBIDDEN.test(escapeTerminal(text))));
  });

  test('changes nothing in text that holds none of them', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), (text) => FORBIDDEN.test(text) || escapeTerminal(text) === text));
  });

  test('escapes the controls at the edges of printable ASCII, which plain ASCII text skips the search for', () => {
    assert.equal(escapeTerminal('a\x7fb\x1fc\td ~'), 'a^?b^_c\\td ~');
    assert.equal(escapeTerminal(' !"#$%&()*+,-./09:;<=>?@AZ[\\]^_`az{|}~'), ' !"#$%&()*+,-./09:;<=>?@AZ[\\]^_`az{|}~');
    assert.equal(toJsonText(['a\u007f', 'b\u0085']), '[\n  "a\\u007f",\n  "b\\u0085"\n]\n');
  });

  test('is stable: escaping twice gives what escaping once gave', () => {
    fc.assert(fc.property(hostileText, (text) => escapeTerminal(escapeTerminal(text)) === escapeTerminal(text)));
  });

  test('keeps the text safe when a cell is cut to any width', () => {
    fc.assert(
      fc.property(hostileText, fc.integer({ min: 1, max: 50 }), (text, width) => !FORBIDDEN.test(truncateCell(escapeTerminal(text), width))),
    );
  });
});

describe('toJsonText, for any value', () => {
  const values = fc.oneof(
    hostileText,
    fc.dictionary(hostileText, hostileText, { maxKeys: 5, noNullPrototype: true }),
    fc.array(fc.record({ reason: hostileText, message: hostileText, count: fc.integer() }, { noNullPrototype: true }), { maxLength: 5 }),
  );

  test('parses back to exactly the value it was given', () => {
    fc.assert(fc.property(values, (value) => assert.deepEqual(JSON.parse(toJsonText(value)), value)));
  });

  test('puts only printable ASCII, newlines and characters a terminal shows on the terminal', () => {
    fc.assert(fc.property(values, (value) => !FORBIDDEN.test(toJsonText(value).replace(/\n/g, ''))));
  });
});

describe('toYamlText, for any value', () => {
  const values = fc.array(fc.record({ reason: hostileText, message: hostileText, count: fc.integer() }, { noNullPrototype: true }), { maxLength: 5 });
  // A lone surrogate half cannot be written as YAML at all (a reader refuses its escape): left to -o json.
  const wellFormed = values.filter((v) => v.every((e) => !/\p{Cs}/u.test(e.reason + e.message)));

  test('parses back (as YAML 1.1, as Go readers do) to exactly the value it was given', () => {
    fc.assert(fc.property(wellFormed, (value) => assert.deepEqual(parseYaml(toYamlText(value), { version: '1.1' }), value)));
  });

  test('puts no control, format or invisible character on the terminal', () => {
    fc.assert(fc.property(values, (value) => !FORBIDDEN.test(toYamlText(value).replace(/\n/g, ''))));
  });
});

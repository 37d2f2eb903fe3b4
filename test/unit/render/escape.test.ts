import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { escapeTerminal, truncateCell } from '../../../src/render/escape.ts';

describe('escapeTerminal', () => {
  const cases: [string, string, string][] = [
    ['leaves plain text alone', 'Started reconciling Pipeline build-1.', 'Started reconciling Pipeline build-1.'],
    ['leaves non-ASCII text alone', 'Pod 준비 완료 ✓ 😀', 'Pod 준비 완료 ✓ 😀'],
    ['writes ESC as ^[ like kubectl', '\u001b[31mred\u001b[0m', '^[[31mred^[[0m'],
    ['defuses an OSC title sequence ended by BEL', '\u001b]0;title\u0007', '^[]0;title^G'],
    ['writes CR as \\r like kubectl', 'ok\rFAKE', 'ok\\rFAKE'],
    ['writes LF as \\n', 'line1\nline2', 'line1\\nline2'],
    ['writes TAB as \\t', 'a\tb', 'a\\tb'],
    ['writes NUL in caret form', 'a\u0000b', 'a^@b'],
    ['writes backspace in caret form', 'pass\bword', 'pass^Hword'],
    ['writes form feed in caret form', 'a\fb', 'a^Lb'],
    ['writes DEL as ^?', 'a\u007fb', 'a^?b'],
    ['writes a C1 CSI as \\u009b', 'a\u009b31mb', 'a\\u009b31mb'],
    ['writes NEL as \\u0085', 'a\u0085b', 'a\\u0085b'],
    ['writes a right-to-left override visibly', 'evil\u202etxt.exe', 'evil\\u202etxt.exe'],
    ['writes bidi isolates visibly', '\u2066x\u2069', '\\u2066x\\u2069'],
    ['writes the Arabic letter mark visibly', 'a\u061cb', 'a\\u061cb'],
    ['writes zero-width space and joiner visibly', 'a\u200bb\u200dc', 'a\\u200bb\\u200dc'],
    ['writes line and paragraph separators visibly', 'a\u2028b\u2029c', 'a\\u2028b\\u2029c'],
    ['writes a byte order mark visibly', '\ufeffx', '\\ufeffx'],
    ['does not double a backslash', 'C:\\path\\n', 'C:\\path\\n'],
    ['writes a word joiner visibly', 'a\u2060b', 'a\\u2060b'],
    ['writes a soft hyphen visibly', 'Back\u00adOff', 'Back\\u00adOff'],
    ['writes invisible math operators visibly', '\u2061\u2062\u2063\u2064', '\\u2061\\u2062\\u2063\\u2064'],
    ['writes deprecated format characters visibly', '\u206a\u206f', '\\u206a\\u206f'],
    ['writes interlinear annotation marks visibly', '\ufff9x\ufffay\ufffb', '\\ufff9x\\ufffay\\ufffb'],
    ['writes the Mongolian vowel separator visibly', 'a\u180eb', 'a\\u180eb'],
    ['writes the combining grapheme joiner visibly', 'a\u034fb', 'a\\u034fb'],
    ['writes the Hangul fillers visibly', '\u115f\u1160\u3164\uffa0', '\\u115f\\u1160\\u3164\\uffa0'],
    ['writes variation selectors visibly', 'x\ufe0fy\u{e0100}', 'x\\ufe0fy\\u{e0100}'],
    ['writes tag characters as one escape each', 'Ok\u{e0001}\u{e0041}\u{e007f}', 'Ok\\u{e0001}\\u{e0041}\\u{e007f}'],
    ['writes a lone surrogate half visibly', 'a\ud800b', 'a\\ud800b'],
    ['leaves an emoji whole', 'ok 😀', 'ok 😀'],
  ];
  for (const [name, input, want] of cases) {
    test(name, () => assert.equal(escapeTerminal(input), want));
  }

  test('makes two reasons that differ only by an invisible character look different', () => {
    assert.notEqual(escapeTerminal('BackOff'), escapeTerminal('Back\u2060Off'));
  });

  test('leaves no control character of any kind in its output', () => {
    let all = '';
    for (let c = 0; c <= 0xa0; c += 1) all += String.fromCharCode(c);
    all += '\u200b\u200c\u200d\u200e\u200f\u2028\u2029\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\ufeff';
    assert.doesNotMatch(escapeTerminal(all), /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/);
  });
});

describe('truncateCell', () => {
  const cases: [string, string, number, string][] = [
    ['keeps text that fits', 'abcdef', 6, 'abcdef'],
    ['cuts longer text to the width, ending in ...', 'abcdefghij', 8, 'abcde...'],
    ['does not cut with no limit (0)', 'abcdefghij', 0, 'abcdefghij'],
    ['does not cut with an infinite limit', 'abcdefghij', Infinity, 'abcdefghij'],
    ['counts an emoji as one character and never splits it', '😀😀😀😀😀', 4, '😀...'],
  ];
  for (const [name, text, max, want] of cases) {
    test(name, () => assert.equal(truncateCell(text, max), want));
  }

  test('cuts a 10 kB message to 200 characters', () => {
    const out = truncateCell('x'.repeat(10_240), 200);
    assert.equal(out.length, 200);
    assert.ok(out.endsWith('xxx...'));
  });
});

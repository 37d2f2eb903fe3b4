import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { alignColumns, displayWidth } from '../../../src/render/table.ts';

describe('displayWidth counts terminal columns', () => {
  const cases: [string, string, number][] = [
    ['plain ASCII by its length', 'FailedScheduling', 16],
    ['nothing for the empty string', '', 0],
    ['two columns for each CJK ideograph', '漢字', 4],
    ['two columns for Hangul syllables', '한국어', 6],
    ['two columns for fullwidth forms and the ideographic space', 'Ａ\u3000', 4],
    ['one column for halfwidth katakana', 'ｶﾀｶﾅ', 4],
    ['nothing for a combining accent', 'e\u0301', 1],
    ['nothing for a soft hyphen or a zero-width space', 'a\u00adb\u200bc', 3],
    ['two columns for an emoji', '😀', 2],
    ['two columns for an emoji with a skin tone', '👍🏽', 2],
    ['two columns for a flag', '🇯🇵', 2],
    ['two columns for a text symbol made emoji by VS16', '❤️', 2],
    ['one column for a text symbol without VS16', '☺', 1],
    ['each code point of a Devanagari conjunct as wcwidth counts it', 'क्षि', 3],
    ['nothing for SGR colour codes', '\u001b[33mWarning\u001b[39m', 7],
    ['escaped control characters as the text they became', '^[[31mred\\r', 11],
  ];
  for (const [name, text, width] of cases) test(name, () => assert.equal(displayWidth(text), width));
});

describe('alignColumns lays rows out as kubectl tabwriter does', () => {
  test('pads every column but the last to its widest cell plus the gap', () => {
    assert.deepEqual(alignColumns([['TYPE', 'REASON', 'MESSAGE'], ['Warning', 'BackOff', 'x'], ['Normal', 'Pulled', 'a longer one']], 3), [
      'TYPE      REASON    MESSAGE',
      'Warning   BackOff   x',
      'Normal    Pulled    a longer one',
    ]);
  });

  test('keeps columns aligned after wide characters and emoji', () => {
    assert.deepEqual(alignColumns([['OBJECT', 'REASON'], ['Pod/漢字', 'A'], ['Pod/😀', 'B'], ['Pod/e\u0301', 'C']], 2), [
      'OBJECT    REASON',
      'Pod/漢字  A',
      'Pod/😀    B',
      'Pod/e\u0301     C',
    ]);
  });

  test('keeps columns aligned when a cell is coloured', () => {
    assert.deepEqual(alignColumns([['\u001b[33mWarning\u001b[39m', 'x'], ['Normal', 'y']], 1), ['\u001b[33mWarning\u001b[39m x', 'Normal  y']);
  });

  test('uses the gap even when every cell of a column is empty', () => {
    assert.deepEqual(alignColumns([['', 'a'], ['', 'b']], 2), ['  a', '  b']);
  });

  test('returns no lines for no rows', () => {
    assert.deepEqual(alignColumns([], 3), []);
  });
});

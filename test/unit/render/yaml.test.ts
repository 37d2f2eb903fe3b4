// -o yaml is written by a fast writer for the common shapes and by the yaml package for the rest:
// whatever the document, the text is the package's own, byte for byte (issue 27: no output may
// change for speed).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { libraryYaml, toYamlText, yamlTextChunks } from '../../../src/render/yaml.ts';

// Texts weighted towards what YAML reads as something else or must quote: indicators, `: `, ` #`,
// YAML 1.1 booleans, numbers, timestamps, document markers, quotes of both kinds, controls.
const tricky = fc.constantFrom(
  '', ' ', 'yes', 'No', 'ON', 'off', 'y', 'N', 'null', 'Null', '~', 'true', 'False', '0123', '0x1f', '0b101', '1_000', '190:20:30',
  '1e3', 'e3', 'E10', 'e', '+1', '-1', '.5', '.inf', '-.Inf', '.NaN', '2001-12-14', '2001-12-14t21:59:43.10-05:00', '<<', '=', '---', '--- x', '...', '%YAML',
  '- x', '-', '?', '? x', ':', 'a: b', 'a:b', 'a #b', 'a#b', '#x', '&a', '*a', '!t', '|', '>', "'", '"', 'it\'s', 'say "hi"', 'both \' and "',
  '[x]', '{x}', 'a, b', '@x', '`x', 'x ', ' x', 'x:', 'tab\there', 'line\nbreak', 'long line\nbreak that goes on past forty characters', '\u202e', '\u0000', 'é', '日本',
);
const word = fc.stringMatching(/^[A-Za-z0-9 :#'"\-?.,_/{}[\]&*!|>%@`=<~+]{0,12}$/);
const text = fc.oneof(tricky, word, fc.string({ maxLength: 8 }), fc.tuple(tricky, word, tricky).map((parts) => parts.join('')));
const key = fc.oneof(fc.constantFrom('uid', 'message', 'fieldPath', 'y', 'on', 'null', '1', 'a b', 'a: b', '', '-x', 'x'.repeat(1100)), fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,8}$/), text);
const scalar = fc.oneof(
  { weight: 6, arbitrary: text },
  { weight: 2, arbitrary: fc.integer({ min: -1e6, max: 1e6 }) },
  { weight: 1, arbitrary: fc.constantFrom(0, -0, 1.5, 1e21, 2 ** 53, Number.NaN, Infinity, true, false, null) },
);
const { value: doc } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(key, fc.oneof(tie('value'), fc.constant(undefined)), { maxKeys: 5 }),
}));

describe('-o yaml', () => {
  test('comes in pieces of about 64 kB that join to the whole text', () => {
    const events = Array.from({ length: 2000 }, (_, i) => ({ uid: `u${i}`, message: `Started container web-${i}: ok`, count: i }));
    const pieces = [...yamlTextChunks(events)];
    assert.ok(pieces.length > 1 && pieces.every((p) => p.length < 70 * 1024), `${pieces.length} pieces`);
    assert.equal(pieces.join(''), libraryYaml(events));
  });

  test('is the yaml package\'s text for any document', () => {
    fc.assert(fc.property(doc, (d) => toYamlText(d) === libraryYaml(d)), { numRuns: 3000 });
  });

  test('is the package\'s text for a list of events, whatever their fields hold', () => {
    const event = fc.record({ uid: text, message: text, count: fc.integer({ min: 0, max: 100 }), object: fc.record({ kind: text, name: text }), extra: doc });
    fc.assert(fc.property(fc.array(event, { maxLength: 6 }), (events) => [...yamlTextChunks(events)].join('') === libraryYaml(events)), { numRuns: 1000 });
  });

  // Issue 27: the fast writer's tests are joined into one regular expression; the text must stay the
  // package's for events as -o yaml prints them (toJsonEvent's fields, then recorderNotes), whatever
  // their strings hold: quotes, line breaks, leading spaces, `: `, `#`, numbers, YAML 1.1 booleans and
  // nulls, timestamps, controls, invisible and astral characters, empty and long texts.
  const hostile = fc.oneof(
    { weight: 3, arbitrary: text },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
    { weight: 1, arbitrary: fc.constantFrom('\u00a0x', 'x\u2028y', '\u{1f600}', 'caf\u00e9: ok', '\u001b[31mred', '\ud800', 'a\r\nb', '  indented', '1.4.10', '0b5e7a11-0000-4000-8000-00010000004d', '12:30', '2026-12-02T02:52:01Z', '1e', 'Y', '-.5', '+.inf', '0o17', '0xG') },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('Readiness probe failed: ', 'a #', 'x'), fc.string({ maxLength: 300 })).map(([a, b]) => a + b) },
  );
  const reference = fc.record({ apiVersion: hostile, kind: hostile, name: hostile, namespace: hostile, uid: hostile });
  const printed = fc.record({
    uid: hostile,
    name: hostile,
    namespace: hostile,
    resourceVersion: hostile,
    type: hostile,
    reason: hostile,
    message: hostile,
    action: hostile,
    object: fc.record({ apiVersion: hostile, kind: hostile, name: hostile, namespace: hostile, uid: hostile, fieldPath: hostile }),
    reporter: hostile,
    instance: hostile,
    count: fc.integer({ min: 0, max: 2 ** 31 }),
    firstSeen: fc.oneof(hostile, fc.constant(null)),
    lastSeen: fc.oneof(hostile, fc.constant(null)),
    seriesStyle: fc.boolean(),
    recorderNotes: fc.record({
      spam: fc.array(fc.record({ reporter: hostile, instance: hostile, object: reference, events: fc.nat(), first: fc.oneof(hostile, fc.constant(null)), burst: fc.constant(25), refillSeconds: fc.constant(300) }), { maxLength: 2 }),
      combined: fc.array(fc.record({ event: reference, reason: hostile, count: fc.nat() }), { maxLength: 1 }),
      series: fc.constant([]),
    }),
  });

  test('is the package\'s text for thousands of printed events with hostile strings', () => {
    fc.assert(fc.property(fc.array(printed, { minLength: 1, maxLength: 8 }), (events) => [...yamlTextChunks(events)].join('') === libraryYaml(events)), { numRuns: 250 });
    // And one list of 1,500 written whole, in pieces as -o yaml writes them.
    const many = fc.sample(printed, { numRuns: 1500, seed: 27 });
    assert.equal([...yamlTextChunks(many)].join(''), libraryYaml(many));
  });

  test('an object met twice is written in full each time, as the package writes it (no anchor, no alias)', () => {
    const shared = { kind: 'Pod', name: 'web' };
    const events = [{ uid: 'a', object: shared }, { uid: 'b', object: shared, again: shared }];
    const text = toYamlText(events);
    assert.equal(text, libraryYaml(events));
    assert.doesNotMatch(text, /&|\*/);
  });

  test('writes plain events without the package', () => {
    const events = [
      { uid: 'u1', message: 'Readiness probe failed: Get "http://10.0.0.1:8080/healthz"', count: 2, seen: null, wide: true, object: { kind: 'Pod', fieldPath: '' }, tree: [] },
      { uid: 'u2', message: 'Created container web', count: 1, seen: '2026-12-01T10:00:00Z', wide: false, object: {}, tree: [{ kind: 'ReplicaSet' }] },
    ];
    assert.equal(
      [...yamlTextChunks(events)].join(''),
      [
        '- uid: u1',
        '  message: \'Readiness probe failed: Get "http://10.0.0.1:8080/healthz"\'',
        '  count: 2',
        '  seen: null',
        '  wide: true',
        '  object:',
        '    kind: Pod',
        '    fieldPath: ""',
        '  tree: []',
        '- uid: u2',
        '  message: Created container web',
        '  count: 1',
        '  seen: "2026-12-01T10:00:00Z"',
        '  wide: false',
        '  object: {}',
        '  tree:',
        '    - kind: ReplicaSet',
        '',
      ].join('\n'),
    );
  });
  // Issue 27: a string of printable ASCII is decided by one pass over its characters (its first
  // character, then `: `, ` #`, a trailing space or colon); every first character, before the tails
  // that make YAML read a text as something else, and the null and bool words with one letter more
  // or less (five letters is the longest word the fast pass leaves to the tests); digits, uids and
  // times (and near misses of each), which skip the tests too.
  test('is the package\'s text for every printable first character, the words YAML 1.1 reads as null or bool, digits, uids and times', () => {
    const firsts = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i));
    const tails = ['', 'x', '1', '10', '5e3', '.5', ':', ': x', ':x', ' ', ' #x', '#x', 'x ', 'x:', 'es', 'ES', 'o', 'O', 'ull', 'ULL', 'rue', 'alse', 'ALSE', 'ff', 'n', '<', '--', '..', '001-12-14', 'b1', 'x1f', '_000', '0:20', '\t', '\u00e9', 'ormal', 'ode-1', 'ullx', 'alsey'];
    const words = ['y', 'Y', 'yes', 'Yes', 'YES', 'n', 'N', 'no', 'No', 'NO', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE', 'on', 'On', 'ON', 'off', 'Off', 'OFF', 'null', 'Null', 'NULL', '~', ''];
    // Shapes that start with a digit and are decided without the tests: digits, uids, times.
    const digitFirst = ['0', '7', '0123', '1077', '9'.repeat(40), '0b5e7a11-0000-4000-8000-00010000004d', '12345678-1234-1234-1234-123456789abc', '0B5E7A11-0000-4000-8000-00010000004D',
      '0b5e7a11-0000-4000-8000-00010000004', '0b5e7a11-0000-4000-8000-00010000004d0', '0b5e7a1-10000-4000-8000-00010000004d', '0b5e7a11-0000-4000-8000-0001000g004d', '0b5e7a11-0000-4000-8000:00010000004d',
      '1e10-0000-4000-8000-000100000000000', '2026-12-02T10:10:34.000Z', '2026-12-02T10:10:34Z', '2026-12-02T10:10:34.Z', '2026-12-02t10:10:34Z', '2026-12-02T10:10:34+01:00', '2026-12-02T10:10Z', '2026-12-2T10:10:34Z', '2026-12-02T10:10:34.000Z ', '2026-12-02T10:10:34.000Zx', '2026-1x-02T10:10:34Z', '2026-12-02T10:10:34.000ZxZ', '2026-12-02T10:10:34 #Z'];
    const uid = '0b5e7a11-0000-4000-8000-00010000004d';
    for (const odd of [': ', ' #', 'é', '\t', 'G', '"', "'"]) digitFirst.push(uid.slice(0, 30) + odd + uid.slice(30 + odd.length), uid.slice(0, 36 - odd.length) + odd);
    digitFirst.push(`${uid.slice(0, 35)}:`, `${uid.slice(0, 35)} `);
    const texts = [...firsts.flatMap((f) => tails.map((t) => f + t)), ...words.flatMap((w) => [w, `${w}x`, `${w} `, w.slice(1), `${w}s`]), ...digitFirst];
    for (const t of texts) {
      const doc = [{ key: t, list: [t] }];
      assert.equal(toYamlText(doc), libraryYaml(doc), JSON.stringify(t));
    }
  });
});

// The list reader cuts managedFields from the wire text before parsing: whatever the events hold,
// what is parsed is the event with only its managedFields' value changed (to 0).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { withoutManagedFields } from '../../../src/kube/managed-fields.ts';

/** The parsed value with every managedFields key's array value replaced by 0, as the cut text parses. */
function expected(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(expected);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'managedFields' && Array.isArray(v) ? 0 : expected(v)]));
}

// Texts that look like the key, its brackets and the escapes around it.
const tricky = fc.constantFrom('"managedFields":[', '\\"managedFields\\":[', 'managedFields', '[', ']', '{', '}', '"', '\\', '\\"', 'k:{"type":"Ready"}', 'f:spec.containers{web}', '');
const text = fc.oneof(fc.string({ maxLength: 10 }), tricky, fc.array(tricky, { maxLength: 4 }).map((p) => p.join('')));
// Keys hold no backslash (values do): V8 in the pinned Node.js 26.10.0 misreads an escaped key once an
// object of the same shape had a backslash key (test/unit/kube/list-items.test.ts says how), so the
// reference JSON.parse of the uncut text disagrees with itself from run to run (seed 1179445699 read
// the key "\"" as "\\"). Keys still hold quotes, brackets and the key's own text, escaped in the JSON.
const keyText = text.filter((s) => !s.includes('\\'));
const { value } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, text, fc.integer(), fc.constant(null), tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 3 }),
  object: fc.dictionary(fc.oneof(keyText, fc.constant('managedFields')), tie('value'), { maxKeys: 4 }),
}));
const event = fc.record({
  metadata: fc.record({ name: text, managedFields: fc.array(value, { maxLength: 3 }), annotations: fc.dictionary(fc.oneof(keyText, fc.constant('managedFields')), text) }),
  message: text,
  note: value,
});

describe('withoutManagedFields', () => {
  test('parses as the list with each managedFields array written 0, whatever the strings hold', () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 4 }), (items) => {
        const json = JSON.stringify({ kind: 'EventList', items });
        assert.deepEqual(JSON.parse(withoutManagedFields(json)), expected(JSON.parse(json)));
      }),
      { numRuns: 2000 },
    );
  });

  test('cuts the field from an API server\'s event and leaves text that only looks like it', () => {
    const item = {
      metadata: { name: 'web.1', managedFields: [{ manager: 'kubelet', fieldsV1: { 'f:message': {}, 'k:{"type":"Ready"}': {} } }] },
      message: 'a message quoting "managedFields":[ and ] }',
    };
    const json = JSON.stringify({ items: [item, item] });
    const cut = withoutManagedFields(json);
    assert.equal(cut.match(/"managedFields":0/g)?.length, 2);
    assert.ok(!cut.includes('kubelet'));
    assert.deepEqual(JSON.parse(cut).items[1], { metadata: { name: 'web.1', managedFields: 0 }, message: item.message });
  });

  test('leaves a text it cannot follow whole, for JSON.parse to judge', () => {
    assert.equal(withoutManagedFields('{"managedFields":[{"a":"b"'), '{"managedFields":[{"a":"b"');
    assert.equal(withoutManagedFields('{"managedFields":[}'), '{"managedFields":[}');
    assert.equal(withoutManagedFields('{"items":[]}'), '{"items":[]}');
  });
});

// src/core/json.ts: the one set of readers for untyped JSON (API objects, discovery documents, OTLP
// attributes, a store's rows): reading any field of any value never throws, and each rule is one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { asArray, asInteger, asNumber, asObject, asString, asStrings, stringOnly, stringOrNumber } from '../../../src/core/json.ts';

const HOSTILE: unknown[] = [null, undefined, 0, 7, -1.5, true, false, '', 'x', [], ['a', 1], {}, { a: 1 }];

test('asObject and asArray give an empty object or array for anything that is not one', () => {
  assert.deepEqual(HOSTILE.map((v) => JSON.stringify(asObject(v))), ['{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{"a":1}']);
  assert.deepEqual(HOSTILE.map((v) => asArray(v).length), [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0]);
});

test('the three scalar rules: strings only; strings and numbers; strings, numbers and booleans', () => {
  assert.deepEqual(HOSTILE.map(stringOnly), ['', '', '', '', '', '', '', '', 'x', '', '', '', '']);
  assert.deepEqual(HOSTILE.map(stringOrNumber), ['', '', '0', '7', '-1.5', '', '', '', 'x', '', '', '', '']);
  assert.deepEqual(HOSTILE.map(asString), ['', '', '0', '7', '-1.5', 'true', 'false', '', 'x', '', '', '', '']);
});

test('asStrings keeps the strings of an array, in order, and nothing of anything else', () => {
  assert.deepEqual(asStrings(['get', 1, null, 'list', { verb: 'watch' }]), ['get', 'list']);
  assert.deepEqual(asStrings('get'), []);
  assert.deepEqual(asStrings({ 0: 'get', length: 1 }), []);
});

test('asNumber takes finite numbers, asInteger whole ones; anything else is null', () => {
  assert.deepEqual([1.5, 0, -3, Number.NaN, Number.POSITIVE_INFINITY, '2', null, undefined].map(asNumber), [1.5, 0, -3, null, null, null, null, null]);
  assert.deepEqual([3, 0, -137, 1.5, Number.NaN, '3', true].map(asInteger), [3, 0, -137, null, null, null, null]);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCommonOptions, parseRequestTimeout } from '../../../src/options/common.ts';
import { splitList } from '../../../src/options/raw.ts';
import { UsageError } from '../../../src/errors.ts';

const listCases: [string, unknown, string[] | undefined][] = [
  ['no flag gives no list', undefined, undefined],
  ['one value is a one-item list', ['Critical'], ['Critical']],
  ['commas split values', ['Normal,Critical'], ['Normal', 'Critical']],
  ['repeated flags add up', ['Normal', 'Warning,Critical'], ['Normal', 'Warning', 'Critical']],
  ['empty pieces are dropped', ['Normal,,'], ['Normal']],
];
for (const [name, input, want] of listCases) test(`splitList: ${name}`, () => assert.deepEqual(splitList(input), want));

const timeoutCases: [string, string | undefined, number][] = [
  ['no flag means no limit', undefined, 0],
  ['0 means no limit', '0', 0],
  ['a bare number is seconds, as kubectl reads it', '5', 5000],
  ['a duration is read as one', '1m30s', 90000],
];
for (const [name, input, want] of timeoutCases) test(`--request-timeout: ${name}`, () => assert.equal(parseRequestTimeout(input), want));

test('--request-timeout: a word is a usage error', () => assert.throws(() => parseRequestTimeout('soon'), UsageError));

test('common options: -n, filters and --from become typed values', () => {
  const opts = parseCommonOptions({ namespace: 'op-events', types: ['critical'], reason: ['A,B'], since: '15m', for: 'pod/hungry', from: 'x.json' });
  assert.equal(opts.scope.namespace, 'op-events');
  assert.equal(opts.scope.allNamespaces, false);
  assert.deepEqual(opts.filter.types, ['critical']);
  assert.deepEqual(opts.filter.reasons, ['A', 'B']);
  assert.equal(opts.filter.sinceMs, 15 * 60 * 1000);
  assert.equal(opts.filter.object?.name, 'hungry');
  assert.equal(opts.from, 'x.json');
  assert.equal(opts.color, 'auto');
});

const badCommon: [string, Record<string, unknown>, RegExp][] = [
  ['--for without a slash', { for: 'hungry' }, /--for "hungry": want KIND\/NAME/],
  ['--since that is not a duration', { since: 'yesterday' }, /--since "yesterday"/],
  ['--since of zero', { since: '0s' }, /--since "0s"/],
  ['--color of an unknown mode', { color: 'rainbow' }, /--color "rainbow"/],
  ['an empty --namespace', { namespace: '' }, /--namespace needs a name/],
];
for (const [name, raw, message] of badCommon) {
  test(`common options: ${name} is a usage error`, () => assert.throws(() => parseCommonOptions(raw), (e: unknown) => e instanceof UsageError && message.test(e.message)));
}


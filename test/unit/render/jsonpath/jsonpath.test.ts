// src/render/jsonpath/jsonpath.ts: kubectl's templates evaluated on a document and printed as Go
// prints them (fmt's %v, encoding/json), from the parse (parser.test.ts) to the text written.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { formatGoFloat, goJson, parseJsonPath } from '../../../../src/render/jsonpath/jsonpath.ts';
import { KUBECTL_TABLE } from '../../../fixtures/jsonpath/cases.ts';

function doc(file: string): unknown {
  return JSON.parse(readFileSync(new URL(`../../../fixtures/jsonpath/${file}`, import.meta.url), 'utf8'));
}

function run(template: string, data: unknown, allowMissingKeys = true, outputJson = false): string {
  return parseJsonPath(template, { allowMissingKeys, outputJson }).execute(data);
}

describe("jsonpath: kubectl's own test table", () => {
  for (const c of KUBECTL_TABLE) {
    test(`${c.name}: ${c.template}`, () => {
      if (c.error) assert.throws(() => run(c.template, doc(c.file), c.allowMissingKeys), { name: 'JsonPathError' });
      else assert.equal(run(c.template, doc(c.file), c.allowMissingKeys), c.expect);
    });
  }
});

describe('jsonpath: what Go prints', () => {
  const floats: [number, string][] = [
    [1.5, '1.5'],
    [1234567.5, '1.2345675e+06'],
    [123456.25, '123456.25'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [1.5e-7, '1.5e-07'],
    [-2.5, '-2.5'],
    [1e300, '1e+300'],
  ];
  for (const [f, want] of floats) test(`prints the float ${f} as fmt's %v does: ${want}`, () => assert.equal(formatGoFloat(f), want));

  test('prints an int64 as digits, never in exponent form', () => assert.equal(run('{.n}', { n: 1000000 }), '1000000'));
  test('writes objects with sorted keys and <, >, & escaped, as encoding/json does', () =>
    assert.equal(goJson({ b: '<a&b>', a: [1, 'x\u2028'] }), '{"a":[1,"x\\u2028"],"b":"\\u003ca\\u0026b\\u003e"}'));
  test('indents jsonpath-as-json with four spaces, one array per action', () =>
    assert.equal(run('{.a[*]}', { a: [1, { k: 'v' }] }, true, true), '[\n    1,\n    {\n        "k": "v"\n    }\n]\n'));
  test('prints a missing key as nothing when missing keys are allowed', () => assert.equal(run('a{.x.y}b', {}), 'ab'));
  test('refuses a missing key when they are not', () => assert.throws(() => run('{.x}', {}, false), /x is not found/));
  test('refuses to compare an int with a float', () => assert.throws(() => run('{[?(@.v>1.5)]}', [{ v: 2 }]), /incompatible types for comparison/));
  test('compares a float field with a float literal', () => assert.equal(run('{[?(@.v>1.5)].v}', [{ v: 2.5 }, { v: 1.25 }]), '2.5'));
  test('compares strings by UTF-8 bytes, as Go does', () => assert.equal(run('{[?(@.s<"\uff5e")].s}', [{ s: '\u{1f600}' }, { s: 'a' }]), 'a'));
  test('prints a string\'s bytes for a wildcard over it', () => assert.equal(run('{.s.*}', { s: 'hé' }), '104 195 169'));
  test('survives a template of ten thousand actions', () => assert.equal(run('{.a}'.repeat(10_000), { a: 1 }).length, 10_000));
});

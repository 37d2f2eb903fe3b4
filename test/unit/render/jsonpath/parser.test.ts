// src/render/jsonpath/parser.ts: a template parsed into client-go's nodes (util/jsonpath parser.go),
// and the syntax errors it refuses with kubectl's words.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Parser } from '../../../../src/render/jsonpath/parser.ts';
import { JsonPathError } from '../../../../src/render/jsonpath/node.ts';
import type { Node } from '../../../../src/render/jsonpath/node.ts';

function parse(template: string): Node[] {
  const parser = new Parser();
  parser.parse(template);
  return parser.root.nodes;
}

const list = (...nodes: Node[]): Node => ({ kind: 'list', nodes });
const param = (value: number, known: boolean, derived = false) => ({ value, known, derived });

describe('jsonpath parser: syntax errors', () => {
  test("reports a syntax error with kubectl's words", () => assert.throws(() => parse('{.a[?(@.b=="x"}'), { name: 'JsonPathError', message: /unterminated filter/ }));
  test("names an unrecognised character as Go's %#U does", () => assert.throws(() => parse('{#}'), { name: 'JsonPathError', message: /unrecognized character in action: U\+0023 '#'/ }));
});

describe('jsonpath parser: the nodes of a template, as client-go parses it', () => {
  test('plain text around an action; a dotted path is a list of fields', () =>
    assert.deepEqual(parse('hello {.metadata.name}!'), [{ kind: 'text', text: 'hello ' }, list({ kind: 'field', name: 'metadata' }, { kind: 'field', name: 'name' }), { kind: 'text', text: '!' }]));
  test("a bracketed dictionary key is split at its dots, as client-go does: {['a.b']} is .a.b", () =>
    assert.deepEqual(parse("{['a.b']}"), [list({ kind: 'field', name: 'a' }, { kind: 'field', name: 'b' })]));
  test('a slice keeps which of its three numbers were written', () =>
    assert.deepEqual(parse('{.items[1:3]}'), [list({ kind: 'field', name: 'items' }, { kind: 'array', params: [param(1, true), param(3, true), param(0, false)] })]));
  test('a wildcard index, a field wildcard and recursive descent', () =>
    assert.deepEqual(parse('{.a[*].b.*}{..c}'), [
      list({ kind: 'field', name: 'a' }, { kind: 'array', params: [param(0, false), param(0, false), param(0, false)] }, { kind: 'field', name: 'b' }, { kind: 'wildcard' }),
      list({ kind: 'recursive' }, { kind: 'field', name: 'c' }),
    ]));
  test('a filter: both sides parsed as actions, the operator kept as written', () =>
    assert.deepEqual(parse('{[?(@.price<3)]}'), [
      list({ kind: 'filter', left: { kind: 'list', nodes: [{ kind: 'field', name: 'price' }] }, right: { kind: 'list', nodes: [{ kind: 'int', value: 3 }] }, operator: '<' }),
    ]));
  test('range and end are identifiers; a quoted string is text; true and false are bools', () =>
    assert.deepEqual(parse('{range .items}{.name}{"\\t"}{true}{end}'), [
      list({ kind: 'identifier', name: 'range' }, { kind: 'field', name: 'items' }),
      list({ kind: 'field', name: 'name' }),
      list({ kind: 'text', text: '\t' }),
      list({ kind: 'bool', value: true }),
      list({ kind: 'identifier', name: 'end' }),
    ]));
  test('refuses two recursive descents in a row and an unclosed action', () => {
    assert.throws(() => parse('{....a}'), new JsonPathError('invalid multiple recursive descent'));
    assert.throws(() => parse('{.a'), new JsonPathError('unclosed action'));
  });
});

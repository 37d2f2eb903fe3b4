import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { matchesFields, matchesLabels, parseFieldSelector, parseLabelSelector } from '../../../src/core/selectors.ts';

describe('parseLabelSelector and matchesLabels (apimachinery labels.Parse)', () => {
  const labels = { app: 'web', tier: 'front', 'example.com/team': 'a' };
  const cases: [string, string, boolean][] = [
    ['an equality', 'app=web', true],
    ['a double equals', 'app==web', true],
    ['an inequality', 'app!=web', false],
    ['an inequality on an absent key (true, as in Kubernetes)', 'missing!=x', true],
    ['a set', 'tier in (back, front)', true],
    ['a set it is not in', 'tier notin (front)', false],
    ['an existence', 'app', true],
    ['a non-existence', '!app', false],
    ['a prefixed key', 'example.com/team=a', true],
    ['several requirements, all needed', 'app=web,tier=back', false],
    ['a set beside another requirement', 'tier in (x,front),app=web', true],
  ];
  for (const [name, text, want] of cases) {
    test(`reads ${name}: ${text}`, () => {
      const parsed = parseLabelSelector(text);
      assert.ok(parsed.ok, JSON.stringify(parsed));
      assert.equal(matchesLabels(parsed.value, labels), want);
    });
  }
  for (const bad of ['', 'app=we b', '-app=web', 'a=b=c=d e']) {
    test(`refuses ${JSON.stringify(bad)}`, () => assert.equal(parseLabelSelector(bad).ok, false));
  }
});

describe('parseFieldSelector and matchesFields (fields.ParseSelector, the fields Events can be selected by)', () => {
  test('reads =, == and != joined by commas', () => {
    const parsed = parseFieldSelector('reason=Unhealthy,type!=Normal,involvedObject.kind==Pod');
    assert.deepEqual(parsed, {
      ok: true,
      value: [
        { field: 'reason', op: '=', value: 'Unhealthy' },
        { field: 'type', op: '!=', value: 'Normal' },
        { field: 'involvedObject.kind', op: '=', value: 'Pod' },
      ],
    });
    if (parsed.ok) {
      assert.equal(matchesFields(parsed.value, { reason: 'Unhealthy', type: 'Warning', 'involvedObject.kind': 'Pod' }), true);
      assert.equal(matchesFields(parsed.value, { reason: 'Unhealthy', type: 'Normal', 'involvedObject.kind': 'Pod' }), false);
    }
  });
  test('unescapes a comma in a value', () => {
    assert.deepEqual(parseFieldSelector('reason=a\\,b'), { ok: true, value: [{ field: 'reason', op: '=', value: 'a,b' }] });
  });
  test("refuses a field the API server cannot select Events by, in the server's words", () => {
    assert.deepEqual(parseFieldSelector('message=x'), { ok: false, error: 'field label not supported: message' });
  });
  test('refuses a term without an operator', () => {
    assert.equal(parseFieldSelector('reason').ok, false);
  });
});

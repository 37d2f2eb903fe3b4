import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normaliseEvent } from '../../../src/core/event.ts';
import { auditEvents } from '../../../src/core/audit.ts';
import { plainPalette } from '../../../src/render/color.ts';
import type { Palette } from '../../../src/render/color.ts';
import { renderAuditText } from '../../../src/render/audit-text.ts';
import { ev, labEvents } from '../../support/builders.ts';

function render(events: Record<string, unknown>[], palette: Palette = plainPalette): string {
  return renderAuditText(auditEvents(events.map(normaliseEvent)), palette);
}

const CRITICAL_TYPE_BLOCK = [
  '  Critical',
  '    kubectl events --types=Critical -> exit 1, stderr "error: valid --types are Normal or Warning"',
  '    kubectl events --types=Warning -> does not list it',
  '    kubectl get events --field-selector type=Warning -> does not match it (exact match)',
];

test('the lab audit is a golden report at the fixed clock', () => {
  const expected = [
    'Type audit: 4 events checked, 1 finding.',
    '',
    'Unconventional types (not exactly Normal or Warning)',
    '  op-events/build-1-weird about Pipeline/build-1: reason StageUnknown, type Critical, reported by pipeline-operator, count 1',
    '    type is neither Normal nor Warning: kubectl events --types refuses it and Warning-only filters and alerts never show it.',
    '',
    'What kubectl does with these types',
    ...CRITICAL_TYPE_BLOCK,
    '',
  ].join('\n');
  assert.equal(render(labEvents()), expected);
});

test('clean events say nothing was found', () => {
  assert.equal(
    render([ev(), ev({ type: 'Warning', reason: 'BackOff' })]),
    'Type audit: 2 events checked. No unconventional types, unaggregatable reasons or missing object uids found.\n',
  );
});

test('every kind gets its own section, in a fixed order, and each type its kubectl block', () => {
  const text = render([
    ev({ name: 'x', type: 'warning', reason: 'Failed to pull', objectUid: '' }),
    ev({ name: 'y', type: '' }),
    ...labEvents(),
  ]);
  const expected = [
    'Type audit: 6 events checked, 5 findings.',
    '',
    'Unconventional types (not exactly Normal or Warning)',
    '  op-events/build-1-weird about Pipeline/build-1: reason StageUnknown, type Critical, reported by pipeline-operator, count 1',
    '    type is neither Normal nor Warning: kubectl events --types refuses it and Warning-only filters and alerts never show it.',
    '  op-events/x about Pipeline/build-1: reason Failed to pull, type warning, reported by pipeline-operator, count 1',
    '    type differs from Normal or Warning only in case: kubectl matches it, but exact filters (field selectors, alert rules) do not.',
    '  op-events/y about Pipeline/build-1: reason ReconcileStarted, type <none>, reported by pipeline-operator, count 1',
    '    type is empty: no --types value can select it and Warning-only filters skip it.',
    '',
    'Reasons that cannot be aggregated (not a short CamelCase word)',
    '  op-events/x about Pipeline/build-1: reason Failed to pull, type warning, reported by pipeline-operator, count 1',
    '    reason reads like a sentence: every wording becomes its own reason, which defeats aggregation and counting; put details in the message.',
    '',
    'Events not tied to one object (no object uid)',
    '  op-events/x about Pipeline/build-1: reason Failed to pull, type warning, reported by pipeline-operator, count 1',
    '    the object reference has no uid: the story cannot be tied to one incarnation of an object that is deleted and re-created under the same name.',
    '',
    'What kubectl does with these types',
    '  <none> (empty)',
    '    No `kubectl events --types` value selects an empty type: `--types=` is read as no filter at all, and an empty item in a list (`--types=,Normal`) is refused.',
    '    kubectl events --types=Warning -> does not list it',
    '    kubectl get events --field-selector type=Warning -> does not match it (exact match)',
    ...CRITICAL_TYPE_BLOCK,
    '  warning',
    '    kubectl events --types=warning -> exit 0, lists it',
    '    kubectl events --types=Warning -> lists it (kubectl ignores case)',
    '    kubectl get events --field-selector type=Warning -> does not match it (exact match)',
    '',
  ].join('\n');
  assert.equal(text, expected);
});

const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/u;

test('hostile names, reasons, types and reporters come out escaped', () => {
  const text = render([
    ev({ name: 'n\u001b[2J', type: 'T\u202eX', reason: 'r\r\nx', objectName: 'o\u0007', component: 'c\u009b1m' }),
  ]);
  assert.doesNotMatch(text, UNSAFE);
  for (const shown of ['n^[[2J', 'T\\u202eX', 'r\\r\\nx', 'o^G', 'c\\u009b1m', "kubectl events --types='T\\u202eX'"]) {
    assert.ok(text.includes(shown), `missing ${shown}`);
  }
});

test('colour marks the offending type after escaping it', () => {
  const marking: Palette = {
    warning: (s) => `<w>${s}</w>`,
    unconventional: (s) => `<u>${s}</u>`,
    dim: (s) => s,
    bold: (s) => `<b>${s}</b>`,
  };
  const text = render([ev({ name: 'e', type: 'Bad\u001b[0m' })], marking);
  assert.ok(text.includes('type <u>Bad^[[0m</u>'));
  assert.ok(text.includes('<b>Unconventional types (not exactly Normal or Warning)</b>'));
});

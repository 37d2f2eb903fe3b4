import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normaliseEvent } from '../../../src/core/event.ts';
import { auditEvents, describeKubectlTypes } from '../../../src/core/audit.ts';
import { toAuditJson } from '../../../src/render/audit-json.ts';
import { explainFinding } from '../../../src/render/audit-words.ts';
import type { FindingKind } from '../../../src/core/audit.ts';
import { ev, labEvents } from '../../support/builders.ts';
import type { EvOptions } from '../../support/builders.ts';

function kindsFor(o: EvOptions): FindingKind[] {
  return auditEvents([normaliseEvent(ev(o))]).findings.map((f) => f.kind);
}

const typeCases: [string, string, FindingKind[]][] = [
  ['Normal is conventional', 'Normal', []],
  ['Warning is conventional', 'Warning', []],
  ['Critical is unconventional', 'Critical', ['unconventional-type']],
  ['an empty type is unconventional', '', ['unconventional-type']],
  ['warning in lower case is unconventional', 'warning', ['unconventional-type']],
  ['NORMAL in upper case is unconventional', 'NORMAL', ['unconventional-type']],
];

for (const [name, type, expected] of typeCases) {
  test(`type: ${name}`, () => assert.deepEqual(kindsFor({ type }), expected));
}

const reasonCases: [string, string, boolean][] = [
  ['a CamelCase word aggregates', 'ReconcileStarted', true],
  ['digits after the first letter are fine', 'V2Migrated', true],
  ['exactly 128 characters is fine', `A${'a'.repeat(127)}`, true],
  ['129 characters is too long', `A${'a'.repeat(128)}`, false],
  ['a sentence does not aggregate', 'Failed to pull image', false],
  ['a lower-case start does not aggregate', 'reconcileStarted', false],
  ['an underscore does not aggregate', 'Reconcile_Started', false],
  ['an empty reason does not aggregate', '', false],
];

for (const [name, reason, clean] of reasonCases) {
  test(`reason: ${name}`, () => assert.deepEqual(kindsFor({ reason }), clean ? [] : ['unaggregatable-reason']));
}

function explained(reason: string): string {
  const finding = auditEvents([normaliseEvent(ev({ reason }))]).findings.find((f) => f.kind === 'unaggregatable-reason');
  return finding === undefined ? '' : explainFinding(finding);
}

test('a sentence as reason is explained as defeating aggregation and counting', () => {
  assert.match(explained('Failed to pull image'), /defeats aggregation and counting/);
});

test('a long reason is explained with its length', () => {
  assert.match(explained(`A${'a'.repeat(199)}`), /^reason is 200 characters/);
});

test('an object reference without uid is a finding', () => {
  assert.deepEqual(kindsFor({ objectUid: '' }), ['no-object-uid']);
});

test('an event with no object at all is a finding that says so', () => {
  const [finding] = auditEvents([normaliseEvent(ev({ noObject: true }))]).findings;
  assert.equal(finding?.object, '<none>/<none>');
  assert.equal(finding?.cause, 'no-object');
  assert.match(finding === undefined ? '' : explainFinding(finding), /names no object/);
});

test('one event can have all three findings, in kind order', () => {
  assert.deepEqual(kindsFor({ type: 'Critical', reason: 'bad reason', objectUid: '' }), [
    'unconventional-type',
    'unaggregatable-reason',
    'no-object-uid',
  ]);
});

test("the lab's Critical event is the only finding, with every field of -o json", () => {
  const report = toAuditJson(auditEvents(labEvents().map(normaliseEvent)));
  assert.equal(report.checked, 4);
  assert.equal(report.hasFindings, true);
  assert.deepEqual(report.findings, [
    {
      kind: 'unconventional-type',
      event: 'op-events/build-1-weird',
      object: 'Pipeline/build-1',
      reason: 'StageUnknown',
      type: 'Critical',
      reporter: 'pipeline-operator',
      count: 1,
      explanation:
        'type is neither Normal nor Warning: kubectl events --types refuses it and Warning-only filters and alerts never show it.',
    },
  ]);
  assert.deepEqual(
    report.types.map((t) => t.type),
    ['Critical'],
  );
});

test('clean events have no findings', () => {
  const report = auditEvents([ev(), ev({ type: 'Warning', reason: 'BackOff' })].map(normaliseEvent));
  assert.deepEqual([report.hasFindings, report.findings, report.types], [false, [], []]);
});

test('each offending type is described once, in byte order', () => {
  const events = [ev({ type: 'warning' }), ev({ type: 'Critical' }), ev({ type: 'Critical' }), ev({ type: '' })];
  assert.deepEqual(
    auditEvents(events.map(normaliseEvent)).types.map((t) => t.type),
    ['', 'Critical', 'warning'],
  );
});

test('an event listed twice is audited once', () => {
  const weird = normaliseEvent(ev({ type: 'Critical' }));
  assert.equal(auditEvents([weird, weird]).findings.length, 1);
});

test('the report survives a JSON round trip unchanged', () => {
  const report = auditEvents(labEvents().map(normaliseEvent));
  assert.deepEqual(JSON.parse(JSON.stringify(report)), report);
});

// k8s.io/kubectl/pkg/cmd/events/events.go: Validate uses strings.EqualFold against Normal and Warning;
// the filter uses EqualFold too; pflag reads `--types=` as an empty list (no filter).
const kubectlCases: [string, string, string | null, string, number | null, boolean, boolean][] = [
  // name, type, command, typesFlag, exit, shown by --types=Warning, shown by exact Warning
  ['Critical is refused', 'Critical', 'kubectl events --types=Critical', 'refused', 1, false, false],
  ['Warning is accepted', 'Warning', 'kubectl events --types=Warning', 'accepted', 0, true, true],
  ['Normal is accepted and not a warning', 'Normal', 'kubectl events --types=Normal', 'accepted', 0, false, false],
  ['lower-case warning is accepted and listed as a warning', 'warning', 'kubectl events --types=warning', 'accepted', 0, true, false],
  ['NORMAL is accepted', 'NORMAL', 'kubectl events --types=NORMAL', 'accepted', 0, false, false],
  ['an empty type cannot be asked for', '', null, 'not-expressible', null, false, false],
  ['a list with one bad value is refused', 'Normal,Critical', 'kubectl events --types=Normal,Critical', 'refused', 1, false, false],
  ['a type holding a valid list cannot be asked for as one value', 'Normal,Warning', null, 'not-expressible', null, false, false],
  ['a type with a space is quoted for the shell', 'Very Bad', "kubectl events --types='Very Bad'", 'refused', 1, false, false],
];

for (const [name, type, command, typesFlag, exitCode, typesWarning, exactWarning] of kubectlCases) {
  test(`kubectl --types: ${name}`, () => {
    const b = describeKubectlTypes(type);
    assert.deepEqual(
      [b.command, b.typesFlag, b.exitCode, b.shownByTypesWarning, b.shownByExactWarning],
      [command, typesFlag, exitCode, typesWarning, exactWarning],
    );
  });
}

test('a refused type carries kubectl stderr verbatim', () => {
  assert.equal(describeKubectlTypes('Critical').stderr, 'error: valid --types are Normal or Warning');
  assert.equal(describeKubectlTypes('Warning').stderr, null);
});

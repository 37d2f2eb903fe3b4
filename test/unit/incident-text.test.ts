import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normaliseEvent } from '../../src/core/event.ts';
import { buildIncident, parseStableTable } from '../../src/core/incident.ts';
import type { IncidentContext } from '../../src/core/incident.ts';
import { stableLines } from '../../src/core/timeline.ts';
import { plainPalette } from '../../src/render/color.ts';
import type { Palette } from '../../src/render/color.ts';
import { renderIncidentText } from '../../src/render/incident-text.ts';
import { ev, labEvents, NOW } from '../support/builders.ts';

const CLUSTER: IncidentContext = { now: NOW, namespace: 'op-events', eventTTLms: 3_600_000, source: 'cluster' };

function labText(): string {
  return renderIncidentText(buildIncident(labEvents().map(normaliseEvent), CLUSTER), plainPalette);
}

const UNCONVENTIONAL_BLOCK = [
  'Unconventional types (neither Normal nor Warning)',
  '  Critical: 1 event (StageUnknown on Pipeline/build-1).',
  '    `kubectl events --types=Critical` is refused: "error: valid --types are Normal or Warning", exit 1.',
  '    Missed by: kubectl events --types=Warning; kubectl get events --field-selector type=Warning; alerts and dashboards that match Warning exactly.',
  "    It came from a writer that bypassed client-go's event recorders (kubectl apply, a raw API call, another client): those recorders drop every type but Normal and Warning before sending.",
];

test('the lab reads as a golden account at the fixed clock', () => {
  const expected = [
    'Incident in namespace op-events, read from the cluster at 2026-11-30T12:00:00Z',
    '  4 events about 2 objects.',
    '  1 Warning: FailedScheduling on Pod/hungry.',
    '  1 event has a type other than Normal or Warning, which most tools never show: Critical (StageUnknown on Pipeline/build-1).',
    '  1 event repeated: ReconcileStarted on Pipeline/build-1 x5 over 117s.',
    '',
    'What happened, object by object (oldest first)',
    '',
    'Pipeline/build-1 (uid 11111111-2222-3333-4444-555555555555)',
    '  2m ago, pipeline-operator reported ReconcileStarted (Normal), 5 times over 117s, last 3s ago:',
    '    "Started reconciling Pipeline build-1."',
    '  90s ago, pipeline-operator reported StageUnknown (type Critical, unconventional), once:',
    '    "Stage of build-1 is not known."',
    '  60s ago, pipeline-operator reported ReconcileSucceeded (Normal), once:',
    '    "Pipeline build-1 reconciled."',
    '',
    'Pod/hungry (uid 99999999-8888-7777-6666-555555555555)',
    '  45s ago, default-scheduler reported FailedScheduling (Warning), once:',
    '    "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."',
    '',
    'Who reported what',
    '  default-scheduler: FailedScheduling',
    '  pipeline-operator: ReconcileStarted, ReconcileSucceeded, StageUnknown',
    '',
    ...UNCONVENTIONAL_BLOCK,
    '',
    'What these events cannot tell you',
    '  - They cover 117s: from 2026-11-30T11:58:00Z (2m ago) to 2026-11-30T11:59:57Z (3s ago).',
    '  - The API server keeps an event for 1h after it was last written (kube-apiserver --event-ttl; the default is 1h): whatever was not written since 2026-11-30T11:00:00Z is gone, so the story may begin earlier than it seems.',
    '  - Events are not an audit log: what must last belongs in status conditions or an external store.',
    '',
  ].join('\n');
  assert.equal(labText(), expected);
});

const labNeedles = [
  'FailedScheduling',
  'ReconcileStarted',
  'ReconcileSucceeded',
  'StageUnknown',
  'default-scheduler',
  'pipeline-operator',
  'Critical',
  'x5',
  'event-ttl',
  '0/1 nodes are available: 1 Insufficient cpu.',
];

for (const needle of labNeedles) {
  test(`the lab account names ${needle}`, () => assert.ok(labText().includes(needle)));
}

test('the warnings line comes before the unconventional and repeat lines', () => {
  const text = labText();
  assert.ok(text.indexOf('1 Warning:') < text.indexOf('type other than Normal'));
  assert.ok(text.indexOf('type other than Normal') < text.indexOf('repeated:'));
});

test('from a stable table the account says less and says why', () => {
  const table = stableLines(labEvents().map(normaliseEvent)).join('\n');
  const incident = buildIncident(parseStableTable(table), { ...CLUSTER, source: 'stable-table' });
  const expected = [
    'Incident in namespace op-events, rebuilt from a saved stable table',
    '  4 events about 2 objects.',
    '  1 Warning: FailedScheduling on Pod/hungry.',
    '  1 event has a type other than Normal or Warning, which most tools never show: Critical (StageUnknown on Pipeline/build-1).',
    '  The table carries no counts, so repeats cannot be told.',
    '',
    'What happened, object by object (in table order: the table carries no times)',
    '',
    'Pipeline/build-1',
    '  StageUnknown (type Critical, unconventional)',
    '  ReconcileStarted (Normal)',
    '  ReconcileSucceeded (Normal)',
    '',
    'Pod/hungry',
    '  FailedScheduling (Warning)',
    '',
    'Who reported what',
    '  The table carries no reporters: it cannot say who reported what.',
    '',
    ...UNCONVENTIONAL_BLOCK,
    '',
    'What these events cannot tell you',
    '  - The table carries no times, counts, reporters or messages: not when things happened, how often, who said so or what they said.',
    '  - The API server keeps an event for 1h after it was last written (kube-apiserver --event-ttl; the default is 1h): the table holds only what was still there when it was taken.',
    '  - Events are not an audit log: what must last belongs in status conditions or an external store.',
    '',
  ].join('\n');
  assert.equal(renderIncidentText(incident, plainPalette), expected);
});

test('an empty namespace says there are no events and what that does not mean', () => {
  const expected = [
    'Incident in namespace op-events, read from the cluster at 2026-11-30T12:00:00Z',
    '  No events.',
    '',
    'What these events cannot tell you',
    '  - No events were found; that does not mean nothing happened.',
    '  - The API server keeps an event for 1h after it was last written (kube-apiserver --event-ttl; the default is 1h): whatever was not written since 2026-11-30T11:00:00Z is gone, so the story may begin earlier than it seems.',
    '  - Events are not an audit log: what must last belongs in status conditions or an external store.',
    '',
  ].join('\n');
  assert.equal(renderIncidentText(buildIncident([], CLUSTER), plainPalette), expected);
});

test('all namespaces, a saved file and a custom TTL are worded as such', () => {
  const incident = buildIncident([normaliseEvent(ev())], { ...CLUSTER, namespace: null, source: 'file', eventTTLms: 7_200_000 });
  const text = renderIncidentText(incident, plainPalette);
  assert.match(text, /^Incident across all namespaces, read from a saved file\n/);
  assert.match(text, /keeps an event for 2h after .*: a saved file holds only what was still there when it was saved\./);
});

// Control characters, C1 controls and bidi/zero-width marks must never reach the terminal raw.
const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/u;
const BIG = `start ${'x'.repeat(10_240)} end`;

function hostileText(): string {
  const events = [
    ev({
      reason: 'Evil\u001b[2J',
      type: 'Crit\u001b]0;pwned\u0007',
      message: `line one\rOVERWRITE\u202eevil\u001b[31m red`,
      objectName: 'build\u001b[1m-1',
      component: 'op\u009b31m',
    }),
    ev({ type: 'Warning', reason: 'Big', message: BIG, count: 3, first: 300, last: 10 }),
  ];
  return renderIncidentText(buildIncident(events.map(normaliseEvent), CLUSTER), plainPalette);
}

test('hostile event text comes out with no raw control or bidi characters', () => {
  assert.doesNotMatch(hostileText(), UNSAFE);
});

test('hostile event text is shown escaped, not dropped', () => {
  const text = hostileText();
  for (const shown of ['Evil^[[2J', 'Crit^[]0;pwned^G', 'line one\\rOVERWRITE\\u202eevil^[[31m red', 'build^[[1m-1', 'op\\u009b31m']) {
    assert.ok(text.includes(shown), `missing ${shown}`);
  }
});

test('a 10 kB message is quoted in full', () => {
  assert.ok(hostileText().includes(`"${BIG}"`));
});

const marking: Palette = {
  warning: (s) => `<w>${s}</w>`,
  unconventional: (s) => `<u>${s}</u>`,
  dim: (s) => `<d>${s}</d>`,
  bold: (s) => `<b>${s}</b>`,
};

test('colour marks warnings and unconventional types, and paints escaped text only', () => {
  const lab = renderIncidentText(buildIncident(labEvents().map(normaliseEvent), CLUSTER), marking);
  assert.ok(lab.includes('FailedScheduling (<w>Warning</w>)'));
  assert.ok(lab.includes('StageUnknown (type <u>Critical</u>, unconventional)'));
  assert.ok(lab.includes('<b>Pod/hungry</b><d> (uid 99999999-8888-7777-6666-555555555555)</d>'));
  const hostile = renderIncidentText(buildIncident([normaliseEvent(ev({ type: 'Bad\u001b[0m' }))], CLUSTER), marking);
  assert.ok(hostile.includes('<u>Bad^[[0m</u>'));
});

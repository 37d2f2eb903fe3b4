import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normaliseEvent } from '../../../src/core/event.ts';
import type { Event } from '../../../src/core/event.ts';
import { objectKey } from '../../../src/core/identity.ts';
import type { ObjectLookup } from '../../../src/core/incarnation.ts';
import { buildIncident } from '../../../src/core/incident.ts';
import type { IncidentContext } from '../../../src/core/incident.ts';
import { parseStableTable } from '../../../src/core/stable-table.ts';
import { stableLines } from '../../../src/core/timeline.ts';
import { plainPalette } from '../../../src/render/color.ts';
import type { Palette } from '../../../src/render/color.ts';
import { renderIncidentText } from '../../../src/render/incident-text.ts';
import { ev, labEvents, NOW } from '../../support/builders.ts';
import { fromCapture, fromCluster, fromList, fromRecord, fromStableTable } from '../../support/sources.ts';

const CLUSTER: IncidentContext = { now: NOW, provenance: fromCluster(), eventTTLms: 3_600_000 };

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

/** The end of the lab's account at NOW: reporters, the unconventional type, and the limits. */
const LAB_TAIL = [
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
];

// The scheduler's words are the cause: told from the event alone, no status read.
const LAB_WHY = ['Why', '  Pod/hungry: cannot be scheduled: 0/1 nodes are available: 1 Insufficient cpu.', '      from 1 event: hungry.18a1b2c3d4e5f607', ''];

test('the lab reads as a golden account at the fixed clock', () => {
  const expected = [
    'Incident in namespace op-events, read from the cluster at 2026-11-30T12:00:00Z',
    '  4 events about 2 objects.',
    '  1 Warning: FailedScheduling on Pod/hungry.',
    '  1 event has a type other than Normal or Warning, which most tools never show: Critical (StageUnknown on Pipeline/build-1).',
    '  1 event repeated: ReconcileStarted on the same Pipeline, 5 times in 117s (first 2m ago, last 3s ago).',
    '',
    ...LAB_WHY,
    'What happened, object by object (oldest first)',
    '',
    'Pipeline/build-1 (uid 11111111-2222-3333-4444-555555555555)',
    '  First 2m ago, pipeline-operator reported ReconcileStarted (Normal), 5 times in 117s, last 3s ago:',
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
    ...LAB_TAIL,
  ].join('\n');
  assert.equal(labText(), expected);
});

// kubectl's `(x5 over 2m)` gives the age of the first occurrence; the account gives the span the
// repeats fill, so it words it differently (a reader who knows kubectl would misread "over").
test('repeats are told as a span between a first and a last time, never "over"', () => {
  const events = [
    ev({ name: 'a', reason: 'Synced', count: 5, first: 126, last: 0 }),
    ev({ name: 'b', reason: 'Burst', count: 2, first: 7, last: 7 }),
    ev({ name: 'c', reason: 'Skewed', count: 3, first: 10, last: 300 }),
  ].map(normaliseEvent);
  const text = renderIncidentText(buildIncident(events, CLUSTER), plainPalette);
  const has = (needle: string) => assert.ok(text.includes(needle), `missing ${JSON.stringify(needle)} in\n${text}`);
  has(
    '  3 events repeated: Synced on Pipeline/build-1, 5 times in 2m6s (first 2m6s ago, last 0s ago); Skewed on the same Pipeline, 3 times (first 10s ago, last 5m ago); Burst on the same Pipeline, 2 times within a second (7s ago).\n',
  );
  has('  First 2m6s ago, pipeline-operator reported Synced (Normal), 5 times in 2m6s, last 0s ago:\n');
  has('  First 7s ago, pipeline-operator reported Burst (Normal), 2 times within a second, last 7s ago:\n');
  assert.doesNotMatch(text, / over /);
});

const labNeedles = [
  'FailedScheduling',
  'ReconcileStarted',
  'ReconcileSucceeded',
  'StageUnknown',
  'default-scheduler',
  'pipeline-operator',
  'Critical',
  '5 times in 117s',
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
  const incident = buildIncident(parseStableTable(table), { ...CLUSTER, provenance: fromStableTable({ namespace: 'op-events' }) });
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
  const incident = buildIncident([normaliseEvent(ev())], { ...CLUSTER, provenance: fromList({ namespace: null }), eventTTLms: 7_200_000 });
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

// -- Incarnations and the comparison with a saved file

const RECREATED = 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee';

function restartedLab(): Event[] {
  return [...labEvents(), ev({ name: 'build-1-restarted', objectUid: RECREATED, first: 20 })].map(normaliseEvent);
}

/** build-1 exists again with a new uid; Pod hungry is gone. */
function lookupsFor(events: Event[]): Map<string, ObjectLookup> {
  const lookups = new Map<string, ObjectLookup>();
  for (const e of events) {
    if (e.object.kind === 'Pipeline') lookups.set(objectKey(e.object), { state: 'exists', uid: RECREATED, creationTimestamp: '2026-11-30T11:59:30Z' });
    if (e.object.kind === 'Pod') lookups.set(objectKey(e.object), { state: 'gone' });
  }
  return lookups;
}

test('a re-created Pipeline and a deleted Pod read as a golden account at the fixed clock', () => {
  const events = restartedLab();
  const text = renderIncidentText(buildIncident(events, { ...CLUSTER, live: { lookups: lookupsFor(events) } }), plainPalette);
  const expected = [
    'Incident in namespace op-events, read from the cluster at 2026-11-30T12:00:00Z',
    '  5 events about 3 objects.',
    '  1 Warning: FailedScheduling on Pod/hungry.',
    '  1 event has a type other than Normal or Warning, which most tools never show: Critical (StageUnknown on Pipeline/build-1).',
    '  1 event repeated: ReconcileStarted on the same Pipeline, 5 times in 117s (first 2m ago, last 3s ago).',
    `  Pipeline/build-1 was re-created at 2026-11-30T11:59:30Z (uid 11111111-2222-3333-4444-555555555555 -> uid ${RECREATED}); 3 events are about the previous build-1 and 1 about the current one.`,
    '  Pod/hungry (uid 99999999-8888-7777-6666-555555555555) no longer exists; 1 event is about it.',
    '',
    ...LAB_WHY,
    'What happened, object by object (oldest first)',
    '',
    'Pipeline/build-1 (uid 11111111-2222-3333-4444-555555555555, a previous incarnation)',
    '  First 2m ago, pipeline-operator reported ReconcileStarted (Normal), 5 times in 117s, last 3s ago:',
    '    "Started reconciling Pipeline build-1."',
    '  90s ago, pipeline-operator reported StageUnknown (type Critical, unconventional), once:',
    '    "Stage of build-1 is not known."',
    '  60s ago, pipeline-operator reported ReconcileSucceeded (Normal), once:',
    '    "Pipeline build-1 reconciled."',
    '',
    'Pod/hungry (uid 99999999-8888-7777-6666-555555555555, no longer exists)',
    '  45s ago, default-scheduler reported FailedScheduling (Warning), once:',
    '    "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."',
    '',
    `Pipeline/build-1 (uid ${RECREATED}, the current incarnation)`,
    '  20s ago, pipeline-operator reported ReconcileStarted (Normal), once:',
    '    "Started reconciling."',
    '',
    ...LAB_TAIL,
  ].join('\n');
  assert.equal(text, expected);
});

test('a record compared with the cluster says what only it holds, how much, and the time it covers', () => {
  const events = labEvents().map(normaliseEvent);
  const liveUids = new Set(events.filter((e) => e.name !== 'build-1-weird').map((e) => e.uid));
  const provenance = fromRecord({ firstObserved: NOW - 3 * 3_600_000, lastObserved: NOW - 3_600_000 });
  const text = renderIncidentText(buildIncident(events, { ...CLUSTER, provenance, live: { liveUids, liveEvents: [] } }), plainPalette);
  const has = (needle: string) => assert.ok(text.includes(needle), `missing ${JSON.stringify(needle)} in\n${text}`);
  has('Incident in namespace op-events, read from a record, compared with the cluster at 2026-11-30T12:00:00Z\n');
  has('  1 of 4 events in the record (25%) is no longer on the server (expired after --event-ttl or deleted).\n');
  has('  90s ago, pipeline-operator reported StageUnknown (type Critical, unconventional), once, no longer on the server:\n');
  has('Only in the record (no longer on the server)\n  StageUnknown on Pipeline/build-1 (event build-1-weird, Critical), last seen 2026-11-30T11:58:30Z (90s ago)\n\n');
  has("  - The recorder watched from 2026-11-30T09:00:00Z (3h ago) to 2026-11-30T11:00:00Z (60m ago): the record's first and last observation.\n");
  has('  - Its events cover 117s: from 2026-11-30T11:58:00Z (2m ago) to 2026-11-30T11:59:57Z (3s ago).\n');
  has('a record keeps every version its recorder saw, including events the server has since expired');
  assert.doesNotMatch(text, /not in the record/);
});

test('a record without --compare states its window and claims nothing about the server', () => {
  const provenance = fromRecord({ firstObserved: NOW - 600_000, lastObserved: NOW - 60_000 });
  const text = renderIncidentText(buildIncident(labEvents().map(normaliseEvent), { ...CLUSTER, provenance }), plainPalette);
  assert.match(text, /^Incident in namespace op-events, read from a record\n/);
  assert.match(text, /The recorder watched from 2026-11-30T11:50:00Z \(10m ago\) to 2026-11-30T11:59:00Z \(60s ago\)/);
  assert.doesNotMatch(text, /on the server/);
});

test('a capture names when it was taken', () => {
  const provenance = fromCapture({ capturedAt: NOW - 60_000 });
  const text = renderIncidentText(buildIncident(labEvents().map(normaliseEvent), { ...CLUSTER, provenance }), plainPalette);
  assert.match(text, /^Incident in namespace op-events, read from a capture taken at 2026-11-30T11:59:00Z\n/);
  assert.match(text, /  - The capture was taken at 2026-11-30T11:59:00Z \(60s ago\)\.\n  - Its events cover /);
});

// Issue 28, L8: read from the saved file itself, the ages count from its capture time: no "(0s ago)".
test('a capture read on its own: its time without an age, saying the ages count from then', () => {
  const provenance = fromCapture({ capturedAt: NOW - 60_000 });
  const text = renderIncidentText(buildIncident(labEvents().map(normaliseEvent), { ...CLUSTER, now: NOW - 60_000, provenance }), plainPalette);
  assert.match(text, /  - The capture was taken at 2026-11-30T11:59:00Z; the ages here count from then\.\n/);
  assert.doesNotMatch(text, /\(0s ago\)/);
});

// Issue 28, L8: a time ahead of the account's moment (anyone may write lastTimestamp: 3000-01-01) is no `<invalid> ago`.
test('an event dated in the future is said to be, in the headline and the story', () => {
  const future = normaliseEvent({ ...ev({ reason: 'Ahead', component: 'adv', count: 2, first: 60 }), lastTimestamp: '3000-01-01T00:00:00Z' });
  const text = renderIncidentText(buildIncident([future], CLUSTER), plainPalette);
  assert.doesNotMatch(text, /<invalid>/);
  assert.match(text, /at 3000-01-01T00:00:00Z, in the future/);
  assert.match(text, /3000-01-01T00:00:00Z \(in the future\)/);
});

test('many deleted objects share one headline line; objects that could not be checked are named under the limits', () => {
  const pods = Array.from({ length: 7 }, (_, i) =>
    normaliseEvent(ev({ kind: 'Pod', apiVersion: 'v1', objectName: `web-${i}`, objectUid: `uid-${i}`, first: 100 - i })),
  );
  const widget = normaliseEvent(ev({ kind: 'Widget', apiVersion: 'example.com/v1', objectName: 'w', objectUid: 'w' }));
  const lookups = new Map<string, ObjectLookup>([
    ...pods.map((p): [string, ObjectLookup] => [objectKey(p.object), { state: 'gone' }]),
    [objectKey(widget.object), { state: 'unknown', why: { reason: 'not-served', apiVersion: 'example.com/v1' } }],
  ]);
  const text = renderIncidentText(buildIncident([...pods, widget], { ...CLUSTER, live: { lookups } }), plainPalette);
  assert.ok(text.includes('  7 objects no longer exist: Pod/web-0, Pod/web-1, Pod/web-2, Pod/web-3, Pod/web-4, and 2 more; 7 events are about them.\n'), text);
  assert.ok(text.includes('  - Whether this object still exists or was re-created is unknown: Widget/w (example.com/v1 is no longer served).\n'));
});

test('hostile names, uids and reasons from lookups come out escaped in the incarnation lines', () => {
  const nasty = 'x\u001b[2J\u202e';
  const gone = normaliseEvent(ev({ kind: `Pod${nasty}`, apiVersion: 'v1', objectName: nasty, objectUid: nasty }));
  const odd = normaliseEvent(ev({ kind: 'Widget', apiVersion: 'example.com/v1', objectName: 'w', objectUid: 'w' }));
  const recreated = normaliseEvent(ev({ objectName: nasty }));
  const lookups = new Map<string, ObjectLookup>([
    [objectKey(gone.object), { state: 'gone' }],
    [objectKey(odd.object), { state: 'unknown', why: { reason: 'failed', step: 'get', target: 'widgets', detail: nasty } }],
    [objectKey(recreated.object), { state: 'exists', uid: nasty, creationTimestamp: nasty }],
  ]);
  const text = renderIncidentText(buildIncident([gone, odd, recreated], { ...CLUSTER, live: { lookups } }), plainPalette);
  assert.doesNotMatch(text, UNSAFE);
  assert.ok(text.includes('x^[[2J\\u202e'));
});

test('a 1 MB message is quoted to its first 16384 characters, saying how many it has', () => {
  const huge = `${'é'.repeat(16384)}${'x'.repeat(1024 * 1024)}`;
  const text = renderIncidentText(buildIncident([normaliseEvent(ev({ type: 'Warning', reason: 'BackOff', message: huge }))], CLUSTER), plainPalette);
  const quoted = text.split('\n').find((line) => line.startsWith('    "')) ?? '';
  assert.equal(quoted, `    "${'é'.repeat(16384)}..." (the first 16384 of ${16384 + 1024 * 1024} characters; -o json holds them all)`);
  assert.ok(text.length < 30_000);
});

test('a message of 16384 characters is quoted whole', () => {
  const text = renderIncidentText(buildIncident([normaliseEvent(ev({ type: 'Warning', reason: 'BackOff', message: 'y'.repeat(16384) }))], CLUSTER), plainPalette);
  assert.ok(text.includes(`    "${'y'.repeat(16384)}"\n`));
});

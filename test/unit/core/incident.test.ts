import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normaliseEvent } from '../../../src/core/event.ts';
import type { Event } from '../../../src/core/event.ts';
import { buildIncident as buildDomain } from '../../../src/core/incident.ts';
import { toIncidentJson } from '../../../src/render/incident-json.ts';
import type { IncidentContext } from '../../../src/core/incident.ts';
import { parseStableTable } from '../../../src/core/stable-table.ts';
import { objectKey } from '../../../src/core/identity.ts';
import type { ObjectLookup } from '../../../src/core/incarnation.ts';
import { stableLines } from '../../../src/core/timeline.ts';
import { ev, labEvents, newEv, NOW } from '../../support/builders.ts';
import { fromCluster, fromRecord, fromStableTable } from '../../support/sources.ts';

const HOUR = 3_600_000;
const CLUSTER: IncidentContext = { now: NOW, provenance: fromCluster(), eventTTLms: HOUR };
const TABLE: IncidentContext = { ...CLUSTER, provenance: fromStableTable({ namespace: 'op-events' }) };

/** The account as `incident -o json` prints it: the domain value mapped to its wire shape. */
function buildIncident(events: Event[], ctx: IncidentContext) {
  return toIncidentJson(buildDomain(events, ctx));
}

function lab(): Event[] {
  return labEvents().map(normaliseEvent);
}

test('the lab headline counts warnings, unconventional types and repeats', () => {
  assert.deepEqual(buildIncident(lab(), CLUSTER).headline, {
    events: 4,
    objects: 2,
    warnings: 1,
    unconventional: 1,
    repeats: 1,
    occurrences: 8,
  });
});

test('objects come in time order and each object tells its reports in time order', () => {
  const incident = buildIncident(lab(), CLUSTER);
  assert.deepEqual(
    incident.objects.map((o) => [`${o.kind}/${o.name}`, o.uid, o.reports.map((r) => r.reason)]),
    [
      ['Pipeline/build-1', '11111111-2222-3333-4444-555555555555', ['ReconcileStarted', 'StageUnknown', 'ReconcileSucceeded']],
      ['Pod/hungry', '99999999-8888-7777-6666-555555555555', ['FailedScheduling']],
    ],
  );
});

test("the scheduler's report keeps who, how often, when and the message in full", () => {
  const pod = buildIncident(lab(), CLUSTER).objects[1];
  assert.deepEqual(pod?.reports[0], {
    event: 'hungry.18a1b2c3d4e5f607',
    reporter: 'default-scheduler',
    reason: 'FailedScheduling',
    type: 'Warning',
    conventionalType: true,
    count: 1,
    firstSeen: '2026-11-30T11:59:15.000Z',
    lastSeen: '2026-11-30T11:59:15.000Z',
    spanMs: 0,
    message:
      '0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.',
    decisive: true,
  });
});

test('normal reports are not decisive; warnings and unconventional types are', () => {
  const reports = buildIncident(lab(), CLUSTER).objects.flatMap((o) => o.reports);
  assert.deepEqual(
    reports.map((r) => [r.reason, r.decisive]),
    [
      ['ReconcileStarted', false],
      ['StageUnknown', true],
      ['ReconcileSucceeded', false],
      ['FailedScheduling', true],
    ],
  );
});

test('reporters list their distinct reasons in byte order', () => {
  assert.deepEqual(buildIncident(lab(), CLUSTER).reporters, [
    { reporter: 'default-scheduler', reasons: ['FailedScheduling'] },
    { reporter: 'pipeline-operator', reasons: ['ReconcileStarted', 'ReconcileSucceeded', 'StageUnknown'] },
  ]);
});

test('the Critical type is called out with what kubectl and Warning filters do with it', () => {
  const [critical, ...rest] = buildIncident(lab(), CLUSTER).unconventionalTypes;
  assert.equal(rest.length, 0);
  assert.equal(critical?.type, 'Critical');
  assert.deepEqual(critical?.events, [{ event: 'build-1-weird', object: 'Pipeline/build-1', reason: 'StageUnknown' }]);
  assert.equal(critical?.kubectl.command, 'kubectl events --types=Critical');
  assert.equal(critical?.kubectl.exitCode, 1);
  assert.equal(critical?.kubectl.stderr, 'error: valid --types are Normal or Warning');
  assert.deepEqual(critical?.missedBy, [
    'kubectl events --types=Warning',
    'kubectl get events --field-selector type=Warning',
    'alerts and dashboards that match Warning exactly',
  ]);
  assert.match(critical?.origin ?? '', /bypassed client-go's event recorders/);
});

test('a lower-case warning is listed by kubectl --types=Warning but missed by exact filters', () => {
  const incident = buildIncident([normaliseEvent(ev({ type: 'warning' }))], CLUSTER);
  assert.deepEqual(incident.unconventionalTypes[0]?.missedBy, [
    'kubectl get events --field-selector type=Warning',
    'alerts and dashboards that match Warning exactly',
  ]);
});

test('a repeat is noted with its count and the span it covers', () => {
  assert.deepEqual(buildIncident(lab(), CLUSTER).repeats, [
    {
      event: 'build-1-started',
      object: 'Pipeline/build-1',
      reason: 'ReconcileStarted',
      count: 5,
      firstSeen: '2026-11-30T11:58:00.000Z',
      lastSeen: '2026-11-30T11:59:57.000Z',
      spanMs: 117_000,
    },
  ]);
});

test('the limits give the window the events cover and the TTL horizon', () => {
  assert.deepEqual(buildIncident(lab(), CLUSTER).limits, {
    windowStart: '2026-11-30T11:58:00.000Z',
    windowEnd: '2026-11-30T11:59:57.000Z',
    windowMs: 117_000,
    eventTTLms: HOUR,
    ttlHorizon: '2026-11-30T11:00:00.000Z',
  });
});

test('the incident survives a JSON round trip unchanged', () => {
  for (const incident of [buildIncident(lab(), CLUSTER), buildIncident(parseStableTable('Normal A Pod/x\n'), TABLE)]) {
    assert.deepEqual(JSON.parse(JSON.stringify(incident)), incident);
  }
});

test('an event listed through both APIs counts once', () => {
  const events = lab();
  assert.equal(buildIncident([...events, ...events], CLUSTER).headline.events, 4);
});

test('an object re-created under the same name tells two stories', () => {
  const events = [ev({ objectUid: 'old', first: 300 }), ev({ objectUid: 'new', first: 30 })].map(normaliseEvent);
  assert.deepEqual(
    buildIncident(events, CLUSTER).objects.map((o) => o.uid),
    ['old', 'new'],
  );
});

test('no events give an empty account with an unknown window', () => {
  const incident = buildIncident([], { ...CLUSTER, provenance: fromCluster({ namespace: null }) });
  assert.equal(incident.namespace, null);
  assert.deepEqual(incident.headline, { events: 0, objects: 0, warnings: 0, unconventional: 0, repeats: 0, occurrences: 0 });
  assert.deepEqual([incident.limits.windowStart, incident.limits.windowEnd, incident.limits.windowMs], [null, null, null]);
});

test('a series-style event counts its series and spans to its last observation', () => {
  const events = [normaliseEvent(newEv({ seriesCount: 3, first: 600, seriesLast: 60 }))];
  const [repeat] = buildIncident(events, CLUSTER).repeats;
  assert.deepEqual([repeat?.count, repeat?.spanMs], [3, 540_000]);
});

test('from a stable table the account invents no reporters, counts, times or messages', () => {
  const table = stableLines(lab()).join('\n');
  const incident = buildIncident(parseStableTable(table), TABLE);
  assert.deepEqual(incident.carries, { times: false, counts: false, reporters: false, messages: false, uids: false });
  assert.deepEqual(incident.headline, { events: 4, objects: 2, warnings: 1, unconventional: 1, repeats: null, occurrences: null });
  assert.deepEqual(incident.reporters, []);
  assert.deepEqual(incident.repeats, []);
  assert.equal(incident.limits.windowStart, null);
  for (const r of incident.objects.flatMap((o) => o.reports)) {
    assert.deepEqual([r.reporter, r.count, r.firstSeen, r.lastSeen, r.spanMs, r.message], [null, null, null, null, null, null]);
  }
  assert.deepEqual(incident.objects.map((o) => o.uid), [null, null]);
});

test('a stable table keeps its own order within an object', () => {
  const incident = buildIncident(parseStableTable('Normal B Pod/x\nNormal A Pod/x\nWarning C Pod/y\n'), TABLE);
  assert.deepEqual(
    incident.objects.map((o) => [o.name, o.reports.map((r) => r.reason)]),
    [
      ['x', ['B', 'A']],
      ['y', ['C']],
    ],
  );
});

const parseCases: [string, string, [string, string, string, string][]][] = [
  ['a well-formed line is read field by field', 'Warning FailedScheduling Pod/hungry', [['Warning', 'FailedScheduling', 'Pod', 'hungry']]],
  ['trailing spaces and tabs are ignored', 'Normal Started Pod/a  \t', [['Normal', 'Started', 'Pod', 'a']]],
  ['blank lines are skipped', '\n\nNormal Started Pod/a\n\n', [['Normal', 'Started', 'Pod', 'a']]],
  ['CRLF line ends are read', 'Normal A Pod/a\r\nNormal B Pod/b\r\n', [['Normal', 'A', 'Pod', 'a'], ['Normal', 'B', 'Pod', 'b']]],
  ['a lone <none> is an empty table', '<none>\n', []],
  ['<none> fields are empty', '<none> <none> <none>/<none>', [['', '', '', '']]],
  ['a reason that is a sentence keeps its words', 'Normal Failed to pull image Pod/a', [['Normal', 'Failed to pull image', 'Pod', 'a']]],
  ['a line without an object keeps type and reason', 'Normal Started', [['Normal', 'Started', '', '']]],
  ['a lone word is a type', 'Critical', [['Critical', '', '', '']]],
  ['a name keeps any further slash', 'Normal A Kind/a/b', [['Normal', 'A', 'Kind', 'a/b']]],
  ['an empty type written as a leading space is kept empty', ' Started Pod/a', [['', 'Started', 'Pod', 'a']]],
];

for (const [name, text, expected] of parseCases) {
  test(`parseStableTable: ${name}`, () => {
    assert.deepEqual(
      parseStableTable(text).map((e) => [e.type, e.reason, e.object.kind, e.object.name]),
      expected,
    );
  });
}

test('parseStableTable gives minimal events: no times, count 1, no reporter, no message', () => {
  const [e] = parseStableTable('Normal Started Pod/a');
  assert.deepEqual([e?.firstSeen, e?.lastSeen, e?.count, e?.reporter, e?.message, e?.uid], [null, null, 1, '', '', '']);
});

test('parseStableTable reads back what stableLines wrote', () => {
  const events = lab();
  assert.deepEqual(stableLines(parseStableTable(`${stableLines(events).join('\n')}\n`)), stableLines(events));
});

// -- What the live cluster adds: incarnations (live reads) and the comparison with a saved file (--compare)

const RECREATED = 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee';

function labWithRestart(): Event[] {
  return [...lab(), normaliseEvent(ev({ name: 'build-1-restarted', objectUid: RECREATED, first: 20 }))];
}

/** build-1 exists again with a new uid; Pod hungry is gone. */
function liveLookups(events: Event[]): Map<string, ObjectLookup> {
  const lookups = new Map<string, ObjectLookup>();
  for (const e of events) {
    if (e.object.kind === 'Pipeline') lookups.set(objectKey(e.object), { state: 'exists', uid: RECREATED, creationTimestamp: '2026-11-30T11:59:30Z' });
    if (e.object.kind === 'Pod') lookups.set(objectKey(e.object), { state: 'gone' });
  }
  return lookups;
}

test('without live facts the account carries none of their fields', () => {
  const incident = buildIncident(lab(), CLUSTER);
  for (const key of ['saved', 'comparison', 'onlyInRecord', 'recreatedObjects', 'goneObjects', 'uncheckedObjects']) assert.ok(!(key in incident), key);
  assert.ok(incident.objects.every((o) => !('incarnation' in o)));
  assert.ok(incident.objects.flatMap((o) => o.reports).every((r) => !('onServer' in r)));
});

test('with object lookups each story knows its incarnation, and the re-created and deleted objects are listed', () => {
  const events = labWithRestart();
  const incident = buildIncident(events, { ...CLUSTER, live: { lookups: liveLookups(events) } });
  assert.deepEqual(
    incident.objects.map((o) => [`${o.kind}/${o.name}`, o.incarnation, o.reports.length]),
    [
      ['Pipeline/build-1', 'previous', 3],
      ['Pod/hungry', 'gone', 1],
      ['Pipeline/build-1', 'current', 1],
    ],
  );
  assert.deepEqual(
    incident.recreatedObjects?.map((r) => [r.kind, r.name, r.previousUids, r.currentUid, r.recreatedAt, r.previousEvents, r.currentEvents]),
    [['Pipeline', 'build-1', ['11111111-2222-3333-4444-555555555555'], RECREATED, '2026-11-30T11:59:30Z', 3, 1]],
  );
  assert.deepEqual(incident.goneObjects?.map((g) => [g.kind, g.name, g.uids, g.events]), [['Pod', 'hungry', ['99999999-8888-7777-6666-555555555555'], 1]]);
  assert.deepEqual(incident.uncheckedObjects, []);
  assert.deepEqual(JSON.parse(JSON.stringify(incident)), incident);
});

test('a stable table carries no uids: lookups cannot place its events in an incarnation', () => {
  const events = labWithRestart();
  const incident = buildIncident(parseStableTable(stableLines(events).join('\n')), { ...TABLE, live: { lookups: liveLookups(events) } });
  assert.ok(!('recreatedObjects' in incident));
  assert.ok(incident.objects.every((o) => !('incarnation' in o)));
});

test('compared with the live events, the account counts and lists what only the saved file holds', () => {
  const events = lab();
  const weird = events.find((e) => e.name === 'build-1-weird');
  const liveUids = new Set(events.filter((e) => e !== weird).map((e) => e.uid));
  const extra = normaliseEvent(ev({ name: 'later' }));
  const provenance = fromRecord({ firstObserved: NOW - 7_200_000, lastObserved: NOW - 3_600_000 });
  const incident = buildIncident(events, { ...CLUSTER, provenance, live: { liveUids: new Set([...liveUids, extra.uid]), liveEvents: [extra] } });
  assert.deepEqual(incident.comparison, { savedEvents: 4, onlyInSaved: 1, share: 0.25, onlyOnServer: 1 });
  assert.deepEqual(incident.onlyInRecord, [
    { event: 'build-1-weird', object: 'Pipeline/build-1', reason: 'StageUnknown', type: 'Critical', lastSeen: '2026-11-30T11:58:30.000Z' },
  ]);
  assert.deepEqual(
    incident.objects.flatMap((o) => o.reports.map((r) => [r.event, r.onServer])),
    [
      ['build-1-started', true],
      ['build-1-weird', false],
      ['build-1-done', true],
      ['hungry.18a1b2c3d4e5f607', true],
    ],
  );
  assert.deepEqual(incident.saved, { format: 'record', firstObserved: '2026-11-30T10:00:00.000Z', lastObserved: '2026-11-30T11:00:00.000Z' });
  assert.ok(!('recreatedObjects' in incident), 'no lookups, no incarnations');
});

test('a Pod with Warning events that a full list of its namespace\'s Pods did not hold: its status unknown, also when no Pod was left', () => {
  const events = lab();
  // The live read listed the Pods of op-events in full and found none: Pod/hungry was gone.
  const listed = buildDomain(events, { ...CLUSTER, facts: { objects: [], gaps: [], readAt: NOW, listed: ['op-events/Pod'] } });
  assert.deepEqual(listed.why?.unknown, ['Pod/hungry']);
  // Listed elsewhere only (or a saved file that read no Pod there): nothing is known of it, nothing said.
  const elsewhere = buildDomain(events, { ...CLUSTER, facts: { objects: [], gaps: [], readAt: NOW, listed: ['other/Pod'] } });
  assert.deepEqual(elsewhere.why?.unknown, []);
  assert.deepEqual(buildDomain(events, { ...CLUSTER, facts: { objects: [], gaps: [], readAt: NOW } }).why?.unknown, []);
});

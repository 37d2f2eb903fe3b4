import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { normaliseEvent } from '../../../src/core/event.ts';
import { auditEvents } from '../../../src/core/audit.ts';
import { buildIncident } from '../../../src/core/incident.ts';
import type { IncidentContext } from '../../../src/core/incident.ts';
import { groupEvents } from '../../../src/core/grouping.ts';
import { MESSAGE_PASSES, messageTemplate, nameTemplate, templatesOnce } from '../../../src/core/message-template.ts';
import { groupStories } from '../../../src/core/families.ts';
import { plainPalette } from '../../../src/render/color.ts';
import { renderAuditText } from '../../../src/render/audit-text.ts';
import { toAuditJson } from '../../../src/render/audit-json.ts';
import { toIncidentJson } from '../../../src/render/incident-json.ts';
import { renderIncidentHeadline, renderIncidentText } from '../../../src/render/incident-text.ts';
import { ev, NOW, resetSerial } from '../../support/builders.ts';
import { fromCluster } from '../../support/sources.ts';

const CLUSTER: IncidentContext = { now: NOW, provenance: fromCluster(), eventTTLms: 3_600_000 };

const messageCases: [string, string, string][] = [
  ['counts of nodes are masked', '0/3 nodes are available: 3 Insufficient cpu.', '<n>/<n> nodes are available: <n> Insufficient cpu.'],
  ['a Go duration and a generated pod name are masked', 'Back-off 5m0s restarting failed container web in pod web-5d4f7c9b8-x2k4q', 'Back-off <duration> restarting failed container web in pod web-<hash>-<id>'],
  ['an IP with a port is masked', 'Get "http://10.0.0.17:8080/healthz": dial tcp 10.0.0.17:8080: connect: connection refused', 'Get "http://<ip>/healthz": dial tcp <ip>: connect: connection refused'],
  ['a uid is masked', 'pod 0b5e7a11-0000-4000-8000-00000000002a is gone', 'pod <uid> is gone'],
  ['an image digest is masked', 'Pulling image "nginx@sha256:0123456789abcdef"', 'Pulling image "nginx@sha256:<hash>"'],
  ['a ReplicaSet name keeps its stem', 'Scaled up replica set web-5d4f7c9b8 to 3', 'Scaled up replica set web-<hash> to <n>'],
  ['words are kept', 'Started container web', 'Started container web'],
  // Passes are skipped when the message lacks what they need (a digit, '-', '.', ':'): each kind of message still masked.
  ['a MAC address with no digit is masked', 'interface aa:bb:cc:dd:ee:ff is up', 'interface <ip> is up'],
  ['a generated name with no digit is masked', 'Deleted pod web-bcdfg', 'Deleted pod web-<id>'],
  ['a number with no dash, dot or colon is masked', 'Scaled to 12 replicas', 'Scaled to <n> replicas'],
  ['an IPv4 address with no dash is masked', 'Assigned 10.0.0.17', 'Assigned <ip>'],
];
for (const [name, message, template] of messageCases) test(`message template: ${name}`, () => assert.equal(messageTemplate(message), template));

test('message template: skipping the passes a message cannot match gives what all nine passes give', () => {
  // Words of what the patterns look for (hex, digits, '-', '.', ':', the safe alphabet, units), so uids, IPs, names and durations occur.
  const word = fc.stringMatching(/^[0-9a-fA-Fbcdghkmsxz.:µ-]{1,14}$/);
  const uid = fc.uuid();
  const message = fc.array(fc.oneof(word, word, uid), { minLength: 1, maxLength: 6 }).chain((words) => fc.constantFrom(...[' ', '-', '/', ':', '.', '']).map((sep) => words.join(sep)));
  fc.assert(
    fc.property(message, (m) => assert.equal(messageTemplate(m), MESSAGE_PASSES.reduce((t, [pattern, placeholder]) => t.replace(pattern, placeholder), m))),
    { numRuns: 3000 },
  );
});

const nameCases: [string, string][] = [
  ['web-5d4f7c9b8-x2k4q', 'web-<hash>-<id>'],
  ['web-5d4f7c9b8', 'web-<hash>'],
  ['db-0', 'db-<n>'],
  ['job-x2k4q', 'job-<id>'],
  ['nightly-29012345', 'nightly-<n>'],
  ['hungry', 'hungry'],
  ['kube-scheduler', 'kube-scheduler'],
];
for (const [name, template] of nameCases) test(`name template: ${name} -> ${template}`, () => assert.equal(nameTemplate(name), template));

const pod = (name: string, i: number, o: Parameters<typeof ev>[0] = {}) =>
  ev({ kind: 'Pod', apiVersion: 'v1', objectName: name, objectUid: `0b5e7a11-0000-4000-8000-${String(i).padStart(12, '0')}`, ...o });

/** Five Pods of one ReplicaSet that cannot be scheduled, and the ReplicaSet's own report. */
function unschedulable() {
  resetSerial();
  const pods = ['web-5d4f7c9b8-x2k4q', 'web-5d4f7c9b8-b7fzw', 'web-5d4f7c9b8-9mvpl', 'web-5d4f7c9b8-kq4tz', 'web-5d4f7c9b8-zt2rn'];
  return [
    ev({ kind: 'ReplicaSet', apiVersion: 'apps/v1', objectName: 'web-5d4f7c9b8', objectUid: 'rs-uid', component: 'replicaset-controller', reason: 'SuccessfulCreate', message: 'Created pod: web-5d4f7c9b8-x2k4q', first: 300 }),
    ...pods.map((name, i) =>
      pod(name, i, {
        type: 'Warning',
        reason: 'FailedScheduling',
        component: 'default-scheduler',
        message: `0/${3 + i} nodes are available: ${3 + i} Insufficient cpu.`,
        count: 2 + i,
        first: 290 - i,
        last: 10 + i,
      }),
    ),
  ].map(normaliseEvent);
}

test('five sibling Pods failing the same way read as one story: a golden account at the fixed clock', () => {
  const text = renderIncidentText(buildIncident(unschedulable(), CLUSTER), plainPalette);
  const expected = [
    'Incident in namespace op-events, read from the cluster at 2026-11-30T12:00:00Z',
    '  6 events about 6 objects. They tell 2 stories: siblings with the same reason and message are told once.',
    '  5 Warnings: FailedScheduling on Pod/web-5d4f7c9b8-x2k4q and 4 more Pod/web-<hash>-<id> (5 events).',
    '  5 events repeated: FailedScheduling on Pod/web-5d4f7c9b8-b7fzw and 4 more Pod/web-<hash>-<id>, 5 events, 20 times in 4m40s (first 4m50s ago, last 10s ago).',
    '',
    'Why',
    '  Pod/web-5d4f7c9b8-x2k4q (and Pod/web-5d4f7c9b8-b7fzw, Pod/web-5d4f7c9b8-9mvpl, Pod/web-5d4f7c9b8-kq4tz and 1 more, alike): cannot be scheduled: 0/3 nodes are available: 3 Insufficient cpu.',
    '      from 5 events: ev-2, ev-3, ev-4 and 2 more',
    '',
    'What happened, object by object (oldest first)',
    '',
    'ReplicaSet/web-5d4f7c9b8 (uid rs-uid)',
    '  5m ago, replicaset-controller reported SuccessfulCreate (Normal), once:',
    '    "Created pod: web-5d4f7c9b8-x2k4q"',
    '',
    'Pod/web-5d4f7c9b8-x2k4q and 4 more Pod/web-<hash>-<id> with the same story',
    '  First 4m50s ago, default-scheduler reported FailedScheduling (Warning), 5 events on 5 objects, 20 times in 4m40s, last 10s ago; for example:',
    '    "0/3 nodes are available: 3 Insufficient cpu."',
    '',
    'Who reported what',
    '  default-scheduler: FailedScheduling',
    '  replicaset-controller: SuccessfulCreate',
  ];
  assert.equal(text.split('\n').slice(0, expected.length).join('\n'), expected.join('\n'));
});

test('--detail tells every sibling on its own', () => {
  const text = renderIncidentText({ ...buildIncident(unschedulable(), CLUSTER), detail: true }, plainPalette);
  for (const name of ['web-5d4f7c9b8-x2k4q', 'web-5d4f7c9b8-b7fzw', 'web-5d4f7c9b8-zt2rn']) assert.ok(text.includes(`\nPod/${name} (uid`), name);
  assert.ok(!text.includes('with the same story'));
});

test('-o json documents the grouping: every event in exactly one group, with its templates and an example', () => {
  const json = toIncidentJson(buildIncident(unschedulable(), CLUSTER));
  assert.equal(json.groups.length, 2);
  const [failing] = json.groups;
  assert.deepEqual(
    { type: failing?.type, reason: failing?.reason, kind: failing?.kind, nameTemplate: failing?.nameTemplate, messageTemplate: failing?.messageTemplate, owner: failing?.owner, events: failing?.events, occurrences: failing?.occurrences, objects: failing?.objects.length },
    { type: 'Warning', reason: 'FailedScheduling', kind: 'Pod', nameTemplate: 'web-<hash>-<id>', messageTemplate: '<n>/<n> nodes are available: <n> Insufficient cpu.', owner: null, events: 5, occurrences: 20, objects: 5 },
  );
  assert.deepEqual(failing?.example, { event: failing?.example.event, object: 'Pod/web-5d4f7c9b8-x2k4q', message: '0/3 nodes are available: 3 Insufficient cpu.', reporter: 'default-scheduler', count: 2, firstSeen: '2026-11-30T11:55:10.000Z', lastSeen: '2026-11-30T11:59:50.000Z' });
  assert.equal(json.objects.length, 6, 'the object stories are all still there');
});

const REASONS: [string, string, string][] = [
  ['Normal', 'Scheduled', 'Successfully assigned op-events/{pod} to node-{n}'],
  ['Normal', 'Pulled', 'Successfully pulled image "registry.example/web:1.4.{n}" in {n}ms'],
  ['Warning', 'BackOff', 'Back-off {n}m0s restarting failed container web in pod {pod}'],
  ['Warning', 'Unhealthy', 'Readiness probe failed: Get "http://10.0.{n}.7:8080/healthz": connection refused'],
  ['Normal', 'Started', 'Started container web'],
];

/** 20,000 events about 400 Pods, 50 each, spread over the last 50 minutes. */
function busyNamespace() {
  const events = [];
  for (let i = 0; i < 20_000; i += 1) {
    const p = i % 400;
    const [type, reason, message] = REASONS[(i + Math.floor(i / 400)) % REASONS.length] as [string, string, string];
    const name = `pod-${p}`;
    events.push(pod(name, p, { name: `${name}.${i.toString(16)}`, type, reason, message: message.replaceAll('{pod}', name).replaceAll('{n}', String(i % 97)), count: 1 + (i % 3), first: 3000 - Math.floor(i / 8), last: 3000 - Math.floor(i / 8) }));
  }
  return events.map(normaliseEvent);
}

test('a 20,000-event namespace about 400 Pods: the account stays within its bound and the counts add up', () => {
  const events = busyNamespace();
  const incident = buildIncident(events, CLUSTER);
  const text = renderIncidentText(incident, plainPalette);
  const lines = text.split('\n');
  assert.ok(lines.length <= 80, `${lines.length} lines:\n${text}`);
  const headline = renderIncidentHeadline(incident, plainPalette);
  assert.ok(headline.split('\n').length <= 10, headline);
  // The headline names each object at most once.
  const named = headline.match(/Pod\/pod-\d+/g) ?? [];
  assert.equal(new Set(named).size, named.length, headline);
  // Counts add up: every event is in exactly one group, and the groups' objects are the incident's.
  assert.equal(incident.groups.reduce((sum, g) => sum + g.events, 0), 20_000);
  assert.equal(incident.groups.reduce((sum, g) => sum + (g.occurrences ?? 0), 0), incident.headline.occurrences);
  assert.equal(incident.groups.filter((g) => g.type === 'Warning').reduce((sum, g) => sum + g.events, 0), incident.headline.warnings);
  assert.equal(incident.families.reduce((sum, f) => sum + f.members.length, 0), 400);
  assert.match(headline, /^ {2}20000 events about 400 objects\. They tell \d+ stories/m);
  assert.match(headline, / 8000 Warnings: /);
  // Warnings first, most recent first.
  assert.equal(incident.groups[0]?.type, 'Warning');
  // What is not told is counted: everything shown or said to be more.
  const more = /and (\d+) more objects? like this/.exec(text);
  const told = lines.filter((l) => /^Pod\/pod-\d+/.test(l)).map((l) => (/and (\d+) more Pod/.exec(l) ? Number(/and (\d+) more Pod/.exec(l)?.[1]) + 1 : 1));
  assert.equal(told.reduce((a, b) => a + b, 0) + Number(more?.[1] ?? 0), 400);
});

test('an account templates each distinct message once, its groups and families sharing the templates', () => {
  // 20,000 events of distinct messages: templating each twice (groups, then families) was a fifth of the account's CPU.
  const events = busyNamespace();
  const objects = buildIncident(events, CLUSTER).objects;
  const templated: string[] = [];
  const templates = templatesOnce({ name: nameTemplate, message: (m) => (templated.push(m), messageTemplate(m)) });
  const groups = groupEvents(events, { counts: true, messages: true, templates });
  const families = groupStories(objects, () => null, templates);
  const distinct = new Set(events.map((e) => e.message));
  assert.equal(templated.length, distinct.size);
  assert.deepEqual(new Set(templated), distinct);
  // Both tell the same templates as templating each message afresh.
  assert.deepEqual(new Set(groups.map((g) => g.messageTemplate)), new Set([...distinct].map(messageTemplate)));
  assert.deepEqual(new Set(families.flatMap((f) => f.lines.map((l) => l.messageTemplate))), new Set([...distinct].map(messageTemplate)));
  assert.deepEqual(groups, groupEvents(events, { counts: true, messages: true }));
  assert.deepEqual(families, groupStories(objects));
});

test('messages that never repeat are templated as asked, not remembered; messages that repeat are templated once each', () => {
  const counting = () => {
    const asked: string[] = [];
    return { asked, templates: templatesOnce({ name: nameTemplate, message: (m) => (asked.push(m), messageTemplate(m)) }) };
  };
  // 5,000 distinct messages (a number and a pod name in each), each asked twice: both answers are
  // messageTemplate's; past the first sample none is kept, so
  // the second ask templates it again rather than finding it in a map that grows with every event.
  const distinct = Array.from({ length: 5000 }, (_, i) => `Back-off ${i}s restarting failed container web in pod web-${i}`);
  const once = counting();
  const first = distinct.map(once.templates.message);
  const again = distinct.map(once.templates.message);
  assert.deepEqual(first, distinct.map(messageTemplate));
  assert.deepEqual(again, first);
  assert.equal(new Set(first).size, 1);
  assert.ok(once.asked.length > 9000, `${once.asked.length} templated: the distinct messages were remembered`);
  // 20,000 asks of 250 texts: each text templated once.
  const repeated = counting();
  for (let i = 0; i < 20_000; i += 1) assert.equal(repeated.templates.message(`Pulled image web:1.${i % 250}`), `Pulled image web:<n>`);
  assert.equal(repeated.asked.length, 250);
  // Names are always remembered: a namespace names a few hundred objects, each many times.
  const names = counting();
  for (let i = 0; i < 5000; i += 1) names.templates.name(`web-${i}`);
  for (let i = 0; i < 5000; i += 1) assert.equal(names.templates.name(`web-${i}`), 'web-<n>');
});

test('type-audit groups 20,000 findings by rule, reporter, reason and type, with counts and an example', () => {
  const events = busyNamespace().map((e) => ({ ...e, object: { ...e.object, uid: '' } }));
  const report = auditEvents(events);
  assert.equal(report.findings.length, 20_000);
  assert.equal(report.groups.length, 5);
  assert.equal(report.groups.reduce((sum, g) => sum + g.events, 0), 20_000);
  const text = renderAuditText(report, plainPalette);
  assert.ok(text.split('\n').length < 20, text);
  assert.match(text, /^Type audit: 20000 events checked, 20000 findings in 5 groups\.$/m);
  assert.match(text, /^ {2}4000 events about 400 objects: reason BackOff, type Warning, reported by pipeline-operator, \d+ times in all; for example op-events\/pod-\d+\.[0-9a-f]+ about Pod\/pod-\d+ \(count \d\)$/m);
  assert.equal(toAuditJson(report).groups[0]?.events, 4000);
});

test('hostile text in a group stays escaped', () => {
  const hostile = [0, 1, 2].map((i) => pod(`evil-${i}`, i, { type: 'Warning', reason: 'Bad\u001b[31m', message: `boom \u001b]0;owned\u0007 ${i}` })).map(normaliseEvent);
  const text = renderIncidentText(buildIncident(hostile, CLUSTER), plainPalette);
  assert.ok(!text.includes('\u001b'), text);
  assert.ok(!text.includes('\u0007'), text);
  assert.match(text, /Pod\/evil-\d and 2 more Pod\/evil-<n>/);
  const audit = renderAuditText(auditEvents(hostile), plainPalette);
  assert.ok(!audit.includes('\u001b'), audit);
});

test('groups rank Warnings, then unconventional types, then Normal; most recent first', () => {
  const events = [
    pod('a', 1, { type: 'Normal', reason: 'Pulled', last: 1, first: 1 }),
    pod('b', 2, { type: 'Critical', reason: 'Odd', last: 5, first: 5 }),
    pod('c', 3, { type: 'Warning', reason: 'Old', last: 100, first: 100 }),
    pod('d', 4, { type: 'Warning', reason: 'New', last: 2, first: 2 }),
  ].map(normaliseEvent);
  assert.deepEqual(groupEvents(events, { counts: true, messages: true }).map((g) => g.reason), ['New', 'Old', 'Odd', 'Pulled']);
});

test('forty unconventional types, forty reporters: each section is capped and says how many more', () => {
  const events = Array.from({ length: 40 }, (_, i) => pod(`odd-${i}`, i, { type: `Type${i}`, reason: `Reason${i}`, component: `writer-${i}` })).map(normaliseEvent);
  const text = renderIncidentText(buildIncident(events, CLUSTER), plainPalette);
  assert.ok(text.split('\n').length <= 80, text);
  assert.match(text, /\n {2}and 35 more types like this\.\n/);
  assert.match(text, /\n {2}and 30 more like this\.\n/);
  const detail = renderIncidentText({ ...buildIncident(events, CLUSTER), detail: true }, plainPalette);
  for (let i = 0; i < 40; i += 1) assert.ok(detail.includes(`\nPod/odd-${i} (uid`), `odd-${i}`);
});

test('one message about many differently named objects makes a group per object, each holding all of its events', () => {
  // Twelve objects whose names share no template, their events interleaved: more groups for one message template than are remembered near it.
  const names = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima'];
  const events = [0, 1, 2].flatMap((round) => names.map((name) => normaliseEvent(ev({ kind: 'Deployment', objectName: name, reason: 'ScalingReplicaSet', message: 'Scaled up replica set to 3', first: 300 - round * 60 }))));
  const groups = groupEvents(events, { counts: true, messages: true });
  assert.deepEqual(
    groups.map((g) => [g.nameTemplate, g.events]).sort(),
    names.map((name) => [name, 3]).sort(),
  );
});

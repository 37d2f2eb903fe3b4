// The incident told owner first (`incident --for X --tree`) and grouped by owner, on hand-built trees
// (test/support/trees.ts) at the fixed clock: goldens of the text, the -o json tree, and the bound on a
// 20,000-event namespace.
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { normaliseEvent } from '../../../src/core/event.ts';
import { buildIncident } from '../../../src/core/incident.ts';
import type { IncidentContext } from '../../../src/core/incident.ts';
import { plainPalette } from '../../../src/render/color.ts';
import { toIncidentJson } from '../../../src/render/incident-json.ts';
import { renderIncidentHeadline, renderIncidentText } from '../../../src/render/incident-text.ts';
import { treeSection } from '../../../src/render/tree-incident-text.ts';
import { ev, NOW, resetSerial } from '../../support/builders.ts';
import { ownedNamespace } from '../../support/owned-events.ts';
import { fromCluster } from '../../support/sources.ts';
import { handTree } from '../../support/trees.ts';
import type { TreeSpec } from '../../support/trees.ts';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'incident');
const CLUSTER: IncidentContext = { now: NOW, provenance: fromCluster(), eventTTLms: 3_600_000 };

const RS1 = 'web-5d4f7c9b8';
const RS2 = 'web-7c9d8f6b5';
const PODS1 = ['x2k4q', 'b7fzw', '9mvpl', 'kq4tz', 'zt2rn'].map((s) => `${RS1}-${s}`);
const PODS2 = ['m4x7q', 'p2k9z'].map((s) => `${RS2}-${s}`);

/** Deployment/web rolled out to a second ReplicaSet; no Pod fits; the last Pod of the first ReplicaSet is gone. */
const ROLLOUT: TreeSpec = {
  kind: 'Deployment',
  name: 'web',
  children: [
    { kind: 'ReplicaSet', name: RS1, children: PODS1.map((name, i) => ({ kind: 'Pod', name, ...(i === 4 ? { uid: '', gone: true } : {}) })) },
    { kind: 'ReplicaSet', name: RS2, children: PODS2.map((name) => ({ kind: 'Pod', name })) },
  ],
};

const cpu = (n: number) => `0/${n} nodes are available: ${n} Insufficient cpu.`;
const TAINT = "0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 node(s) didn't match Pod's node affinity/selector.";
const owner = (kind: string, name: string, o: Parameters<typeof ev>[0]) => ev({ kind, apiVersion: 'apps/v1', objectName: name, objectUid: `uid-${name}`, ...o });
const pod = (name: string, o: Parameters<typeof ev>[0]) => ev({ kind: 'Pod', apiVersion: 'v1', objectName: name, objectUid: `uid-${name}`, type: 'Warning', component: 'default-scheduler', reason: 'FailedScheduling', ...o });

function rollout() {
  resetSerial();
  return [
    owner('Deployment', 'web', { component: 'deployment-controller', reason: 'ScalingReplicaSet', message: `Scaled up replica set ${RS1} from 0 to 5`, first: 600 }),
    owner('Deployment', 'web', { component: 'deployment-controller', reason: 'ScalingReplicaSet', message: `Scaled up replica set ${RS2} from 0 to 2`, first: 300 }),
    ...PODS1.map((p, i) => owner('ReplicaSet', RS1, { component: 'replicaset-controller', reason: 'SuccessfulCreate', message: `Created pod: ${p}`, first: 599 - i })),
    ...PODS2.map((p, i) => owner('ReplicaSet', RS2, { component: 'replicaset-controller', reason: 'SuccessfulCreate', message: `Created pod: ${p}`, first: 299 - i })),
    ...PODS1.map((p, i) => pod(p, { message: cpu(3 + i), count: 2 + i, first: 590 - i, last: 100 + i })),
    // One Pod's three FailedScheduling events: the scheduler writes a new Event whenever the Pod changes.
    pod(PODS2[0] as string, { message: cpu(3), first: 290 }),
    pod(PODS2[0] as string, { message: TAINT, first: 60 }),
    pod(PODS2[0] as string, { message: TAINT, first: 58 }),
    pod(PODS2[1] as string, { message: cpu(3), first: 288, count: 4, last: 30 }),
  ].map(normaliseEvent);
}

const withTree = () => buildIncident(rollout(), { ...CLUSTER, tree: handTree(ROLLOUT) });

test('a rollout that does not fit, told owner first: a golden account at the fixed clock', () => {
  const expected = [
    'Incident in namespace op-events, read from the cluster at 2026-11-30T12:00:00Z',
    '  18 events about 10 objects. They tell 5 stories: siblings with the same reason and message are told once.',
    '  The tree of Deployment/web: 2 ReplicaSets, 7 Pods (1 gone).',
    '  9 Warnings: FailedScheduling on Pod/web-7c9d8f6b5-p2k9z and 1 more Pod/web-<hash>-<id> of ReplicaSet/web-7c9d8f6b5 (2 events), FailedScheduling on Pod/web-7c9d8f6b5-m4x7q (2 events), FailedScheduling on Pod/web-5d4f7c9b8-x2k4q and 4 more Pod/web-<hash>-<id> of ReplicaSet/web-5d4f7c9b8 (5 events).',
    '  6 events repeated: FailedScheduling on Pod/web-5d4f7c9b8-b7fzw and 4 more Pod/web-<hash>-<id> of ReplicaSet/web-5d4f7c9b8, 5 events, 20 times in 8m10s (first 9m50s ago, last 100s ago); FailedScheduling on 2 Pod/web-<hash>-<id> of ReplicaSet/web-7c9d8f6b5, 2 events, 5 times in 4m20s (first 4m50s ago, last 30s ago).',
    '',
    'Why',
    '  Pod/web-7c9d8f6b5-p2k9z: cannot be scheduled: 0/3 nodes are available: 3 Insufficient cpu.',
    '      from 1 event: ev-18',
    "  Pod/web-7c9d8f6b5-m4x7q: cannot be scheduled: 0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 node(s) didn't match Pod's node affinity/selector.",
    '      from 1 event: ev-17',
    '  Pod/web-5d4f7c9b8-x2k4q (and Pod/web-5d4f7c9b8-b7fzw, Pod/web-5d4f7c9b8-9mvpl, Pod/web-5d4f7c9b8-kq4tz and 1 more, alike): cannot be scheduled: 0/3 nodes are available: 3 Insufficient cpu.',
    '      from 5 events: ev-10, ev-11, ev-12 and 2 more',
    '',
    'What happened, owner first (Deployment/web and what it owns)',
    '',
    'Deployment/web (uid uid-web)',
    '  First 10m ago, deployment-controller reported ScalingReplicaSet (Normal), 2 events, 2 times in 5m, last 5m ago:',
    '    "Scaled up replica set web-5d4f7c9b8 from 0 to 5"',
    '    "Scaled up replica set web-7c9d8f6b5 from 0 to 2"',
    '',
    '  ReplicaSet/web-5d4f7c9b8 (uid uid-web-5d4f7c9b8)',
    '    First 9m59s ago, replicaset-controller reported SuccessfulCreate (Normal), 5 events, 5 times in 4s, last 9m55s ago; the most recent of 5 messages:',
    '      "Created pod: web-5d4f7c9b8-zt2rn"',
    '',
    '    Pod/web-5d4f7c9b8-x2k4q and 4 more Pod/web-<hash>-<id> with the same story, 1 of them gone',
    '      First 9m50s ago, default-scheduler reported FailedScheduling (Warning), 5 events on 5 objects, 20 times in 8m10s, last 100s ago; for example:',
    '        "0/3 nodes are available: 3 Insufficient cpu."',
    '',
    '  ReplicaSet/web-7c9d8f6b5 (uid uid-web-7c9d8f6b5)',
    '    First 4m59s ago, replicaset-controller reported SuccessfulCreate (Normal), 2 events, 2 times in 1s, last 4m58s ago:',
    '      "Created pod: web-7c9d8f6b5-m4x7q"',
    '      "Created pod: web-7c9d8f6b5-p2k9z"',
    '',
    '    Pod/web-7c9d8f6b5-m4x7q (uid uid-web-7c9d8f6b5-m4x7q)',
    '      First 4m50s ago, default-scheduler reported FailedScheduling (Warning), 3 events, 3 times in 3m52s, last 58s ago:',
    '        "0/3 nodes are available: 3 Insufficient cpu."',
    `        "${TAINT}"`,
    '',
    '    Pod/web-7c9d8f6b5-p2k9z (uid uid-web-7c9d8f6b5-p2k9z)',
    '      First 4m48s ago, default-scheduler reported FailedScheduling (Warning), 4 times in 4m18s, last 30s ago:',
    '        "0/3 nodes are available: 3 Insufficient cpu."',
    '',
    'Who reported what',
  ];
  const text = renderIncidentText(withTree(), plainPalette);
  assert.equal(text.split('\n').slice(0, expected.length).join('\n'), expected.join('\n'));
});

test('siblings of different owners stay apart: one group per ReplicaSet, each naming its owner', () => {
  const incident = withTree();
  const failing = incident.groups.filter((g) => g.reason === 'FailedScheduling' && g.messageTemplate === '<n>/<n> nodes are available: <n> Insufficient cpu.');
  assert.deepEqual(
    failing.map((g) => [g.owner, g.objects.length, g.events]).sort(),
    [
      ['ReplicaSet/web-5d4f7c9b8', 5, 5],
      ['ReplicaSet/web-7c9d8f6b5', 2, 2],
    ],
  );
  // Without the tree the same siblings are one group with no owner, as before.
  const flat = buildIncident(rollout(), CLUSTER).groups.filter((g) => g.reason === 'FailedScheduling' && g.messageTemplate?.includes('Insufficient'));
  assert.deepEqual(flat.map((g) => [g.owner, g.objects.length]), [[null, 7]]);
});

test('a gone child is in the story, marked gone, under its owner', () => {
  const text = renderIncidentText({ ...withTree(), detail: true }, plainPalette);
  assert.match(text, /\n {4}Pod\/web-5d4f7c9b8-zt2rn \(gone; uid uid-web-5d4f7c9b8-zt2rn\)\n {6}First 9m46s ago, default-scheduler reported FailedScheduling/);
});

test('--detail tells every object owner first, each at its depth, nothing folded or left out', () => {
  const whole = renderIncidentText({ ...withTree(), detail: true }, plainPalette);
  // The stories, after the Why (whose causes also start with Pod/).
  const text = whole.slice(whole.indexOf('What happened'));
  const headers = text.split('\n').filter((l) => /^ *(Deployment|ReplicaSet|Pod)\//.test(l)).map((l) => l.replace(/ \(.*$/, ''));
  assert.deepEqual(headers, ['Deployment/web', `  ReplicaSet/${RS1}`, ...PODS1.map((p) => `    Pod/${p}`), `  ReplicaSet/${RS2}`, ...PODS2.map((p) => `    Pod/${p}`)]);
  assert.ok(!text.includes('with the same story'));
  assert.ok(!text.includes('more object'));
});

test('-o json carries the tree: members nested under their owners, each naming its stories, and every story its chain', () => {
  const incident = withTree();
  const json = toIncidentJson(incident);
  const tree = json.tree;
  assert.ok(tree);
  assert.deepEqual({ members: tree.members, gone: tree.gone, owned: tree.owned, outside: tree.outside }, {
    members: 10,
    gone: 1,
    owned: [
      { kind: 'ReplicaSet', members: 2, gone: 0 },
      { kind: 'Pod', members: 7, gone: 1 },
    ],
    outside: [],
  });
  const names = (m: typeof tree.root): unknown => [m.name, ...m.children.map(names)];
  assert.deepEqual(names(tree.root), ['web', [RS1, ...PODS1.map((p) => [p])], [RS2, ...PODS2.map((p) => [p])]]);
  const gone = tree.root.children[0]?.children[4];
  assert.deepEqual({ uid: gone?.uid, gone: gone?.gone, story: json.objects[gone?.objects[0] ?? -1]?.uid }, { uid: '', gone: true, story: `uid-${PODS1[4]}` });
  // Every story is placed once, and its chain ends at its own object.
  const placed = (m: typeof tree.root): number[] => [...m.objects, ...m.children.flatMap(placed)];
  assert.deepEqual(placed(tree.root).sort((a, b) => a - b), json.objects.map((_, i) => i));
  for (const o of json.objects) assert.equal(o.tree?.at(-1)?.name, o.name);
  assert.deepEqual(json.objects.find((o) => o.name === PODS2[1])?.tree?.map((l) => `${l.kind}/${l.name}`), ['Deployment/web', `ReplicaSet/${RS2}`, `Pod/${PODS2[1]}`]);
  const group = json.groups.find((g) => g.owner === `ReplicaSet/${RS1}`);
  assert.equal(group?.objects.length, 5);
});

test('without a tree the account carries no tree and groups by name as before', () => {
  const json = toIncidentJson(buildIncident(rollout(), CLUSTER));
  assert.equal(json.tree, undefined);
  assert.ok(json.objects.every((o) => o.tree === undefined));
  assert.ok(json.groups.every((g) => g.owner === null));
  assert.ok(!renderIncidentText(buildIncident(rollout(), CLUSTER), plainPalette).includes('owner first'));
});

test("one object's reports with the same reason fold into one line, each of its messages quoted in time order", () => {
  const text = renderIncidentText(buildIncident(rollout(), CLUSTER), plainPalette);
  const block = text.slice(text.indexOf(`\nPod/${PODS2[0]} (uid`));
  assert.equal(
    block.split('\n').slice(1, 5).join('\n'),
    [
      `Pod/${PODS2[0]} (uid uid-${PODS2[0]})`,
      '  First 4m50s ago, default-scheduler reported FailedScheduling (Warning), 3 events, 3 times in 3m52s, last 58s ago:',
      '    "0/3 nodes are available: 3 Insufficient cpu."',
      `    "${TAINT}"`,
    ].join('\n'),
  );
  // Its three reports stay three in -o json, and the groups still part them by message template.
  const json = toIncidentJson(buildIncident(rollout(), CLUSTER));
  assert.equal(json.objects.find((o) => o.name === PODS2[0])?.reports.length, 3);
});

test('one object with more messages for one reason than are quoted: the most recent, saying of how many', () => {
  const events = [1, 2, 3, 4].map((i) => pod(PODS2[0] as string, { message: `0/${i} nodes are available: node-${i} had untolerated taint {team-${i}}.`, first: 100 - i })).map(normaliseEvent);
  const text = renderIncidentText(buildIncident(events, CLUSTER), plainPalette);
  assert.match(text, /\n {2}First 99s ago, default-scheduler reported FailedScheduling \(Warning\), 4 events, 4 times in 3s, last 96s ago; the most recent of 4 messages:\n {4}"0\/4 nodes are available: node-4 had untolerated taint \{team-4\}\."\n/);
});

test('events the tree cannot place are said, not lost', () => {
  const stray = normaliseEvent(ev({ kind: 'ConfigMap', apiVersion: 'v1', objectName: 'settings', objectUid: 'uid-settings', reason: 'Changed', first: 20 }));
  const incident = buildIncident([...rollout(), stray], { ...CLUSTER, tree: handTree(ROLLOUT) });
  assert.deepEqual(incident.tree?.outside.map((o) => o.name), ['settings']);
  assert.match(renderIncidentText(incident, plainPalette), /\nNot in the tree: 1 event about ConfigMap\/settings\.\n/);
  assert.equal(toIncidentJson(incident).tree?.outside.length, 1);
});

test('a tree with no events of the root: its owned members still hang under it, the root named by a line of its own', () => {
  const events = rollout().filter((e) => e.object.kind !== 'Deployment');
  const text = renderIncidentText(buildIncident(events, { ...CLUSTER, tree: handTree(ROLLOUT) }), plainPalette);
  assert.match(text, /\n\nDeployment\/web \(uid uid-web; no events of its own\)\n\n {2}ReplicaSet\//);
});

test('hostile names in the tree come out escaped', () => {
  const spec: TreeSpec = { kind: 'Deployment', name: 'evil\u001b[31m', uid: 'u1', children: [{ kind: 'Pod', name: 'p\u202e-1', uid: 'u2', gone: true }] };
  const events = [ev({ kind: 'Pod', apiVersion: 'v1', objectName: 'p\u202e-1', objectUid: 'u2', reason: 'Odd\u0007' })].map(normaliseEvent);
  const text = renderIncidentText(buildIncident(events, { ...CLUSTER, tree: handTree(spec) }), plainPalette);
  assert.ok(!/[\u001b\u0007\u202e]/.test(text), text);
  assert.match(text, /The tree of Deployment\/evil\^\[\[31m: 1 Pod \(1 gone\)\./);
});

test('a 20,000-event namespace of 8 ReplicaSets and 400 Pods told owner first stays within its bound', () => {
  const ns = ownedNamespace({ events: 20_000, replicaSets: 8, pods: 50 });
  const incident = buildIncident(ns.items.map(normaliseEvent), { ...CLUSTER, tree: handTree(ns.tree) });
  const text = renderIncidentText(incident, plainPalette);
  // The whole account, a golden at the fixed clock.
  assert.equal(text, readFileSync(join(FIXTURES, 'tree-20000.txt'), 'utf8'));
  const lines = text.split('\n');
  assert.ok(lines.length <= 80, `${lines.length} lines:\n${text}`);
  const headline = renderIncidentHeadline(incident, plainPalette);
  assert.ok(headline.split('\n').length <= 10, headline);
  assert.match(headline, /\n {2}The tree of Deployment\/web: 8 ReplicaSets, 400 Pods \(8 gone\)\.\n/);
  // Grouped by owner: every Pod group names one ReplicaSet, and no group mixes two.
  const podGroups = incident.groups.filter((g) => g.kind === 'Pod');
  assert.ok(podGroups.every((g) => g.owner?.startsWith('ReplicaSet/web-') && g.objects.every((o) => o.name.startsWith(`${g.owner?.slice('ReplicaSet/'.length)}-`))));
  assert.equal(podGroups.reduce((sum, g) => sum + g.events, 0), 20_000 - 8 - 400);
  // Owner first: the Deployment's story opens the section, ReplicaSets at depth 1, Pods at depth 2.
  const section = lines.slice(lines.indexOf('What happened, owner first (Deployment/web and what it owns)') + 2);
  assert.match(section[0] ?? '', /^Deployment\/web \(uid uid-web\)$/);
  assert.ok(section.some((l) => /^ {2}ReplicaSet\/web-\S+ \(uid /.test(l)));
  assert.ok(section.some((l) => /^ {4}Pod\/web-\S+ and 49 more Pod\/web-<hash>-<id> with the same story, 1 of them gone$/.test(l)));
  // What is not told is counted: the told families and objects plus "N more" make the whole tree.
  const more = Number(/and (\d+) more objects? like this/.exec(text)?.[1] ?? 0);
  const told = section.filter((l) => /^ *(Deployment|ReplicaSet|Pod)\/\S+ (\(uid|and)/.test(l) && !l.includes('not told here')).map((l) => Number(/and (\d+) more/.exec(l)?.[1] ?? 0) + 1);
  assert.equal(told.reduce((a, b) => a + b, 0) + more, 409);
  const detail = renderIncidentText({ ...incident, detail: true }, plainPalette);
  assert.equal(detail.split('\n').filter((l) => /^ {4}Pod\//.test(l)).length, 400);
});

test('an owner whose own story does not fit is named on one line above what it owns, and what is left out is counted', () => {
  const incident = withTree();
  const text = treeSection(incident, incident.tree as NonNullable<typeof incident.tree>, plainPalette, 17);
  const lines = text.split('\n');
  assert.equal(lines[2], 'Deployment/web (uid uid-web)');
  // The most recent Warnings win the budget (the second ReplicaSet's two Pods); their owner's Normal
  // story does not fit, so it is named on a line of its own above them.
  assert.deepEqual(
    lines.filter((l) => /^ +(ReplicaSet|Pod)\//.test(l)),
    ['  ReplicaSet/web-7c9d8f6b5 (uid uid-web-7c9d8f6b5; 2 events of its own, not told here)', '    Pod/web-7c9d8f6b5-m4x7q (uid uid-web-7c9d8f6b5-m4x7q)', '    Pod/web-7c9d8f6b5-p2k9z (uid uid-web-7c9d8f6b5-p2k9z)'],
  );
  assert.ok(lines.length - 2 <= 17 + 2, text);
  assert.match(text, /\nand (\d+) more objects? like this \((\d+) more stor(?:y|ies)\): --detail or -o json tells them all\.$/);
  const [, objects, stories] = /and (\d+) more objects? like this \((\d+) more/.exec(text) ?? [];
  const told = lines.filter((l) => /^ *(Deployment|ReplicaSet|Pod)\//.test(l) && !l.includes('not told here')).map((l) => Number(/and (\d+) more/.exec(l)?.[1] ?? 0) + 1);
  assert.equal(told.reduce((a, b) => a + b, 0) + Number(objects), 10);
  assert.equal(Number(stories), 3);
});

test('a tree of the root alone, and a root that is gone, are said so', () => {
  const events = [owner('Deployment', 'web', { component: 'deployment-controller', reason: 'ScalingReplicaSet', message: 'Scaled up replica set web-5d4f7c9b8 from 0 to 1', first: 60 })].map(normaliseEvent);
  const alone = renderIncidentText(buildIncident(events, { ...CLUSTER, tree: handTree({ kind: 'Deployment', name: 'web' }) }), plainPalette);
  assert.match(alone, /\n {2}The tree of Deployment\/web: it owns nothing that could be found\.\n/);
  assert.match(alone, /\nWhat happened, owner first \(Deployment\/web and what it owns\)\n\nDeployment\/web \(uid uid-web\)\n {2}60s ago, deployment-controller reported ScalingReplicaSet/);
  const gone = renderIncidentText(buildIncident(events, { ...CLUSTER, tree: handTree({ kind: 'Deployment', name: 'web', gone: true }) }), plainPalette);
  assert.match(gone, /\n {2}The tree of Deployment\/web \(gone\): it owns nothing that could be found\.\n/);
  assert.match(gone, /\nDeployment\/web \(gone; uid uid-web\)\n/);
});

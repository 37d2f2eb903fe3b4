// buildTree (core/tree.ts): ownerReferences by uid, children named by their owners' events, gone members.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { normaliseEvent } from '../../../src/core/event.ts';
import type { Event } from '../../../src/core/event.ts';
import type { ObjectMeta, Tree } from '../../../src/core/ownership.ts';
import { buildTree } from '../../../src/core/tree.ts';
import { NOW, ev } from '../../support/builders.ts';

const NS = 'op-events';
const APPS = 'apps/v1';

function meta(apiVersion: string, kind: string, name: string, uid: string, owner?: ObjectMeta, createdAgo = 600): ObjectMeta {
  return {
    apiVersion,
    kind,
    namespace: NS,
    name,
    uid,
    owners: owner ? [{ apiVersion: owner.apiVersion, kind: owner.kind, name: owner.name, uid: owner.uid, controller: true }] : [],
    created: NOW - createdAgo * 1000,
    deleting: null,
  };
}

/** An event about `o` (its uid unless `uid` says otherwise), `first` seconds ago. */
function about(o: { apiVersion: string; kind: string; name: string; uid: string }, reason: string, message: string, first: number, uid = o.uid): Event {
  return normaliseEvent(ev({ apiVersion: o.apiVersion, kind: o.kind, objectName: o.name, objectUid: uid, reason, message, first, component: 'test' }));
}

/** Each member as `Kind/name`, `(gone)` when gone, in the tree's order. */
function outline(tree: Tree): string[] {
  return tree.nodes.map((n) => `${n.kind}/${n.name}${n.gone ? ' (gone)' : ''}`);
}

const chainText = (tree: Tree, e: Event) => tree.chainOf(e)?.map((n) => `${n.kind}/${n.name}${n.gone ? '*' : ''}`).join(' > ');

const deploy = meta(APPS, 'Deployment', 'web', 'd-1', undefined, 900);
const rs = meta(APPS, 'ReplicaSet', 'web-5d4', 'rs-1', deploy, 800);
const podA = meta('v1', 'Pod', 'web-5d4-aaaaa', 'p-a', rs, 700);
const podB = meta('v1', 'Pod', 'web-5d4-bbbbb', 'p-b', rs, 650);
const stranger = meta('v1', 'Pod', 'other-1', 'p-x', undefined, 500);
const OBJECTS = [deploy, rs, podA, podB, stranger];
const ROOT = { kind: 'Deployment', group: 'apps', name: 'web', namespace: NS };

describe('buildTree', () => {
  test('finds members by ownerReferences, transitively, children by creation', () => {
    const tree = buildTree(ROOT, OBJECTS, []);
    assert.deepEqual(outline(tree), ['Deployment/web', 'ReplicaSet/web-5d4', 'Pod/web-5d4-aaaaa', 'Pod/web-5d4-bbbbb']);
    assert.equal(tree.root.uid, 'd-1');
  });

  test('matches owners by uid, never by name: a same-named owner of another incarnation owns nothing here', () => {
    const impostor = { ...meta('v1', 'Pod', 'web-5d4-zzzzz', 'p-z'), owners: [{ apiVersion: APPS, kind: 'ReplicaSet', name: 'web-5d4', uid: 'rs-old', controller: true }] };
    const tree = buildTree(ROOT, [...OBJECTS, impostor], []);
    assert.ok(!tree.nodes.some((n) => n.name === 'web-5d4-zzzzz'));
  });

  test("gives each event its member's chain; events of other objects are not in the tree", () => {
    const scheduled = about(podA, 'FailedScheduling', '0/3 nodes are available: 3 Insufficient cpu.', 60);
    const other = about(stranger, 'Pulled', 'pulled', 50);
    const tree = buildTree(ROOT, OBJECTS, [scheduled, other]);
    assert.equal(chainText(tree, scheduled), 'Deployment/web > ReplicaSet/web-5d4 > Pod/web-5d4-aaaaa');
    assert.equal(tree.chainOf(other), undefined);
  });

  test('keeps a gone pod its ReplicaSet named, with its own events, marked gone', () => {
    const created = about(rs, 'SuccessfulCreate', 'Created pod: web-5d4-ccccc', 400);
    const gonePod = { apiVersion: 'v1', kind: 'Pod', name: 'web-5d4-ccccc', uid: 'p-c' };
    const killed = about(gonePod, 'Killing', 'Stopping container web', 300);
    const tree = buildTree(ROOT, OBJECTS, [created, killed]);
    assert.deepEqual(outline(tree), ['Deployment/web', 'ReplicaSet/web-5d4', 'Pod/web-5d4-aaaaa', 'Pod/web-5d4-bbbbb', 'Pod/web-5d4-ccccc (gone)']);
    assert.equal(chainText(tree, killed), 'Deployment/web > ReplicaSet/web-5d4 > Pod/web-5d4-ccccc*');
    assert.equal(tree.chainOf(killed)?.at(-1)?.uid, 'p-c');
  });

  test("follows a gone ReplicaSet's own messages to its gone pods (a rollout's old ReplicaSet)", () => {
    const oldRs = { apiVersion: APPS, kind: 'ReplicaSet', name: 'web-7f9', uid: 'rs-0' };
    const oldPod = { apiVersion: 'v1', kind: 'Pod', name: 'web-7f9-qqqqq', uid: '' };
    const events = [
      about(deploy, 'ScalingReplicaSet', 'Scaled up replica set web-7f9 from 0 to 1', 2000),
      about(oldRs, 'SuccessfulCreate', 'Created pod: web-7f9-qqqqq', 1990),
      about(oldPod, 'Started', 'Started container web', 1980),
      about(deploy, 'ScalingReplicaSet', 'Scaled down replica set web-7f9 from 1 to 0', 1000),
    ];
    const tree = buildTree(ROOT, OBJECTS, events);
    assert.deepEqual(outline(tree), ['Deployment/web', 'ReplicaSet/web-7f9 (gone)', 'Pod/web-7f9-qqqqq (gone)', 'ReplicaSet/web-5d4', 'Pod/web-5d4-aaaaa', 'Pod/web-5d4-bbbbb']);
    assert.equal(chainText(tree, events[2] as Event), 'Deployment/web > ReplicaSet/web-7f9* > Pod/web-7f9-qqqqq*');
    // known by name alone: the pod's events named no uid
    assert.equal(tree.chainOf(events[2] as Event)?.at(-1)?.uid, '');
  });

  test('tells incarnations apart: an old pod of a reused name is its own gone member, the live one keeps its events', () => {
    const sts = meta(APPS, 'StatefulSet', 'db', 's-1', undefined, 5000);
    const live = meta('v1', 'Pod', 'db-0', 'new-0', sts, 100);
    const oldPod = { ...live, uid: 'old-0' };
    const events = [
      about(sts, 'SuccessfulCreate', 'Create Pod db-0 in StatefulSet db successful', 4000),
      about(oldPod, 'Killing', 'Stopping container db', 3000),
      about(sts, 'SuccessfulCreate', 'Create Pod db-0 in StatefulSet db successful', 100),
      about(live, 'Started', 'Started container db', 90),
    ];
    const tree = buildTree({ kind: 'StatefulSet', group: 'apps', name: 'db', namespace: NS }, [sts, live], events);
    assert.deepEqual(outline(tree), ['StatefulSet/db', 'Pod/db-0 (gone)', 'Pod/db-0']);
    assert.equal(tree.chainOf(events[1] as Event)?.at(-1)?.uid, 'old-0');
    assert.equal(tree.chainOf(events[1] as Event)?.at(-1)?.gone, true);
    assert.equal(tree.chainOf(events[3] as Event)?.at(-1)?.uid, 'new-0');
    assert.equal(tree.chainOf(events[3] as Event)?.at(-1)?.gone, false);
  });

  test('an event naming no uid joins the incarnation identity.ts settles for it', () => {
    const noUid = about(podA, 'TaintManagerEviction', 'Marking for deletion Pod op-events/web-5d4-aaaaa', 30, '');
    const withUid = about(podA, 'Scheduled', 'assigned', 40);
    const tree = buildTree(ROOT, OBJECTS, [withUid, noUid]);
    assert.equal(tree.chainOf(noUid)?.at(-1)?.uid, 'p-a');
  });

  test('does not adopt a live object of the named name that another owner owns', () => {
    const taken = meta('v1', 'Pod', 'web-5d4-ddddd', 'p-d', stranger);
    const created = about(rs, 'SuccessfulCreate', 'Created pod: web-5d4-ddddd', 400);
    const tree = buildTree(ROOT, [...OBJECTS, taken], [created]);
    assert.ok(!tree.nodes.some((n) => n.name === 'web-5d4-ddddd'));
  });

  test('without ownership (null), builds the tree from the owners\' messages alone and marks nothing gone', () => {
    const events = [
      about(deploy, 'ScalingReplicaSet', 'Scaled up replica set web-5d4 from 0 to 2', 800),
      about(rs, 'SuccessfulCreate', 'Created pod: web-5d4-aaaaa', 790),
      about(podA, 'Scheduled', 'assigned', 780),
    ];
    const tree = buildTree(ROOT, null, events);
    assert.deepEqual(outline(tree), ['Deployment/web', 'ReplicaSet/web-5d4', 'Pod/web-5d4-aaaaa']);
    assert.equal(chainText(tree, events[2] as Event), 'Deployment/web > ReplicaSet/web-5d4 > Pod/web-5d4-aaaaa');
    assert.equal(tree.root.uid, 'd-1');
  });

  test('keeps objects a saved file saw owned by a member, absent now, as gone members', () => {
    const savedPod = meta('v1', 'Pod', 'web-5d4-eeeee', 'p-e', rs, 680);
    const tree = buildTree(ROOT, OBJECTS, [], { seen: [savedPod, podA] });
    assert.deepEqual(outline(tree), ['Deployment/web', 'ReplicaSet/web-5d4', 'Pod/web-5d4-aaaaa', 'Pod/web-5d4-eeeee (gone)', 'Pod/web-5d4-bbbbb']);
  });

  test('a child of a Kind the objects leave out (not allowed to list) is not known to be gone', () => {
    const created = about(rs, 'SuccessfulCreate', 'Created pod: web-5d4-ccccc', 400);
    const tree = buildTree(ROOT, [deploy, rs], [created], { untold: [{ group: '', kind: 'Pod' }] });
    assert.deepEqual(outline(tree), ['Deployment/web', 'ReplicaSet/web-5d4', 'Pod/web-5d4-ccccc']);
  });

  test('a root that no longer exists is told from its events, marked gone', () => {
    const events = [about(deploy, 'ScalingReplicaSet', 'Scaled up replica set web-5d4 from 0 to 1', 800)];
    const tree = buildTree(ROOT, [rs, podA], events);
    assert.deepEqual(outline(tree), ['Deployment/web (gone)', 'ReplicaSet/web-5d4', 'Pod/web-5d4-aaaaa']);
  });

  test('stops on an ownership cycle', () => {
    const a = meta('v1', 'ConfigMap', 'a', 'c-a');
    const b = meta('v1', 'ConfigMap', 'b', 'c-b', a);
    const a2 = { ...a, owners: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'b', uid: 'c-b', controller: false }] };
    const tree = buildTree({ kind: 'ConfigMap', group: '', name: 'a', namespace: NS }, [a2, b], []);
    assert.deepEqual(outline(tree), ['ConfigMap/a', 'ConfigMap/b']);
  });

  test('reads only the root namespace', () => {
    const elsewhere = { ...meta('v1', 'Pod', 'web-5d4-fffff', 'p-f', rs), namespace: 'other' };
    const tree = buildTree(ROOT, [...OBJECTS, elsewhere], []);
    assert.ok(!tree.nodes.some((n) => n.name === 'web-5d4-fffff'));
  });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normaliseEvent } from '../../../src/core/event.ts';
import type { Event, ObjectRef } from '../../../src/core/event.ts';
import { keyedByRef, nameKey, objectIdentities, objectUids } from '../../../src/core/identity.ts';
import { buildIncident } from '../../../src/core/incident.ts';
import type { IncidentContext } from '../../../src/core/incident.ts';
import { buildLanes } from '../../../src/core/lanes.ts';
import { sortTimeline } from '../../../src/core/timeline.ts';
import { ev, NOW } from '../../support/builders.ts';
import { fromCluster } from '../../support/sources.ts';

const CLUSTER: IncidentContext = { now: NOW, provenance: fromCluster(), eventTTLms: 3_600_000 };
const POD = { apiVersion: 'v1', kind: 'Pod', objectName: 'web-0' };
const OLD = 'aaaaaaaa-0000-0000-0000-000000000001';
const NEW = 'bbbbbbbb-0000-0000-0000-000000000002';

/** As pkg/controller/tainteviction writes it: apiVersion, Kind, namespace and name, no uid. */
function eviction(first: number): Record<string, unknown> {
  return ev({ ...POD, objectUid: '', reason: 'TaintManagerEviction', message: 'Marking for deletion Pod op-events/web-0', component: 'taint-eviction-controller', first });
}

const norm = (raw: Record<string, unknown>[]): Event[] => sortTimeline(raw.map(normaliseEvent));
const stories = (events: Event[]) => buildIncident(events, CLUSTER).objects.map((o) => [`${o.kind}/${o.name}`, o.uid, o.reports.map((r) => r.reason)]);

test('an event without a uid joins the one incarnation its name has', () => {
  const events = norm([eviction(100), ev({ ...POD, objectUid: OLD, type: 'Warning', reason: 'NodeNotReady', first: 120 }), ev({ ...POD, objectUid: OLD, reason: 'Killing', first: 90 })]);
  assert.deepEqual(stories(events), [['Pod/web-0', OLD, ['NodeNotReady', 'TaintManagerEviction', 'Killing']]]);
  const lanes = buildLanes(events)[0]?.lanes ?? [];
  assert.deepEqual(lanes.map((l) => [l.object.uid, l.size]), [[OLD, 3]]);
});

test('an event without a uid that comes first still tells the story under the uid', () => {
  const events = norm([eviction(200), ev({ ...POD, objectUid: OLD, reason: 'Killing', first: 90 })]);
  assert.deepEqual(stories(events), [['Pod/web-0', OLD, ['TaintManagerEviction', 'Killing']]]);
  assert.equal(buildLanes(events)[0]?.lanes[0]?.object.uid, OLD);
});

test('with two incarnations, an event without a uid inside the first one\'s window joins the first', () => {
  const events = norm([
    ev({ ...POD, objectUid: OLD, reason: 'Scheduled', first: 600 }),
    eviction(500),
    ev({ ...POD, objectUid: OLD, reason: 'Killing', first: 400 }),
    ev({ ...POD, objectUid: NEW, reason: 'Scheduled', first: 100 }),
  ]);
  assert.deepEqual(stories(events), [
    ['Pod/web-0', OLD, ['Scheduled', 'TaintManagerEviction', 'Killing']],
    ['Pod/web-0', NEW, ['Scheduled']],
  ]);
});

test('with two incarnations, an event without a uid outside both windows joins the newest', () => {
  const events = norm([ev({ ...POD, objectUid: OLD, reason: 'Scheduled', first: 600 }), ev({ ...POD, objectUid: NEW, reason: 'Scheduled', first: 300 }), eviction(10)]);
  assert.deepEqual(stories(events), [
    ['Pod/web-0', OLD, ['Scheduled']],
    ['Pod/web-0', NEW, ['Scheduled', 'TaintManagerEviction']],
  ]);
});

test('without a uid anywhere, the events of one name stay one story', () => {
  const events = norm([eviction(300), eviction(200), ev({ ...POD, objectUid: '', reason: 'Killing', first: 100 })]);
  assert.deepEqual(stories(events), [['Pod/web-0', null, ['TaintManagerEviction', 'TaintManagerEviction', 'Killing']]]);
  assert.deepEqual(buildLanes(events)[0]?.lanes.map((l) => l.size), [3]);
});

test('an event without a uid joins only an object of the same group, Kind, namespace and name', () => {
  const events = norm([
    ev({ ...POD, objectUid: OLD, first: 300 }),
    ev({ apiVersion: 'apps/v1', kind: 'Pod', objectName: 'web-0', objectUid: '', first: 250 }),
    ev({ ...POD, kind: 'Node', objectUid: '', first: 240 }),
    ev({ ...POD, objectName: 'web-1', objectUid: '', first: 230 }),
    ev({ ...POD, namespace: 'other', objectUid: '', first: 220 }),
  ]);
  const uidOf = objectUids(events);
  assert.deepEqual(events.map(uidOf), [OLD, '', '', '', '']);
  const idOf = objectIdentities(events);
  assert.equal(new Set(events.map(idOf)).size, 5);
});

test('another version of the same group names the same object', () => {
  const events = norm([ev({ apiVersion: 'ev.labhub.io/v1', objectUid: OLD, first: 300 }), ev({ apiVersion: 'ev.labhub.io/v1beta1', objectUid: '', first: 200 })]);
  assert.deepEqual(events.map(objectUids(events)), [OLD, OLD]);
});

test('keyedByRef makes a key once per ObjectRef, and two refs of different objects keep their own keys', () => {
  // The events about one object share one ObjectRef (core/compact.ts): 20,000 events about 400 objects make 400 keys.
  const made: string[] = [];
  const keyOf = keyedByRef((ref) => (made.push(ref.name), nameKey(ref)));
  const web: ObjectRef = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web', uid: 'u1', fieldPath: '' };
  const db = { ...web, name: 'db' };
  assert.equal(keyOf(web), nameKey(web));
  assert.equal(keyOf(web), nameKey(web));
  assert.equal(keyOf(db), nameKey(db));
  // An equal ref that is another object is keyed on its own, as nameKey would.
  assert.equal(keyOf({ ...web }), nameKey(web));
  assert.deepEqual(made, ['web', 'db', 'web']);
});

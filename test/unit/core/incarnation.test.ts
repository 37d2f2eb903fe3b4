import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { normaliseEvent } from '../../../src/core/event.ts';
import type { Event } from '../../../src/core/event.ts';
import { classifyIncarnation, compareWithLive, liveKey, objectsToLookUp, standingOf, standingsOf, summariseIncarnations } from '../../../src/core/incarnation.ts';
import { objectKey } from '../../../src/core/identity.ts';
import type { Incarnation, ObjectLookup } from '../../../src/core/incarnation.ts';
import { ago, ev, newEv } from '../../support/builders.ts';

const OLD = '11111111-2222-3333-4444-555555555555'; // ev()'s default object uid
const NEW = 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee';
const POD = '99999999-8888-7777-6666-555555555555';

const pipeline = (o: Parameters<typeof ev>[0] = {}): Event => normaliseEvent(ev(o));
const pod = (o: Parameters<typeof ev>[0] = {}): Event =>
  normaliseEvent(ev({ kind: 'Pod', apiVersion: 'v1', objectName: 'hungry', objectUid: POD, type: 'Warning', reason: 'FailedScheduling', ...o }));

/** Lookups keyed by the object each event names. */
function lookups(...pairs: [Event, ObjectLookup][]): Map<string, ObjectLookup> {
  return new Map(pairs.map(([e, found]) => [objectKey(e.object), found]));
}

const exists = (uid: string, created: string | null = ago(30)): ObjectLookup => ({ state: 'exists', uid, creationTimestamp: created });

describe('classifyIncarnation', () => {
  const cases: [string, Event, ObjectLookup | undefined, Incarnation][] = [
    ['the live object has the uid the event names: current', pipeline(), exists(OLD), 'current'],
    ['the live object has another uid: previous', pipeline(), exists(NEW), 'previous'],
    ['no object of that name: gone', pod(), { state: 'gone' }, 'gone'],
    ['a lookup that could not tell: unknown', pipeline(), { state: 'unknown', why: { reason: 'forbidden', step: 'get', target: 'pipelines' } }, 'unknown'],
    ['an object never looked up: unknown', pipeline(), undefined, 'unknown'],
    ['an event with no object uid: unknown, whatever exists', pipeline({ objectUid: '' }), exists(NEW), 'unknown'],
    ['an event with no object at all: unknown', pipeline({ noObject: true }), exists(NEW), 'unknown'],
    ['an event whose object names no apiVersion: unknown', pipeline({ apiVersion: '' }), exists(NEW), 'unknown'],
  ];
  for (const [name, event, found, want] of cases) {
    test(name, () => {
      const map = found === undefined ? new Map<string, ObjectLookup>() : lookups([event, found]);
      assert.equal(classifyIncarnation(event, map), want);
    });
  }

  test('compares Kind, apiVersion, namespace and name: another namespace is another object', () => {
    const there = pipeline({ namespace: 'elsewhere' });
    assert.equal(classifyIncarnation(there, lookups([pipeline(), exists(NEW)])), 'unknown');
  });
});

describe('objectsToLookUp', () => {
  test('names each object once, in the order first named, whatever its uid', () => {
    const events = [pipeline({ objectUid: OLD }), pod(), pipeline({ objectUid: NEW }), pipeline({ objectUid: OLD }), pod()];
    assert.deepEqual(
      objectsToLookUp(events).map((r) => `${r.apiVersion} ${r.kind}/${r.name}`),
      ['ev.labhub.io/v1 Pipeline/build-1', 'v1 Pod/hungry'],
    );
  });

  test('leaves out events that give nothing to compare: no uid, no object, no apiVersion', () => {
    assert.deepEqual(objectsToLookUp([pipeline({ objectUid: '' }), pipeline({ noObject: true }), pod({ apiVersion: '' })]), []);
  });
});

describe('summariseIncarnations', () => {
  const events = [
    pipeline({ name: 'build-1-started', first: 300 }),
    pipeline({ name: 'build-1-weird', first: 280 }),
    normaliseEvent(newEv({ name: 'build-1-done', first: 260 })),
    pipeline({ name: 'build-1-restarted', objectUid: NEW, first: 20 }),
    pod({ first: 200 }),
    normaliseEvent(ev({ kind: 'Widget', apiVersion: 'gone.example.com/v1', objectName: 'w', objectUid: 'w-uid' })),
  ];
  const found = lookups(
    [events[0] as Event, exists(NEW, '2026-11-30T11:59:30Z')],
    [events[4] as Event, { state: 'gone' }],
    [events[5] as Event, { state: 'unknown', why: { reason: 'not-served', apiVersion: 'gone.example.com/v1' } }],
  );

  test('tells a re-created object: the old uid, the new uid, when, and how many events each', () => {
    assert.deepEqual(summariseIncarnations(events, found).recreated, [
      {
        apiVersion: 'ev.labhub.io/v1',
        kind: 'Pipeline',
        name: 'build-1',
        namespace: 'op-events',
        previousUids: [OLD],
        currentUid: NEW,
        recreatedAt: '2026-11-30T11:59:30Z',
        previousEvents: 3,
        currentEvents: 1,
      },
    ]);
  });

  test('tells an object that is gone, with its uid and its events', () => {
    assert.deepEqual(summariseIncarnations(events, found).gone, [
      { apiVersion: 'v1', kind: 'Pod', name: 'hungry', namespace: 'op-events', uids: [POD], events: 1 },
    ]);
  });

  test('lists what could not be checked, and why', () => {
    assert.deepEqual(summariseIncarnations(events, found).unchecked, [
      { apiVersion: 'gone.example.com/v1', kind: 'Widget', name: 'w', namespace: 'op-events', why: { reason: 'not-served', apiVersion: 'gone.example.com/v1' }, events: 1 },
    ]);
  });

  test('says nothing about an object whose events are all about its current incarnation', () => {
    const current = [pipeline()];
    assert.deepEqual(summariseIncarnations(current, lookups([pipeline(), exists(OLD)])), { recreated: [], gone: [], unchecked: [] });
  });
});

describe('standingOf and compareWithLive', () => {
  const kept = pipeline({ uid: 'kept' });
  const expired = pipeline({ uid: 'expired' });
  const newer = pipeline({ uid: 'newer', objectUid: NEW });

  test('without live facts an event stands nowhere: nothing is claimed', () => {
    assert.deepEqual(standingOf(kept, {}), {});
    assert.equal(compareWithLive([kept], {}), null);
  });

  test('gives the incarnation when objects were looked up, and onServer when live events were read', () => {
    const facts = { lookups: lookups([kept, exists(NEW)]), liveUids: new Set(['kept']) };
    assert.deepEqual(standingOf(kept, facts), { incarnation: 'previous', onServer: true });
    assert.deepEqual(standingOf(expired, facts), { incarnation: 'previous', onServer: false });
  });

  test('counts the saved events the server no longer has, and the live ones the file lacks', () => {
    const compared = compareWithLive([kept, expired, pipeline({ uid: '' })], { liveUids: new Set(['kept', 'newer']), liveEvents: [kept, newer] });
    assert.deepEqual(
      { ...compared, onlyInSaved: compared?.onlyInSaved.map((e) => e.uid) },
      { savedEvents: 2, onlyInSaved: ['expired'], onlyOnServer: 1 },
    );
  });

  test('several contexts: each server\'s saved events are paired with the same server\'s live ones; a server not read is not compared', () => {
    const east = { context: 'east', server: 'https://east.example:6443' };
    const west = { context: 'west', server: 'https://west.example:6443' };
    const south = { context: 'south', server: 'https://south.example:6443' };
    // One uid in two clusters (a cluster restored from another's etcd): two events.
    const inEast = { ...pipeline({ uid: 'twin' }), cluster: east };
    const inWest = { ...pipeline({ uid: 'twin' }), cluster: west };
    const inSouth = { ...pipeline({ uid: 'other' }), cluster: south };
    // East still holds it (its URL spelled another way); west no longer does; south did not answer.
    const liveEast = { ...pipeline({ uid: 'twin' }), cluster: { context: 'east-now', server: 'HTTPS://EAST.example:6443/' } };
    const facts = { liveUids: new Set([liveKey(liveEast)]), liveEvents: [liveEast], comparedServers: new Set([liveKey({ ...inEast, uid: '' }).split('\u0000')[0] as string, 'https://west.example:6443']) };
    assert.deepEqual(standingOf(inEast, facts), { onServer: true });
    assert.deepEqual(standingOf(inWest, facts), { onServer: false });
    assert.deepEqual(standingOf(inSouth, facts), {});
    const compared = compareWithLive([inEast, inWest, inSouth], facts);
    assert.deepEqual({ ...compared, onlyInSaved: compared?.onlyInSaved.map((e) => e.cluster?.context) }, { savedEvents: 2, onlyInSaved: ['west'], onlyOnServer: 0 });
  });
});

describe('standingsOf', () => {
  test('says of each event what standingOf says, object by object and with --compare event by event', () => {
    const old = pipeline();
    const again = pipeline();
    const fresh = pipeline({ objectUid: NEW });
    const gone = pod();
    const found = lookups([old, exists(NEW)], [gone, { state: 'gone' }]);
    const events = [old, again, fresh, gone];
    for (const facts of [{ lookups: found }, { lookups: found, liveUids: new Set([again.uid]) }]) {
      const standing = standingsOf(facts);
      assert.deepEqual(events.map((e) => standing(e)), events.map((e) => standingOf(e, facts)));
    }
    assert.deepEqual(standingsOf({ lookups: found })(fresh), { incarnation: 'current' });
    assert.deepEqual(standingsOf({ lookups: found, liveUids: new Set([again.uid]) })(old), { incarnation: 'previous', onServer: false });
  });
});

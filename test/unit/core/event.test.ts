import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { normaliseClusterEvent, normaliseEvent, parseTime } from '../../../src/core/event.ts';
import { NOW, ago, ev, eventsV1, newEv } from '../../support/builders.ts';

const s = (seconds: number): number => NOW - seconds * 1000;

describe('normaliseEvent', () => {
  test('reads a legacy core/v1 event: source, count, first and last timestamps', () => {
    const e = normaliseEvent(
      ev({ name: 'build-1-started', component: 'pipeline-operator', host: 'node-a', count: 5, first: 120, last: 3 }),
    );
    assert.deepEqual(
      { name: e.name, reporter: e.reporter, instance: e.instance, count: e.count, firstSeen: e.firstSeen, lastSeen: e.lastSeen, seriesStyle: e.seriesStyle },
      { name: 'build-1-started', reporter: 'pipeline-operator', instance: 'node-a', count: 5, firstSeen: s(120), lastSeen: s(3), seriesStyle: false },
    );
    assert.deepEqual(e.object, {
      apiVersion: 'ev.labhub.io/v1',
      kind: 'Pipeline',
      name: 'build-1',
      namespace: 'op-events',
      uid: '11111111-2222-3333-4444-555555555555',
      fieldPath: '',
    });
  });

  test('reads the core/v1 view of an events.k8s.io/v1 event: reportingComponent, eventTime, count 0 as 1', () => {
    const e = normaliseEvent(newEv({ first: 30, instance: 'op-0', action: 'Reconcile' }));
    assert.deepEqual(
      { reporter: e.reporter, instance: e.instance, action: e.action, count: e.count, firstSeen: e.firstSeen, lastSeen: e.lastSeen, seriesStyle: e.seriesStyle },
      { reporter: 'pipeline-operator', instance: 'op-0', action: 'Reconcile', count: 1, firstSeen: s(30), lastSeen: s(30), seriesStyle: true },
    );
  });

  test('takes series.count and series.lastObservedTime over the legacy counters', () => {
    const e = normaliseEvent(newEv({ first: 600, seriesCount: 7, seriesLast: 10 }));
    assert.equal(e.count, 7);
    assert.equal(e.firstSeen, s(600));
    assert.equal(e.lastSeen, s(10));
  });

  test('reads the events.k8s.io/v1 view: regarding, note, reportingController', () => {
    const e = normaliseEvent(eventsV1({ name: 'build-1-done', note: 'Done.', kind: 'Pipeline', objectName: 'build-1', first: 60 }));
    assert.deepEqual(
      { name: e.name, message: e.message, reporter: e.reporter, instance: e.instance, kind: e.object.kind, object: e.object.name, firstSeen: e.firstSeen, count: e.count },
      { name: 'build-1-done', message: 'Done.', reporter: 'pipeline-operator', instance: 'pipeline-operator-0', kind: 'Pipeline', object: 'build-1', firstSeen: s(60), count: 1 },
    );
  });

  test('reads deprecatedSource and deprecatedCount of the events.k8s.io/v1 view of a legacy event', () => {
    const raw = eventsV1({ deprecatedCount: 4, deprecatedSource: { component: 'kubelet', host: 'node-a' }, controller: '', instance: '' });
    delete raw.eventTime;
    raw.deprecatedFirstTimestamp = ago(300);
    raw.deprecatedLastTimestamp = ago(20);
    const e = normaliseEvent(raw);
    assert.deepEqual(
      { reporter: e.reporter, instance: e.instance, count: e.count, firstSeen: e.firstSeen, lastSeen: e.lastSeen, seriesStyle: e.seriesStyle },
      { reporter: 'kubelet', instance: 'node-a', count: 4, firstSeen: s(300), lastSeen: s(20), seriesStyle: false },
    );
  });

  test('recognises the events.k8s.io/v1 view by its field names when apiVersion is missing', () => {
    const raw = eventsV1({ deprecatedCount: 3 });
    delete raw.apiVersion;
    delete raw.regarding;
    delete raw.note;
    assert.equal(normaliseEvent(raw).count, 3);
  });

  test('reads the events.k8s.io/v1 series', () => {
    const e = normaliseEvent(eventsV1({ first: 900, seriesCount: 3, seriesLast: 5 }));
    assert.deepEqual({ count: e.count, lastSeen: e.lastSeen, seriesStyle: e.seriesStyle }, { count: 3, lastSeen: s(5), seriesStyle: true });
  });

  test('falls back to creationTimestamp when no event time is set', () => {
    const raw = ev({ first: 50 });
    raw.firstTimestamp = null;
    raw.lastTimestamp = null;
    const e = normaliseEvent(raw);
    assert.equal(e.firstSeen, s(50));
    assert.equal(e.lastSeen, s(50));
  });

  test('treats Go zero time as unset', () => {
    const raw = ev({});
    raw.firstTimestamp = '0001-01-01T00:00:00Z';
    raw.lastTimestamp = '0001-01-01T00:00:00Z';
    (raw.metadata as Record<string, unknown>).creationTimestamp = undefined;
    const e = normaliseEvent(raw);
    assert.equal(e.firstSeen, null);
    assert.equal(e.lastSeen, null);
  });

  test('gives an event with no involvedObject an empty object reference', () => {
    const e = normaliseEvent(ev({ noObject: true }));
    assert.deepEqual(e.object, { apiVersion: '', kind: '', name: '', namespace: '', uid: '', fieldPath: '' });
  });

  const malformed: [string, unknown][] = [
    ['null', null],
    ['undefined', undefined],
    ['a string', 'build-1-started'],
    ['a number', 42],
    ['an array', [ev({})]],
    ['an object without metadata', { reason: 'X', type: 'Normal' }],
    ['an object with wrongly typed fields', { metadata: 'x', involvedObject: [1], count: '5', series: 3, firstTimestamp: 12 }],
  ];
  for (const [what, input] of malformed) {
    test(`never throws on ${what}`, () => {
      const e = normaliseEvent(input);
      assert.equal(e.uid, '');
      assert.equal(e.count, 1);
      assert.equal(e.firstSeen, null);
      assert.equal(e.object.kind, '');
    });
  }
});

describe('parseTime', () => {
  const cases: [string, unknown, number | null][] = [
    ['RFC 3339 in seconds', '2026-11-30T11:59:00Z', Date.parse('2026-11-30T11:59:00Z')],
    ['six fractional digits, to the millisecond', '2026-11-30T11:59:00.123456Z', Date.parse('2026-11-30T11:59:00.123Z')],
    ['a Date object as client-node returns', new Date(NOW), NOW],
    ['an empty string as null', '', null],
    ['garbage as null', 'yesterday-ish', null],
    ['an invalid Date as null', new Date('x'), null],
  ];
  for (const [name, input, want] of cases) {
    test(`reads ${name}`, () => assert.equal(parseTime(input), want));
  }
});

describe('normaliseClusterEvent', () => {
  test('is the normalised event with its context, and one label object shared by the events of a context', () => {
    const east = { context: 'east', server: 'https://east.example:6443' };
    const raws = [ev({ reason: 'Pulled', message: 'Pulled image' }), newEv({ reason: 'Scheduled' })];
    const labelled = raws.map((raw) => normaliseClusterEvent(raw, east));
    assert.deepEqual(labelled, raws.map((raw) => ({ ...normaliseEvent(raw), cluster: east })));
    assert.ok(labelled.every((e) => e.cluster === east));
  });

  test('normaliseEvent stays unlabelled, even as a map callback (an index is not a context)', () => {
    assert.ok(!('cluster' in normaliseEvent(ev({}))));
    assert.ok([ev({}), ev({})].map(normaliseEvent).every((e) => !('cluster' in e)));
  });
});

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { normaliseEvent } from '../../../src/core/event.ts';
import { notesAbout, recorderNotes } from '../../../src/core/recorder-notes.ts';
import { eventCompactor } from '../../../src/core/compact.ts';
import { NOW, ev, newEv } from '../../support/builders.ts';

const pod = { kind: 'Pod', apiVersion: 'v1', objectName: 'web-0', objectUid: 'pod-uid', component: 'kubelet', host: 'node-k' };

describe('recorderNotes: the legacy recorder spam filter (25 at once, then one every 5 minutes)', () => {
  test('says nothing of 24 occurrences in a burst: the bucket still holds a token', () => {
    const notes = recorderNotes([normaliseEvent(ev({ ...pod, type: 'Warning', reason: 'BackOff', count: 24, first: 60, last: 50 }))]);
    assert.deepEqual(notes.spam, []);
  });

  test('notes 25 occurrences within seconds: later reports may be missing, the next could have come 5 minutes after the first', () => {
    const notes = recorderNotes([normaliseEvent(ev({ ...pod, type: 'Warning', reason: 'BackOff', count: 25, first: 60, last: 50 }))]);
    assert.equal(notes.spam.length, 1);
    const [note] = notes.spam;
    assert.equal(note?.occurrences, 25);
    assert.equal(note?.emptiedAt, NOW - 50_000);
    // full at the first write (60 s ago), one token back 300 s later
    assert.equal(note?.nextAt, NOW - 60_000 + 300_000);
  });

  test('counts 25 distinct events of one source, object and type whatever their reasons', () => {
    const events = Array.from({ length: 25 }, (_, i) => normaliseEvent(ev({ ...pod, type: 'Warning', reason: `Reason${i % 3}`, message: `m${i}`, first: 100 - i })));
    assert.equal(recorderNotes(events).spam.length, 1);
  });

  test('keeps two types of one object apart (the spam key holds the type)', () => {
    const events = [
      normaliseEvent(ev({ ...pod, type: 'Warning', reason: 'BackOff', count: 20, first: 60, last: 50 })),
      normaliseEvent(ev({ ...pod, type: 'Normal', reason: 'Pulled', count: 20, first: 60, last: 50 })),
    ];
    assert.deepEqual(recorderNotes(events).spam, []);
  });

  test('says nothing when 30 occurrences were spread over 3 hours: the bucket refilled', () => {
    const notes = recorderNotes([normaliseEvent(ev({ ...pod, type: 'Warning', reason: 'BackOff', count: 30, first: 3 * 3600 + 60, last: 60 }))]);
    assert.deepEqual(notes.spam, []);
  });

  test('leaves events.k8s.io events out: that recorder has no spam filter', () => {
    const notes = recorderNotes([normaliseEvent(newEv({ type: 'Warning', reason: 'FailedScheduling', seriesCount: 40, first: 60, seriesLast: 10 }))]);
    assert.deepEqual(notes.spam, []);
  });

  test('notes emptied at the same moment come in one order, whatever the order the events came in (a store answers in none)', () => {
    const events = ['web-2', 'web-0', 'web-1'].map((objectName, i) => normaliseEvent(ev({ ...pod, objectName, objectUid: `uid-${i}`, type: 'Warning', reason: 'BackOff', count: 25, first: 60, last: 50 })));
    const names = (list: typeof events) => recorderNotes(list).spam.map((n) => n.object.name);
    assert.deepEqual(names(events), ['web-0', 'web-1', 'web-2']);
    assert.deepEqual(names([...events].reverse()), ['web-0', 'web-1', 'web-2']);
  });

  test('does not simulate a hostile count of 2^31 occurrence by occurrence', () => {
    const started = performance.now();
    const notes = recorderNotes([normaliseEvent(ev({ ...pod, type: 'Warning', count: 2 ** 31 - 1, first: 600, last: 0 }))]);
    assert.equal(notes.spam.length, 1);
    assert.ok(performance.now() - started < 1000);
  });
});

describe('recorderNotes: the aggregator and the series', () => {
  test('notes an event whose message starts "(combined from similar events): "', () => {
    const combined = normaliseEvent(ev({ ...pod, reason: 'Synced', message: '(combined from similar events): item 14 synced', count: 5 }));
    const plain = normaliseEvent(ev({ ...pod, reason: 'Synced', message: 'item 3 synced' }));
    const notes = recorderNotes([combined, plain]);
    assert.deepEqual(notes.combined.map((n) => n.event.message), ['(combined from similar events): item 14 synced']);
  });

  test('notes a series with its last observed time, and not a single events.k8s.io event', () => {
    const series = normaliseEvent(newEv({ reason: 'FailedScheduling', seriesCount: 2, first: 120, seriesLast: 100 }));
    const single = normaliseEvent(newEv({ reason: 'Scheduled', first: 50 }));
    const notes = recorderNotes([series, single]);
    assert.equal(notes.series.length, 1);
    assert.equal(notes.series[0]?.lastObserved, NOW - 100_000);
  });

  test('notes nothing on the lab: a handful of events', async () => {
    const { labEvents } = await import('../../support/builders.ts');
    const notes = recorderNotes(labEvents().map(normaliseEvent));
    assert.deepEqual(notes, { spam: [], combined: [], series: [] });
  });
});

describe('notesAbout: the notes each printed event carries (-o json, yaml)', () => {
  test('events about one object (one shared ObjectRef) each get the spam note of their own type and source, asked in any order', () => {
    const compact = eventCompactor();
    const [warning, normal, other] = [
      ev({ ...pod, type: 'Warning', reason: 'BackOff', count: 25, first: 60, last: 50 }),
      ev({ ...pod, type: 'Normal', reason: 'Pulled', count: 30, first: 60, last: 50 }),
      ev({ ...pod, component: 'other-reporter', type: 'Warning', reason: 'BackOff', count: 1, first: 60, last: 50 }),
    ].map((raw) => compact(normaliseEvent(raw)));
    assert.ok(warning && normal && other && warning.object === normal.object && normal.object === other.object);
    const about = notesAbout(recorderNotes([warning, normal, other]));
    for (const event of [other, normal, warning, warning, other, normal]) {
      const spam = about(event)?.spam ?? [];
      if (event === other) assert.deepEqual(spam, []);
      else assert.deepEqual(spam.map((n) => [n.type, n.reporter, n.occurrences]), [[event.type, 'kubelet', event.count]]);
    }
  });
});

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { normaliseEvent } from '../../../src/core/event.ts';
import { recorderNotes } from '../../../src/core/recorder-notes.ts';
import { recorderNoteLines, recorderNotesJson, recorderNotesJsonOnce } from '../../../src/render/recorder-notes.ts';
import { NOW, ev, newEv } from '../../support/builders.ts';

const lines = (raw: Record<string, unknown>[], all = false) => recorderNoteLines(recorderNotes(raw.map(normaliseEvent)), { now: NOW, absolute: false }, all);

describe('recorderNoteLines', () => {
  test('tells many series of one reporter and reason as one line', () => {
    const series = Array.from({ length: 400 }, (_, i) => newEv({ reason: 'FailedScheduling', component: 'default-scheduler', objectName: `p-${i}`, seriesCount: 2 + (i % 3), first: 100, seriesLast: 60 }));
    const [line, ...rest] = lines(series);
    assert.deepEqual(rest, []);
    assert.match(line ?? '', /^- 400 series of FailedScheduling from default-scheduler \(counts 2 to 4, last observed 2026-11-30T11:59:00Z \(60s ago\)\): .*may lag by up to 30m/);
  });
  test('says "each count 2" when the counts are all the same', () => {
    const series = [1, 2].map((i) => newEv({ reason: 'FailedScheduling', component: 'default-scheduler', objectName: `p-${i}`, seriesCount: 2, first: 100, seriesLast: 60 }));
    assert.match(lines(series)[0] ?? '', /\(each count 2, /);
  });
  test('caps each kind at 5 lines and counts the rest, unless asked for all', () => {
    const combined = Array.from({ length: 8 }, (_, i) => ev({ objectName: `o-${i}`, reason: 'Synced', message: `(combined from similar events): ${i}` }));
    assert.equal(lines(combined).length, 6);
    assert.equal(lines(combined).at(-1), '- and 3 more combined events like this.');
    assert.equal(lines(combined, true).length, 8);
    // The lines shown are the first of all of them (made only for those shown).
    assert.deepEqual(lines(combined).slice(0, 5), lines(combined, true).slice(0, 5));
  });
  test('escapes the text of a hostile event', () => {
    const [line] = lines([ev({ objectName: 'x\u001b[2J', reason: 'R\r', message: '(combined from similar events): \u202eevil' })]);
    assert.doesNotMatch(line ?? '', /\u001b|\r|\u202e/);
  });
  test('says a next report still to come as "can come at T (in ...)", and one past as "could have come"', () => {
    const soon = lines(Array.from({ length: 25 }, (_, i) => ev({ kind: 'Pod', objectName: 'p', type: 'Warning', reason: 'BackOff', message: `m${i}`, first: 100 })));
    assert.match(soon[0] ?? '', /the next can come at 2026-11-30T12:03:20Z \(in 3m20s\)\.$/);
    const past = lines(Array.from({ length: 25 }, (_, i) => ev({ kind: 'Pod', objectName: 'p', type: 'Warning', reason: 'BackOff', message: `m${i}`, first: 600 })));
    assert.match(past[0] ?? '', /the next could have come at 2026-11-30T11:55:00Z \(5m ago\)\.$/);
  });
});

describe('recorderNotesJsonOnce: a spam note made once for all the events it is printed on', () => {
  test('gives what recorderNotesJson gives, for every event, note after note', () => {
    const pod = { kind: 'Pod', apiVersion: 'v1', objectName: 'web-0', objectUid: 'pod-uid', component: 'kubelet', host: 'node-k' };
    const notes = recorderNotes([
      normaliseEvent(ev({ ...pod, type: 'Warning', reason: 'BackOff', count: 25, first: 60, last: 50 })),
      normaliseEvent(ev({ ...pod, type: 'Normal', reason: 'Pulled', count: 40, first: 90, last: 10 })),
      normaliseEvent(ev({ ...pod, reason: 'Synced', message: '(combined from similar events): item 14 synced', count: 5 })),
    ]);
    assert.equal(notes.spam.length, 2);
    const once = recorderNotesJsonOnce();
    for (const one of [...notes.spam, notes.spam[0], ...notes.spam].map((n) => ({ ...notes, spam: n === undefined ? [] : [n] }))) {
      assert.deepEqual(once(one), recorderNotesJson(one));
    }
    assert.deepEqual(once(notes), recorderNotesJson(notes));
  });
});

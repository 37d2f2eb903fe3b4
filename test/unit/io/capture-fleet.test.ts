// A capture of several contexts (capture --context a,b): events.json names each context and the
// context of each object; read back, each event is labelled with its context and server, -n keeps
// each object with its own context, and contexts that do not match the objects are not believed.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileSource, parseEventsText } from '../../../src/io/event-file.ts';
import { fleetOf } from '../../../src/core/source.ts';
import { ev } from '../../support/builders.ts';

const clusters = [
  { context: 'east', server: 'https://10.0.0.1:6443', namespace: 'shop' },
  { context: 'west', server: 'https://10.0.0.2:6443', namespace: 'web' },
];
const core = [ev({ namespace: 'shop', name: 'a', uid: 'same' }), ev({ namespace: 'web', name: 'b', uid: 'same' }), ev({ namespace: 'shop', name: 'c', uid: 'c' })];
const doc = (o: Record<string, unknown> = {}) =>
  JSON.stringify({ kind: 'EvtimelineCapture', version: 1, context: 'east,west', server: '', namespace: null, capturedAt: '2026-12-01T12:00:00Z', core, eventsK8sIo: [], clusters, coreContexts: ['east', 'west', 'east'], ...o });
const noOtlp = () => null;

describe('a capture of several contexts', () => {
  test('each event labelled with its context and server; one uid in two clusters stays two events', async () => {
    const source = fileSource(parseEventsText(doc(), 'cap/events.json', noOtlp), null);
    assert.deepEqual(fleetOf(source.provenance), clusters);
    const { events, raw } = await source.read({ raw: true });
    assert.deepEqual(events.map((e) => [e.name, e.cluster?.context, e.cluster?.server]), [['a', 'east', 'https://10.0.0.1:6443'], ['b', 'west', 'https://10.0.0.2:6443'], ['c', 'east', 'https://10.0.0.1:6443']]);
    assert.deepEqual(raw?.coreContexts, ['east', 'west', 'east']);
    assert.deepEqual((await source.versions())?.map((v) => v.cluster?.context), ['east', 'west', 'east']);
  });

  test('-n keeps each object with its own context', async () => {
    const source = fileSource(parseEventsText(doc(), 'cap/events.json', noOtlp), 'web');
    const { events, raw } = await source.read({ raw: true });
    assert.deepEqual(events.map((e) => [e.name, e.cluster?.context]), [['b', 'west']]);
    assert.deepEqual(raw?.coreContexts, ['west']);
  });

  test('contexts that do not match the objects one for one are not believed: it reads as one context', async () => {
    for (const bad of [{ coreContexts: ['east'] }, { coreContexts: ['east', 7, 'east'] }, { clusters: 'east' }]) {
      const source = fileSource(parseEventsText(doc(bad), 'cap/events.json', noOtlp), null);
      assert.equal(fleetOf(source.provenance), undefined, JSON.stringify(bad));
      assert.deepEqual((await source.read()).events.map((e) => e.cluster), [undefined, undefined, undefined]);
    }
  });
});

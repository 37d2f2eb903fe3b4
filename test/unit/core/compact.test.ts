import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { eventCompactor } from '../../../src/core/compact.ts';
import { normaliseEvent } from '../../../src/core/event.ts';
import { ev } from '../../support/builders.ts';

describe('eventCompactor', () => {
  test('returns an equal event', () => {
    const event = normaliseEvent(ev({ name: 'a', reason: 'Pulled', message: 'Pulled image' }));
    assert.deepEqual(eventCompactor()(event), event);
  });

  test('keeps every field an event carries, whatever its type adds', () => {
    const event = { ...normaliseEvent(ev({ name: 'a' })), extra: 1 } as never;
    assert.equal((eventCompactor()(event) as unknown as { extra: number }).extra, 1);
  });

  test('leaves the events it was given as they were', () => {
    const event = normaliseEvent(ev({ name: 'a' }));
    const before = structuredClone(event);
    eventCompactor()(event);
    assert.deepEqual(event, before);
  });
});

describe('eventCompactor: what it shares', () => {
  test('events about one object share one ObjectRef; another container of it (fieldPath) gets its own', () => {
    const compact = eventCompactor();
    const [a, b, c] = [{}, {}, { fieldPath: 'spec.containers{sidecar}' }].map((o) => compact(normaliseEvent(ev({ objectName: 'web-1', ...o }))));
    assert.equal(a?.object, b?.object);
    assert.notEqual(a?.object, c?.object);
    assert.equal(c?.object.fieldPath, 'spec.containers{sidecar}');
  });

  test('thousands of names under one object uid (anyone may write an Event): each event keeps its own', () => {
    const compact = eventCompactor();
    const names = Array.from({ length: 3000 }, (_, i) => `pod-${i}`);
    const kept = names.map((objectName) => compact(normaliseEvent(ev({ objectName, objectUid: 'same-uid' }))));
    assert.deepEqual(kept.map((e) => e.object.name), names);
    assert.ok(kept.every((e) => e.object.uid === 'same-uid'));
  });

  test('a ref that carries a field of its own is not handed to an event whose ref has none', () => {
    const compact = eventCompactor();
    const plain = normaliseEvent(ev({ objectName: 'web-1' }));
    const marked = { ...plain, object: { ...plain.object, extra: 1 } } as never as typeof plain;
    compact(marked);
    assert.equal(Object.hasOwn(compact(plain).object, 'extra'), false);
  });

  test('every message comes back as it was, after many that never repeat and then repeats', () => {
    const compact = eventCompactor();
    const messages = [...Array.from({ length: 2500 }, (_, i) => `Pulled image web:${i} in ${i} ms`), ...Array.from({ length: 500 }, () => 'Started container web')];
    assert.deepEqual(messages.map((message) => compact(normaliseEvent(ev({ message }))).message), messages);
  });
});

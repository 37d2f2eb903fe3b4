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

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { keptVersions } from '../../../src/core/keep.ts';
import { normaliseEvent } from '../../../src/core/event.ts';
import type { Event } from '../../../src/core/event.ts';

/** Each Event field read by name, as the table and the documents read them. */
const fields = (events: readonly Event[]) => events.map((e) => Object.fromEntries(Object.keys(normaliseEvent({})).map((key) => [key, structuredClone(e[key as keyof Event])])));

describe("keptVersions('table'): names, uids and numbers in columns", () => {
  test('reads back every field of every kept version as the whole events do, whatever the names and uids', () => {
    const objectName = fc.constantFrom('', 'web', 'web-5d9f7c8b4-77de6', 'web.', 'wéb', 'a'.repeat(300));
    // client-go's <object>.<hex> and anything else: the object's name alone, with a dot only, another prefix, non-ASCII.
    const nameFor = (object: string) => fc.oneof(fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 1, maxLength: 16 }).map((hex) => `${object}.${hex}`), fc.constantFrom(object, `${object}.`, `${object}x.1`, `x${object}.1`, `${object}.é`), fc.string({ unit: 'binary', maxLength: 30 }));
    const uid = fc.oneof(fc.uuid(), fc.uuid().map((u) => u.toUpperCase()), fc.string({ maxLength: 40 }));
    const version = objectName.chain((object) =>
      fc.record({ slot: fc.nat(40), name: nameFor(object), uid, object: fc.constant(object), message: fc.string({ maxLength: 20 }), count: fc.integer({ min: 1, max: 9 }), series: fc.boolean(), rv: fc.nat(1000) }),
    );
    fc.assert(
      fc.property(fc.array(version, { maxLength: 120 }), (versions) => {
        const whole = keptVersions('all');
        const table = keptVersions('table');
        let slots = 0;
        for (const v of versions) {
          const event = normaliseEvent({
            metadata: { name: v.name, namespace: 'ns', uid: v.uid, resourceVersion: String(v.rv) },
            involvedObject: { kind: 'Pod', name: v.object, namespace: 'ns' },
            message: v.message,
            count: v.count,
            lastTimestamp: '2026-11-30T11:00:00Z',
            ...(v.series ? { eventTime: '2026-11-30T10:59:00.000000Z' } : {}),
          });
          // A new slot, or one kept before written over (as a fold does with a newer version).
          const slot = Math.min(v.slot, slots);
          whole.keep(slot, structuredClone(event));
          table.keep(slot, event);
          if (slot === slots) slots += 1;
          assert.ok(table.uidIs(slot, v.uid));
        }
        assert.deepEqual(fields(table.events()), fields(whole.events()));
      }),
    );
  });
});

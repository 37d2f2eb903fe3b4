import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { normaliseEvent } from '../../../src/core/event.ts';
import { formatLastSeen } from '../../../src/render/last-seen.ts';
import { NOW, ev, eventsV1, newEv } from '../../support/builders.ts';

// Expected strings are what kubectl's getInterval (event_printer.go) prints for the same raw event.
describe('formatLastSeen', () => {
  const cases: [string, unknown, string][] = [
    ['a single legacy event shows the age of firstTimestamp', ev({ first: 90 }), '90s'],
    ['a legacy event with count 1 ignores a later lastTimestamp', ev({ first: 90, last: 5, count: 1 }), '90s'],
    ['a repeated legacy event reads like the lab step 5', ev({ count: 5, first: 120, last: 3 }), '3s (x5 over 2m)'],
    ['a legacy event repeated over hours', ev({ count: 42, first: 3 * 3600 + 300, last: 610 }), '10m (x42 over 3h5m)'],
    ['an events.k8s.io event without series shows the age of eventTime', newEv({ first: 60 }), '60s'],
    ['an events.k8s.io event with series uses series.count and lastObservedTime', newEv({ first: 1200, seriesCount: 2, seriesLast: 30 }), '30s (x2 over 20m)'],
    ['the events.k8s.io/v1 view with series reads the same', eventsV1({ first: 1200, seriesCount: 2, seriesLast: 30 }), '30s (x2 over 20m)'],
    ['an event in the future beyond clock skew is <invalid>', ev({ first: -10 }), '<invalid>'],
  ];
  for (const [name, raw, want] of cases) {
    test(name, () => assert.equal(formatLastSeen(normaliseEvent(raw), NOW), want));
  }

  test('shows <unknown> when the event carries no time at all', () => {
    const raw = ev({});
    raw.firstTimestamp = null;
    raw.lastTimestamp = null;
    delete (raw.metadata as Record<string, unknown>).creationTimestamp;
    assert.equal(formatLastSeen(normaliseEvent(raw), NOW), '<unknown>');
  });
});

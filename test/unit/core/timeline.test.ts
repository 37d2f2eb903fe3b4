import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { normaliseEvent } from '../../../src/core/event.ts';
import { compareBytes, compareContent, dedupeByUid, sortTimeline, stableLines } from '../../../src/core/timeline.ts';
import type { Event } from '../../../src/core/event.ts';
import { isConventionalType } from '../../../src/core/types.ts';
import { renderStable } from '../../../src/render/stable.ts';
import { ev, eventsV1, labEvents, newEv, type EvOptions } from '../../support/builders.ts';

const norm = (o: EvOptions) => normaliseEvent(ev(o));

function withRv(raw: Record<string, unknown>, rv: string): Record<string, unknown> {
  (raw.metadata as Record<string, unknown>).resourceVersion = rv;
  return raw;
}

describe('stableLines', () => {
  test('turns the lab fixture into exactly the four lines of timeline.sh', () => {
    assert.deepEqual(stableLines(labEvents().map(normaliseEvent)), [
      'Critical StageUnknown Pipeline/build-1',
      'Normal ReconcileStarted Pipeline/build-1',
      'Normal ReconcileSucceeded Pipeline/build-1',
      'Warning FailedScheduling Pod/hungry',
    ]);
  });

  test('prints each line once when both APIs list the same events', () => {
    const both = [...labEvents(), ...labEvents()].map(normaliseEvent);
    assert.equal(stableLines(both).length, 4);
  });

  test('writes <none> for an empty type, reason or object', () => {
    assert.deepEqual(stableLines([norm({ type: '', reason: '', noObject: true })]), ['<none> <none> <none>/<none>']);
  });

  test('sorts byte-wise: upper case before lower case, unlike localeCompare', () => {
    const events = [norm({ reason: 'alpha' }), norm({ reason: 'Beta' }), norm({ reason: 'Zeta' })];
    assert.deepEqual(stableLines(events), [
      'Normal Beta Pipeline/build-1',
      'Normal Zeta Pipeline/build-1',
      'Normal alpha Pipeline/build-1',
    ]);
  });
});

describe('renderStable', () => {
  test('prints the lines with a trailing newline', () => {
    assert.equal(
      renderStable(labEvents().map(normaliseEvent)),
      'Critical StageUnknown Pipeline/build-1\n' +
        'Normal ReconcileStarted Pipeline/build-1\n' +
        'Normal ReconcileSucceeded Pipeline/build-1\n' +
        'Warning FailedScheduling Pod/hungry\n',
    );
  });

  test('prints nothing for no events', () => assert.equal(renderStable([]), ''));

  test('escapes terminal control characters in every value', () => {
    const out = renderStable([norm({ type: 'Normal\u001b[2J', reason: 'Re\rason', objectName: 'x\u202ey' })]);
    assert.equal(out, 'Normal^[[2J Re\\rason Pipeline/x\\u202ey\n');
  });
});

describe('compareBytes', () => {
  const cases: [string, string, string, number][] = [
    ['equal strings are equal', 'abc', 'abc', 0],
    ['a prefix sorts first', 'ab', 'abc', -1],
    ['upper case sorts before lower case', 'Z', 'a', -1],
    ['an astral character sorts after U+FFxx as UTF-8 bytes do', '\u{1F600}', '\uFF01', 1],
  ];
  for (const [name, a, b, sign] of cases) {
    test(name, () => assert.equal(Math.sign(compareBytes(a, b)), sign));
  }
});

describe('dedupeByUid', () => {
  test('keeps one event per uid when core/v1 and events.k8s.io/v1 list the same one', () => {
    const core = normaliseEvent(withRv(newEv({ uid: 'u-1', name: 'build-1-done' }), '1234'));
    const other = normaliseEvent(withRv(eventsV1({ uid: 'u-1', name: 'build-1-done' }), '1234'));
    const out = dedupeByUid([core, other]);
    assert.equal(out.length, 1);
    assert.equal(out[0], core);
  });

  test('keeps the version with the higher resourceVersion, compared as numbers', () => {
    const old = normaliseEvent(withRv(ev({ uid: 'u-1', count: 9 }), '999'));
    const fresh = normaliseEvent(withRv(ev({ uid: 'u-1', count: 2 }), '1000'));
    assert.equal(dedupeByUid([fresh, old])[0], fresh);
    assert.equal(dedupeByUid([old, fresh])[0], fresh);
  });

  test('falls back to the later lastSeen when resourceVersions are not numbers', () => {
    const early = normaliseEvent(withRv(ev({ uid: 'u-1', first: 100, last: 50 }), 'abc'));
    const late = normaliseEvent(withRv(ev({ uid: 'u-1', first: 100, last: 5 }), 'abd'));
    assert.equal(dedupeByUid([late, early])[0], late);
  });

  test('falls back to the higher count when times tie', () => {
    const low = normaliseEvent(withRv(ev({ uid: 'u-1', count: 2 }), ''));
    const high = normaliseEvent(withRv(ev({ uid: 'u-1', count: 3 }), ''));
    assert.equal(dedupeByUid([low, high])[0], high);
  });

  test('dedupes events without uid by namespace and name', () => {
    const a = normaliseEvent(withRv(ev({ uid: '', name: 'same', namespace: 'a' }), '7'));
    const b = normaliseEvent(withRv(ev({ uid: '', name: 'same', namespace: 'a' }), '7'));
    const c = normaliseEvent(withRv(ev({ uid: '', name: 'same', namespace: 'b' }), '7'));
    assert.deepEqual(dedupeByUid([a, b, c]), [a, c]);
  });

  test('keeps every event that has neither uid nor name', () => {
    const a = normaliseEvent({ reason: 'A' });
    const b = normaliseEvent({ reason: 'B' });
    assert.deepEqual(dedupeByUid([a, b]), [a, b]);
  });

  test('keeps the order of first appearance', () => {
    const [x, y, z] = [norm({ uid: 'x' }), norm({ uid: 'y' }), norm({ uid: 'z' })];
    assert.deepEqual(dedupeByUid([y, x, y, z, x]).map((e) => e.uid), ['y', 'x', 'z']);
  });
});

describe('sortTimeline', () => {
  test('orders the lab fixture by first occurrence', () => {
    const sorted = sortTimeline(labEvents().map(normaliseEvent).reverse());
    assert.deepEqual(sorted.map((e) => e.name), ['build-1-started', 'build-1-weird', 'build-1-done', 'hungry.18a1b2c3d4e5f607']);
  });

  test('puts events with no time first', () => {
    const raw = ev({ name: 'timeless' });
    raw.firstTimestamp = null;
    raw.lastTimestamp = null;
    delete (raw.metadata as Record<string, unknown>).creationTimestamp;
    const sorted = sortTimeline([norm({ name: 'timed', first: 10 }), normaliseEvent(raw)]);
    assert.deepEqual(sorted.map((e) => e.name), ['timeless', 'timed']);
  });

  test('breaks ties by lastSeen, then namespace, then name', () => {
    const events = [
      norm({ name: 'b', namespace: 'ns2', first: 60, last: 10 }),
      norm({ name: 'a', namespace: 'ns2', first: 60, last: 10 }),
      norm({ name: 'z', namespace: 'ns1', first: 60, last: 10 }),
      norm({ name: 'y', namespace: 'ns9', first: 60, last: 30 }),
    ];
    assert.deepEqual(sortTimeline(events).map((e) => `${e.namespace}/${e.name}`), ['ns9/y', 'ns1/z', 'ns2/a', 'ns2/b']);
  });

  test('does not change the array it is given', () => {
    const events = labEvents().map(normaliseEvent).reverse();
    const first = events[0];
    sortTimeline(events);
    assert.equal(events[0], first);
  });
});

describe('isConventionalType', () => {
  const cases: [string, boolean][] = [
    ['Normal', true],
    ['Warning', true],
    ['warning', false],
    ['Critical', false],
    ['', false],
  ];
  for (const [type, want] of cases) {
    test(`${JSON.stringify(type)} is ${want ? '' : 'not '}conventional`, () => assert.equal(isConventionalType(type), want));
  }
});

test('a timeline is one order whatever order the events came in, and sorting it again keeps it', () => {
  // Ties on purpose: few times (some null), names and objects, so the order rests on names and content.
  const one = fc.record({
    first: fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }),
    last: fc.integer({ min: 0, max: 4 }),
    name: fc.constantFrom('a', 'b', 'web.17f', ''),
    reason: fc.constantFrom('Started', 'BackOff'),
    objectName: fc.constantFrom('web-1', 'web-2'),
  });
  fc.assert(
    fc.property(fc.array(one, { maxLength: 30 }), fc.infiniteStream(fc.nat()), (options, seeds) => {
      const events = options.map((o) => {
        const raw = ev({ reason: o.reason, objectName: o.objectName, ...(o.first === undefined ? {} : { first: o.first * 30 + o.last }), last: o.last * 30 });
        (raw.metadata as Record<string, unknown>).name = o.name;
        return normaliseEvent(raw);
      });
      const shuffled = events.map((e) => [seeds.next().value as number, e] as const).sort((a, b) => a[0] - b[0]).map(([, e]) => e);
      const sorted = sortTimeline(events);
      assert.deepEqual(sortTimeline(shuffled), sorted);
      assert.deepEqual(sortTimeline(sorted), sorted);
    }),
  );
});

/** The order sortTimeline promises, as one comparator over the events and their places in the input. */
function documentedOrder(events: Event[]): Event[] {
  const time = (a: number | null, b: number | null): number => (a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : a > b ? 1 : 0);
  const timeless = (e: Event): boolean => e.firstSeen === null && e.lastSeen === null;
  return events
    .map((e, i) => [e, i] as const)
    .sort(
      ([a, i], [b, j]) =>
        time(a.firstSeen, b.firstSeen) ||
        time(a.lastSeen, b.lastSeen) ||
        compareBytes(a.namespace, b.namespace) ||
        compareBytes(a.name, b.name) ||
        (timeless(a) && timeless(b) ? 0 : compareContent(a, b)) ||
        i - j,
    )
    .map(([e]) => e);
}

test('a timeline is ordered by first and last time, namespace (as UTF-8 bytes), name and content, whatever the times are', () => {
  // Times: none, shared whole milliseconds (the numeric pre-sort), fractions and spans of centuries (the comparator alone).
  const time = fc.oneof(fc.constant(null), fc.integer({ min: 0, max: 3 }).map((s) => 1_764_000_000_000 + s * 1000), fc.constantFrom(0.5, -86_400_000.25), fc.constantFrom(-1e15, 1e15));
  const one = fc.record({
    first: time,
    last: time,
    namespace: fc.constantFrom('a', 'b-2', 'b-10', 'é', '\u{1f600}', '\uffff', ''),
    name: fc.constantFrom('x', 'y', 'web.17f'),
    reason: fc.constantFrom('Started', 'BackOff'),
  });
  fc.assert(
    fc.property(fc.array(one, { maxLength: 40 }), (options) => {
      const events = options.map((o) => ({ ...normaliseEvent(ev({ reason: o.reason, namespace: o.namespace })), name: o.name, firstSeen: o.first, lastSeen: o.last }));
      assert.deepEqual(sortTimeline(events), documentedOrder(events));
    }),
    { numRuns: 300 },
  );
});

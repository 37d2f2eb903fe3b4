import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { normaliseEvent } from '../../../src/core/event.ts';
import { jsonTextChunks, toJsonEvent, toJsonText } from '../../../src/render/json.ts';
import type { Event } from '../../../src/core/event.ts';
import type { EventStanding } from '../../../src/core/incarnation.ts';

/** timeline -o json as the verb prints it (src/commands/timeline.ts): each event through toJsonEvent, in chunks. */
function timelineJson(events: Event[], standing?: (ev: Event) => EventStanding): string {
  return [...jsonTextChunks(events, (ev: Event) => toJsonEvent(ev, standing?.(ev)))].join('');
}
import { ev, labEvents } from '../../support/builders.ts';

describe('timeline -o json', () => {
  test('prints the lab scheduler event with keys in a fixed order and ISO times (golden)', () => {
    const hungry = labEvents()[3];
    (hungry?.metadata as Record<string, unknown>).uid = 'aaaaaaaa-0000-0000-0000-000000000004';
    (hungry?.metadata as Record<string, unknown>).resourceVersion = '1004';
    assert.equal(
      timelineJson([normaliseEvent(hungry)]),
      `[
  {
    "uid": "aaaaaaaa-0000-0000-0000-000000000004",
    "name": "hungry.18a1b2c3d4e5f607",
    "namespace": "op-events",
    "resourceVersion": "1004",
    "type": "Warning",
    "reason": "FailedScheduling",
    "message": "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.",
    "action": "Scheduling",
    "object": {
      "apiVersion": "v1",
      "kind": "Pod",
      "name": "hungry",
      "namespace": "op-events",
      "uid": "99999999-8888-7777-6666-555555555555",
      "fieldPath": ""
    },
    "reporter": "default-scheduler",
    "instance": "default-scheduler-node-a",
    "count": 1,
    "firstSeen": "2026-11-30T11:59:15.000Z",
    "lastSeen": "2026-11-30T11:59:15.000Z",
    "seriesStyle": true
  }
]
`,
    );
  });

  test('prints an empty array for no events', () => assert.equal(timelineJson([]), '[]\n'));

  test('keeps hostile text exact: every control is a JSON escape, and the terminal escaper does not touch it', () => {
    const message = '\u001b[31mred\u001b]0;title\u0007\rback\u202e';
    const out = timelineJson([normaliseEvent(ev({ message }))]);
    assert.ok(out.includes('"message": "\\u001b[31mred\\u001b]0;title\\u0007\\rback\\u202e"'));
    assert.equal((JSON.parse(out) as { message: string }[])[0]?.message, message);
  });

  test('prints null for times that are not set', () => {
    const raw = ev({});
    raw.firstTimestamp = null;
    raw.lastTimestamp = null;
    delete (raw.metadata as Record<string, unknown>).creationTimestamp;
    const json = toJsonEvent(normaliseEvent(raw));
    assert.equal(json.firstSeen, null);
    assert.equal(json.lastSeen, null);
  });

  test('prints every lab event as a round-trippable object', () => {
    const parsed = JSON.parse(timelineJson(labEvents().map(normaliseEvent))) as { reason: string; count: number }[];
    assert.deepEqual(
      parsed.map((e) => `${e.reason} x${e.count}`),
      ['ReconcileStarted x5', 'StageUnknown x1', 'ReconcileSucceeded x1', 'FailedScheduling x1'],
    );
  });
});

describe('timeline -o json with what the live cluster says', () => {
  test('adds incarnation and onServer last, only when they were checked', () => {
    const events = labEvents().map(normaliseEvent).slice(0, 2);
    const standing = (e: (typeof events)[number]) => (e === events[0] ? { incarnation: 'previous' as const, onServer: false } : {});
    const parsed = JSON.parse(timelineJson(events, standing)) as Record<string, unknown>[];
    assert.deepEqual(Object.keys(parsed[0] ?? {}).slice(-3), ['seriesStyle', 'incarnation', 'onServer']);
    assert.deepEqual([parsed[0]?.incarnation, parsed[0]?.onServer], ['previous', false]);
    assert.ok(!('incarnation' in (parsed[1] ?? {})) && !('onServer' in (parsed[1] ?? {})));
  });

  test('leaves the shape unchanged without them', () => {
    const events = labEvents().map(normaliseEvent);
    assert.equal(timelineJson(events, () => ({})), timelineJson(events));
  });
});

describe('toJsonText', () => {
  // Beyond C0 (which JSON.stringify escapes itself): what a terminal would act on or hide.
  const cases: [string, string, string][] = [
    ['a one-byte CSI (U+009B) is written as an escape', 'a\u009b31mb', 'a\\u009b31mb'],
    ['a bidi override (U+202E) is written as an escape', 'abc\u202edef', 'abc\\u202edef'],
    ['a line separator (U+2028) is written as an escape', 'one\u2028two', 'one\\u2028two'],
    ['DEL is written as an escape', 'x\u007fy', 'x\\u007fy'],
    ['a zero-width space and a bidi isolate are written as escapes', '\u200bz\u2066', '\\u200bz\\u2066'],
    ['ESC is written as JSON.stringify writes it', '\u001b[2J', '\\u001b[2J'],
    ['accented letters, CJK and emoji stay as they are', 'é 日本 \u{1F600}', 'é 日本 \u{1F600}'],
  ];
  for (const [name, value, written] of cases) {
    test(`${name}, and parses back exactly`, () => {
      const out = toJsonText({ message: value });
      assert.equal(out, `{\n  "message": "${written}"\n}\n`);
      assert.deepEqual(JSON.parse(out), { message: value });
    });
  }

  test('escapes keys too, and a message holding all of them at once round-trips', () => {
    const message = 'CSI\u009b31m RLO\u202e LS\u2028 DEL\u007f end';
    const out = toJsonText({ [`k\u202e`]: [message] });
    assert.doesNotMatch(out, /[\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/);
    assert.deepEqual(JSON.parse(out), { [`k\u202e`]: [message] });
  });

  test('is JSON.stringify with two-space indent and a newline for plain data', () => {
    const value = { at: '2026-11-30T12:00:00.000Z', n: 3, none: null, list: [true, 'x'] };
    assert.equal(toJsonText(value), `${JSON.stringify(value, null, 2)}\n`);
  });
});

describe('jsonTextChunks', () => {
  const event = (i: number) => ({ name: `e-${i}`, message: i % 7 === 0 ? 'bell \u0007 and \u202e' : `m ${i}`, nested: { list: [i, i + 1] } });
  for (const n of [0, 1, 499, 500, 501, 1000, 1234]) {
    test(`joins to exactly toJsonText's text for an array of ${n}`, () => {
      const value = Array.from({ length: n }, (_, i) => event(i));
      assert.equal([...jsonTextChunks(value)].join(''), toJsonText(value));
    });
  }

  test('gives a value that is not an array whole', () => {
    assert.deepEqual([...jsonTextChunks({ a: 1 })], [toJsonText({ a: 1 })]);
  });

  for (const n of [3, 1234]) {
    test(`prints each element of ${n} as \`each\` turns it, chunk by chunk, to toJsonText's text of them all`, () => {
      const ids = Array.from({ length: n }, (_, i) => i);
      let made = 0;
      const chunks = jsonTextChunks(ids, (i: number) => (made += 1, event(i)));
      const first = chunks.next();
      assert.equal(made, n > 500 ? 0 : n, 'nothing is made before a chunk of it is written');
      const text = [first.value, ...chunks].join('');
      assert.equal(text, toJsonText(ids.map(event)));
      assert.equal(made, n);
    });
  }
});

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { normaliseEvent } from '../../src/core/event.ts';
import { renderEventsJson, toJsonEvent } from '../../src/render/json.ts';
import { ev, labEvents } from '../support/builders.ts';

describe('renderEventsJson', () => {
  it('prints the lab scheduler event with keys in a fixed order and ISO times (golden)', () => {
    const hungry = labEvents()[3];
    (hungry?.metadata as Record<string, unknown>).uid = 'aaaaaaaa-0000-0000-0000-000000000004';
    (hungry?.metadata as Record<string, unknown>).resourceVersion = '1004';
    assert.equal(
      renderEventsJson([normaliseEvent(hungry)]),
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

  it('prints an empty array for no events', () => assert.equal(renderEventsJson([]), '[]\n'));

  it('keeps hostile text exact: JSON escapes it, the terminal escaper does not touch it', () => {
    const message = '\u001b[31mred\u001b]0;title\u0007\rback\u202e';
    const out = renderEventsJson([normaliseEvent(ev({ message }))]);
    assert.ok(out.includes('"message": "\\u001b[31mred\\u001b]0;title\\u0007\\rback\u202e"'));
    assert.equal((JSON.parse(out) as { message: string }[])[0]?.message, message);
  });

  it('prints null for times that are not set', () => {
    const raw = ev({});
    raw.firstTimestamp = null;
    raw.lastTimestamp = null;
    delete (raw.metadata as Record<string, unknown>).creationTimestamp;
    const json = toJsonEvent(normaliseEvent(raw));
    assert.equal(json.firstSeen, null);
    assert.equal(json.lastSeen, null);
  });

  it('prints every lab event as a round-trippable object', () => {
    const parsed = JSON.parse(renderEventsJson(labEvents().map(normaliseEvent))) as { reason: string; count: number }[];
    assert.deepEqual(
      parsed.map((e) => `${e.reason} x${e.count}`),
      ['ReconcileStarted x5', 'StageUnknown x1', 'ReconcileSucceeded x1', 'FailedScheduling x1'],
    );
  });
});

describe('renderEventsJson with what the live cluster says', () => {
  it('adds incarnation and onServer last, only when they were checked', () => {
    const events = labEvents().map(normaliseEvent).slice(0, 2);
    const standing = (e: (typeof events)[number]) => (e === events[0] ? { incarnation: 'previous' as const, onServer: false } : {});
    const parsed = JSON.parse(renderEventsJson(events, standing)) as Record<string, unknown>[];
    assert.deepEqual(Object.keys(parsed[0] ?? {}).slice(-3), ['seriesStyle', 'incarnation', 'onServer']);
    assert.deepEqual([parsed[0]?.incarnation, parsed[0]?.onServer], ['previous', false]);
    assert.ok(!('incarnation' in (parsed[1] ?? {})) && !('onServer' in (parsed[1] ?? {})));
  });

  it('leaves the shape unchanged without them', () => {
    const events = labEvents().map(normaliseEvent);
    assert.equal(renderEventsJson(events, () => ({})), renderEventsJson(events));
  });
});

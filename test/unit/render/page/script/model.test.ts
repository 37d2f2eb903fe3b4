// The page's model, from the data alone (no browser): what the filters show, which times are drawn
// to scale, where the view starts and how far it may go. The browser tests (test/browser/) check the
// same through what a reader sees; these pin the rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PageData, PageEvent } from '../../../../../src/render/html-data.ts';
import { pageModel } from '../../../../../src/render/page/script/model.ts';

const CAPTURE = Date.parse('2026-03-01T12:00:00Z');
const HOUR = 3_600_000;
const T0 = CAPTURE - HOUR;

/**
 * Lanes: 0 a Deployment owning 1 (a ReplicaSet) owning 2 (a Pod), and 3 a Node. Tracks:
 * 0 Pod/Scheduled Normal, 1 Pod/BackOff Warning, 2 Node/Rebooted with type "warning" (wrong case),
 * 3 Deployment/ScalingReplicaSet Normal. Times in ms after T0.
 */
function data(events: PageEvent[], over: Partial<PageData> = {}): PageData {
  return {
    version: 1,
    scope: 'namespace shop',
    headline: [],
    capturedAt: CAPTURE,
    ttlHorizon: CAPTURE - HOUR,
    eventTTLms: HOUR,
    observed: null,
    t0: T0,
    window: [T0, CAPTURE],
    types: [
      { name: 'Normal', kind: 'normal', note: '' },
      { name: 'Warning', kind: 'warning', note: '' },
      { name: 'warning', kind: 'unconventional', note: 'wrong case' },
    ],
    strings: ['Scheduled', 'BackOff', 'Rebooted', 'ScalingReplicaSet', 'ev', 'msg', 'kubelet'],
    lanes: [
      { namespace: 'shop', apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'd', owner: null, gone: false, incarnation: null },
      { namespace: 'shop', apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-1', uid: 'r', owner: 0, gone: false, incarnation: null },
      { namespace: 'shop', apiVersion: 'v1', kind: 'Pod', name: 'web-1-a', uid: 'p', owner: 1, gone: false, incarnation: null },
      { namespace: '', apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'n', owner: null, gone: false, incarnation: null },
    ],
    groups: [{ namespace: 'shop', lanes: [0, 1, 2] }, { namespace: '', lanes: [3] }],
    tracks: [
      [2, 0, 0],
      [2, 1, 1],
      [3, 2, 2],
      [0, 3, 0],
    ],
    fields: ['track', 'event', 'message', 'reporter', 'first', 'last', 'count'],
    events,
    causes: [],
    ...over,
  };
}

/** Equal but for floating-point rounding (the view is worked out in ms since 1970). */
function near(actual: { start: number; end: number }, expected: { start: number; end: number }, message?: string): void {
  assert.ok(Math.abs(actual.start - expected.start) < 1e-3 && Math.abs(actual.end - expected.end) < 1e-3, `${message ?? 'view'}: ${JSON.stringify(actual)} is not ${JSON.stringify(expected)}`);
}

const ev = (track: number, first: number | null, last: number | null = first, count = 1): PageEvent => [track, 4, 5, 6, first, last, count];

const EVENTS = [ev(1, 40 * 60_000, 50 * 60_000, 7), ev(0, 10 * 60_000), ev(2, 30 * 60_000), ev(3, 5 * 60_000), ev(0, null)];

test("each track's events in order of first seen (untimed first), counted per type; untimed events counted apart", () => {
  const model = pageModel(data(EVENTS));
  assert.deepEqual(model.trackEvents, [[4, 1], [0], [2], [3]]);
  assert.deepEqual(model.laneTracks, [[3], [], [0, 1], [2]]);
  assert.deepEqual(model.typeCount, [3, 1, 1]);
  assert.equal(model.untimed, 1);
  assert.deepEqual(model.laneRows[2]?.events, [4, 1, 0], "a lane's own row holds all its tracks' events, by first seen");
  assert.equal(model.typeName({ name: '', kind: 'unconventional', note: '' }), '(empty)');
  assert.equal(model.typeName({ name: 'Bad\u001b[31m', kind: 'unconventional', note: '' }), 'Bad^[[31m', 'an escape shown as the terminal shows it');
});

test('the filter: a hidden type and a reason (any case) hide their tracks; an owner shows while anything it owns does', () => {
  const model = pageModel(data(EVENTS));
  assert.equal(model.applyFilter(), 5);
  assert.deepEqual(model.state.laneVisible, [true, true, true, true]);
  model.hiddenTypes.add(2);
  assert.equal(model.applyFilter(), 4);
  assert.deepEqual(model.state.trackVisible, [true, true, false, true]);
  assert.deepEqual(model.state.laneVisible, [true, true, true, false], 'the Node has nothing left to show');
  model.state.reasonQuery = 'backoff';
  assert.equal(model.applyFilter(), 1, 'BackOff matches the lower-case query');
  assert.deepEqual(model.state.trackVisible, [false, true, false, false]);
  assert.deepEqual(model.state.laneVisible, [true, true, true, false], 'the ReplicaSet (no events) and the Deployment show above their Pod');
  model.state.reasonQuery = 'scaling';
  model.applyFilter();
  assert.deepEqual(model.state.laneVisible, [true, false, false, false], 'an owner shows alone; what it owns does not');
});

test('the view starts fitted: the times to scale and the capture, padded 4% (at least half a second) either side', () => {
  const model = pageModel(data(EVENTS));
  const start = T0 + 5 * 60_000;
  const pad = (CAPTURE - start) * 0.04;
  assert.deepEqual(model.fitted, [start - pad, CAPTURE + pad]);
  assert.deepEqual(model.state.view, { start: start - pad, end: CAPTURE + pad });
  const one = pageModel(data([ev(0, HOUR)]));
  assert.deepEqual(one.fitted, [CAPTURE - 500, CAPTURE + 500], 'one event at the capture time: half a second either side');
  const none = pageModel(data([ev(0, null)], { window: null }));
  assert.deepEqual(none.fitted, [CAPTURE - 60_000 - 2400, CAPTURE + 2400], 'no time at all: the minute before the capture');
});

test('an event dated far from the capture is counted, kept out of the fit and drawn just inside the nearer edge', () => {
  const future = Date.parse('3000-01-01T00:00:00Z') - T0;
  const past = Date.parse('1970-01-01T00:00:01Z') - T0;
  const model = pageModel(data([...EVENTS, ev(0, future), ev(1, past, 10 * 60_000, 2)]));
  const start = T0 + 5 * 60_000;
  const pad = (CAPTURE - start) * 0.04;
  assert.deepEqual(model.fitted, [start - pad, CAPTURE + pad], 'the far times do not stretch the fit');
  assert.deepEqual(model.farDated(), { count: 2, times: [T0 + past, T0 + future] });
  const inset = (model.fitted[1] - model.fitted[0]) * 0.015;
  assert.equal(model.drawnAt(T0 + future), model.fitted[1] - inset);
  assert.equal(model.drawnAt(T0 + past), model.fitted[0] + inset);
  assert.equal(model.drawnAt(CAPTURE), CAPTURE, 'a time to scale is drawn where it is');
  assert.equal(model.drawnAt(CAPTURE + 86_400_000), CAPTURE + 86_400_000, 'a day after the capture is still to scale');
  assert.equal(model.drawnAt(CAPTURE + 86_400_001), model.fitted[1] - inset);
});

test('the view: at least 10 ms, never past its bounds (back beyond the TTL horizon, forward four spans); each change said', () => {
  const model = pageModel(data(EVENTS));
  let said = 0;
  model.onView(() => (said += 1));
  const [fitStart, fitEnd] = model.fitted;
  model.setView(CAPTURE, CAPTURE + 1);
  assert.deepEqual(model.state.view, { start: CAPTURE - 4.5, end: CAPTURE + 5.5 }, 'widened to 10 ms about its middle');
  model.setView(fitStart - 1e15, fitEnd);
  near(model.state.view, { start: model.outer[0], end: model.outer[1] }, 'zoomed out no further than everything it may show');
  assert.equal(model.outer[0], model.data.ttlHorizon - (fitEnd - model.data.ttlHorizon));
  assert.equal(model.outer[1], fitEnd + (fitEnd - fitStart) * 4);
  model.setView(fitStart, fitEnd);
  model.zoom(0.5, fitStart);
  near(model.state.view, { start: fitStart, end: fitStart + (fitEnd - fitStart) / 2 }, 'zoomed in about a time: it stays where it was');
  model.pan(1e6);
  near(model.state.view, { start: model.outer[1] - (fitEnd - fitStart) / 2, end: model.outer[1] }, 'panned no further than the bound');
  assert.equal(said, 5);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normaliseEvent } from '../../../src/core/event.ts';
import type { Event } from '../../../src/core/event.ts';
import { auditEvents } from '../../../src/core/audit.ts';
import { renderBothApis, renderCountReport, renderSchedulerReport, renderTypeReport } from '../../../src/render/reports.ts';
import { ev, labEvents, newEv, NOW } from '../../support/builders.ts';

function lab(): Event[] {
  return labEvents().map(normaliseEvent);
}

const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/u;

test("the count report shows the lab's repeat in kubectl's LAST SEEN form", () => {
  assert.equal(
    renderCountReport(lab(), NOW),
    [
      'Events that repeated. A repeat is not a new event: the recorder bumps count and lastTimestamp (or series.count) on the same Event.',
      'LAST SEEN        OBJECT            REASON            EVENT',
      '3s (x5 over 2m)  Pipeline/build-1  ReconcileStarted  op-events/build-1-started',
      '',
    ].join('\n'),
  );
});

test('the count report includes series-style repeats, oldest first', () => {
  const events = [
    newEv({ name: 'later', reason: 'Synced', seriesCount: 2, first: 60, seriesLast: 5 }),
    ev({ name: 'earlier', reason: 'BackOff', kind: 'Pod', objectName: 'p', count: 12, first: 900, last: 30 }),
  ].map(normaliseEvent);
  assert.deepEqual(renderCountReport(events, NOW).split('\n').slice(2, 4), [
    '30s (x12 over 15m)  Pod/p             BackOff  op-events/earlier',
    '5s (x2 over 60s)    Pipeline/build-1  Synced   op-events/later',
  ]);
});

test('the count report names the group of a Kind two groups share', () => {
  const events = [
    ev({ name: 'a', reason: 'Retried', apiVersion: 'ev.labhub.io/v1', count: 2, first: 60, last: 10 }),
    ev({ name: 'b', reason: 'Retried', apiVersion: 'ci.example.org/v1', count: 3, first: 50, last: 5 }),
  ].map(normaliseEvent);
  assert.deepEqual(renderCountReport(events, NOW).split('\n').slice(2, 4), [
    '10s (x2 over 60s)  Pipeline.ev.labhub.io/build-1    Retried  op-events/a',
    '5s (x3 over 50s)   Pipeline.ci.example.org/build-1  Retried  op-events/b',
  ]);
});

test('the count report says so when nothing repeated', () => {
  assert.match(renderCountReport([normaliseEvent(ev())], NOW), /\nNo event repeated: every event has count 1\.\n$/);
});

test('the type report adds what kubectl does for Warning to the audit', () => {
  assert.equal(
    renderTypeReport(auditEvents(lab())),
    [
      'Type audit: 4 events checked, 1 finding.',
      '',
      'Unconventional types (not exactly Normal or Warning)',
      '  op-events/build-1-weird about Pipeline/build-1: reason StageUnknown, type Critical, reported by pipeline-operator, count 1',
      '    type is neither Normal nor Warning: kubectl events --types refuses it and Warning-only filters and alerts never show it.',
      '',
      'What `kubectl events --types=<T>` does',
      '  Critical',
      '    kubectl events --types=Critical -> exit 1, stderr "error: valid --types are Normal or Warning"',
      '    kubectl events --types=Warning -> does not list it',
      '    kubectl get events --field-selector type=Warning -> does not match it (exact match)',
      '  Warning',
      '    kubectl events --types=Warning -> exit 0, lists it',
      '    kubectl get events --field-selector type=Warning -> matches it',
      '',
    ].join('\n'),
  );
});

test('a clean type report still says what --types=Warning does', () => {
  const text = renderTypeReport(auditEvents([]));
  assert.match(text, /^Type audit: 0 events checked\. No unconventional/);
  assert.match(text, /\n {2}Warning\n {4}kubectl events --types=Warning -> exit 0, lists it\n/);
});

test('both-apis lists core names then new names, each sorted byte-wise', () => {
  assert.equal(
    renderBothApis(['build-1-weird', 'build-1-done', 'Zed', 'é'], ['é', 'build-1-started', 'Zed']),
    ['core: Zed', 'core: build-1-done', 'core: build-1-weird', 'core: é', 'new: Zed', 'new: build-1-started', 'new: é', ''].join('\n'),
  );
});

test('both-apis sorts by code point, not UTF-16 unit (an astral name sorts after U+FFFD)', () => {
  assert.equal(renderBothApis(['\u{1F600}', '\uFFFD'], []), 'core: \uFFFD\ncore: \u{1F600}\n');
});

test('both-apis escapes names and is empty when both lists are', () => {
  assert.equal(renderBothApis(['a\u001b[2J'], []), 'core: a^[[2J\n');
  assert.equal(renderBothApis([], []), '');
});

test('both-apis says so when the source has no events.k8s.io/v1 view, rather than listing no new names', () => {
  assert.equal(
    renderBothApis(['b', 'a'], null),
    ['core: a', 'core: b', 'new: (the events.k8s.io/v1 view is not in this source)', ''].join('\n'),
  );
  assert.equal(renderBothApis([], null), 'new: (the events.k8s.io/v1 view is not in this source)\n');
});

test("the scheduler report quotes the scheduler's message in full with who, how often and when", () => {
  assert.equal(
    renderSchedulerReport(lab(), NOW),
    [
      "FailedScheduling events: the scheduler's own account of why a pod did not fit.",
      '',
      'Pod/hungry',
      '  event:      op-events/hungry.18a1b2c3d4e5f607',
      '  type:       Warning',
      '  reporter:   default-scheduler',
      '  count:      1',
      '  first seen: 2026-11-30T11:59:15Z (45s ago)',
      '  last seen:  2026-11-30T11:59:15Z (45s ago)',
      '  message:    0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.',
      '',
    ].join('\n'),
  );
});

test('the scheduler report says so when there is no FailedScheduling event', () => {
  assert.equal(renderSchedulerReport([normaliseEvent(ev())], NOW), 'No FailedScheduling events found.\n');
});

test('the reports escape hostile text and keep a 10 kB message whole', () => {
  const big = `0/1 nodes ${'y'.repeat(10_240)}\u001b[2J\r\u202e done`;
  const events = [
    ev({ reason: 'FailedScheduling', type: 'Warning', message: big, objectName: 'p\u001b]0;x\u0007', component: 's\u009b', count: 2, last: 1 }),
  ].map(normaliseEvent);
  for (const text of [renderSchedulerReport(events, NOW), renderCountReport(events, NOW), renderTypeReport(auditEvents(events))]) {
    assert.doesNotMatch(text, UNSAFE);
  }
  const scheduler = renderSchedulerReport(events, NOW);
  assert.ok(scheduler.includes(`  message:    0/1 nodes ${'y'.repeat(10_240)}^[[2J\\r\\u202e done\n`));
  assert.ok(scheduler.includes('Pipeline/p^[]0;x^G'));
  assert.ok(scheduler.includes('  reporter:   s\\u009b'));
});

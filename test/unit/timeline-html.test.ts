import { test } from 'node:test';
import assert from 'node:assert/strict';
import { timelinePage } from '../../src/commands/timeline-html.ts';
import { normaliseEvent } from '../../src/core/event.ts';
import type { EventSource } from '../../src/core/source.ts';
import { sortTimeline } from '../../src/core/timeline.ts';
import type { PageData } from '../../src/render/html-data.ts';
import { labEvents, NOW } from '../support/builders.ts';

const HOUR = 3_600_000;
const fileSource: EventSource = {
  info: { kind: 'file', context: 'lab', server: 'https://127.0.0.1:6443', namespace: 'op-events', format: 'record' },
  listEvents: async () => labEvents(),
  listNewApiEvents: async () => null,
};

function dataOf(html: string): PageData {
  const open = '<script type="application/json" id="timeline-data">';
  const start = html.indexOf(open) + open.length;
  return JSON.parse(html.slice(start, html.indexOf('</script>', start))) as PageData;
}

const events = sortTimeline(labEvents().map(normaliseEvent));

test('a record is shown as of its last observation, its TTL horizon counted from its first', () => {
  const saved = { format: 'record', firstObserved: NOW - 2 * HOUR, lastObserved: NOW - HOUR };
  const data = dataOf(timelinePage({ source: fileSource, events, now: NOW + 5 * HOUR, eventTTLms: HOUR, saved }));
  assert.deepEqual([data.capturedAt, data.observed, data.ttlHorizon], [NOW - HOUR, [NOW - 2 * HOUR, NOW - HOUR], NOW - 3 * HOUR]);
  assert.equal(data.headline[0], 'Incident in namespace op-events, read from a record');
});

test('a capture is shown as of when it was taken; a list file, which does not say, as of now', () => {
  const capture = { format: 'capture', firstObserved: NOW - HOUR, lastObserved: NOW - HOUR };
  const fromCapture = dataOf(timelinePage({ source: fileSource, events, now: NOW, eventTTLms: 2 * HOUR, saved: capture }));
  assert.deepEqual([fromCapture.capturedAt, fromCapture.observed, fromCapture.ttlHorizon], [NOW - HOUR, null, NOW - 3 * HOUR]);
  const list = { format: 'list', firstObserved: null, lastObserved: null };
  const fromList = dataOf(timelinePage({ source: fileSource, events, now: NOW, eventTTLms: HOUR, saved: list }));
  assert.deepEqual([fromList.capturedAt, fromList.ttlHorizon], [NOW, NOW - HOUR]);
});

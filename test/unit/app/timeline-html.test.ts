import { test } from 'node:test';
import assert from 'node:assert/strict';
import { timelineHtml } from '../../../src/app/timeline-html.ts';
import { normaliseEvent } from '../../../src/core/event.ts';
import { EVENT_OBJECTS_TELL } from '../../../src/core/source.ts';
import type { Provenance } from '../../../src/core/source.ts';
import { sortTimeline } from '../../../src/core/timeline.ts';
import type { PageData } from '../../../src/render/html-data.ts';
import { labEvents, NOW } from '../../support/builders.ts';

const HOUR = 3_600_000;
const common = { namespace: 'op-events', context: 'lab', server: 'https://127.0.0.1:6443', tells: EVENT_OBJECTS_TELL };

function dataOf(html: string): PageData {
  const open = '<script type="application/json" id="timeline-data">';
  const start = html.indexOf(open) + open.length;
  return JSON.parse(html.slice(start, html.indexOf('</script>', start))) as PageData;
}

const events = sortTimeline(labEvents().map(normaliseEvent));
const page = (provenance: Provenance, now: number, eventTTLms: number): PageData => dataOf(timelineHtml({ provenance, events, now, eventTTLms }));

test('a record is shown as of its last observation, its TTL horizon counted from its first', () => {
  const data = page({ ...common, kind: 'record', firstObserved: NOW - 2 * HOUR, lastObserved: NOW - HOUR }, NOW + 5 * HOUR, HOUR);
  assert.deepEqual([data.capturedAt, data.observed, data.ttlHorizon], [NOW - HOUR, [NOW - 2 * HOUR, NOW - HOUR], NOW - 3 * HOUR]);
  assert.match(data.headline[0] ?? '', /^Incident in namespace op-events, read from a record/);
});

test('a capture is shown as of when it was taken; a list file, which does not say, as of now', () => {
  const fromCapture = page({ ...common, kind: 'capture', capturedAt: NOW - HOUR }, NOW, 2 * HOUR);
  assert.deepEqual([fromCapture.capturedAt, fromCapture.observed, fromCapture.ttlHorizon], [NOW - HOUR, null, NOW - 3 * HOUR]);
  const fromList = page({ ...common, kind: 'list' }, NOW, HOUR);
  assert.deepEqual([fromList.capturedAt, fromList.observed, fromList.ttlHorizon], [NOW, null, NOW - HOUR]);
});

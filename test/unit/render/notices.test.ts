import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { normaliseEvent } from '../../../src/core/event.ts';
import type { Comparison } from '../../../src/core/incarnation.ts';
import { sortTimeline } from '../../../src/core/timeline.ts';
import { renderComparisonNotice, renderSavedNotice } from '../../../src/render/notices.ts';
import type { Provenance } from '../../../src/core/source.ts';
import { NOW, labEvents } from '../../support/builders.ts';
import { fromCapture, fromCluster, fromList, fromRecord, fromStableTable } from '../../support/sources.ts';

const lab = () => sortTimeline(labEvents().map(normaliseEvent));

// Control characters, C1 controls and bidi/zero-width marks must never reach the terminal raw.
const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/u;

describe('notices for stderr', () => {

  test('a record: its observations, then the time its events cover, on one line', () => {
    assert.equal(
      renderSavedNotice(fromRecord({ firstObserved: NOW - 7_200_000, lastObserved: NOW - 60_000 }), lab()),
      'The record covers 2026-11-30T10:00:00Z .. 2026-11-30T11:59:00Z (first .. last observation); its events were first seen 2026-11-30T11:58:00Z .. last seen 2026-11-30T11:59:57Z.\n',
    );
  });

  test('a capture: when it was taken', () => {
    assert.equal(
      renderSavedNotice(fromCapture({ capturedAt: NOW }), []),
      'The capture was taken at 2026-11-30T12:00:00Z.\n',
    );
  });

  test('a plain list says nothing', () => assert.equal(renderSavedNotice(fromList(), lab()), ''));

  const comparisons: [string, Comparison, Provenance['kind'], string][] = [
    ['one expired', { savedEvents: 4, onlyInSaved: lab().slice(0, 1), onlyOnServer: 0 }, 'record', '1 of 4 events in the record is no longer on the server (expired after --event-ttl or deleted), marked [not on server].\n'],
    ['two expired and one newer on the server', { savedEvents: 4, onlyInSaved: lab().slice(0, 2), onlyOnServer: 1 }, 'capture', '2 of 4 events in the capture are no longer on the server (expired after --event-ttl or deleted), marked [not on server]; 1 event on the server is not in the capture.\n'],
    ['none expired', { savedEvents: 4, onlyInSaved: [], onlyOnServer: 2 }, 'list', 'All 4 events in the file are still on the server; 2 events on the server are not in the file.\n'],
    ['the only one still there', { savedEvents: 1, onlyInSaved: [], onlyOnServer: 0 }, 'record', 'The one event in the record is still on the server.\n'],
    ['nothing to compare', { savedEvents: 0, onlyInSaved: [], onlyOnServer: 0 }, 'record', 'The record holds no events with a uid to compare with the server.\n'],
  ];
  for (const [name, comparison, format, want] of comparisons) {
    test(`compared: ${name}`, () => assert.equal(renderComparisonNotice(comparison, format), want));
  }

  test('nothing from the file reaches the terminal: a hostile record header names no noun, and the notice is only counts and times', () => {
    const hostile = 'ctx\u001b[2J\u009b\u202e';
    const provenance = fromRecord({ context: hostile, server: hostile, namespace: hostile, firstObserved: NOW - 60_000, lastObserved: NOW });
    const comparison: Comparison = { savedEvents: 4, onlyInSaved: lab().slice(0, 1), onlyOnServer: 1 };
    assert.doesNotMatch(renderComparisonNotice(comparison, provenance.kind), UNSAFE);
    assert.doesNotMatch(renderSavedNotice(provenance, lab()), UNSAFE);
  });

  test('the live cluster and a stable table have no saved window to tell', () => {
    assert.equal(renderSavedNotice(fromCluster(), lab()), '');
    assert.equal(renderSavedNotice(fromStableTable(), lab()), '');
  });
});

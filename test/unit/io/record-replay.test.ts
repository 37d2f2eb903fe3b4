// src/io/record-replay.ts: a record read back as the versions it holds, the latest of each event.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { formatHeader, formatObservation } from '../../../src/io/record-line.ts';
import { latestVersions, parseRecordSaved } from '../../../src/io/record-replay.ts';
import { EVENT_OBJECTS_TELL, observedWindow } from '../../../src/core/source.ts';
import { header, obs, started, version, weird } from '../../support/record-lines.ts';
import type { Json } from '../../support/record-lines.ts';

describe('replaying a record', () => {
  test('the latest version of each event by uid wins, whatever the line order', () => {
    const latest = latestVersions([
      obs('ADDED', version(started, '10', 1)),
      obs('ADDED', weird),
      obs('MODIFIED', version(started, '30', 5)),
      obs('MODIFIED', version(started, '20', 3)),
    ]);
    assert.equal(latest.length, 2);
    assert.equal((latest[0] as Json).count, 5);
  });

  test('events the server deleted or expired are kept', () => {
    const latest = latestVersions([obs('ADDED', version(started, '10')), obs('DELETED', version(started, '11'))]);
    assert.deepEqual(latest.map((e) => (e.metadata as Json).resourceVersion), ['11']);
  });

  test('resourceVersions that are not numbers: the later line wins', () => {
    const latest = latestVersions([obs('ADDED', version(started, 'b', 1)), obs('MODIFIED', version(started, 'a', 2))]);
    assert.equal((latest[0] as Json).count, 2);
  });

  test('parseRecordLines: the events, and where and when the record was made', () => {
    const text =
      formatHeader(header({ context: 'lab', startedAt: Date.parse('2026-11-30T11:00:00.000Z') })) +
      formatObservation({ observedAt: Date.parse('2026-11-30T11:00:01.000Z'), type: 'ADDED', event: started }) +
      formatHeader(header({ startedAt: Date.parse('2026-11-30T11:30:00.000Z') })) +
      formatObservation({ observedAt: Date.parse('2026-11-30T11:30:02.000Z'), type: 'ADDED', event: weird }) +
      '{"observedAt":"2026-11-30T11:3';
    const parsed = parseRecordSaved(text);
    assert.ok(parsed !== null && 'raw' in parsed);
    assert.equal(parsed.raw.core.length, 2);
    assert.deepEqual(parsed.provenance, {
      kind: 'record',
      context: 'lab',
      server: 'https://127.0.0.1:6443',
      namespace: 'op-events',
      firstObserved: Date.parse('2026-11-30T11:00:01.000Z'),
      lastObserved: Date.parse('2026-11-30T11:30:02.000Z'),
      tells: EVENT_OBJECTS_TELL,
    });
  });

  const headerOnly: [string, string][] = [
    ['one header line', formatHeader(header())],
    ['one header line without its newline', formatHeader(header()).trimEnd()],
    ['two header lines', formatHeader(header()) + formatHeader(header({ startedAt: Date.parse('2026-11-30T13:00:00.000Z') }))],
  ];
  for (const [name, text] of headerOnly) {
    test(`parseRecordSaved: ${name} (a quiet namespace) is a record of no events and no observed time`, () => {
      const parsed = parseRecordSaved(text);
      assert.ok(parsed !== null && 'raw' in parsed);
      assert.deepEqual(parsed.raw.core, []);
      assert.equal(parsed.provenance.namespace, 'op-events');
      assert.deepEqual(observedWindow(parsed.provenance), { first: null, last: null });
    });
  }

  test('parseRecordSaved: sessions of different namespaces leave the namespace open', () => {
    const text = formatHeader(header({ namespace: 'a' })) + formatHeader(header({ namespace: null }));
    assert.equal(parseRecordSaved(text)?.provenance.namespace, null);
  });
});

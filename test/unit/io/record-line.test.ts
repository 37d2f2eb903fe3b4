// src/io/record-line.ts: one line of a record (its header, an observation) written and read back.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { formatHeader, formatObservation } from '../../../src/io/record-line.ts';
import { parseRecordText } from '../../../src/io/record-replay.ts';
import { at, header, obs, started, weird } from '../../support/record-lines.ts';
import type { Json } from '../../support/record-lines.ts';

describe('record lines', () => {
  test('an observation is one line: observedAt, type, then the event as sent', () => {
    const line = formatObservation(obs('ADDED', started));
    assert.ok(line.endsWith('\n'));
    assert.equal(line.indexOf('\n'), line.length - 1);
    assert.ok(line.startsWith('{"observedAt":"2026-11-30T12:00:00.000Z","type":"ADDED","event":{'));
    assert.deepEqual(JSON.parse(line), { observedAt: at, type: 'ADDED', event: started });
  });

  // The recorder's index makes each event's JSON text once (core/record.ts planStep): the line made
  // with it is the line JSON.stringify makes of the whole observation, byte for byte.
  test('a line made with the event text the index made is byte for byte the line made from the event', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.constantFrom('ADDED', 'MODIFIED', 'DELETED'), fc.option(fc.string(), { nil: undefined }), fc.boolean(), fc.option(fc.integer({ min: 0, max: 4e12 }), { nil: null }), (value, type, context, inferred, when) => {
        const event = { ...(started as Record<string, unknown>), weird: value } as Json;
        const o = { observedAt: when, type, event, ...(context === undefined ? {} : { context }), ...(inferred ? { inferred } : {}) };
        assert.equal(formatObservation({ ...o, text: JSON.stringify(event) }), formatObservation(o));
      }),
    );
  });

  test('an inferred DELETED says so; others carry no such field', () => {
    assert.equal(JSON.parse(formatObservation({ ...obs('DELETED', started), inferred: true })).inferred, true);
    assert.equal('inferred' in JSON.parse(formatObservation(obs('DELETED', started))), false);
  });

  test('headers are skipped for events and observations come back in file order', () => {
    const text = formatHeader(header()) + formatObservation(obs('ADDED', started)) + formatObservation(obs('ADDED', weird));
    const record = parseRecordText(text);
    assert.equal(record?.headers.length, 1);
    assert.deepEqual(record?.observations.map((o) => (o.event.metadata as Json).name), ['build-1-started', 'build-1-weird']);
    assert.equal(record?.tornTail, '');
  });

  test('a torn last line (a killed recorder) is ignored and reported as the torn tail', () => {
    const whole = formatObservation(obs('ADDED', weird));
    const text = formatHeader(header()) + formatObservation(obs('ADDED', started)) + whole.slice(0, 40);
    const record = parseRecordText(text);
    assert.equal(record?.observations.length, 1);
    assert.equal(record?.tornTail, whole.slice(0, 40));
  });

  test('a last line that is complete but lacks its newline is an observation', () => {
    const text = formatObservation(obs('ADDED', started)) + formatObservation(obs('ADDED', weird)).trimEnd();
    assert.equal(parseRecordText(text)?.observations.length, 2);
  });

  test('blank lines are allowed', () => {
    assert.equal(parseRecordText(`\n${formatObservation(obs('ADDED', started))}\n\n`)?.observations.length, 1);
  });

  const notRecords: [string, string][] = [
    ['a line in the middle that is not JSON', `${formatObservation(obs('ADDED', started))}oops\n${formatObservation(obs('ADDED', weird))}`],
    ['JSON lines that are not observations', '{"a":1}\n{"b":2}\n'],
    ['an observation without an event object', '{"observedAt":"x","type":"ADDED","event":"no"}\n{"observedAt":"x","type":"ADDED","event":"no"}\n'],
    ['a stable table', 'Normal ReconcileStarted Pipeline/build-1\n'],
    ['one torn line that is not ours', '{"items":['],
  ];
  for (const [name, text] of notRecords) test(`not a record: ${name}`, () => assert.equal(parseRecordText(text), null));

  test('a torn line in the middle followed by a whole one on the same line: the whole one is kept, the fragment counted', () => {
    const first = formatObservation(obs('ADDED', started));
    const second = formatObservation(obs('ADDED', weird));
    // A writer stopped 40 bytes into its line; the next appended without cutting the fragment off.
    const text = formatHeader(header()) + first.slice(0, 40) + second + formatObservation(obs('MODIFIED', started));
    const record = parseRecordText(text);
    assert.deepEqual(record?.observations.map((o) => [o.type, o.event.metadata]), [
      ['ADDED', weird.metadata],
      ['MODIFIED', started.metadata],
    ]);
    assert.equal(record?.tornLines, 1);
    assert.equal(record?.tornTail, '');
  });

  test('a torn fragment of ours alone on a line in the middle is skipped and counted', () => {
    const text = formatHeader(header()) + formatObservation(obs('ADDED', started)).slice(0, 30) + '\n' + formatObservation(obs('ADDED', weird));
    const record = parseRecordText(text);
    assert.equal(record?.observations.length, 1);
    assert.equal(record?.tornLines, 1);
  });

  test('a lone torn first line of ours is an empty record', () => {
    assert.deepEqual(parseRecordText(formatHeader(header()).slice(0, 20))?.observations, []);
    assert.deepEqual(parseRecordText('{"observedAt":"2026-11')?.observations, []);
  });

  test('a record with headers only has no observations (not "not a record")', () => {
    assert.deepEqual(parseRecordText(formatHeader(header()) + formatHeader(header()))?.observations, []);
  });
});

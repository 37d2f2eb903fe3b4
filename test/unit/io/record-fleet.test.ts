// A record of several contexts (record --context a,b): its header names every context, server and
// namespace; each observation names its context; read back, each event is labelled with its
// context and server, and one uid in two clusters is two events.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { formatHeader, formatObservation, parseRecordLine } from '../../../src/io/record-line.ts';
import { parseRecordText, recordedClusters } from '../../../src/io/record-replay.ts';
import { foldRecord, readLines } from '../../../src/io/record-stream.ts';
import { continueFleetRecord, sameClusters } from '../../../src/core/record.ts';
import { sameServer } from '../../../src/core/server.ts';
import { at, header, obs, started, version } from '../../support/record-lines.ts';

const clusters = [
  { context: 'east', server: 'https://10.0.0.1:6443', namespace: 'shop' },
  { context: 'west', server: 'https://10.0.0.2:6443', namespace: null },
];
const fleetHeader = header({ context: 'east,west', server: 'https://10.0.0.1:6443,https://10.0.0.2:6443', namespace: null, clusters });

describe('a record of several contexts', () => {
  test('the header names every context, its server and namespace, between namespace and filter', () => {
    const line = formatHeader(fleetHeader);
    assert.equal(
      line,
      `{"kind":"EvtimelineRecord","version":1,"context":"east,west","server":"https://10.0.0.1:6443,https://10.0.0.2:6443","namespace":null,"clusters":[{"context":"east","server":"https://10.0.0.1:6443","namespace":"shop"},{"context":"west","server":"https://10.0.0.2:6443","namespace":null}],"filter":{},"startedAt":"${at}"}\n`,
    );
    assert.deepEqual(parseRecordLine(line.trimEnd()), { header: fleetHeader });
    // One context: no clusters key, as before.
    assert.equal('clusters' in JSON.parse(formatHeader(header())), false);
  });

  test('an observation names its context right after observedAt; one context writes none', () => {
    const line = formatObservation({ ...obs('ADDED', started), context: 'west' });
    assert.ok(line.startsWith(`{"observedAt":"${at}","context":"west","type":"ADDED","event":{`), line);
    assert.deepEqual(parseRecordLine(line.trimEnd()), { observation: { ...obs('ADDED', started), context: 'west' } });
    assert.equal('context' in JSON.parse(formatObservation(obs('ADDED', started))), false);
    // An inferred DELETED keeps both.
    assert.deepEqual(JSON.parse(formatObservation({ ...obs('DELETED', started), context: 'east', inferred: true })), { observedAt: at, context: 'east', type: 'DELETED', event: started, inferred: true });
  });

  test('clusters in a shape no recorder writes are not taken: the header reads as one context', () => {
    const line = formatHeader(fleetHeader).replace('"server":"https://10.0.0.2:6443"', '"server":7');
    const read = parseRecordLine(line.trimEnd());
    assert.ok(read !== null && 'header' in read);
    assert.equal(read.header.clusters, undefined);
  });

  test('read back: each event labelled with its context and server; one uid in two clusters is two events, each its newest version', async () => {
    const text =
      formatHeader(fleetHeader) +
      formatObservation({ ...obs('ADDED', version(started, '5')), context: 'east' }) +
      formatObservation({ ...obs('ADDED', version(started, '9', 1)), context: 'west' }) +
      formatObservation({ ...obs('MODIFIED', version(started, '6', 2)), context: 'east' });
    for (const keep of ['all', 'table', 'stable'] as const) {
      const folded = await foldRecord(readLines(Readable.from([text])), null, keep);
      assert.ok(folded !== null);
      assert.deepEqual(
        folded.events.map((ev) => [ev.cluster?.context, ev.cluster?.server, ev.resourceVersion, ev.count]),
        [
          ['east', 'https://10.0.0.1:6443', '6', 2],
          ['west', 'https://10.0.0.2:6443', '9', 1],
        ],
        keep,
      );
    }
    assert.deepEqual(recordedClusters(parseRecordText(text)?.headers ?? []), clusters);
  });

  test('continued: each context from its own newest resourceVersion; a context whose namespace changed lists first', () => {
    const record = {
      headers: [fleetHeader],
      observations: [
        { ...obs('ADDED', version(started, '120')), context: 'east' },
        { ...obs('ADDED', version(started, '7')), context: 'west' },
      ],
    };
    const same = continueFleetRecord(record, { ...fleetHeader, startedAt: null });
    assert.deepEqual([...same.resumeFrom], [['east', '120'], ['west', '7']]);
    assert.equal(same.held, 2);
    // Each index holds its own context's events: east's list cannot call west's event gone.
    assert.deepEqual([...(same.indexes.get('west')?.liveEvents().values() ?? [])].map((e) => (e.metadata as { resourceVersion: string }).resourceVersion), ['7']);
    const moved = continueFleetRecord(record, { ...fleetHeader, clusters: [clusters[0] as (typeof clusters)[0], { ...(clusters[1] as (typeof clusters)[1]), namespace: 'other' }] });
    assert.deepEqual([...moved.resumeFrom], [['east', '120'], ['west', '']]);
  });

  test('continued by the same contexts on the same servers only; one context and several never', () => {
    assert.equal(sameClusters(fleetHeader, { ...fleetHeader, clusters: [...clusters].reverse() }, sameServer), true);
    assert.equal(sameClusters(fleetHeader, { ...fleetHeader, clusters: [{ ...(clusters[0] as (typeof clusters)[0]), server: 'HTTPS://10.0.0.1:6443/' }, clusters[1] as (typeof clusters)[1]] }, sameServer), true);
    assert.equal(sameClusters(fleetHeader, { ...fleetHeader, clusters: [clusters[0] as (typeof clusters)[0]] }, sameServer), false);
    assert.equal(sameClusters(fleetHeader, { ...fleetHeader, clusters: [clusters[0] as (typeof clusters)[0], { ...(clusters[1] as (typeof clusters)[1]), server: 'https://10.0.0.3:6443' }] }, sameServer), false);
    assert.equal(sameClusters(fleetHeader, header(), sameServer), false);
    assert.equal(sameClusters(header(), fleetHeader, sameServer), false);
  });
});

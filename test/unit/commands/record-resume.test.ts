// Where a continued record resumes: from the version the previous session had seen everything up
// to (its list's resourceVersion, written as an EvtimelineSeen line after the list's events), not
// from its newest event's. A list's version is newer than any event in it; what was created and
// deleted before the list is in no list, and a watch from the newest event's version would replay
// it into the record as new, stamped with the next session's time. Records written before the
// line existed resume from their newest event, as they did.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runCli } from '../../../src/cli.ts';
import type { FleetMember, FollowStep } from '../../../src/core/source.ts';
import { formatHeader, formatObservation, formatSeenLine, parseRecordLine } from '../../../src/io/record-line.ts';
import { parseRecordSaved, parseRecordText } from '../../../src/io/record-replay.ts';
import { foldRecord, readLines } from '../../../src/io/record-stream.ts';
import { Readable } from 'node:stream';
import { ev } from '../../support/builders.ts';
import { fakeDeps } from '../../support/deps.ts';
import { fromCluster, memorySource, openSources } from '../../support/sources.ts';
import { scratchDir } from '../../support/tmp.ts';

const dir = scratchDir('record-resume');
/** A second session's first answer: the server has reached the version asked (what it was asked is in `followed`). */
const resumed = (cluster?: { context: string; server: string }): FollowStep => ({ kind: 'resume', from: '', current: '999999', verdict: 'resume', ...(cluster ? { cluster } : {}) });

const at = (name: string, resourceVersion: string): Record<string, unknown> => {
  const raw = ev({ namespace: 'op-events', reason: 'Pulled', objectName: name });
  return { ...raw, metadata: { ...(raw.metadata as object), name, uid: `u-${name}`, resourceVersion } };
};

/** One session of `record FILE` against an in-memory cluster that yields `steps`; the follow options it was given. */
async function session(file: string, steps: FollowStep[], provenance = fromCluster(), args: string[] = []) {
  const live = memorySource({ provenance, steps });
  const fake = fakeDeps({ openSource: openSources({ live }).open });
  const code = await runCli(['record', file, ...args], fake.deps);
  assert.equal(code, 0, fake.stderr());
  return { followed: live.followed, stderr: fake.stderr() };
}

describe('a continued record resumes from what the last session had seen, not from its newest event', () => {
  test('one context: the list\'s resourceVersion, written after its events, is where the next session resumes', async () => {
    const file = join(dir, 'one.jsonl');
    // The list is at 500; its newest event is 100 (what came between was created and deleted, or is elsewhere).
    await session(file, [{ kind: 'list', items: [at('a', '90'), at('b', '100')], resourceVersion: '500', why: 'start' }]);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.deepEqual(
      lines.map((l) => l.kind ?? l.type),
      ['EvtimelineRecord', 'ADDED', 'ADDED', 'EvtimelineSeen'],
    );
    assert.deepEqual(Object.keys(lines[3] ?? {}), ['observedAt', 'kind', 'resourceVersion']);
    assert.equal(lines[3]?.resourceVersion, '500');

    const second = await session(file, [resumed()]);
    assert.equal(second.followed[0]?.resourceVersion, '500');
  });

  test('a list after 410 Gone moves it on; changes past it move it further; a list with nothing new still writes its version', async () => {
    const file = join(dir, 'relist.jsonl');
    await session(file, [
      { kind: 'list', items: [at('a', '90')], resourceVersion: '200', why: 'start' },
      { kind: 'change', type: 'ADDED', object: at('b', '210') },
      { kind: 'list', items: [at('a', '90'), at('b', '210')], resourceVersion: '700', why: 'expired' },
    ]);
    const record = parseRecordText(readFileSync(file, 'utf8'));
    assert.deepEqual(record?.seen, [{ resourceVersion: '200' }, { resourceVersion: '700' }]);
    assert.equal((await session(file, [resumed()])).followed[0]?.resourceVersion, '700');

    const changed = join(dir, 'changed.jsonl');
    await session(changed, [
      { kind: 'list', items: [at('a', '90')], resourceVersion: '200', why: 'start' },
      { kind: 'change', type: 'ADDED', object: at('b', '250') },
    ]);
    assert.equal((await session(changed, [resumed()])).followed[0]?.resourceVersion, '250');
  });

  test('several contexts: each resumes from its own list\'s version (versions of two servers never compare)', async () => {
    const file = join(dir, 'fleet.jsonl');
    const clusters: FleetMember[] = [
      { context: 'east', server: 'https://10.0.0.1:6443', namespace: 'op-events' },
      { context: 'west', server: 'https://10.0.0.2:6443', namespace: 'op-events' },
    ];
    const provenance = fromCluster({ context: 'east,west', server: 'https://10.0.0.1:6443,https://10.0.0.2:6443', clusters });
    const east = { context: 'east', server: 'https://10.0.0.1:6443' };
    const west = { context: 'west', server: 'https://10.0.0.2:6443' };
    await session(file, [
      { kind: 'list', items: [at('a', '90')], resourceVersion: '5000', why: 'start', cluster: east },
      { kind: 'list', items: [at('a', '7')], resourceVersion: '40', why: 'start', cluster: west },
    ], provenance);
    const seen = readFileSync(file, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.kind === 'EvtimelineSeen');
    assert.deepEqual(seen.map((l) => Object.keys(l)), [['observedAt', 'context', 'kind', 'resourceVersion'], ['observedAt', 'context', 'kind', 'resourceVersion']]);
    const second = await session(file, [resumed(east), resumed(west)], provenance);
    const opts = second.followed[0];
    assert.equal(opts?.resourceVersionOf?.('east'), '5000');
    assert.equal(opts?.resourceVersionOf?.('west'), '40');
  });

  test('a record without seen lines (an older recorder) resumes from its newest event, as before', async () => {
    const file = join(dir, 'older.jsonl');
    await session(file, [{ kind: 'list', items: [at('a', '90'), at('b', '100')], resourceVersion: '500', why: 'start' }]);
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.split('\n').filter((l) => !l.includes('"EvtimelineSeen"')).join('\n'));
    assert.equal((await session(file, [resumed()])).followed[0]?.resourceVersion, '100');
  });
});

describe('the seen line as every reader takes it', () => {
  const header = formatHeader({ kind: 'EvtimelineRecord', version: 1, context: 'lab', server: 'https://127.0.0.1:6443', namespace: 'op-events', filter: {}, startedAt: 0 });
  const text = `${header}${formatObservation({ observedAt: 0, type: 'ADDED', event: at('a', '9') })}${formatSeenLine(0, { resourceVersion: '12' })}`;

  test('written and read back; one without a version is skipped, not taken for a version', () => {
    assert.deepEqual(parseRecordLine(formatSeenLine(0, { context: 'east', resourceVersion: '12' }).trimEnd()), { seen: { context: 'east', resourceVersion: '12' } });
    assert.deepEqual(parseRecordLine('{"observedAt":"","kind":"EvtimelineSeen"}'), { seen: null });
  });

  test('--from reads a record with seen lines as the same events, no line skipped as torn', async () => {
    const saved = parseRecordSaved(text);
    assert.equal(saved !== null && 'raw' in saved ? saved.raw.core.length : -1, 1);
    assert.equal(saved?.provenance.kind === 'record' ? saved.provenance.tornLines : 'no', undefined);
    const folded = await foldRecord(readLines(Readable.from([text])), null, 'all');
    assert.equal(folded?.events.length, 1);
  });
});

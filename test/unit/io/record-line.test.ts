import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RECORD_KIND, RecordIndex } from '../../../src/core/record.ts';
import type { Observation, RecordHeader } from '../../../src/core/record.ts';
import { RecordAppender, RecordFileError, readRecordFile } from '../../../src/io/record-writer.ts';
import { formatHeader, formatObservation } from '../../../src/io/record-line.ts';
import { latestVersions, parseRecordSaved, parseRecordText } from '../../../src/io/record-replay.ts';
import { EVENT_OBJECTS_TELL, observedWindow } from '../../../src/core/source.ts';
import { rawIdentity } from '../../../src/core/versions.ts';
import { ev } from '../../support/builders.ts';

type Json = Record<string, unknown>;

/** A version of an event: same uid, the given resourceVersion and count. */
function version(base: Json, resourceVersion: string, count = 1): Json {
  return { ...base, count, metadata: { ...(base.metadata as Json), resourceVersion } };
}

const at = '2026-11-30T12:00:00.000Z';
const atMs = Date.parse(at);
const obs = (type: string, event: Json): Observation => ({ observedAt: atMs, type, event });

function header(o: Partial<RecordHeader> = {}): RecordHeader {
  return { kind: RECORD_KIND, version: 1, context: 'lab', server: 'https://127.0.0.1:6443', namespace: 'op-events', filter: {}, startedAt: atMs, ...o };
}

const started = ev({ name: 'build-1-started', uid: 'uid-started' });
const weird = ev({ name: 'build-1-weird', uid: 'uid-weird', type: 'Critical' });

describe('record lines', () => {
  test('an observation is one line: observedAt, type, then the event as sent', () => {
    const line = formatObservation(obs('ADDED', started));
    assert.ok(line.endsWith('\n'));
    assert.equal(line.indexOf('\n'), line.length - 1);
    assert.ok(line.startsWith('{"observedAt":"2026-11-30T12:00:00.000Z","type":"ADDED","event":{'));
    assert.deepEqual(JSON.parse(line), { observedAt: at, type: 'ADDED', event: started });
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

describe('what a recorder knows of a record', () => {
  test('a version is written once: uid + resourceVersion', () => {
    const index = new RecordIndex();
    assert.equal(index.admit('ADDED', version(started, '10')), true);
    assert.equal(index.admit('ADDED', version(started, '10')), false);
    assert.equal(index.admit('MODIFIED', version(started, '10')), false);
    assert.equal(index.admit('MODIFIED', version(started, '12')), true);
  });

  test('DELETED once per uid, and nothing about that uid after it', () => {
    const index = new RecordIndex();
    index.admit('ADDED', version(started, '10'));
    assert.equal(index.admit('DELETED', version(started, '10')), true);
    assert.equal(index.admit('DELETED', version(started, '15')), false);
    assert.equal(index.admit('MODIFIED', version(started, '16')), false);
    assert.equal(index.holds('uid-started'), false);
  });

  test('knows: the record holds some version of the event, DELETED or not, liveness forgotten or not', () => {
    const index = RecordIndex.from([obs('ADDED', version(started, '10')), obs('DELETED', version(weird, '12'))]);
    index.forgetLive();
    const other = { ...started, metadata: { ...(started.metadata as Json), uid: 'uid-other' } };
    assert.deepEqual([started, weird, other].map((event) => index.knows(rawIdentity(event))), [true, true, false]);
  });

  test('the resourceVersion to resume from is the newest written, not the last line', () => {
    const index = RecordIndex.from([obs('ADDED', version(started, '10')), obs('ADDED', version(weird, '30')), obs('DELETED', version(started, '10'))]);
    assert.equal(index.resourceVersion, '30');
  });

  test('an empty record has no resourceVersion to resume from', () => {
    assert.equal(new RecordIndex().resourceVersion, '');
  });

  test('live events are those without a DELETED; forgetLive drops them all', () => {
    const index = RecordIndex.from([obs('ADDED', version(started, '10')), obs('ADDED', version(weird, '11')), obs('DELETED', version(weird, '12'))]);
    assert.deepEqual([...index.liveEvents().keys()], [rawIdentity(started)]);
    index.forgetLive();
    assert.equal(index.liveEvents().size, 0);
    assert.equal(index.admit('ADDED', version(started, '10')), false, 'forgetting liveness keeps the versions');
  });
});

describe('the record file on disk', () => {
  async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
    const dir = await mkdtemp(join(tmpdir(), 'evtimeline-record-file-'));
    try {
      await fn(dir);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  test('a file that does not exist is a new, empty record', () =>
    withDir(async (dir) => {
      const existing = await readRecordFile(join(dir, 'new.jsonl'));
      assert.equal(existing.exists, false);
      assert.equal(existing.record.observations.length, 0);
    }));

  test('an empty file is an empty record', () =>
    withDir(async (dir) => {
      await writeFile(join(dir, 'empty.jsonl'), '');
      assert.equal((await readRecordFile(join(dir, 'empty.jsonl'))).record.observations.length, 0);
    }));

  test('a folder, a missing folder and a file that is not a record are usage errors', () =>
    withDir(async (dir) => {
      await assert.rejects(readRecordFile(dir), (e: unknown) => e instanceof RecordFileError && e.problem === 'not-a-file' && e.kind === 'folder');
      await assert.rejects(readRecordFile(join(dir, 'no', 'such.jsonl')), (e: unknown) => e instanceof RecordFileError && e.problem === 'no-folder' && e.detail === join(dir, 'no'));
      const path = join(dir, 'events.json');
      await writeFile(path, '{"kind": "List",\n "items": []}\n');
      await assert.rejects(readRecordFile(path), (e: unknown) => e instanceof RecordFileError && e.problem === 'not-a-record' && e.detail === '1');
    }));

  test('appending cuts a torn last line off first, leaving only complete lines', () =>
    withDir(async (dir) => {
      const path = join(dir, 'torn.jsonl');
      const first = formatHeader(header()) + formatObservation(obs('ADDED', started));
      await writeFile(path, first + formatObservation(obs('ADDED', weird)).slice(0, 50));
      const existing = await readRecordFile(path);
      assert.equal(existing.completeBytes, Buffer.byteLength(first));
      const appender = await RecordAppender.open(existing);
      await appender.append(formatObservation(obs('ADDED', weird)));
      await appender.close();
      const text = await readFile(path, 'utf8');
      assert.equal(text, first + formatObservation(obs('ADDED', weird)));
      assert.equal(parseRecordText(text)?.tornTail, '');
    }));

  test('a complete last line without its newline gets one before the next line', () =>
    withDir(async (dir) => {
      const path = join(dir, 'nonl.jsonl');
      await writeFile(path, formatObservation(obs('ADDED', started)).trimEnd());
      const appender = await RecordAppender.open(await readRecordFile(path));
      await appender.append(formatObservation(obs('ADDED', weird)));
      await appender.close();
      assert.equal(parseRecordText(await readFile(path, 'utf8'))?.observations.length, 2);
    }));

  test('a file that grew after it was read is not appended to', () =>
    withDir(async (dir) => {
      const path = join(dir, 'busy.jsonl');
      await writeFile(path, formatObservation(obs('ADDED', started)));
      const existing = await readRecordFile(path);
      await appendFile(path, formatObservation(obs('ADDED', weird)));
      await assert.rejects(RecordAppender.open(existing), (e: unknown) => e instanceof RecordFileError && e.problem === 'changed');
    }));
});

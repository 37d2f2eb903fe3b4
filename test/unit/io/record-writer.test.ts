// src/io/record-writer.ts: the record file on disk: read before appending, refused when it is not one, appended to by one writer.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, open, readFile, rm, writeFile, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RecordAppender, RecordFileError, readRecordFile } from '../../../src/io/record-writer.ts';
import { formatHeader, formatObservation } from '../../../src/io/record-line.ts';
import { parseRecordText } from '../../../src/io/record-replay.ts';
import { header, obs, started, version, weird } from '../../support/record-lines.ts';

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

  // On a busy disk one fdatasync can take many seconds; a recorder that waited for it would stop
  // reading its watch and fall behind the server (npm run bench:follow: 20 s behind at 50 events/s).
  test('appending never waits for a sync of the file to the disk, and closing does', { timeout: 20_000 }, () =>
    withDir(async (dir) => {
      const path = join(dir, 'slow-disk.jsonl');
      const appender = await RecordAppender.open(await readRecordFile(path));
      const probe = await open(join(dir, 'probe'), 'w');
      const proto = Object.getPrototypeOf(probe) as { datasync(): Promise<void> };
      await probe.close();
      const real = proto.datasync;
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      let syncs = 0;
      let synced = 0;
      proto.datasync = async function (this: unknown) {
        syncs += 1;
        await held;
        await real.call(this);
        synced += 1;
      };
      try {
        // The first append starts a sync that does not end until released: the next lines still go out.
        for (let i = 0; i < 50; i += 1) await appender.append(formatObservation(obs('ADDED', version(started, String(i)))));
        assert.equal((await readFile(path, 'utf8')).trimEnd().split('\n').length, 50);
        assert.equal(syncs, 1, 'one sync at a time');
        const closing = appender.close();
        release();
        await closing;
        assert.equal(synced, 2, 'the sync under way, then the last one at close');
      } finally {
        proto.datasync = real;
      }
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

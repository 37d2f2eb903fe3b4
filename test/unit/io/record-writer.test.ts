// src/io/record-writer.ts: the record file on disk: read before appending, refused when it is not one, appended to by one writer.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RecordAppender, RecordFileError, readRecordFile } from '../../../src/io/record-writer.ts';
import { formatHeader, formatObservation } from '../../../src/io/record-line.ts';
import { parseRecordText } from '../../../src/io/record-replay.ts';
import { header, obs, started, weird } from '../../support/record-lines.ts';

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

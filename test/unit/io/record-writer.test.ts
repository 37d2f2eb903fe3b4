// src/io/record-writer.ts: the record file on disk: read before appending, refused when it is not one, appended to by one writer.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, open, readFile, rm, writeFile, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RecordAppender, RecordFileError, SessionWriter, readRecordFile } from '../../../src/io/record-writer.ts';
import { formatHeader, formatObservation, formatSeenLine } from '../../../src/io/record-line.ts';
import { parseRecordText } from '../../../src/io/record-replay.ts';
import { atMs, header, obs, started, version, weird } from '../../support/record-lines.ts';
import type { FileHandle } from 'node:fs/promises';

type Write = FileHandle['write'];

/** FileHandle.write counted, and held while HOLD says so (a slow disk), for the duration of WORK. */
async function withWrites(dir: string, hold: () => Promise<void> | undefined, work: (writes: () => number) => Promise<void>, fail?: () => Error | undefined): Promise<void> {
  const probe = await open(join(dir, 'probe'), 'w');
  const proto = Object.getPrototypeOf(probe) as { write: Write };
  await probe.close();
  const real = proto.write;
  let writes = 0;
  proto.write = async function (this: FileHandle, ...args: unknown[]) {
    writes += 1;
    await hold();
    const error = fail?.();
    if (error) throw error;
    return (real as (...a: unknown[]) => ReturnType<Write>).apply(this, args);
  } as Write;
  try {
    await work(() => writes);
  } finally {
    proto.write = real;
  }
}

/** A new record's writer, its header written, whose next writes wait (a slow disk) until released. */
async function slowDisk(dir: string, name: string): Promise<{ path: string; writer: SessionWriter; hold: () => Promise<void> | undefined; release: () => void }> {
  const path = join(dir, name);
  const writer = new SessionWriter(await readRecordFile(path), header());
  await writer.begin();
  let open: () => void = () => {};
  let held: Promise<void> | undefined = new Promise<void>((resolve) => (open = resolve));
  const release = (): void => {
    held = undefined;
    open();
  };
  return { path, writer, hold: () => held, release };
}

const tick = (ms = 50): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

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

  // One write(2) per line was a fifth of record's busy CPU at 50 events/s (npm run bench:follow):
  // the lines that queue while a write is under way go out together, in order, whole.
  test('the lines queued while a write is under way go out in one write, in order, and the recorder does not wait for it', () =>
    withDir(async (dir) => {
      const { path, writer, hold, release } = await slowDisk(dir, 'batched.jsonl');
      await withWrites(dir, hold, async (writes) => {
        const before = writes();
        const lines = Array.from({ length: 50 }, (_, i) => obs('MODIFIED', version(started, String(i + 1), i + 1)));
        // The first line's write is held (a slow disk): the recorder still queues the next 49, each at once.
        const blocked = await Promise.race([writer.write([lines[0]!]).then(() => false), tick(2_000).then(() => true)]);
        assert.equal(blocked, false, 'a write under way does not hold the recorder back');
        for (const line of lines.slice(1)) {
          const waited = await Promise.race([writer.write([line]).then(() => false), tick(2_000).then(() => true)]);
          assert.equal(waited, false);
        }
        assert.equal(writes() - before, 1, 'only the first line is being written');
        release();
        await writer.close();
        assert.equal(writes() - before, 2, 'the 49 queued lines in one write');
        const text = await readFile(path, 'utf8');
        assert.equal(text, formatHeader(header()) + lines.map(formatObservation).join(''));
      });
    }));

  test("a list's seen line is queued behind its events and goes out in the same write: the recorder does not wait for it", () =>
    withDir(async (dir) => {
      const { path, writer, hold, release } = await slowDisk(dir, 'seen.jsonl');
      await withWrites(dir, hold, async (writes) => {
        const before = writes();
        const first = obs('ADDED', started);
        const list = [obs('ADDED', weird), obs('MODIFIED', version(weird, '7'))];
        await writer.write([first]);
        await writer.write(list);
        const waited = await Promise.race([writer.writeSeen(atMs, { resourceVersion: '7' }).then(() => false), tick(2_000).then(() => true)]);
        assert.equal(waited, false, 'a write under way does not hold the recorder back');
        assert.equal(writes() - before, 1, 'only the first line is being written');
        release();
        await writer.close();
        assert.equal(writes() - before, 2, 'the list and its seen line in one write');
        const seenLine = formatSeenLine(atMs, { resourceVersion: '7' });
        assert.equal(await readFile(path, 'utf8'), formatHeader(header()) + [first, ...list].map(formatObservation).join('') + seenLine);
      });
    }));

  test('a long list is written in batches while it is queued, never held whole in memory', () =>
    withDir(async (dir) => {
      const { path, writer, hold, release } = await slowDisk(dir, 'list.jsonl');
      await withWrites(dir, hold, async (writes) => {
        const before = writes();
        const message = 'm'.repeat(1000);
        const list = Array.from({ length: 2_000 }, (_, i) => obs('ADDED', { ...version(started, String(i + 1)), message, metadata: { name: `e-${i}`, uid: `u-${i}`, namespace: 'op-events', resourceVersion: String(i + 1) } }));
        let queued = false;
        const writing = writer.write(list).then(() => (queued = true));
        await tick(300);
        assert.equal(queued, false, 'about 2 MiB of lines wait for the write under way instead of all being formatted');
        release();
        await writing;
        await writer.close();
        const batches = writes() - before;
        assert.ok(batches > 2 && batches < 100, `2,000 lines in ${batches} writes`);
        assert.equal(parseRecordText(await readFile(path, 'utf8'))?.observations.length, 2_000);
      });
    }));

  // The seen line is queued as the events are (it goes out in the same writes): its failure is thrown as theirs is.
  for (const [what, fails] of [
    ['an event line', (writer: SessionWriter) => writer.write([obs('ADDED', weird)])],
    ["a list's seen line", (writer: SessionWriter) => writer.writeSeen(atMs, { resourceVersion: '1' })],
  ] as const) {
    test(`a write of ${what} that fails is thrown by the next write and by the close, and the file holds whole lines only`, () =>
      withDir(async (dir) => {
        const path = join(dir, 'full.jsonl');
        const writer = new SessionWriter(await readRecordFile(path), header());
        await writer.begin();
        let full = false;
        const enospc = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', syscall: 'write' });
        const isEnospc = (e: unknown) => (e as NodeJS.ErrnoException).code === 'ENOSPC';
        await withWrites(dir, () => undefined, async () => {
          await writer.write([obs('ADDED', started)]);
          await writer.written();
          full = true;
          await fails(writer);
          await assert.rejects(writer.written(), (e: unknown) => isEnospc(e) && (e as NodeJS.ErrnoException).path === path);
          await assert.rejects(writer.write([obs('MODIFIED', version(weird, '2'))]), isEnospc);
          await assert.rejects(writer.writeSeen(atMs, { resourceVersion: '2' }), isEnospc);
          await assert.rejects(writer.close(), isEnospc);
        }, () => (full ? enospc : undefined));
        const record = parseRecordText(await readFile(path, 'utf8'));
        assert.equal(record?.tornTail, '');
        assert.deepEqual(record?.observations.map((o) => o.event.metadata), [started.metadata]);
      }));
  }
});

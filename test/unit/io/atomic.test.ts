import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FolderError, writeFileAtomic, writeFolderAtomic } from '../../../src/io/atomic.ts';
import { scratchDir } from '../../support/tmp.ts';

const root = scratchDir('atomic');

/** The id of a process that has run and ended: no process holds it now (until the OS reuses it). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('writeFolderAtomic', () => {
  test('writes the folder whole, with nothing left beside it', async () => {
    const parent = join(root, 'whole');
    mkdirSync(parent);
    await writeFolderAtomic(join(parent, 'cap'), { 'a.txt': 'a', 'b.txt': 'b' }, false);
    assert.deepEqual(readdirSync(parent), ['cap']);
    assert.deepEqual(readdirSync(join(parent, 'cap')).sort(), ['a.txt', 'b.txt']);
  });

  test('stopped before it is done (Ctrl-C): removes its temp folder and leaves no capture', async () => {
    const parent = join(root, 'stopped');
    mkdirSync(parent);
    const stop = new AbortController();
    stop.abort();
    await assert.rejects(writeFolderAtomic(join(parent, 'cap'), { 'events.json': 'x'.repeat(1 << 20) }, false, { signal: stop.signal }), { name: 'AbortError' });
    assert.deepEqual(readdirSync(parent), []);
  });

  test('stopped while replacing with --force: the old capture stays as it was', async () => {
    const parent = join(root, 'replacing');
    mkdirSync(join(parent, 'cap'), { recursive: true });
    writeFileSync(join(parent, 'cap', 'old.txt'), 'old');
    const stop = new AbortController();
    stop.abort();
    await assert.rejects(writeFolderAtomic(join(parent, 'cap'), { 'new.txt': 'new' }, true, { signal: stop.signal }));
    assert.deepEqual(readdirSync(parent), ['cap']);
    assert.equal(readFileSync(join(parent, 'cap', 'old.txt'), 'utf8'), 'old');
  });

  test('collects the temp folders a killed capture of the same folder left, and only those', async () => {
    const parent = join(root, 'stale');
    const dead = deadPid();
    const stale = join(parent, `.cap.tmp-${dead}-abcdef`);
    const alive = join(parent, `.cap.tmp-${process.pid}-123456`);
    const other = join(parent, `.other.tmp-${dead}-abcdef`);
    for (const dir of [stale, alive, other]) mkdirSync(dir, { recursive: true });
    writeFileSync(join(stale, 'events.json'), '{"kind":"EvtimelineCapture","core":[');
    await writeFolderAtomic(join(parent, 'cap'), { 'a.txt': 'a' }, false);
    assert.equal(existsSync(stale), false);
    assert.equal(existsSync(alive), true, 'a capture still running keeps its folder');
    assert.equal(existsSync(other), true, 'another folder\'s temp is not ours to remove');
  });

  test('puts back a capture a killed --force left moved aside, then replaces it as asked', async () => {
    const parent = join(root, 'swap');
    const aside = join(parent, `.cap.tmp-${deadPid()}-abcdef.old`);
    mkdirSync(aside, { recursive: true });
    writeFileSync(join(aside, 'old.txt'), 'old');
    await assert.rejects(writeFolderAtomic(join(parent, 'cap'), { 'new.txt': 'new' }, false), (e: unknown) => e instanceof FolderError && e.problem === 'not-empty');
    assert.equal(readFileSync(join(parent, 'cap', 'old.txt'), 'utf8'), 'old');
    assert.deepEqual(readdirSync(parent), ['cap']);
  });
});

// H5, L3: --output-file and a capture DIR go through symlinks and never replace what is not a file.
describe('writeFileAtomic writes where `>` would, whole', () => {
  test('a replaced file keeps its mode and owner (a 0600 report stays 0600, root writing it does not take it)', async () => {
    const file = join(root, 'report.txt');
    writeFileSync(file, 'old');
    chmodSync(file, 0o600);
    // As root: a file of another user, as `sudo kubectl evtimeline --output-file ~alice/report.txt` finds it.
    chownSync(file, 4321, 4321);
    await writeFileAtomic(file, 'new');
    const info = statSync(file);
    assert.equal(readFileSync(file, 'utf8'), 'new');
    assert.equal(info.mode & 0o7777, 0o600);
    assert.deepEqual([info.uid, info.gid], [4321, 4321]);
  });

  test('a new file is made as `>` makes it (0666 less the umask)', async () => {
    const file = join(root, 'fresh.txt');
    await writeFileAtomic(file, 'x');
    const umask = process.umask();
    assert.equal(statSync(file).mode & 0o777, 0o666 & ~umask);
  });

  test('a symlink is followed: the link stays, its target is written', async () => {
    const dir = join(root, 'linked');
    mkdirSync(dir);
    writeFileSync(join(dir, 'target.txt'), 'old');
    symlinkSync('target.txt', join(dir, 'out.txt'));
    await writeFileAtomic(join(dir, 'out.txt'), 'new');
    assert.equal(lstatSync(join(dir, 'out.txt')).isSymbolicLink(), true);
    assert.equal(readFileSync(join(dir, 'target.txt'), 'utf8'), 'new');
    assert.deepEqual(readdirSync(dir).sort(), ['out.txt', 'target.txt']);
  });

  test('a dangling symlink creates its target, as `>` does', async () => {
    const dir = join(root, 'dangling');
    mkdirSync(join(dir, 'sub'), { recursive: true });
    symlinkSync('sub/made.txt', join(dir, 'out.txt'));
    await writeFileAtomic(join(dir, 'out.txt'), 'made');
    assert.equal(lstatSync(join(dir, 'out.txt')).isSymbolicLink(), true);
    assert.equal(readFileSync(join(dir, 'sub', 'made.txt'), 'utf8'), 'made');
  });

  test('a FIFO is written in place once a reader comes, and stays a FIFO', async () => {
    const fifo = join(root, 'out.fifo');
    execFileSync('mkfifo', [fifo]);
    let waited = 0;
    const writing = writeFileAtomic(fifo, 'through the pipe\n', { waiting: () => (waited += 1) });
    // The reader comes later: the writer waits for it without blocking the event loop.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const reader = execFile('cat', [fifo], { timeout: 10_000 });
    let read = '';
    reader.stdout?.on('data', (chunk: Buffer) => (read += chunk.toString()));
    const ended = new Promise((resolve) => reader.on('close', resolve));
    await writing;
    await ended;
    assert.equal(read, 'through the pipe\n');
    assert.equal(waited, 1);
    assert.equal(lstatSync(fifo).isFIFO(), true);
  });

  test('a FIFO nobody reads: the wait ends when the signal aborts, and the FIFO stays', async () => {
    const fifo = join(root, 'unread.fifo');
    execFileSync('mkfifo', [fifo]);
    await assert.rejects(writeFileAtomic(fifo, 'x', { signal: AbortSignal.timeout(200) }), { name: 'TimeoutError' });
    assert.equal(lstatSync(fifo).isFIFO(), true);
  });

  test('a folder is refused, naming it', async () => {
    const dir = join(root, 'a-folder');
    mkdirSync(dir);
    await assert.rejects(writeFileAtomic(dir, 'x'), (error: unknown) => error instanceof FolderError && error.problem === 'not-a-file' && error.kind === 'folder');
  });
});

describe('writeFolderAtomic through a symlink (L3)', () => {
  test('captures into the link\'s target and keeps the link', async () => {
    const parent = join(root, 'folder-link');
    mkdirSync(join(parent, 'target'), { recursive: true });
    symlinkSync('target', join(parent, 'capl'));
    await writeFolderAtomic(join(parent, 'capl'), { 'events.json': '{}' }, false);
    assert.equal(lstatSync(join(parent, 'capl')).isSymbolicLink(), true);
    assert.deepEqual(readdirSync(join(parent, 'target')), ['events.json']);
    assert.deepEqual(readdirSync(parent).sort(), ['capl', 'target']);
  });

  test('with --force replaces what the target holds, still through the link', async () => {
    const parent = join(root, 'folder-link-force');
    mkdirSync(join(parent, 'target'), { recursive: true });
    writeFileSync(join(parent, 'target', 'old.txt'), 'old');
    symlinkSync(join(parent, 'target'), join(parent, 'capl'));
    await assert.rejects(writeFolderAtomic(join(parent, 'capl'), { 'new.txt': 'new' }, false), (e: unknown) => e instanceof FolderError && e.problem === 'not-empty');
    await writeFolderAtomic(join(parent, 'capl'), { 'new.txt': 'new' }, true);
    assert.equal(lstatSync(join(parent, 'capl')).isSymbolicLink(), true);
    assert.deepEqual(readdirSync(join(parent, 'target')), ['new.txt']);
  });

  test('a dangling link makes its target folder', async () => {
    const parent = join(root, 'folder-dangling');
    mkdirSync(parent);
    symlinkSync('made', join(parent, 'capl'));
    await writeFolderAtomic(join(parent, 'capl'), { 'a.txt': 'a' }, false);
    assert.deepEqual(readdirSync(join(parent, 'made')), ['a.txt']);
    assert.equal(lstatSync(join(parent, 'capl')).isSymbolicLink(), true);
  });
});

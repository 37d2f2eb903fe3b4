import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFolderAtomic } from '../../../src/io/atomic.ts';
import { scratchDir } from '../../support/tmp.ts';

const root = scratchDir('atomic');

/** The id of a process that has run and ended: no process holds it now (until the OS reuses it). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('writeFolderAtomic', () => {
  it('writes the folder whole, with nothing left beside it', async () => {
    const parent = join(root, 'whole');
    mkdirSync(parent);
    await writeFolderAtomic(join(parent, 'cap'), { 'a.txt': 'a', 'b.txt': 'b' }, false);
    assert.deepEqual(readdirSync(parent), ['cap']);
    assert.deepEqual(readdirSync(join(parent, 'cap')).sort(), ['a.txt', 'b.txt']);
  });

  it('stopped before it is done (Ctrl-C): removes its temp folder and leaves no capture', async () => {
    const parent = join(root, 'stopped');
    mkdirSync(parent);
    const stop = new AbortController();
    stop.abort();
    await assert.rejects(writeFolderAtomic(join(parent, 'cap'), { 'events.json': 'x'.repeat(1 << 20) }, false, { signal: stop.signal }), { name: 'AbortError' });
    assert.deepEqual(readdirSync(parent), []);
  });

  it('stopped while replacing with --force: the old capture stays as it was', async () => {
    const parent = join(root, 'replacing');
    mkdirSync(join(parent, 'cap'), { recursive: true });
    writeFileSync(join(parent, 'cap', 'old.txt'), 'old');
    const stop = new AbortController();
    stop.abort();
    await assert.rejects(writeFolderAtomic(join(parent, 'cap'), { 'new.txt': 'new' }, true, { signal: stop.signal }));
    assert.deepEqual(readdirSync(parent), ['cap']);
    assert.equal(readFileSync(join(parent, 'cap', 'old.txt'), 'utf8'), 'old');
  });

  it('collects the temp folders a killed capture of the same folder left, and only those', async () => {
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

  it('puts back a capture a killed --force left moved aside, then replaces it as asked', async () => {
    const parent = join(root, 'swap');
    const aside = join(parent, `.cap.tmp-${deadPid()}-abcdef.old`);
    mkdirSync(aside, { recursive: true });
    writeFileSync(join(aside, 'old.txt'), 'old');
    await assert.rejects(writeFolderAtomic(join(parent, 'cap'), { 'new.txt': 'new' }, false), /is not empty/);
    assert.equal(readFileSync(join(parent, 'cap', 'old.txt'), 'utf8'), 'old');
    assert.deepEqual(readdirSync(parent), ['cap']);
  });
});

// test/harness/file-times.mjs: the integration run's table of seconds per file, and the times it
// keeps for the next run's order. A run stopped by a signal must not keep the ~0 s of the files it
// never finished (node:test completes them with failureType 'testAborted').
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const cache = mkdtempSync(join(tmpdir(), 'evtimeline-file-times-'));
process.env.XDG_CACHE_HOME = cache;
const { default: fileTimes, FILE_SECONDS, recordedFileSeconds } = await import('../../harness/file-times.mjs');

const done = (file: string, ms: number, failureType?: string) => ({
  type: 'test:complete',
  data: { file: resolve(file), name: resolve(file), details: { duration_ms: ms, ...(failureType ? { error: { failureType } } : {}) } },
});

async function table(events: object[]): Promise<string> {
  async function* source() {
    yield* events;
  }
  let out = '';
  for await (const chunk of fileTimes(source())) out += chunk;
  return out;
}

after(() => rmSync(cache, { recursive: true, force: true }));

test('a stopped run keeps the times of the files that ended, not of those it stopped', async () => {
  const first = await table([done('test/integration/a.test.ts', 30_000), done('test/integration/b.test.ts', 20_000), done('test/integration/c.test.ts', 10_000)]);
  assert.match(first, /^\s+30\.0 {2}test\/integration\/a\.test\.ts$/m);
  assert.deepEqual(recordedFileSeconds(), { 'test/integration/a.test.ts': 30, 'test/integration/b.test.ts': 20, 'test/integration/c.test.ts': 10 });
  // The next run: b failed (still a whole run of it: kept), a was stopped midway, c never started.
  const second = await table([
    done('test/integration/b.test.ts', 25_000, 'testCodeFailure'),
    done('test/integration/a.test.ts', 4_000, 'testAborted'),
    done('test/integration/c.test.ts', 0.004, 'testAborted'),
  ]);
  assert.match(second, /^\s+4\.0 {2}test\/integration\/a\.test\.ts {2}\(stopped\)$/m);
  assert.match(second, /^\s+25\.0 {2}test\/integration\/b\.test\.ts$/m);
  assert.deepEqual(JSON.parse(readFileSync(FILE_SECONDS, 'utf8')), { 'test/integration/a.test.ts': [30], 'test/integration/b.test.ts': [20, 25], 'test/integration/c.test.ts': [10] });
  assert.deepEqual(recordedFileSeconds(), { 'test/integration/a.test.ts': 30, 'test/integration/b.test.ts': 22.5, 'test/integration/c.test.ts': 10 });
});

test('the order a next run takes is the median of a file\'s last five runs: one slow spell does not move it to the front', async () => {
  const c = (s: number) => done('test/integration/c.test.ts', s * 1000);
  for (const s of [11, 9, 12, 300]) await table([c(s)]);
  assert.equal(recordedFileSeconds()['test/integration/c.test.ts'], 11, 'median of 10, 11, 9, 12, 300');
  await table([c(280)]);
  assert.deepEqual(JSON.parse(readFileSync(FILE_SECONDS, 'utf8'))['test/integration/c.test.ts'], [11, 9, 12, 300, 280], 'the last five only');
  assert.equal(recordedFileSeconds()['test/integration/c.test.ts'], 12);
  for (const s of [290, 310]) await table([c(s)]);
  assert.equal(recordedFileSeconds()['test/integration/c.test.ts'], 290, 'a file that became slow is slow after three runs of five');
});

test('a cache an older harness wrote (one number a file) is read as one run', () => {
  writeFileSync(FILE_SECONDS, JSON.stringify({ 'test/integration/old.test.ts': 42.5, 'test/integration/junk.test.ts': 'x' }));
  assert.deepEqual(recordedFileSeconds(), { 'test/integration/old.test.ts': 42.5 });
});

test('below the files, the slowest tests of the slowest files, a describe\'s tests named after it', async (t) => {
  t.after(() => rmSync(cache, { recursive: true, force: true }));
  const file = resolve('test/integration/slow.test.ts');
  const at = (type: string, name: string, nesting: number, ms = 0, kind = 'test') => ({ type, data: { file, name, nesting, details: { duration_ms: ms, type: kind } } });
  // test:pass comes in the order the tests are defined, a suite's after its tests (node:test's reporter events).
  const out = await table([
    at('test:pass', 'quick', 0, 500),
    at('test:pass', 'offline', 1, 8_000),
    at('test:pass', 'restarted', 1, 68_000),
    at('test:pass', 'across a restart', 0, 76_000, 'suite'),
    at('test:fail', 'last', 0, 2_000),
    done('test/integration/slow.test.ts', 80_000),
    done('test/integration/other.test.ts', 1_000),
  ]);
  const below = out.slice(out.indexOf('the slowest tests'));
  assert.equal(
    below,
    'the slowest tests of the 1 slowest files (seconds):\n' +
      'test/integration/slow.test.ts\n' +
      '    68.0  across a restart > restarted\n' +
      '     8.0  across a restart > offline\n' +
      '     2.0  last\n' +
      '     0.5  quick\n',
  );
});

// A second test reporter: where the suite's time goes, one line per test file, slowest first.
// node:test runs each file in a process of its own and reports the file itself as a test whose
// duration is that process's, from its start to its end (test:complete of a test named after the
// file). Files that run beside one another each count their own time, so the sum of the lines is
// more than the run's wall time, which is printed beside it.
//
// The times are also kept in the cache folder (FILE_SECONDS, one number per file, the latest
// run's), so that the next integration run can start its longest files first
// (test/harness/integration-run.ts).
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { cacheRoot } from './build-controlplane.mjs';

export const FILE_SECONDS = join(cacheRoot(), 'integration-file-seconds.json');

/** The recorded seconds of each file, by its path relative to the work tree ({} when none). */
export function recordedFileSeconds() {
  try {
    return JSON.parse(readFileSync(FILE_SECONDS, 'utf8'));
  } catch {
    return {};
  }
}

function record(rows) {
  const all = { ...recordedFileSeconds(), ...Object.fromEntries(rows.map(([file, s]) => [file, Math.round(s * 10) / 10])) };
  mkdirSync(dirname(FILE_SECONDS), { recursive: true });
  const tmp = `${FILE_SECONDS}.tmp-${process.pid}`;
  writeFileSync(tmp, `${JSON.stringify(all, null, 1)}\n`);
  renameSync(tmp, FILE_SECONDS);
}

export default async function* fileTimes(source) {
  const started = Date.now();
  const seconds = new Map();
  const aborted = new Set();
  for await (const event of source) {
    const { file, name, details } = event.data ?? {};
    if (event.type !== 'test:complete' || !file || typeof name !== 'string' || resolve(name) !== file) continue;
    // A run stopped by a signal (Ctrl-C, a failing lane of `npm test`) completes every file it had
    // not finished as aborted, those not started in about 0 s: their times are not kept, or the next
    // run would start its longest files last.
    if (details?.error?.failureType === 'testAborted') aborted.add(file);
    seconds.set(file, (details?.duration_ms ?? 0) / 1000);
  }
  const rows = [...seconds].map(([file, s]) => [file.replace(`${process.cwd()}/`, ''), s]).sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((sum, r) => sum + r[1], 0);
  const wall = (Date.now() - started) / 1000;
  yield `\nseconds per file (${rows.length} files, ${total.toFixed(0)} s of file time in ${wall.toFixed(0)} s of wall time):\n`;
  for (const [file, s] of rows) yield `${s.toFixed(1).padStart(8)}  ${file}${aborted.has(resolve(file)) ? '  (stopped)' : ''}\n`;
  try {
    record(rows.filter(([file]) => !aborted.has(resolve(file))));
  } catch (err) {
    yield `(not kept in ${FILE_SECONDS}: ${err instanceof Error ? err.message : err})\n`;
  }
}

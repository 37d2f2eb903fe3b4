// A second test reporter: where the suite's time goes, one line per test file, slowest first.
// node:test runs each file in a process of its own and reports the file itself as a test whose
// duration is that process's, from its start to its end (test:complete of a test named after the
// file). Files that run beside one another each count their own time, so the sum of the lines is
// more than the run's wall time, which is printed beside it.
//
// Below it, the slowest tests of the slowest files (TOP_FILES, TOP_TESTS): where a file's time goes.
// A test inside a describe is named after it; tests run side by side (a suite's concurrency) each
// count their own time, as files do. A file's time also holds what runs outside its tests (imports,
// before hooks: a control plane of its own).
//
// The times are also kept in the cache folder (FILE_SECONDS: per file, its last KEPT_RUNS times), so
// that the next integration run can start its longest files first (test/harness/integration-run.ts),
// by the median of those: one run on a slow spell (a file's time doubled or tripled by what ran
// beside it) does not move it to the front, where it would run beside the unit and browser tests
// and be slower again.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { cacheRoot } from './build-controlplane.mjs';

export const FILE_SECONDS = join(cacheRoot(), 'integration-file-seconds.json');
const TOP_FILES = 6;
const TOP_TESTS = 8;

const KEPT_RUNS = 5;

/** The kept times of each file, last run last (a single number: the one time an older harness kept). */
function keptTimes() {
  try {
    const kept = JSON.parse(readFileSync(FILE_SECONDS, 'utf8'));
    return Object.fromEntries(Object.entries(kept).map(([file, times]) => [file, [times].flat().filter((t) => typeof t === 'number')]));
  } catch {
    return {};
  }
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The seconds each file is expected to take: the median of its kept runs, by its path relative to the work tree ({} when none). */
export function recordedFileSeconds() {
  return Object.fromEntries(Object.entries(keptTimes()).filter(([, times]) => times.length > 0).map(([file, times]) => [file, median(times)]));
}

function record(rows) {
  const all = keptTimes();
  for (const [file, s] of rows) all[file] = [...(all[file] ?? []), Math.round(s * 10) / 10].slice(-KEPT_RUNS);
  mkdirSync(dirname(FILE_SECONDS), { recursive: true });
  const tmp = `${FILE_SECONDS}.tmp-${process.pid}`;
  writeFileSync(tmp, `${JSON.stringify(all, null, 1)}\n`);
  renameSync(tmp, FILE_SECONDS);
}

/**
 * Files each finished test under its file as { name, seconds, nesting }; when a suite ends, the
 * rows one deeper are its tests and are named after it ("suite > test").
 */
function nameTests(tests, file, name, nesting, details) {
  const rows = tests.get(file) ?? [];
  tests.set(file, rows);
  const mine = rows.filter((r) => r.nesting === nesting + 1);
  if (details?.type === 'suite') {
    for (const r of mine) Object.assign(r, { name: `${name} > ${r.name}`, nesting });
  } else {
    for (const r of mine) r.nesting = nesting;
    rows.push({ name, seconds: (details?.duration_ms ?? 0) / 1000, nesting });
  }
}

export default async function* fileTimes(source) {
  const started = Date.now();
  const seconds = new Map();
  const aborted = new Set();
  const tests = new Map();
  for await (const event of source) {
    const { file, name, details, nesting } = event.data ?? {};
    if (!file || typeof name !== 'string') continue;
    // test:pass and test:fail come in the order the tests are defined, a suite's after its tests.
    if ((event.type === 'test:pass' || event.type === 'test:fail') && resolve(name) !== file) nameTests(tests, file, name, nesting, details);
    if (event.type !== 'test:complete' || resolve(name) !== file) continue;
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
  const slowest = rows.slice(0, TOP_FILES).filter(([file]) => tests.has(resolve(file)));
  if (slowest.length > 0) yield `\nthe slowest tests of the ${slowest.length} slowest files (seconds):\n`;
  for (const [file] of slowest) {
    yield `${file}\n`;
    const list = tests.get(resolve(file)).sort((a, b) => b.seconds - a.seconds);
    for (const { name, seconds: s } of list.slice(0, TOP_TESTS)) yield `${s.toFixed(1).padStart(8)}  ${name.length > 110 ? `${name.slice(0, 109)}…` : name}\n`;
    if (list.length > TOP_TESTS) yield `          (${list.length - TOP_TESTS} more, ${list.slice(TOP_TESTS).reduce((sum, t) => sum + t.seconds, 0).toFixed(1)} s)\n`;
  }
  try {
    record(rows.filter(([file]) => !aborted.has(resolve(file))));
  } catch (err) {
    yield `(not kept in ${FILE_SECONDS}: ${err instanceof Error ? err.message : err})\n`;
  }
}

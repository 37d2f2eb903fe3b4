// `npm run test:integration [-- FILE...]`: the integration files on ONE control plane with ONE real
// node (global-setup.ts starts them here, once; every file reuses them through the environment), in
// two runs of node:test one after the other, each file in a process of its own:
//
//   1. the files that change what every other file sees of the cluster, one at a time with nothing
//      beside them. Such a file says so in a line of its own, `// Runs alone: <why>.` (it adds CRDs
//      that make a bare type name mean two things, or a second node to the cluster);
//   2. all the others, EVTIMELINE_TEST_CONCURRENCY at a time (default 3: once a file's pods stopped
//      being probed after it ended, the run's CPU left room for a third; `.ci/run` passed three
//      times in a row at 3 on the idle 2-core machine, in 12-13 minutes, against 15 at 2; see the
//      README). Most of
//      their time is spent waiting on the kubelet's and the controllers' clocks (back-off, probes,
//      rollouts, node failure timings), not on the CPU. They can share the cluster because each
//      keeps to namespaces of its own (freshNamespace), to cluster-scoped objects named after them,
//      and to control planes, nodes and stores of its own. They start the longest first, by the
//      median of the times the last five runs kept (file-times.mjs, FILE_SECONDS in the cache folder), a file with no
//      time kept before them all, so that no long file is left running alone at the end.
//
// Each file runs in a node:test run() of its own, `n` at a time (file-pool.ts), so that the runner
// knows when each ends: it deletes the file's namespaces then (cleanUpAfter).
//
// Output: the spec reporter's lines, file by file, then one table of the time of each file
// (test/harness/file-times.mjs). Exit status 1 when a test failed.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { run } from 'node:test';
import type { TestEvent } from 'node:test/reporters';
import { spec } from 'node:test/reporters';
import fileTimes, { recordedFileSeconds } from './file-times.mjs';
import { globalSetup, globalTeardown } from './global-setup.ts';
import { runPool } from './file-pool.ts';
import { deleteNamespaces, FILE_LABEL, fileLabelValue } from './namespace.ts';

const root = join(import.meta.dirname, '..', '..');
const dir = join(root, 'test', 'integration');

const concurrency = Number(process.env.EVTIMELINE_TEST_CONCURRENCY ?? '3');
if (!Number.isInteger(concurrency) || concurrency < 1) {
  process.stderr.write(`EVTIMELINE_TEST_CONCURRENCY=${process.env.EVTIMELINE_TEST_CONCURRENCY}: want a whole number of at least 1\n`);
  process.exit(2);
}

const given = process.argv.slice(2).map((f) => relative(root, f));
const files = given.length > 0 ? given : readdirSync(dir).filter((f) => f.endsWith('.test.ts')).sort().map((f) => join('test', 'integration', f));
const alone = files.filter((f) => /^\/\/ Runs alone: /m.test(readFileSync(join(root, f), 'utf8')));
const kept = recordedFileSeconds();
const longestFirst = (a: string, b: string) => (kept[b] ?? Infinity) - (kept[a] ?? Infinity) || a.localeCompare(b);
const shared = files.filter((f) => !alone.includes(f)).sort(longestFirst);

// One spec reporter and one table for every file.
const toSpec = new PassThrough({ objectMode: true });
const toTable = new PassThrough({ objectMode: true });
const printed = [toSpec.compose(spec), toTable.compose(fileTimes)].map(
  (out) => new Promise<void>((done) => out.on('end', done).pipe(process.stdout, { end: false })),
);

const abort = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => abort.abort());

/** Deletions of the namespaces of files that ended (freshNamespace labels them), awaited before the teardown. */
const cleanups: Promise<void>[] = [];

/** Deletes, without waiting for it, what an ended file left on the shared cluster: its pods would run on, probed, for the rest of the suite. */
function cleanUpAfter(file: string): void {
  const value = fileLabelValue(file);
  const kubeconfig = process.env.EVTIMELINE_TEST_KUBECONFIG;
  if (value === undefined || kubeconfig === undefined) return;
  cleanups.push(
    deleteNamespaces(kubeconfig, { label: FILE_LABEL, value }).catch(
      (err: Error) => void process.stderr.write(`integration: could not delete the namespaces of ${file}: ${err.message}\n`),
    ),
  );
}

/** Tests that ended, passed and failed, over all files (suites not counted). */
const counts = { passed: 0, failed: 0 };

/**
 * Runs one file in a node:test run() of its own, so that its end is known when its process ends
 * (one run() of many files reports them in the order they started, a short file only after every
 * longer one before it); its events go to the reporters in one piece when it ends, so that two
 * files' lines do not mix. Resolves whether every test of it passed.
 */
async function runFile(file: string): Promise<boolean> {
  let success = false;
  const held: TestEvent[] = [];
  for await (const event of run({ files: [file], cwd: root, execArgv: ['--import', 'tsx'], signal: abort.signal })) {
    const data = event.data as { file?: string; name?: string; success?: boolean; details?: { type?: string } };
    if (data.file === undefined && event.type === 'test:summary') success = data.success === true;
    // The run's own totals: printed once for all files, below.
    if (data.file === undefined && ['test:summary', 'test:diagnostic', 'test:plan'].includes(event.type)) continue;
    if ((event.type === 'test:pass' || event.type === 'test:fail') && data.details?.type !== 'suite') counts[event.type === 'test:pass' ? 'passed' : 'failed'] += 1;
    if (event.type === 'test:complete' && data.file !== undefined && resolve(data.name ?? '') === data.file) cleanUpAfter(data.file);
    held.push(event);
  }
  for (const event of held) {
    toSpec.write(event);
    toTable.write(event);
  }
  return success;
}

/** Runs the files, `n` at a time in this order; resolves whether every test passed. */
async function runFiles(list: string[], n: number): Promise<boolean> {
  let passed = true;
  await runPool(list, n, async (file) => {
    // Stopped (Ctrl-C, the other lane failing): the files not yet started are not started.
    if (abort.signal.aborted || !(await runFile(file))) passed = false;
  });
  return passed;
}

const started = performance.now();
const seconds = () => (performance.now() - started) / 1000;
let passed = false;
await globalSetup();
try {
  process.stdout.write(`\nintegration: ${alone.length} file(s) that run alone, one at a time\n`);
  const alonePassed = await runFiles(alone, 1);
  const aloneAt = seconds();
  process.stdout.write(`\nintegration: ${shared.length} file(s), ${concurrency} at a time, the longest first\n`);
  passed = (await runFiles(shared, concurrency)) && alonePassed;
  toSpec.end();
  toTable.end();
  await Promise.all(printed);
  process.stdout.write(
    `\nintegration: ${counts.passed + counts.failed} tests, ${counts.passed} passed, ${counts.failed} failed; ${seconds().toFixed(0)} s in all: ` +
      `the set-up and the files that run alone ${aloneAt.toFixed(0)} s, the others ${concurrency} at a time ${(seconds() - aloneAt).toFixed(0)} s\n`,
  );
} finally {
  await Promise.all(cleanups);
  await globalTeardown();
}
process.exit(passed && !abort.signal.aborted ? 0 : 1);

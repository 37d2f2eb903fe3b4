// `npm run test:integration [-- FILE...]`: the integration files on ONE control plane with ONE real
// node (global-setup.ts starts them here, once, and every file reuses them through the environment),
// in two runs of node:test one after the other:
//
//   1. the files that change what every other file sees of the cluster, one at a time with nothing
//      beside them. Such a file says so in a line of its own: `// Runs alone: <why>.` (it adds CRDs
//      that make a bare type name mean two things, or a second node to the cluster);
//   2. all the others, CONCURRENCY at a time (EVTIMELINE_TEST_CONCURRENCY, default 3). Most of their
//      time is spent waiting on the kubelet's and the controllers' clocks (back-off, probes,
//      rollouts, node failure timings), not on the CPU. They share the cluster safely because each
//      keeps to namespaces of its own (freshNamespace), to cluster-scoped objects named after them,
//      and to control planes and stores of its own. They start the longest first, by the times
//      the last run kept (file-times.mjs, FILE_SECONDS in the cache folder), a file with no time
//      kept before them all, so that no long file is left to run on its own at the end.
//
// Each run prints the spec reporter's lines file by file and then the time of each file
// (test/harness/file-times.mjs). Exit status: 1 when either run failed.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { recordedFileSeconds } from './file-times.mjs';
import { globalSetup, globalTeardown } from './global-setup.ts';

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
const kept = recordedFileSeconds() as Record<string, number>;
const longestFirst = (a: string, b: string) => (kept[b] ?? Infinity) - (kept[a] ?? Infinity) || a.localeCompare(b);
const shared = files.filter((f) => !alone.includes(f)).sort(longestFirst);

function runner(list: string[], n: number): Promise<number> {
  if (list.length === 0) return Promise.resolve(0);
  const args = [
    '--import', 'tsx', '--test', `--test-concurrency=${n}`,
    '--test-reporter=spec', '--test-reporter-destination=stdout',
    '--test-reporter=./test/harness/file-times.mjs', '--test-reporter-destination=stdout',
    ...list,
  ];
  const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit', env: process.env });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on('SIGINT', forward).on('SIGTERM', forward);
  return new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      process.off('SIGINT', forward).off('SIGTERM', forward);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

const started = performance.now();
await globalSetup();
let failed = false;
try {
  process.stdout.write(`\nintegration: ${alone.length} file(s) that run alone, one at a time\n`);
  failed = (await runner(alone, 1)) !== 0;
  const aloneSeconds = (performance.now() - started) / 1000;
  process.stdout.write(`\nintegration: ${shared.length} file(s), ${concurrency} at a time\n`);
  failed = (await runner(shared, concurrency)) !== 0 || failed;
  const total = (performance.now() - started) / 1000;
  process.stdout.write(
    `\nintegration: ${total.toFixed(0)} s in all: set-up and the files that run alone ${aloneSeconds.toFixed(0)} s, ` +
      `the other files ${concurrency} at a time ${(total - aloneSeconds).toFixed(0)} s\n`,
  );
} finally {
  await globalTeardown();
}
process.exit(failed ? 1 : 0);

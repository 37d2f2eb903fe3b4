// `npm test` (after scripts/prerequisites.mjs): every check of the project, in three lanes side by side.
//
//   checks:      typecheck, layers, unit tests, browser tests: the CPU's work;
//   integration: `npm run build` (this machine's executable), then the integration tests, which spend
//                most of their time waiting on the cluster's clocks;
//   packaging:   once the build is done, `npm run package:archives` (every platform's archive and the
//                filled krew manifest, about 100 s), beside the integration tests rather than before
//                them: the two files that install or run the archives (krew, platforms) wait for this
//                lane to pass, told where by EVTIMELINE_TEST_ARCHIVES (test/harness/archives.ts); the
//                longest files start first, so by their turn the archives are usually there.
//
// The integration lane's output streams as it comes; each other step's is held and printed in one
// piece when it ends, so the lanes' lines do not mix. A step that fails stops the other lanes (each
// step is a process group of its own; Ctrl-C and SIGTERM reach them all) and the run exits 1. Each
// step's time is printed as `test: STEP passed in N s (at M s)`.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const started = performance.now();
const at = () => ((performance.now() - started) / 1000).toFixed(0);
const running = new Set();
let stopping = false;

function step(script, { hold, env = {} }) {
  const t0 = performance.now();
  const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', hold ? 'pipe' : 'inherit', hold ? 'pipe' : 'inherit'], detached: true, env: { ...process.env, ...env } });
  running.add(child);
  const held = [];
  if (hold) for (const s of [child.stdout, child.stderr]) s.on('data', (d) => held.push(d));
  return new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      running.delete(child);
      const ok = code === 0;
      const seconds = ((performance.now() - t0) / 1000).toFixed(0);
      const said = `test: ${script} ${ok ? 'passed' : stopping && signal ? 'stopped' : 'failed'} in ${seconds} s (at ${at()} s)\n`;
      process.stdout.write(hold ? `\n── npm run ${script} ──\n${Buffer.concat(held).toString()}${said}` : said);
      resolve(ok);
    });
  });
}

function stopAll(signal = 'SIGTERM') {
  stopping = true;
  for (const child of running) {
    try {
      process.kill(-child.pid, signal);
    } catch {
      /* already gone */
    }
  }
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stopAll(signal));

async function lane(scripts, opts) {
  for (const script of scripts) {
    if (stopping) return false;
    if (!(await step(script, opts))) {
      stopAll();
      return false;
    }
  }
  return true;
}

// Made when the packaging lane has passed: the krew and platforms files wait for it.
const marker = join(mkdtempSync(join(tmpdir(), 'evtimeline-test-')), 'archives-made');
const built = lane(['build'], { hold: false });
const results = await Promise.all([
  lane(['typecheck', 'layers', 'test:unit', 'test:browser'], { hold: true }),
  built.then((ok) => ok && lane(['test:integration'], { hold: false, env: { EVTIMELINE_TEST_ARCHIVES: marker } })),
  built.then(async (ok) => {
    const made = ok && (await lane(['package:archives'], { hold: true }));
    if (made) writeFileSync(marker, '');
    return made;
  }),
]);
rmSync(join(marker, '..'), { recursive: true, force: true });
const ok = results.every(Boolean);
process.stdout.write(`test: ${ok ? 'all passed' : 'FAILED'} in ${at()} s\n`);
process.exit(ok ? 0 : 1);

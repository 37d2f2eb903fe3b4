// `npm test` (after scripts/prerequisites.mjs): every check of the project, in two lanes side by side.
//
//   checks:      typecheck, layers, unit tests, browser tests: the CPU's work;
//   integration: `npm run package` (the executables the integration tests run and install), then the
//                integration tests, which spend most of their time waiting on the cluster's clocks.
//
// The integration lane's output streams as it comes; each check's is held and printed in one piece
// when it ends, so the lanes' lines do not mix. A step that fails stops the other lane (each lane is a
// process group of its own; Ctrl-C and SIGTERM reach both) and the run exits 1. Each step's time is
// printed as `test: STEP passed in N s (at M s)`.
import { spawn } from 'node:child_process';

const started = performance.now();
const at = () => ((performance.now() - started) / 1000).toFixed(0);
const running = new Set();
let stopping = false;

function step(script, { hold }) {
  const t0 = performance.now();
  const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', hold ? 'pipe' : 'inherit', hold ? 'pipe' : 'inherit'], detached: true });
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

const results = await Promise.all([
  lane(['typecheck', 'layers', 'test:unit', 'test:browser'], { hold: true }),
  lane(['package', 'test:integration'], { hold: false }),
]);
const ok = results.every(Boolean);
process.stdout.write(`test: ${ok ? 'all passed' : 'FAILED'} in ${at()} s\n`);
process.exit(ok ? 0 : 1);

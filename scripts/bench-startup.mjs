// `npm run bench:startup`: how much the plugin costs at startup next to kubectl itself. Runs
// `kubectl evtimeline --version` (kubectl finds dist/kubectl-evtimeline on PATH and execs it) and
// `kubectl version --client`, interleaved, and prints each one's median wall time and peak memory
// (max RSS) and their ratio. A benchmark, not a test: it prints figures and judges nothing.
//
//   node scripts/bench-startup.mjs [--runs 25] [--kubectl PATH] [--executable PATH]
//     (defaults: kubectl on PATH, dist/kubectl-evtimeline; --executable measures another build, e.g.
//     one without V8's code cache, as every platform but the build machine's gets)
//
// Node cannot read a child's rusage, so each run goes through scripts/maxrss.go, built with the Go
// the tests already need into ${XDG_CACHE_HOME:-~/.cache}/kubectl-evtimeline/maxrss-<hash>/.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureMaxRssHelper } from './maxrss.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function parseArgs(argv) {
  const opts = { runs: 25, kubectl: undefined, executable: join(root, 'dist', 'kubectl-evtimeline') };
  for (let i = 0; i < argv.length; i += 1) {
    const [flag, inline] = argv[i].split('=', 2);
    const value = () => inline ?? argv[++i];
    if (flag === '--runs') opts.runs = Number(value());
    else if (flag === '--kubectl') opts.kubectl = resolve(value());
    else if (flag === '--executable') opts.executable = resolve(value());
    else throw new Error(`unknown argument ${argv[i]} (want --runs N, --kubectl PATH, --executable PATH)`);
  }
  if (!Number.isInteger(opts.runs) || opts.runs < 20) throw new Error('--runs must be a whole number of at least 20');
  opts.kubectl ??= onPath('kubectl');
  if (!opts.kubectl) throw new Error('no kubectl on PATH: pass --kubectl PATH');
  return opts;
}

function onPath(name) {
  return (process.env.PATH ?? '').split(delimiter).filter(Boolean).map((dir) => join(dir, name)).find((path) => existsSync(path));
}


function measure(helper, command, env) {
  const result = JSON.parse(execFileSync(helper, command, { env, encoding: 'utf8' }));
  if (result.exitCode !== 0) throw new Error(`${command.join(' ')} exited ${result.exitCode}`);
  return result;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (!existsSync(opts.executable)) throw new Error(`${opts.executable} is missing: run npm run build first`);
  const helper = await ensureMaxRssHelper();
  const work = await mkdtemp(join(tmpdir(), 'evtimeline-bench-'));
  try {
    // A PATH holding only the plugin (dist/ also holds the bundle) and kubectl; an empty kubeconfig.
    await mkdir(join(work, 'bin'));
    await symlink(opts.executable, join(work, 'bin', 'kubectl-evtimeline'));
    await writeFile(join(work, 'kubeconfig'), '');
    const env = { PATH: [join(work, 'bin'), dirname(opts.kubectl), '/usr/bin', '/bin'].join(delimiter), HOME: work, KUBECONFIG: join(work, 'kubeconfig') };
    const subjects = [
      { name: 'kubectl evtimeline --version', command: [opts.kubectl, 'evtimeline', '--version'], wall: [], rss: [] },
      { name: 'kubectl version --client', command: [opts.kubectl, 'version', '--client'], wall: [], rss: [] },
    ];
    const show = (command) => execFileSync(command[0], command.slice(1), { env, encoding: 'utf8' }).trim().split('\n')[0];
    console.log(`plugin:  ${show(subjects[0].command)}`);
    console.log(`kubectl: ${show(subjects[1].command)} (${opts.kubectl})`);

    for (const subject of subjects) measure(helper, subject.command, env); // warm the page cache
    for (let run = 0; run < opts.runs; run += 1) {
      // Alternate which goes first, so neither always runs right after the other.
      const order = run % 2 === 0 ? subjects : [...subjects].reverse();
      for (const subject of order) {
        const { wallSeconds, maxRssKiB } = measure(helper, subject.command, env);
        subject.wall.push(wallSeconds);
        subject.rss.push(maxRssKiB / 1024);
      }
    }

    const [plugin, kubectl] = subjects.map((s) => ({ ...s, wallMedian: median(s.wall), rssMedian: median(s.rss) }));
    const row = (name, wall, rss) => `${name.padEnd(32)}${wall.padStart(14)}${rss.padStart(20)}`;
    console.log(`\n${opts.runs} runs each, interleaved\n`);
    console.log(row('', 'median wall', 'median peak RSS'));
    for (const s of [plugin, kubectl]) console.log(row(s.name, `${(s.wallMedian * 1000).toFixed(0)} ms`, `${s.rssMedian.toFixed(1)} MiB`));
    console.log(row('ratio (plugin / kubectl)', `${(plugin.wallMedian / kubectl.wallMedian).toFixed(2)}x`, `${(plugin.rssMedian / kubectl.rssMedian).toFixed(2)}x`));
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(`bench-startup: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
});

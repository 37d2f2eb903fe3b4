// `npm run bench:startup`: what the plugin costs at start-up next to kubectl itself. Runs
// `kubectl evtimeline --version` and `kubectl evtimeline --help` (kubectl finds the plugin on PATH
// and execs it) and `kubectl version --client`, interleaved, and prints each one's median wall
// time, CPU (user+sys) and peak memory (max RSS) with the ratio to `kubectl version --client`.
// A benchmark, not a test: it prints figures and judges nothing.
//
//   node --import tsx scripts/bench-startup.ts [--runs 25] [--kubectl PATH] [--plugin PATH] [--baseline PATH]
//
// --plugin measures another build than dist/kubectl-evtimeline; --baseline adds an older build as
// `kubectl evtimelinebaseline`. Each run goes through scripts/maxrss.go (Node cannot read a child's
// rusage), built with the Go the tests already need into ${XDG_CACHE_HOME:-~/.cache}/kubectl-evtimeline/.
//
// Two floors are measured beside them (--no-floor leaves them out): `kubectl truefloor`, a plugin
// that is /bin/true (what kubectl costs before it execs any plugin), and `kubectl nodefloor`, a
// single executable built here like the plugin (same Node, same SEA settings) whose script only
// prints one line: what Node costs before any of the plugin's code runs.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { ensureMaxRssHelper } from './maxrss.mjs';
import { buildSea, pinnedNodeBinary } from './sea.mjs';
import { evictFromPageCache, interleave, markdownTable, onPath, type Subject } from './bench-measure.ts';
import { PLUGIN_BINARY } from '../test/harness/plugin.ts';

function parseArgs(argv: string[]): { runs: number; kubectl: string; plugin: string; baseline?: string; floor: boolean } {
  let runs = 25;
  let kubectl: string | undefined;
  let plugin = PLUGIN_BINARY;
  let baseline: string | undefined;
  let floor = true;
  for (let i = 0; i < argv.length; i += 1) {
    const [flag, inline] = (argv[i] as string).split('=', 2) as [string, string | undefined];
    const value = (): string => inline ?? (argv[++i] as string);
    if (flag === '--runs') runs = Number(value());
    else if (flag === '--kubectl') kubectl = resolve(value());
    else if (flag === '--plugin') plugin = resolve(value());
    else if (flag === '--baseline') baseline = resolve(value());
    else if (flag === '--no-floor') floor = false;
    else throw new Error(`unknown argument ${argv[i]} (want --runs N, --kubectl PATH, --plugin PATH, --baseline PATH, --no-floor)`);
  }
  if (!Number.isInteger(runs) || runs < 5) throw new Error('--runs must be a whole number of at least 5');
  kubectl ??= onPath('kubectl');
  if (!kubectl) throw new Error('no kubectl on PATH: pass --kubectl PATH');
  for (const binary of [plugin, baseline]) if (binary && !existsSync(binary)) throw new Error(`${binary} is missing: run npm run build first`);
  return { runs, kubectl, plugin, ...(baseline ? { baseline } : {}), floor };
}

/** A single executable whose script prints one line, built as build.mjs builds the plugin's. */
async function buildNodeFloor(dir: string): Promise<string> {
  const script = join(dir, 'floor.cjs');
  await writeFile(script, "process.stdout.write('floor\\n');\n");
  const output = join(dir, 'kubectl-nodefloor');
  await buildSea({ bundle: script, output, nodeBinary: pinnedNodeBinary().binary });
  return output;
}

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  const helper = await ensureMaxRssHelper();
  const work = await mkdtemp(join(tmpdir(), 'evtimeline-bench-'));
  try {
    // A PATH holding only the plugin(s) (dist/ also holds the bundle) and kubectl; an empty kubeconfig.
    await mkdir(join(work, 'bin'));
    await symlink(opts.plugin, join(work, 'bin', 'kubectl-evtimeline'));
    const plugins = ['evtimeline'];
    if (opts.baseline) {
      await symlink(opts.baseline, join(work, 'bin', 'kubectl-evtimelinebaseline'));
      plugins.push('evtimelinebaseline');
    }
    const floors: string[] = [];
    if (opts.floor) {
      await symlink(await buildNodeFloor(work), join(work, 'bin', 'kubectl-nodefloor'));
      await symlink('/bin/true', join(work, 'bin', 'kubectl-truefloor'));
      floors.push(join(work, 'kubectl-nodefloor'));
    }
    await writeFile(join(work, 'kubeconfig'), '');
    const env = { PATH: [join(work, 'bin'), dirname(opts.kubectl), '/usr/bin', '/bin'].join(delimiter), HOME: work, KUBECONFIG: join(work, 'kubeconfig') };
    const k = opts.kubectl;
    const subjects: Subject[] = [
      ...plugins.flatMap((p) => [
        { name: `kubectl ${p} --version`, command: [k, p, '--version'] },
        { name: `kubectl ${p} --help`, command: [k, p, '--help'] },
      ]),
      ...(opts.floor ? [{ name: 'kubectl nodefloor', command: [k, 'nodefloor'] }, { name: 'kubectl truefloor', command: [k, 'truefloor'] }] : []),
      { name: 'kubectl version --client', command: [k, 'version', '--client'] },
    ];
    const first = (command: string[]): string => execFileSync(command[0] as string, command.slice(1), { env, encoding: 'utf8' }).trim().split('\n')[0] as string;
    console.log(`plugin:  ${first([k, 'evtimeline', '--version'])} (${opts.plugin})`);
    if (opts.baseline) console.log(`baseline: ${first([k, 'evtimelinebaseline', '--version'])} (${opts.baseline})`);
    console.log(`kubectl: ${first([k, 'version', '--client'])} (${k})`);
    console.log(`runs:    ${opts.runs} interleaved per command, after one warm-up run each; medians\n`);
    evictFromPageCache([k, opts.plugin, ...(opts.baseline ? [opts.baseline] : []), ...floors]);
    const results = await interleave(helper, subjects, opts.runs, env);
    console.log(markdownTable(results, 'kubectl version --client'));
    if (opts.floor) {
      console.log('\nkubectl nodefloor: a single executable on the same Node and SEA settings whose script prints one line;');
      console.log('kubectl truefloor: a plugin that is /bin/true (kubectl\'s own start before it execs a plugin).');
    }
    console.log(`\n(load average ${loadavg().map((l) => l.toFixed(2)).join(' ')})`);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(`bench-startup: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});

// `npm run bench:tree`: what `--tree` costs on a namespace of about 500 objects (--objects), next to
// `kubectl get all`. A private control plane with two nodes (test/harness) builds the namespace
// with its real controllers (scripts/bench-objects.ts: a Deployment `web` rolled out to a second
// ReplicaSet, more Deployments, Jobs, Services, ConfigMaps, and --events events besides the
// controllers'), then the benchmark runs, interleaved after one warm-up run each:
//
//   kubectl evtimeline -n NS --for deploy/web --tree            (the table)
//   kubectl evtimeline -n NS --for deploy/web --tree -o json
//   kubectl evtimeline -n NS --for deploy/web                   (the same object without its tree)
//   kubectl get all -n NS                                       (the reference of the ratios)
//   kubectl get all -n NS -o json
//
// and prints medians of wall time, user+sys CPU and peak RSS (scripts/maxrss.go) with ratios. A
// benchmark, not a test: it judges nothing, except that it fails loudly when the plugin's -o json
// does not place web's events in web's tree (both ReplicaSets, pods under them, the gone pods marked).
//
//   node --import tsx scripts/bench-tree.ts [--objects 500] [--events 2000] [--runs 5]
//       [--kubectl PATH] [--plugin PATH]
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { ensureMaxRssHelper } from './maxrss.mjs';
import { Api, capture } from './bench-api.ts';
import { NODES, buildNamespace, type BuiltNamespace } from './bench-objects.ts';
import { elapsed, evictFromPageCache, interleave, markdownTable, onPath, type Subject } from './bench-measure.ts';
import { startControlPlane, type ControlPlane } from '../test/harness/controlplane.ts';
import { freshNamespace } from '../test/harness/namespace.ts';
import { PLUGIN_BINARY } from '../test/harness/plugin.ts';

interface Options {
  objects: number;
  events: number;
  runs: number;
  kubectl: string;
  plugin: string;
}

function parseArgs(argv: string[]): Options {
  const opts: Partial<Options> & { objects: number; events: number; runs: number } = { objects: 500, events: 2000, runs: 5 };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    const eq = arg.indexOf('=');
    const flag = eq < 0 ? arg : arg.slice(0, eq);
    const value = (): string => {
      const v = eq < 0 ? argv[++i] : arg.slice(eq + 1);
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    const whole = (min: number): number => {
      const n = Number(value());
      if (!Number.isInteger(n) || n < min) throw new Error(`${flag} must be a whole number of at least ${min}`);
      return n;
    };
    if (flag === '--objects') opts.objects = whole(1);
    else if (flag === '--events') opts.events = whole(0);
    else if (flag === '--runs') opts.runs = whole(1);
    else if (flag === '--kubectl') opts.kubectl = resolve(value());
    else if (flag === '--plugin') opts.plugin = resolve(value());
    else throw new Error(`unknown argument ${arg} (see the comment at the top of scripts/bench-tree.ts)`);
  }
  opts.kubectl ??= onPath('kubectl');
  if (!opts.kubectl) throw new Error('no kubectl on PATH: pass --kubectl PATH');
  opts.plugin ??= PLUGIN_BINARY;
  if (!existsSync(opts.plugin)) throw new Error(`${opts.plugin} is missing (npm run build makes dist/kubectl-evtimeline)`);
  return opts as Options;
}

interface TreeMember {
  kind: string;
  name: string;
  gone?: boolean;
}

/** Fails loudly unless -o json places web's events in its tree: both ReplicaSets, pods under them, gone pods marked gone. */
async function checkTreeJson(command: string[], built: BuiltNamespace, env: NodeJS.ProcessEnv): Promise<number> {
  const events = JSON.parse(await capture(command, env)) as { object: { kind: string; name: string }; tree?: TreeMember[] }[];
  const chains = events.map((e) => (e.tree ?? []).map((m) => `${m.kind}/${m.name}${m.gone ? ' (gone)' : ''}`).join(' > '));
  const problems: string[] = [];
  if (events.some((e) => !Array.isArray(e.tree) || e.tree.length === 0)) problems.push('an event has no tree');
  if (chains.some((c) => !c.startsWith('Deployment/web'))) problems.push('an event is not under Deployment/web');
  for (const set of built.webSets) if (!chains.some((c) => c.startsWith(`Deployment/web > ReplicaSet/${set}`))) problems.push(`no event under ReplicaSet/${set}`);
  for (const pod of built.webPods) if (!chains.some((c) => c.endsWith(`> Pod/${pod}`))) problems.push(`no event of Pod/${pod} under its ReplicaSet`);
  for (const pod of built.gonePods) if (!chains.some((c) => c.endsWith(`> Pod/${pod} (gone)`))) problems.push(`gone Pod/${pod} not marked gone`);
  if (problems.length > 0) throw new Error(`${command.slice(1).join(' ')} is wrong: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? ` (and ${problems.length - 5} more)` : ''}`);
  return events.length;
}

async function main(): Promise<void> {
  const scriptStarted = performance.now();
  const opts = parseArgs(process.argv.slice(2));
  const helper = await ensureMaxRssHelper();
  const k = opts.kubectl;

  let cp: ControlPlane | undefined;
  let api: Api | undefined;
  const work = await mkdtemp(join(tmpdir(), 'evtimeline-bench-tree-'));
  let cleaning: Promise<void> | undefined;
  const cleanUp = (): Promise<void> => {
    cleaning ??= (async () => {
      api?.close();
      if (cp) {
        process.stderr.write('stopping the control plane...\n');
        await cp.stop();
      }
      await rm(work, { recursive: true, force: true });
    })();
    return cleaning;
  };
  const onSignal = (signal: NodeJS.Signals): void => {
    process.stderr.write(`\nbench-tree: ${signal}\n`);
    void cleanUp().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    // PATH: the plugin first, then kubectl's folder. A HOME of its own: kubectl's discovery cache
    // lives there (`get all` reads it), filled by the warm-up runs.
    const bin = join(work, 'bin');
    await mkdir(bin);
    await symlink(opts.plugin, join(bin, 'kubectl-evtimeline'));
    const env: NodeJS.ProcessEnv = { PATH: [bin, dirname(k), '/usr/bin', '/bin'].join(delimiter), HOME: work };

    console.log(`plugin:  ${(await capture([k, 'evtimeline', '--version'], env)).trim()} (${opts.plugin})`);
    console.log(`kubectl: ${(await capture([k, 'version', '--client'], env)).trim().split('\n')[0]} (${k})`);
    console.log(`runs:    ${opts.runs} interleaved per command, after one warm-up run each; medians`);

    process.stderr.write(`starting the control plane (etcd, kube-apiserver, kube-scheduler, kube-controller-manager; ${NODES} nodes)...\n`);
    cp = await startControlPlane({ nodes: NODES });
    api = new Api(cp);
    env.KUBECONFIG = cp.kubeconfig;
    console.log(`server:  Kubernetes ${cp.kubernetesVersion}, etcd ${cp.etcdVersion}, started in ${cp.startupSeconds.toFixed(1)} s`);

    let started = performance.now();
    const ns = await freshNamespace(cp.kubeconfig, 'bench-tree');
    const built = await buildNamespace((api as Api).call.bind(api), cp.kubeconfig, ns, opts.objects, opts.events, (line) => process.stderr.write(`${line}\n`));
    const byResource = [...built.byResource].sort((a, b) => b[1] - a[1]).map(([r, n]) => `${n} ${r}`).join(', ');
    console.log(`\n## --tree on ${built.objects} objects (${byResource}) and ${built.events} events, built in ${elapsed(started)}\n`);
    console.log(`Deployment web: ReplicaSets ${built.webSets.join(' (old), ')} (new); ${built.webPods.length} pods, ${built.gonePods.length} gone with the old ReplicaSet.`);
    const inTree = await checkTreeJson([k, 'evtimeline', '-n', ns, '--for', 'deploy/web', '--tree', '-o', 'json'], built, env);
    console.log(`The tree of deploy/web holds ${inTree} of the namespace's ${built.events} events.\n`);

    evictFromPageCache([k, opts.plugin]);
    started = performance.now();
    const plugin = (args: string[]): Subject => ({ name: `kubectl evtimeline -n NS ${args.join(' ')}`, command: [k, 'evtimeline', '-n', ns, ...args] });
    const subjects: Subject[] = [
      plugin(['--for', 'deploy/web', '--tree']),
      plugin(['--for', 'deploy/web', '--tree', '-o', 'json']),
      plugin(['--for', 'deploy/web']),
      { name: 'kubectl get all -n NS', command: [k, 'get', 'all', '-n', ns] },
      { name: 'kubectl get all -n NS -o json', command: [k, 'get', 'all', '-n', ns, '-o', 'json'] },
    ];
    const results = await interleave(helper, subjects, opts.runs, env);
    console.log(markdownTable(results, 'kubectl get all -n NS'));
    console.log(`\n(measured in ${elapsed(started)}; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')})`);
    console.log(`\nthe whole benchmark took ${elapsed(scriptStarted)}`);
  } finally {
    await cleanUp();
  }
}

main().catch((err: unknown) => {
  console.error(`bench-tree: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});

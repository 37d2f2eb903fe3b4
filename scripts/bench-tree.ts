// `npm run bench:tree`: what `--tree` costs on a namespace of about 500 objects (--objects), next to
// `kubectl get all`. A private control plane with two nodes (test/harness) builds the namespace
// with its real controllers (scripts/bench-objects.ts: a Deployment `web` rolled out to a second
// ReplicaSet, more Deployments, Jobs, Services, ConfigMaps, and --events events besides the
// controllers'), then the benchmark runs, interleaved after one warm-up run each:
//
//   kubectl evtimeline -n NS --for deploy/web --tree            (the table)
//   kubectl evtimeline -n NS --for deploy/web --tree -o json
//   kubectl evtimeline -n NS --for deploy/web                   (the same object without its tree)
//   kubectl evtimeline incident -n NS --for deploy/web --tree   (the story told owner first)
//   kubectl get all -n NS                                       (the reference of the ratios)
//   kubectl get all -n NS -o json
//
// and prints medians of wall time, user+sys CPU and peak RSS (scripts/maxrss.go) with ratios. A
// benchmark, not a test: it judges nothing, except that it fails loudly when the plugin's -o json
// does not place web's events in web's tree (both ReplicaSets, pods under them, the gone pods that
// the ReplicaSets' events name marked gone).
//
//   node --import tsx scripts/bench-tree.ts [--objects 500] [--events 2000] [--runs 5]
//       [--kubectl PATH] [--plugin PATH]
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { ensureMaxRssHelper } from './maxrss.mjs';
import { capture } from './bench-api.ts';
import { Workspace, readFlags } from './bench-session.ts';
import { NODES, buildNamespace, type BuiltNamespace } from './bench-objects.ts';
import { elapsed, evictFromPageCache, interleave, markdownTable, onPath, type Subject } from './bench-measure.ts';
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
  readFlags(argv, 'bench-tree', (flag, value, whole) => {
    if (flag === '--objects') opts.objects = whole(1);
    else if (flag === '--events') opts.events = whole(0);
    else if (flag === '--runs') opts.runs = whole(1);
    else if (flag === '--kubectl') opts.kubectl = resolve(value());
    else if (flag === '--plugin') opts.plugin = resolve(value());
    else return false;
    return true;
  });
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
  for (const pod of built.namedGone) if (!chains.some((c) => c.endsWith(`> Pod/${pod} (gone)`))) problems.push(`gone Pod/${pod} not marked gone`);
  if (built.namedGone.length === 0) problems.push('no gone pod is named by its ReplicaSet\'s events: nothing gone to show');
  if (problems.length > 0) throw new Error(`${command.slice(1).join(' ')} is wrong: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? ` (and ${problems.length - 5} more)` : ''}`);
  return events.length;
}

async function main(): Promise<void> {
  const scriptStarted = performance.now();
  const opts = parseArgs(process.argv.slice(2));
  const helper = await ensureMaxRssHelper();
  const k = opts.kubectl;

  const ws = await Workspace.open('bench-tree', k);
  try {
    await ws.link(opts.plugin, 'evtimeline', k);
    const env = ws.env;
    console.log(`kubectl: ${(await capture([k, 'version', '--client'], env)).trim().split('\n')[0]} (${k})`);
    console.log(`runs:    ${opts.runs} interleaved per command, after one warm-up run each; medians`);
    const { cp, api } = await ws.startControlPlane(`etcd, kube-apiserver, kube-scheduler, kube-controller-manager; ${NODES} nodes`, { nodes: NODES });

    let started = performance.now();
    const ns = await freshNamespace(cp.kubeconfig, 'bench-tree');
    const built = await buildNamespace(api.call.bind(api), cp.kubeconfig, ns, opts.objects, opts.events, (line) => process.stderr.write(`${line}\n`));
    const byResource = [...built.byResource].sort((a, b) => b[1] - a[1]).map(([r, n]) => `${n} ${r}`).join(', ');
    console.log(`\n## --tree on ${built.objects} objects (${byResource}) and ${built.events} events, built in ${elapsed(started)}\n`);
    console.log(
      `Deployment web: ReplicaSets ${built.webSets.join(' (old), ')} (new); ${built.webPods.length} pods, ${built.gonePods.length} gone with the old ReplicaSet, ` +
        `${built.namedGone.length} of them named by its events (client-go's recorder drops and combines the rest).`,
    );
    const inTree = await checkTreeJson([k, 'evtimeline', '-n', ns, '--for', 'deploy/web', '--tree', '-o', 'json'], built, env);
    console.log(`The tree of deploy/web holds ${inTree} of the namespace's ${built.events} events.\n`);

    evictFromPageCache([k, opts.plugin]);
    started = performance.now();
    const plugin = (args: string[]): Subject => ({ name: `kubectl evtimeline -n NS ${args.join(' ')}`, command: [k, 'evtimeline', '-n', ns, ...args] });
    const subjects: Subject[] = [
      plugin(['--for', 'deploy/web', '--tree']),
      plugin(['--for', 'deploy/web', '--tree', '-o', 'json']),
      plugin(['--for', 'deploy/web']),
      { name: 'kubectl evtimeline incident -n NS --for deploy/web --tree', command: [k, 'evtimeline', 'incident', '-n', ns, '--for', 'deploy/web', '--tree'] },
      { name: 'kubectl get all -n NS', command: [k, 'get', 'all', '-n', ns] },
      { name: 'kubectl get all -n NS -o json', command: [k, 'get', 'all', '-n', ns, '-o', 'json'] },
    ];
    const results = await interleave(helper, subjects, opts.runs, env);
    console.log(markdownTable(results, 'kubectl get all -n NS'));
    console.log(`\n(measured in ${elapsed(started)}; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')})`);
    console.log(`\nthe whole benchmark took ${elapsed(scriptStarted)}`);
  } finally {
    await ws.close();
  }
}

main().catch((err: unknown) => {
  console.error(`bench-tree: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});

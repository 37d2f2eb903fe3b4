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
import { loadavg } from 'node:os';
import { capture } from './bench-api.ts';
import { buildNamespace, startNamespaceBench, type BuiltNamespace } from './bench-objects.ts';
import { elapsed, evictFromPageCache, interleave, markdownTable, type Subject } from './bench-measure.ts';

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
  const { opts, helper, ws, cp, api, ns } = await startNamespaceBench('bench-tree', process.argv.slice(2));
  const k = opts.kubectl;
  try {
    const env = ws.env;
    let started = performance.now();
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

// `npm run bench:why`: what reading the objects' status costs `incident`, and the account's bound.
//
// 1. A namespace of 400 Pods on the real control plane (scripts/bench-objects.ts's private control
//    plane, two 110-Pod nodes: a Deployment of --pods replicas, 220 placed, the rest Pending with
//    the scheduler's FailedScheduling, so the facts read every Node and the Pods bound to each).
//    Interleaved after one warm-up run each (21 rounds unless --runs), medians of wall, CPU and peak RSS:
//      kubectl evtimeline incident -n NS               (events, then status: Pods, the Deployment, ReplicaSets, Nodes)
//      kubectl evtimeline incident -n NS --no-status   (the same account from the events alone)
//      kubectl get pods -n NS                          (the reference of the ratios)
//    The overhead of the facts is the first's wall over the second's; the target is at most 1.20.
// 2. A capture of 20,000 events about 8 ReplicaSets and 400 Pods (test/support/owned-events.ts) with
//    a status.json of the 400 Pods, each crash-looping or killed for memory: `incident --from` it,
//    with and without --no-status, counting the account's lines (the bound: 80) and the Why's.
//
//   node --import tsx scripts/bench-why.ts [--pods 400] [--runs 21] [--kubectl PATH] [--plugin PATH]
// The verdict is the median of the rounds' wall ratios (with its quartiles and the rounds over 20%),
// not the ratio of the two medians: one slow run of either side then moves one ratio of 21.
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { capture } from './bench-api.ts';
import { startNamespaceBench } from './bench-objects.ts';
import { elapsed, interleave, markdownTable, pairedOverhead, type Subject } from './bench-measure.ts';
import { waitFor } from '../test/harness/wait.ts';
import { deploymentObject, listObjects } from '../test/harness/workloads.ts';
import { ownedNamespace } from '../test/support/owned-events.ts';
import { NOW } from '../test/support/builders.ts';
import { pod, terminated, waiting } from '../test/support/status-objects.ts';
import { podFacts } from '../src/core/facts.ts';
import { formatStatusFile } from '../src/io/facts-file.ts';

/** The bar: reading the facts costs at most 20% more wall time (issue 22). */
const TARGET = 0.2;
/** Rounds when --runs is not given: the overhead (50-80 ms) is about one run's spread, so one round decides nothing. */
const RUNS = 21;

/** --pods N (default 400) among the namespace-bench flags. */
function podsWanted(argv: string[]): { pods: number; rest: string[] } {
  const at = argv.indexOf('--pods');
  if (at < 0) return { pods: 400, rest: argv };
  const pods = Number(argv[at + 1]);
  if (!Number.isInteger(pods) || pods < 1) throw new Error('--pods takes a whole number');
  return { pods, rest: [...argv.slice(0, at), ...argv.slice(at + 2)] };
}

/** A capture folder of 20,000 events and the status of their 400 Pods. */
function savedCapture(dir: string): string {
  const ns = ownedNamespace({ events: 20_000, replicaSets: 8, pods: 50 });
  const capturedAt = new Date(NOW).toISOString();
  const folder = join(dir, 'capture-20000');
  mkdirSync(folder, { recursive: true });
  const events = { kind: 'EvtimelineCapture', version: 1, context: 'bench', server: 'https://127.0.0.1:6443', namespace: 'op-events', capturedAt, core: ns.items, eventsK8sIo: [] };
  writeFileSync(join(folder, 'events.json'), JSON.stringify(events));
  const names = new Set<string>();
  for (const item of ns.items as { involvedObject?: { kind?: string; name?: string } }[]) if (item.involvedObject?.kind === 'Pod' && item.involvedObject.name) names.add(item.involvedObject.name);
  const objects = [...names].map((name, i) =>
    podFacts(
      pod({
        name,
        namespace: 'op-events',
        owner: { kind: 'ReplicaSet', name: name.replace(/-[^-]+$/, '') },
        containers: [i % 2 === 0 ? { limits: { memory: '64Mi' }, restartCount: 4, lastState: terminated('OOMKilled', 137), state: waiting('CrashLoopBackOff', 'back-off') } : { restartCount: 3, lastState: terminated('Error', 1), state: waiting('CrashLoopBackOff', 'back-off') }],
      }),
    ),
  );
  writeFileSync(join(folder, 'status.json'), formatStatusFile(capturedAt, { objects, gaps: [], readAt: NOW }));
  return folder;
}

async function main(): Promise<void> {
  const scriptStarted = performance.now();
  const argv = process.argv.slice(2);
  const { pods, rest } = podsWanted(argv.includes('--runs') ? argv : [...argv, '--runs', String(RUNS)]);
  const { opts, helper, ws, cp, api, ns } = await startNamespaceBench('bench-why', rest);
  const k = opts.kubectl;
  try {
    const env = ws.env;
    let started = performance.now();
    await api.call('POST', `/apis/apps/v1/namespaces/${ns}/deployments`, deploymentObject(ns, 'web', { replicas: pods, cpu: '1m' }));
    await waitFor(`${pods} pods`, async () => ((await listObjects(cp.kubeconfig, ns, 'pods', 'app=web')).length >= pods ? true : undefined), { timeoutMs: 600_000 });
    const placed = (await listObjects(cp.kubeconfig, ns, 'pods', 'app=web')).filter((p) => typeof p.spec?.nodeName === 'string').length;
    const events = (await capture([k, 'get', 'events', '-n', ns, '-o', 'name'], env)).split('\n').filter(Boolean).length;
    console.log(`\n## incident on ${pods} Pods (${placed} placed on 2 nodes, the rest Pending) and ${events} events, built in ${elapsed(started)}\n`);
    const why = (await capture([k, 'evtimeline', 'incident', '-n', ns], env)).split('\nWhy\n')[1]?.split('\n\n')[0] ?? '';
    console.log(`Its Why:\n\n${why.split('\n').map((l) => `    ${l}`).join('\n')}\n`);

    started = performance.now();
    const subjects: Subject[] = [
      { name: 'kubectl evtimeline incident -n NS', command: [k, 'evtimeline', 'incident', '-n', ns] },
      { name: 'kubectl evtimeline incident -n NS --no-status', command: [k, 'evtimeline', 'incident', '-n', ns, '--no-status'] },
      { name: 'kubectl get pods -n NS', command: [k, 'get', 'pods', '-n', ns] },
    ];
    const results = await interleave(helper, subjects, opts.runs, env);
    console.log(markdownTable(results, 'kubectl get pods -n NS'));
    const [withFacts, without] = results;
    if (withFacts && without) {
      // Judged round by round: a run slowed by the machine's other work weighs on one ratio, not on one side's median.
      const o = pairedOverhead(withFacts, without, TARGET);
      const pct = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
      console.log(`\nreading the status costs ${pct(withFacts.wallSeconds / without.wallSeconds - 1)} wall time by the medians; round by round (${o.rounds} rounds): median ${pct(o.median)}, quartiles ${pct(o.q1)} to ${pct(o.q3)}, ${o.over} rounds over ${pct(TARGET)}; CPU ${(o.cpuSeconds * 1000).toFixed(0)} ms more (median of the rounds)`);
      console.log(`verdict: ${o.median <= TARGET ? 'met' : 'NOT met'} (target: at most ${pct(TARGET)}, the median of the rounds' ratios)`);
    }
    console.log(`\n(measured in ${elapsed(started)}; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')})`);

    started = performance.now();
    const folder = savedCapture(ws.dir);
    const text = await capture([k, 'evtimeline', 'incident', '--from', folder], env);
    const lines = text.split('\n').length - 1;
    const whyLines = (text.split('\nWhy\n')[1]?.split('\n\n')[0] ?? '').split('\n').length + 1;
    console.log(`\n## incident --from a capture of 20,000 events and the status of its 400 Pods\n`);
    console.log(`the account: ${lines} lines (bound: 80), its Why ${whyLines} lines with its title`);
    const saved = await interleave(
      helper,
      [
        { name: 'kubectl evtimeline incident --from DIR', command: [k, 'evtimeline', 'incident', '--from', folder] },
        { name: 'kubectl evtimeline incident --from DIR --no-status', command: [k, 'evtimeline', 'incident', '--from', folder, '--no-status'] },
      ],
      opts.runs,
      env,
    );
    console.log(markdownTable(saved, 'kubectl evtimeline incident --from DIR --no-status'));
    console.log(`\n(measured in ${elapsed(started)}; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')})`);
    console.log(`\nthe whole benchmark took ${elapsed(scriptStarted)}`);
  } finally {
    await ws.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench-why: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});

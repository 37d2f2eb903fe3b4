// `npm run bench:fleet`: what reading several contexts together costs. Three private control planes
// (test/harness); ten contexts (--contexts, default 10), each its own namespace of N events
// (--events, default 2,000) about 40 objects, spread round-robin over the three; and one more context
// whose namespace holds all contexts x N events in one (20,000). Measured, interleaved, medians of
// --runs (default 3): each single context, the ten read together (`--contexts '^c\d'`), and the one
// namespace of 20,000. The issue's bar: the ten together within 1.3x the wall time of the slowest
// single context, and a peak RSS within that of reading the 20,000 from one namespace. Then the
// slowest single context, the ten and the 20,000 again, each with the three API servers' CPU read
// around it (/proc/PID/stat), and the cores the wall bar needs: (client + servers' CPU of the ten)
// over 1.3x the single context's wall time.
//
//   node --import tsx scripts/bench-fleet.ts [--contexts 10] [--events 2000] [--runs 3] [--baseline DIST/kubectl-evtimeline]
//
// --baseline: another build's binary (a copy of main's dist/, say), whose fleet read and 20,000 read
// are measured in the same interleaved runs, so two builds are compared under the same load.
//
// A benchmark, not a test: it prints figures and judges nothing. The control planes are stopped at
// the end and on an error.
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { ensureMaxRssHelper } from './maxrss.mjs';
import { populate } from './bench-events.ts';
import { interleave, markdownTable, measure, median, processCpuSeconds, type Subject } from './bench-measure.ts';
import { readFlags } from './bench-session.ts';
import { startControlPlane, type ControlPlane } from '../test/harness/controlplane.ts';
import { uniqueNamespaceName } from '../test/harness/namespace.ts';
import { PLUGIN_BINARY } from '../test/harness/plugin.ts';
import { api } from '../test/support/cluster-api.ts';

let contexts = 10;
let events = 2000;
let runs = 3;
let baseline = '';
readFlags(process.argv.slice(2), 'bench-fleet', (flag, value, whole) => {
  if (flag === '--baseline') baseline = value();
  else if (flag === '--contexts') contexts = whole(1);
  else if (flag === '--events') events = whole(1);
  else if (flag === '--runs') runs = whole(1);
  else return false;
  return true;
});

const cps: ControlPlane[] = [];
try {
  const started = performance.now();
  cps.push(...(await Promise.all([startControlPlane(), startControlPlane(), startControlPlane()])));
  process.stderr.write(`bench-fleet: three control planes in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  const names = Array.from({ length: contexts }, (_, i) => `c${i}`);
  const namespaces = names.map((name) => uniqueNamespaceName(`fleet-${name}`));
  const cpOf = (i: number) => cps[i % cps.length] as ControlPlane;
  await Promise.all(names.map((_, i) => populate((method, path, body) => api(cpOf(i), method, path, body), [namespaces[i] as string], events, 40)));
  const oneNs = uniqueNamespaceName('fleet-one');
  await populate((method, path, body) => api(cps[0] as ControlPlane, method, path, body), [oneNs], events * contexts, 40 * contexts);
  process.stderr.write(`bench-fleet: ${contexts} x ${events} events and one namespace of ${events * contexts} written\n`);
  const cluster = (cp: ControlPlane, i: number) => ({ name: `cp${i}`, cluster: { server: cp.server, 'certificate-authority-data': Buffer.from(cp.ca).toString('base64') } });
  const kubeconfig = join(cps[0]?.dir ?? '.', 'fleet-bench.kubeconfig');
  writeFileSync(
    kubeconfig,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      'current-context': 'one',
      clusters: cps.map(cluster),
      users: cps.map((cp, i) => ({ name: `u${i}`, user: { token: cp.token } })),
      contexts: [
        ...names.map((name, i) => ({ name, context: { cluster: `cp${i % cps.length}`, user: `u${i % cps.length}`, namespace: namespaces[i] } })),
        { name: 'one', context: { cluster: 'cp0', user: 'u0', namespace: oneNs } },
      ],
    }),
  );
  const helper = await ensureMaxRssHelper();
  const plugin = (args: string[]): string[] => [PLUGIN_BINARY, ...args, '--kubeconfig', kubeconfig];
  const subjects: Subject[] = [
    ...names.map((name) => ({ name: `evtimeline --context ${name}`, command: plugin(['--context', name]) })),
    { name: `evtimeline --contexts '^c\\d'`, command: plugin(['--contexts', '^c\\d']) },
    { name: `evtimeline --context one (${events * contexts} events)`, command: plugin(['--context', 'one']) },
    ...(baseline === ''
      ? []
      : [
          { name: `baseline --contexts '^c\\d'`, command: [baseline, '--contexts', '^c\\d', '--kubeconfig', kubeconfig] },
          { name: `baseline --context one (${events * contexts} events)`, command: [baseline, '--context', 'one', '--kubeconfig', kubeconfig] },
        ]),
    // kubectl beside them in the same run: what one context costs the tool people already use.
    { name: 'kubectl events --context c0', command: ['kubectl', 'events', '--context', 'c0', '--kubeconfig', kubeconfig] },
  ];
  // The machine is shared: its load before and after says how far the figures can be trusted.
  const load = () => loadavg().map((l) => l.toFixed(2)).join(', ');
  const before = load();
  const results = await interleave(helper, subjects, runs, process.env);
  const slowest = results.slice(0, contexts).reduce((a, b) => (b.wallSeconds > a.wallSeconds ? b : a));
  process.stdout.write(`${markdownTable(results, slowest.name)}\n\nratios to the slowest single context (${slowest.name}); ${runs} runs, medians\n`);
  const spread = results.map((r) => `${r.name}: ${r.wallRange.map((w) => `${(w * 1000).toFixed(0)} ms`).join(' to ')}`);
  process.stdout.write(`wall time, fastest to slowest run:\n${spread.map((line) => `  ${line}\n`).join('')}load average (1, 5, 15 min): ${before} before, ${load()} after; ${cpus().length} CPUs\n`);
  // The wall bar's arithmetic: the work a read makes the API servers do runs on the same cores as
  // the client's, so the cores the ten together need within 1.3x of one context are the client's
  // CPU plus the servers', over that wall time. The servers' CPU is read around each run.
  const serversCpu = () => cps.reduce((sum, cp) => sum + processCpuSeconds(readFileSync(`/proc/${cp.pids.apiserver}/stat`, 'utf8')), 0);
  const fleet = subjects[contexts] as Subject;
  const parts = [subjects[results.indexOf(slowest)] as Subject, fleet, subjects[contexts + 1] as Subject];
  const work = new Map(parts.map((subject) => [subject, { wall: [] as number[], client: [] as number[], servers: [] as number[] }]));
  for (let run = 0; run < runs; run += 1) {
    for (const subject of parts) {
      const at = serversCpu();
      const m = await measure(helper, subject, process.env);
      const w = work.get(subject);
      w?.wall.push(m.wallSeconds);
      w?.client.push(m.cpuSeconds);
      w?.servers.push(serversCpu() - at);
    }
  }
  const of = (subject: Subject) => {
    const w = work.get(subject) ?? { wall: [], client: [], servers: [] };
    return { wall: median(w.wall), client: median(w.client), servers: median(w.servers) };
  };
  const lines = parts.map((subject) => {
    const m = of(subject);
    return `  ${subject.name}: wall ${m.wall.toFixed(2)} s, client CPU ${m.client.toFixed(2)} s, API servers' CPU ${m.servers.toFixed(2)} s\n`;
  });
  const one = of(parts[0] as Subject);
  const ten = of(fleet);
  const cores = (ten.client + ten.servers) / (1.3 * one.wall);
  process.stdout.write(
    `the three API servers' CPU during each read (/proc/PID/stat around each run; ${runs} runs, medians; load ${load()}):\n${lines.join('')}` +
      `cores the wall bar needs: (client + servers' CPU of the ten) / (1.3 x the slowest single context's wall) = (${ten.client.toFixed(2)} + ${ten.servers.toFixed(2)}) / (1.3 x ${one.wall.toFixed(2)}) = ${cores.toFixed(2)} of ${cpus().length}\n`,
  );
} finally {
  await Promise.all(cps.map((cp) => cp.stop()));
}

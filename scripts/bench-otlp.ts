// Export throughput and memory: `kubectl evtimeline export --otlp` of 20,000 events to a real
// OpenTelemetry Collector (test/otelcol, its file exporter writing to a temporary folder), from the
// live cluster (one namespace, beside `kubectl get events -o json`, which any shipper built from
// kubectl starts with) and --from a record of the same size (every tenth event observed twice, so
// 10% more log records), protobuf and JSON. Prints median wall, CPU and peak RSS (scripts/maxrss.go)
// and events per second; a benchmark, not a test.
//
//   npm run bench:otlp [-- --events 20000 --runs 3]
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureMaxRssHelper } from './maxrss.mjs';
import { populate, writeRecord } from './bench-events.ts';
import { elapsed, evictFromPageCache, interleave, markdownTable, onPath, type Result, type Subject } from './bench-measure.ts';
import { startControlPlane, type ControlPlane } from '../test/harness/controlplane.ts';
import { startCollector, type Collector } from '../test/harness/otelcol.ts';
import { uniqueNamespaceName } from '../test/harness/namespace.ts';
import { PLUGIN_BINARY } from '../test/harness/plugin.ts';
import { api } from '../test/support/cluster-api.ts';

function rates(results: Result[], events: Record<string, number>): string {
  return results
    .filter((r) => events[r.name] !== undefined)
    .map((r) => `- \`${r.name}\`: ${Math.round((events[r.name] as number) / r.wallSeconds)} log records/s (wall), ${Math.round((events[r.name] as number) / r.cpuSeconds)}/CPU s`)
    .join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { events: { type: 'string', default: '20000' }, runs: { type: 'string', default: '3' } } });
  const n = Number(values.events);
  const runs = Number(values.runs);
  const kubectl = onPath('kubectl');
  if (!kubectl) throw new Error('kubectl is not on PATH');
  const helper = await ensureMaxRssHelper();
  const work = await mkdtemp(join(tmpdir(), 'evtimeline-bench-otlp-'));
  let cp: ControlPlane | undefined;
  let collector: Collector | undefined;
  try {
    process.stderr.write('starting the control plane and the collector...\n');
    [cp, collector] = await Promise.all([startControlPlane(), startCollector()]);
    const env: NodeJS.ProcessEnv = { PATH: [dirname(PLUGIN_BINARY), dirname(kubectl), '/usr/bin', '/bin'].join(':'), HOME: work, KUBECONFIG: cp.kubeconfig };
    const plugin = PLUGIN_BINARY;
    console.log(`plugin:    ${plugin}; collector ${collector.url} (file exporter); ${runs} interleaved runs after a warm-up; medians`);
    console.log(`server:    Kubernetes ${cp.kubernetesVersion}, started in ${cp.startupSeconds.toFixed(1)} s`);

    const ns = uniqueNamespaceName('bench-otlp');
    let started = performance.now();
    process.stderr.write(`writing ${n} events into ${ns}...\n`);
    const c = cp;
    await populate((method, path, body) => api(c, method, path, body), [ns], n, 400);
    console.log(`\n## export of ${n} events from the cluster (written in ${elapsed(started)})\n`);
    evictFromPageCache([kubectl, plugin]);
    started = performance.now();
    const live: Subject[] = [
      { name: 'evtimeline export -n NS --otlp URL', command: [plugin, 'export', '-n', ns, '--otlp', collector.url] },
      { name: 'evtimeline export -n NS --otlp URL --otlp-json', command: [plugin, 'export', '-n', ns, '--otlp', collector.url, '--otlp-json'] },
      { name: 'kubectl get events -n NS -o json', command: [kubectl, 'get', 'events', '-n', ns, '-o', 'json'] },
    ];
    const liveResults = await interleave(helper, live, runs, env);
    console.log(markdownTable(liveResults, 'kubectl get events -n NS -o json'));
    console.log(`\n${rates(liveResults, { [live[0]!.name]: n, [live[1]!.name]: n })}`);
    console.log(`\n(measured in ${elapsed(started)}; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')})`);

    const record = join(work, 'record.jsonl');
    const { lines } = await writeRecord(record, n);
    const versions = lines - 1;
    console.log(`\n## export --from a record of ${n} events (${versions} versions, one log record each)\n`);
    started = performance.now();
    const saved: Subject[] = [
      { name: 'evtimeline export --from RECORD --otlp URL', command: [plugin, 'export', '--from', record, '--otlp', collector.url] },
      { name: 'evtimeline export --from RECORD --otlp URL --otlp-json', command: [plugin, 'export', '--from', record, '--otlp', collector.url, '--otlp-json'] },
      { name: 'evtimeline --from RECORD -o json', command: [plugin, '--from', record, '-o', 'json'] },
    ];
    const savedResults = await interleave(helper, saved, runs, env);
    console.log(markdownTable(savedResults, 'evtimeline --from RECORD -o json'));
    console.log(`\n${rates(savedResults, { [saved[0]!.name]: versions, [saved[1]!.name]: versions })}`);
    console.log(`\n(measured in ${elapsed(started)}; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')})`);
  } finally {
    await collector?.close();
    await cp?.stop();
    await rm(work, { recursive: true, force: true });
  }
}

await main();

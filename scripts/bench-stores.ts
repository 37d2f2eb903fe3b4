// Reading the stores: `--from victorialogs+http://...` of a record's events shipped to a real
// VictoriaLogs (test/harness/victorialogs.ts, built from the Go module proxy), beside `--from` the
// record itself and the same record piped into `--from -`, each as JSON and as the table; and
// `--from` collectors' files of a smaller and a bigger record's versions, read as streams.
// Prints median wall, CPU and peak RSS (scripts/maxrss.go) and events per CPU second, and for the
// VictoriaLogs reads the server's own CPU over each run (/proc/PID/stat); a benchmark, not a test. The executable is dropped from the page cache before the runs (evictFromPageCache:
// a freshly built one, wholly cached, adds about 17 MiB to every peak).
//
//   npm run bench:stores [-- --events 200000 --collector-events 20000 --big-collector-events 180000 --runs 3 --baseline PATH --only REGEX]
//
// --baseline PATH: an older build measured beside this one in the same interleaved rounds (its rows
// end in "(baseline)"), for before and after under the same load.
// --only REGEX: only the rows whose names match (e.g. 'victorialogs|record \(200000'), fewer runs on a busy machine.
//
// The collector's file is our export's OTLP JSON, one ExportLogsServiceRequest of 1,000 log
// records a line, as the file exporter writes what it receives (src/otlp/encode.ts, the official
// serializer): the same shape `--from` reads from a real collector in test/integration/otlp.test.ts.
import { once } from 'node:events';
import { createReadStream, createWriteStream, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { ensureMaxRssHelper } from './maxrss.mjs';
import { writeRecord } from './bench-events.ts';
import { elapsed, evictFromPageCache, interleave, markdownTable, processCpuSeconds, type Subject } from './bench-measure.ts';
import { startVictoriaLogs } from '../test/harness/victorialogs.ts';
import { PLUGIN_BINARY } from '../test/harness/plugin.ts';
import { encodeLogs } from '../src/otlp/encode.ts';
import { eventToLog, hrTimeFromMs } from '../src/otlp/logs.ts';
import { execFileSync } from 'node:child_process';

/** A record's every version as a collector's file of our export: 1,000 log records a line. */
async function writeCollectorFile(record: string, path: string): Promise<number> {
  const out = createWriteStream(path);
  let batch: ReturnType<typeof eventToLog>[] = [];
  let versions = 0;
  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    const line = `${new TextDecoder().decode(await encodeLogs(batch, 'json'))}\n`;
    if (!out.write(line)) await once(out, 'drain');
    batch = [];
  };
  for await (const line of createInterface({ input: createReadStream(record) })) {
    const parsed = JSON.parse(line) as { observedAt?: string; type?: string; event?: Record<string, unknown> };
    if (parsed.event === undefined || parsed.type === 'DELETED') continue;
    batch.push(eventToLog(parsed.event, hrTimeFromMs(Date.parse(parsed.observedAt ?? ''))));
    versions += 1;
    if (batch.length === 1000) await flush();
  }
  await flush();
  out.end();
  await once(out, 'close');
  return versions;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { events: { type: 'string', default: '200000' }, 'collector-events': { type: 'string', default: '20000' }, 'big-collector-events': { type: 'string', default: '180000' }, runs: { type: 'string', default: '3' }, baseline: { type: 'string' }, only: { type: 'string' } },
  });
  const n = Number(values.events);
  const m = Number(values['collector-events']);
  const big = Number(values['big-collector-events']);
  const runs = Number(values.runs);
  const helper = await ensureMaxRssHelper();
  const work = await mkdtemp(join(tmpdir(), 'evtimeline-bench-stores-'));
  const vl = await startVictoriaLogs();
  try {
    let started = performance.now();
    const record = join(work, 'big.jsonl');
    const { lines } = await writeRecord(record, n);
    const small = join(work, 'small.jsonl');
    await writeRecord(small, m);
    const collectorFile = join(work, 'collector.jsonl');
    const versions = await writeCollectorFile(small, collectorFile);
    const bigRecord = join(work, 'big-collector-record.jsonl');
    await writeRecord(bigRecord, big);
    const bigCollectorFile = join(work, 'big-collector.jsonl');
    const bigVersions = await writeCollectorFile(bigRecord, bigCollectorFile);
    await rm(bigRecord);
    process.stderr.write(`wrote a record of ${n} events (${lines - 1} versions) and collector files of ${m} events (${versions} versions) and ${big} (${bigVersions} versions) in ${elapsed(started)}\n`);
    started = performance.now();
    execFileSync(PLUGIN_BINARY, ['export', '--from', record, '--otlp', vl.otlpUrl], { stdio: ['ignore', 'ignore', 'inherit'] });
    await vl.flush(lines - 1);
    process.stderr.write(`exported the record into VictoriaLogs (${lines - 1} log records) in ${elapsed(started)}\n`);
    const env: NodeJS.ProcessEnv = { PATH: '/usr/bin:/bin', HOME: work, KUBECONFIG: join(work, 'none') };
    // The record piped in as a user pipes it (cat FILE | ...): stdin is a pipe, not the file.
    const piped = (args: string[]) => ['/bin/sh', '-c', 'file=$1; shift; cat "$file" | "$0" --from - -A "$@"', PLUGIN_BINARY, record, ...args];
    const all: Subject[] = [
      { name: `--from record (${n} events) -o json`, command: [PLUGIN_BINARY, '--from', record, '-A', '-o', 'json'] },
      { name: `--from victorialogs (${n} events) -o json`, command: [PLUGIN_BINARY, '--from', vl.fromUrl, '-A', '-o', 'json'] },
      { name: `--from - (the record piped, ${n} events) -o json`, command: piped(['-o', 'json']) },
      { name: `--from record (${n} events), table`, command: [PLUGIN_BINARY, '--from', record, '-A'] },
      { name: `--from victorialogs (${n} events), table`, command: [PLUGIN_BINARY, '--from', vl.fromUrl, '-A'] },
      { name: `--from - (the record piped, ${n} events), table`, command: piped([]) },
      { name: `--from collector file (${versions} versions) -o json`, command: [PLUGIN_BINARY, '--from', collectorFile, '-A', '-o', 'json'] },
      { name: `--from record (${m} events) -o json`, command: [PLUGIN_BINARY, '--from', small, '-A', '-o', 'json'] },
      { name: `--from collector file (${bigVersions} versions) -o json`, command: [PLUGIN_BINARY, '--from', bigCollectorFile, '-A', '-o', 'json'] },
      { name: `--from collector file (${bigVersions} versions), table`, command: [PLUGIN_BINARY, '--from', bigCollectorFile, '-A'] },
    ];
    const only = values.only === undefined ? null : new RegExp(values.only);
    const mine = all.filter((s) => only === null || only.test(s.name));
    const baseline = values.baseline;
    const subjects = baseline === undefined ? mine : mine.flatMap((s) => [s, { name: `${s.name} (baseline)`, command: s.command.map((part) => (part === PLUGIN_BINARY ? baseline : part)) }]);
    evictFromPageCache([PLUGIN_BINARY, ...(baseline === undefined ? [] : [baseline])]);
    const loadBefore = loadavg()[0]?.toFixed(1);
    // VictoriaLogs' own CPU around each run: the store's scanning shares the machine's cores with the reader.
    const serverCpu = () => processCpuSeconds(readFileSync(`/proc/${vl.front.pid}/stat`, 'utf8'));
    const results = await interleave(helper, subjects, runs, env, serverCpu);
    console.log(`VictoriaLogs ${vl.front.url} (v1.52.2, single node); ${runs} interleaved runs after a warm-up; medians; load average ${loadBefore} at the start, ${loadavg()[0]?.toFixed(1)} at the end`);
    console.log(markdownTable(results, subjects[0]?.name as string));
    for (const r of results) {
      const events = r.name.includes(`${n} events`) ? n : r.name.includes(`${bigVersions} versions`) ? big : m;
      const store = r.name.includes('victorialogs') ? `; VictoriaLogs' CPU ${r.serverSeconds?.toFixed(2)} s, ${Math.round(events / (r.cpuSeconds + (r.serverSeconds ?? 0)))} events per CPU second of both` : '';
      console.log(`- \`${r.name}\`: ${Math.round(events / r.cpuSeconds)} events per CPU second, ${Math.round(events / r.wallSeconds)} per wall second${store}`);
    }
  } finally {
    await vl.close();
    await rm(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : error}\n`);
  process.exit(1);
});

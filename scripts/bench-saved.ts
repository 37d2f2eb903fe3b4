// `npm run bench:saved`: what saving ownership costs, and what `--tree` from a saved file costs, on
// the namespace of about 500 objects that bench:tree builds with the real controllers
// (scripts/bench-objects.ts). A recorder runs while the namespace is built: its stderr at -v=6 counts
// the requests its owner lookups made beside its list and watch of events, against the object lines
// it wrote. Then, interleaved after one warm-up run each:
//
//   kubectl evtimeline capture -n NS DIR --force              (every report, objects.json included)
//   kubectl evtimeline --from DIR --for deploy/web --tree      (offline, from the capture)
//   kubectl evtimeline --from RECORD --for deploy/web --tree   (offline, from the record)
//   kubectl evtimeline -n NS --for deploy/web --tree           (live)
//   kubectl get all -n NS -o json                              (the reference of the ratios)
//
// A benchmark, not a test: it fails loudly only when the capture's offline tree does not hold web's
// ReplicaSets and pods, or the record holds no object line for them.
//
//   node --import tsx scripts/bench-saved.ts [--objects 500] [--events 2000] [--runs 5]
//       [--kubectl PATH] [--plugin PATH]
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { capture } from './bench-api.ts';
import { buildNamespace, startNamespaceBench } from './bench-objects.ts';
import { elapsed, evictFromPageCache, interleave, markdownTable, type Subject } from './bench-measure.ts';
import { waitFor } from '../test/harness/wait.ts';

interface RecordLine {
  kind?: string;
  type?: string;
  object?: { kind: string; metadata: { name: string }; unknown?: unknown };
}

/** The record's lines, counted: observations, object lines, those not known; and the names of the objects written. */
function readRecord(path: string): { observations: number; objects: number; unknown: number; names: Set<string> } {
  const lines = readFileSync(path, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as RecordLine);
  const objects = lines.filter((l) => l.kind === 'EvtimelineObject');
  return {
    observations: lines.filter((l) => l.type !== undefined).length,
    objects: objects.length,
    unknown: objects.filter((l) => l.object?.unknown !== undefined).length,
    names: new Set(objects.map((l) => `${l.object?.kind}/${l.object?.metadata.name}`)),
  };
}

/** The requests a -v=6 stderr shows, split into the events' list and watch and the rest (discovery, object GETs and LISTs). */
function countRequests(stderr: string): { events: number; discovery: number; lists: number; gets: number } {
  const paths = [...stderr.matchAll(/verb="GET" url="([^"]+)"/g)].map((m) => new URL(m[1] as string).pathname);
  const events = paths.filter((p) => p.endsWith('/events')).length;
  const discovery = paths.filter((p) => /^\/(api|apis\/[^/]+)\/[^/]+$/.test(p)).length;
  const objectPaths = paths.filter((p) => !p.endsWith('/events') && /\/namespaces\/[^/]+\/[^/]+/.test(p));
  const lists = objectPaths.filter((p) => /\/namespaces\/[^/]+\/[^/]+$/.test(p)).length;
  return { events, discovery, lists, gets: objectPaths.length - lists };
}

async function main(): Promise<void> {
  const scriptStarted = performance.now();
  const { opts, helper, ws, cp, api, ns } = await startNamespaceBench('bench-saved', process.argv.slice(2));
  const k = opts.kubectl;
  try {
    const env = ws.env;
    let started = performance.now();
    const record = join(ws.dir, 'web.jsonl');
    const recorder = spawn(k, ['evtimeline', 'record', '-n', ns, record, '-v=6'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let recorderErr = '';
    recorder.stderr.on('data', (chunk: Buffer) => (recorderErr += chunk.toString()));
    const recorded = new Promise<number | null>((done) => recorder.on('close', done));
    const built = await buildNamespace(api.call.bind(api), cp.kubeconfig, ns, opts.objects, opts.events, (line) => process.stderr.write(`${line}\n`));
    console.log(`\n## Ownership in saved files: ${built.objects} objects and ${built.events} events, built in ${elapsed(started)} with a recorder running\n`);
    const wanted = [...built.webSets.map((s) => `ReplicaSet/${s}`), ...built.webPods.map((p) => `Pod/${p}`), 'Deployment/web'];
    await waitFor('the recorder to write web, its ReplicaSets and pods', async () => existsSync(record) && wanted.every((w) => readRecord(record).names.has(w)), { timeoutMs: 300_000 });
    recorder.kill('SIGINT');
    const code = await recorded;
    if (code !== 0) throw new Error(`record exited ${code}: ${recorderErr.split('\n').slice(-3).join('\n')}`);
    const held = readRecord(record);
    const requests = countRequests(recorderErr);
    const owned = requests.discovery + requests.lists + requests.gets;
    console.log(
      `record: ${held.observations} observations and ${held.objects} object lines (${held.unknown} not known: gone before they were looked up, or not readable), ` +
        `${(statSync(record).size / 1024 / 1024).toFixed(1)} MiB. Its owner lookups made ${owned} requests (${requests.discovery} discovery, ` +
        `${requests.lists} metadata-only LISTs, ${requests.gets} GETs): ${(owned / Math.max(1, held.objects)).toFixed(2)} per object line; ` +
        `its events took ${requests.events} (the list, then watches).`,
    );

    const dir = join(ws.dir, 'capture');
    await capture([k, 'evtimeline', 'capture', '-n', ns, dir], env);
    const doc = JSON.parse(readFileSync(join(dir, 'objects.json'), 'utf8')) as { items: { unknown?: unknown }[] };
    console.log(`capture: objects.json holds ${doc.items.length} objects (${doc.items.filter((i) => i.unknown !== undefined).length} not known), ${(statSync(join(dir, 'objects.json')).size / 1024).toFixed(0)} KiB`);
    const offline = JSON.parse(await capture([k, 'evtimeline', '--from', dir, '--for', 'deploy/web', '--tree', '-o', 'json'], env)) as { tree?: { kind: string; name: string }[] }[];
    const chains = offline.map((e) => (e.tree ?? []).map((m) => `${m.kind}/${m.name}`).join(' > '));
    const missing = wanted.filter((w) => !chains.some((c) => c.includes(w)));
    if (missing.length > 0) throw new Error(`--from the capture --tree lacks ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ` and ${missing.length - 5} more` : ''}`);
    console.log(`--from the capture --tree: ${offline.length} events of deploy/web's tree, every ReplicaSet and pod of web in it.\n`);

    evictFromPageCache([k, opts.plugin]);
    started = performance.now();
    const subjects: Subject[] = [
      { name: 'kubectl evtimeline capture -n NS DIR --force', command: [k, 'evtimeline', 'capture', '-n', ns, dir, '--force'] },
      { name: 'kubectl evtimeline --from DIR --for deploy/web --tree', command: [k, 'evtimeline', '--from', dir, '--for', 'deploy/web', '--tree'] },
      { name: 'kubectl evtimeline --from RECORD --for deploy/web --tree', command: [k, 'evtimeline', '--from', record, '--for', 'deploy/web', '--tree'] },
      { name: 'kubectl evtimeline -n NS --for deploy/web --tree', command: [k, 'evtimeline', '-n', ns, '--for', 'deploy/web', '--tree'] },
      { name: 'kubectl get all -n NS -o json', command: [k, 'get', 'all', '-n', ns, '-o', 'json'] },
    ];
    const results = await interleave(helper, subjects, opts.runs, env);
    console.log(markdownTable(results, 'kubectl get all -n NS -o json'));
    console.log(`\n(measured in ${elapsed(started)}; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')})`);
    console.log(`\nthe whole benchmark took ${elapsed(scriptStarted)}`);
  } finally {
    await ws.close();
  }
}

main().catch((err: unknown) => {
  console.error(`bench-saved: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});

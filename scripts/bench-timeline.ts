// `npm run bench:timeline`: what reading many events costs the plugin next to kubectl, in three
// parts, each printed as a table of medians (wall time, user+sys CPU, peak RSS) with ratios:
//
// 1. One namespace holding N events (--events, default 20,000) about 400 objects, written to a
//    private control plane (test/harness) (by default straight into its etcd in the API server's own
//    bytes, scripts/bench-etcd.ts; `--write api`: parallel, bounded POSTs): every read output of the
//    plugin (table, wide, json, yaml, stable, incident, type-audit) interleaved with `kubectl events -n NS`
//    and `kubectl get events -n NS -o json`; ratios are to `kubectl events`.
// 1b. The same in another namespace with every message distinct (as real messages are: pod
//    names, numbers, durations), so no two events share their message's text (--parts distinct).
// 2. The same N events spread over M namespaces (--namespaces, default 50), 400 objects in all:
//    the same outputs with -A beside `kubectl events -A` and `kubectl get events -A -o json`;
//    `--all-messages distinct` writes them with every message distinct, as part 1b (issue 27's
//    200,000 events in 200 namespaces: --parts all --events 200000 --namespaces 200 --all-messages distinct).
// 3. A record (the record verb's JSON Lines) of R events (--record, default 200,000) and one of
//    R/10: `--from FILE -o stable` and `--from FILE` (the table), to show memory bounded by what is
//    kept and time linear in what is read (the R row's ratio to the R/10 row).
//
// A benchmark, not a test: it prints figures and judges nothing, except that it fails loudly when
// the plugin's -o json does not return the N events written.
//
//   node --import tsx scripts/bench-timeline.ts [--events 20000] [--namespaces 50] [--record 200000]
//       [--runs 5] [--parts ns,distinct,all,record] [--all-messages repeated|distinct] [--write etcd|api]
//       [--kubectl PATH] [--plugin PATH] [--baseline PATH] [--without-get-json]
//
// --without-get-json leaves out the `kubectl get events -o json` rows (context, not a bar): at
// 200,000 events that one command takes over a minute of every round.
// --plugin measures another build instead of dist/kubectl-evtimeline; --baseline adds a second
// build (an older one) as `kubectl evtimelinebaseline`, measured in the same interleaved rounds.
// Needs the Go the tests already need: it builds the control plane and scripts/maxrss.go (which
// reads each run's rusage, which Node cannot) into ${XDG_CACHE_HOME:-~/.cache}/kubectl-evtimeline/.
// The control plane is stopped at the end, on an error and on Ctrl-C / SIGTERM.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { ensureMaxRssHelper } from './maxrss.mjs';
import { PAGE_SIZE, capture, type Api } from './bench-api.ts';
import { Workspace, readFlags } from './bench-session.ts';
import { WRITE_CONCURRENCY, populate, writeRecord, type Messages, type WriteEvents } from './bench-events.ts';
import { etcdWriter } from './bench-etcd.ts';
import { elapsed, evictFromPageCache, interleave, markdownTable, onPath, type Result, type Subject } from './bench-measure.ts';
import { uniqueNamespaceName } from '../test/harness/namespace.ts';
import { PLUGIN_BINARY } from '../test/harness/plugin.ts';

/** Objects the events are about, in all (the issue's figures: about 400 pods). */
const OBJECTS = 400;
const PARTS = ['ns', 'distinct', 'all', 'record'] as const;
type Part = (typeof PARTS)[number];

interface Options {
  events: number;
  namespaces: number;
  record: number;
  runs: number;
  parts: Part[];
  /** the messages of part 2 (-A) */
  allMessages: Messages;
  /** how the events reach the server: etcdevents (fast) or one POST each */
  write: 'etcd' | 'api';
  kubectl: string;
  plugin: string;
  baseline?: string;
  /** leave out `kubectl get events -o json` */
  withoutGetJson: boolean;
}

function parseArgs(argv: string[]): Options {
  const opts: Partial<Options> & { events: number; namespaces: number; record: number; runs: number; parts: Part[]; allMessages: Messages; write: 'etcd' | 'api' } = {
    events: 20_000,
    namespaces: 50,
    record: 200_000,
    runs: 5,
    parts: [...PARTS],
    allMessages: 'repeated',
    write: 'etcd',
    withoutGetJson: false,
  };
  readFlags(argv, 'bench-timeline', (flag, value, whole) => {
    if (flag === '--events') opts.events = whole(10);
    else if (flag === '--namespaces') opts.namespaces = whole(2);
    else if (flag === '--record') opts.record = whole(100);
    else if (flag === '--runs') opts.runs = whole(1);
    else if (flag === '--parts') opts.parts = value().split(',').map((p) => {
      if (!(PARTS as readonly string[]).includes(p)) throw new Error(`--parts: ${p} is not one of ${PARTS.join(', ')}`);
      return p as Part;
    });
    else if (flag === '--all-messages') {
      const m = value();
      if (m !== 'repeated' && m !== 'distinct') throw new Error(`--all-messages: ${m} is not repeated or distinct`);
      opts.allMessages = m;
    } else if (flag === '--write') {
      const w = value();
      if (w !== 'etcd' && w !== 'api') throw new Error(`--write: ${w} is not etcd or api`);
      opts.write = w;
    } else if (flag === '--kubectl') opts.kubectl = resolve(value());
    else if (flag === '--plugin') opts.plugin = resolve(value());
    else if (flag === '--baseline') opts.baseline = resolve(value());
    else if (flag === '--without-get-json') opts.withoutGetJson = true;
    else return false;
    return true;
  });
  opts.kubectl ??= onPath('kubectl');
  if (!opts.kubectl) throw new Error('no kubectl on PATH: pass --kubectl PATH');
  opts.plugin ??= PLUGIN_BINARY;
  for (const binary of [opts.plugin, opts.baseline]) if (binary && !existsSync(binary)) throw new Error(`${binary} is missing (npm run build makes dist/kubectl-evtimeline)`);
  return opts as Options;
}

/**
 * Fails loudly unless the plugin's -o json holds exactly the events written to `namespaces`, with
 * their types and both styles. Only those namespaces are counted: with -A the cluster's own events
 * (kube-controller-manager's RegisteredNode about node-1, in default) are read and timed too.
 */
async function checkPluginJson(command: string[], n: number, namespaces: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const all = JSON.parse(await capture(command, env)) as { uid: string; type: string; count: number; seriesStyle: boolean; namespace: string }[];
  const problems: string[] = [];
  const written = new Set(namespaces);
  const events = Array.isArray(all) ? all.filter((e) => written.has(e.namespace)) : all;
  if (!Array.isArray(events)) problems.push('its output is not a JSON array');
  else {
    if (events.length !== n) problems.push(`it returned ${events.length} events, not ${n}`);
    const uids = new Set(events.map((e) => e.uid));
    if (uids.size !== events.length) problems.push(`${events.length - uids.size} events appear twice`);
    const critical = events.filter((e) => e.type === 'Critical').length;
    if (critical !== 1) problems.push(`${critical} Critical events, not 1`);
    if (!events.some((e) => e.seriesStyle)) problems.push('no events.k8s.io/v1-style event');
    if (!events.some((e) => e.count > 1)) problems.push('no event with count > 1');
  }
  if (problems.length > 0) throw new Error(`${command.slice(1).join(' ')} is wrong: ${problems.join('; ')}`);
}

/**
 * The requests one read made, from its -v=6 log (one `"Response"` line of round_trippers.go per
 * request, as kubectl logs them): how many were event list pages and what the rest asked for.
 */
function requestsOf(command: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    execFile(command[0] as string, [...command.slice(1), '-v=6'], { env, encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 }, (error, _stdout, stderr) => {
      if (error) return reject(new Error(`${command.join(' ')} -v=6 failed: ${stderr.slice(-500)}`));
      const urls = [...stderr.matchAll(/"Response" verb="([A-Z]+)" url="([^"?]*)/g)].map((m) => `${m[1]} ${new URL(m[2] as string).pathname}`);
      const pages = urls.filter((u) => /\/events$/.test(u)).length;
      const rest = new Map<string, number>();
      for (const u of urls.filter((u) => !/\/events$/.test(u))) rest.set(u, (rest.get(u) ?? 0) + 1);
      const others = [...rest].map(([u, n]) => (n > 1 ? `${u} x${n}` : u)).join(', ');
      resolvePromise(`${urls.length} requests: ${pages} event list pages and ${urls.length - pages} others${others ? ` (${others})` : ''}`);
    });
  });
}

/** The plugin's read outputs for one scope, as `kubectl evtimeline ...` (and the baseline's, if any). */
function pluginSubjects(k: string, scope: string[], plugins: string[]): Subject[] {
  const outputs: { verb: string[]; flags: string[]; okExits?: number[] }[] = [
    { verb: [], flags: [] },
    { verb: [], flags: ['-o', 'wide'] },
    { verb: [], flags: ['-o', 'json'] },
    { verb: [], flags: ['-o', 'yaml'] },
    { verb: [], flags: ['-o', 'stable'] },
    { verb: ['incident'], flags: [] },
    { verb: ['type-audit'], flags: [], okExits: [0, 3] },
  ];
  return plugins.flatMap((plugin) =>
    outputs.map(({ verb, flags, okExits }): Subject => {
      const args = [plugin, ...verb, ...scope, ...flags];
      return { name: `kubectl ${args.join(' ')}`, command: [k, ...args], ...(okExits ? { okExits } : {}) };
    }),
  );
}

async function main(): Promise<void> {
  const scriptStarted = performance.now();
  const opts = parseArgs(process.argv.slice(2));
  const helper = await ensureMaxRssHelper();
  const k = opts.kubectl;

  const ws = await Workspace.open('bench-timeline', k);
  try {
    // The plugin (and the baseline) first on PATH: `kubectl evtimeline`, `kubectl evtimelinebaseline`.
    await ws.link(opts.plugin, 'evtimeline', k);
    const plugins = ['evtimeline'];
    if (opts.baseline) {
      await ws.link(opts.baseline, 'evtimelinebaseline', k);
      plugins.push('evtimelinebaseline');
    }
    const env = ws.env;
    const load = (): string => `load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`;
    console.log(`kubectl: ${(await capture([k, 'version', '--client'], env)).trim().split('\n')[0]} (${k})`);
    console.log(`runs:    ${opts.runs} interleaved per command, after one warm-up run each; medians`);

    const plane = opts.parts.some((p) => p !== 'record') ? await ws.startControlPlane('etcd, kube-apiserver, kube-scheduler, kube-controller-manager') : undefined;
    const api = plane?.api;
    // How the events were written, for each part's heading.
    let how = `${WRITE_CONCURRENCY} parallel POSTs`;
    let write: WriteEvents | undefined;
    if (plane && opts.write === 'etcd') {
      const toEtcd = await etcdWriter(plane.cp);
      write = async (planned) => {
        const w = await toEtcd(planned);
        how = `etcdevents: ${w.posted} through the API server (one per shape), ${w.direct} into etcd in ${w.seconds.toFixed(1)} s, ${w.checked} checked against its dry-run create`;
      };
    }
    evictFromPageCache([k, opts.plugin, ...(opts.baseline ? [opts.baseline] : [])]);
    const call = (method: string, path: string, body?: unknown): Promise<any> => (api as Api).call(method, path, body);

    /** Part 1 (messages repeated) or 1b (every message distinct): N events in one namespace. */
    const oneNamespace = async (messages: Messages): Promise<void> => {
      const ns = uniqueNamespaceName(messages === 'distinct' ? 'bench-distinct' : 'bench-timeline');
      let started = performance.now();
      process.stderr.write(`writing ${opts.events} events about ${OBJECTS} objects into namespace ${ns}${messages === 'distinct' ? ', every message distinct' : ''}...\n`);
      await populate(call, [ns], opts.events, OBJECTS, messages, write);
      const written = elapsed(started);
      const core = await (api as Api).listAll(`/api/v1/namespaces/${ns}/events`);
      if (core.items.length !== opts.events) throw new Error(`the server holds ${core.items.length} events in ${ns}, not ${opts.events}`);
      if (messages === 'distinct') {
        const texts = new Set(core.items.map((e) => e.message));
        if (texts.size !== core.items.length) throw new Error(`${core.items.length - texts.size} core/v1 messages in ${ns} are not distinct`);
      }
      await checkPluginJson([k, 'evtimeline', '-n', ns, '-o', 'json'], opts.events, [ns], env);
      const shape = messages === 'distinct' ? ', every message distinct' : '';
      console.log(`\n## ${opts.events} events in one namespace (${OBJECTS} objects${shape}; ${core.pages} pages of ${PAGE_SIZE}; written in ${written} by ${how})\n`);
      started = performance.now();
      const subjects = [
        ...pluginSubjects(k, ['-n', ns], plugins),
        { name: `kubectl events -n NS`, command: [k, 'events', '-n', ns] },
        ...(opts.withoutGetJson ? [] : [{ name: `kubectl get events -n NS -o json`, command: [k, 'get', 'events', '-n', ns, '-o', 'json'] }]),
      ].map((s) => ({ ...s, name: s.name.replace(ns, 'NS') }));
      const results = await interleave(helper, subjects, opts.runs, env);
      console.log(markdownTable(results, 'kubectl events -n NS'));
      console.log(`\n(measured in ${elapsed(started)}; ${load()})`);
      await call('DELETE', `/api/v1/namespaces/${ns}/events`);
    };

    for (const messages of ['repeated', 'distinct'] as Messages[]) {
      if (opts.parts.includes(messages === 'repeated' ? 'ns' : 'distinct')) await oneNamespace(messages);
    }

    if (opts.parts.includes('all')) {
      const namespaces = Array.from({ length: opts.namespaces }, () => uniqueNamespaceName('bench-all'));
      let started = performance.now();
      const distinct = opts.allMessages === 'distinct' ? ', every message distinct' : '';
      process.stderr.write(`writing ${opts.events} events about ${OBJECTS} objects into ${opts.namespaces} namespaces${distinct}...\n`);
      await populate(call, namespaces, opts.events, OBJECTS, opts.allMessages, write);
      const written = elapsed(started);
      const core = await (api as Api).listAll('/api/v1/events', (e): string | undefined => e.metadata?.namespace);
      const ours = new Set(namespaces);
      const mine = core.items.filter((namespace) => namespace !== undefined && ours.has(namespace)).length;
      if (mine !== opts.events) throw new Error(`the server holds ${mine} events in the ${opts.namespaces} namespaces, not ${opts.events}`);
      await checkPluginJson([k, 'evtimeline', '-A', '-o', 'json'], opts.events, namespaces, env);
      const others = core.items.length - mine;
      const besides = others === 0 ? '' : `, and ${others} the cluster recorded itself`;
      console.log(`\n## ${opts.events} events in ${opts.namespaces} namespaces, -A (${OBJECTS} objects${distinct}${besides}; ${core.pages} pages of ${PAGE_SIZE}; written in ${written} by ${how})\n`);
      started = performance.now();
      const subjects = [
        ...pluginSubjects(k, ['-A'], plugins),
        { name: 'kubectl events -A', command: [k, 'events', '-A'] },
        ...(opts.withoutGetJson ? [] : [{ name: 'kubectl get events -A -o json', command: [k, 'get', 'events', '-A', '-o', 'json'] }]),
      ];
      const results = await interleave(helper, subjects, opts.runs, env);
      console.log(markdownTable(results, 'kubectl events -A'));
      console.log(`\n(measured in ${elapsed(started)}; ${load()})`);
      console.log(`\n\`kubectl evtimeline -A\` made ${await requestsOf([k, 'evtimeline', '-A'], env)}`);
    }

    // The records need no server: stop it now (close() at the end removes the work folder).
    await ws.stopControlPlane();

    if (opts.parts.includes('record')) {
      const small = Math.round(opts.record / 10);
      let started = performance.now();
      process.stderr.write(`writing records of ${small} and ${opts.record} events...\n`);
      const files = new Map<number, string>();
      for (const n of [small, opts.record]) {
        const path = join(ws.dir, `record-${n}.jsonl`);
        await writeRecord(path, n);
        files.set(n, path);
      }
      const { size } = await stat(files.get(opts.record) as string);
      console.log(`\n## --from a record (${opts.record} events, ${(size / 1024 / 1024).toFixed(0)} MiB, every tenth observed twice; and ${small} events), written in ${elapsed(started)}\n`);
      started = performance.now();
      const subjects: Subject[] = plugins.flatMap((plugin) =>
        [small, opts.record].flatMap((n) => [
          { name: `kubectl ${plugin} --from R${n} -o stable`, command: [k, plugin, '--from', files.get(n) as string, '-o', 'stable'] },
          { name: `kubectl ${plugin} --from R${n}`, command: [k, plugin, '--from', files.get(n) as string] },
        ]),
      );
      const results = await interleave(helper, subjects, opts.runs, env);
      const linear = (r: Result): string => {
        const smaller = results.find((s) => s.name === r.name.replace(`R${opts.record}`, `R${small}`));
        return smaller && smaller !== r ? `${(r.wallSeconds / smaller.wallSeconds).toFixed(1)}x the time of ${small} events` : '';
      };
      console.log(markdownTable(results, subjects[0]?.name as string));
      console.log('');
      for (const r of results) if (linear(r)) console.log(`- \`${r.name}\`: ${linear(r)}, peak RSS ${r.maxRssMiB.toFixed(1)} MiB`);
      console.log(`\n(measured in ${elapsed(started)}; ${load()})`);
    }
    console.log(`\nthe whole benchmark took ${elapsed(scriptStarted)}`);
  } finally {
    await ws.close();
  }
}

main().catch((err: unknown) => {
  console.error(`bench-timeline: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});

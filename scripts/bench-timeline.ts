// `npm run bench:timeline`: what reading a busy namespace costs the plugin next to kubectl. Starts a
// private control plane, writes N events into a fresh namespace (core/v1 with Normal, Warning, one
// Critical and some count > 1; about a tenth through events.k8s.io/v1, some with a series), then
// runs, interleaved, through kubectl's plugin mechanism and the real kubectl on PATH:
//
//   kubectl evtimeline -n NS              kubectl events -n NS
//   kubectl evtimeline -n NS -o json      kubectl get events -n NS -o json
//   kubectl evtimeline incident -n NS
//
// and prints each one's median wall time and peak memory (max RSS) and its ratio to `kubectl
// events`. A benchmark, not a test: it prints figures and judges nothing, except that it fails
// loudly when `kubectl evtimeline -n NS -o json` does not return the N events it wrote.
//
//   node --import tsx scripts/bench-timeline.ts [--events 2000] [--runs 10] [--kubectl PATH]
//
// Needs dist/kubectl-evtimeline (npm run bench:timeline builds it first) and the Go the tests
// already need: it builds the control plane (test/harness) and scripts/maxrss.go, which reads each
// run's rusage (Node cannot), into ${XDG_CACHE_HOME:-~/.cache}/kubectl-evtimeline/ as
// bench-startup.mjs does (same cache entry). The control plane is stopped at the end, on an error
// and on Ctrl-C / SIGTERM; should this process die regardless, it stops by itself (stdin EOF).
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, request } from 'node:https';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { ensureMaxRssHelper } from './maxrss.mjs';
import { eachLimited } from '../src/kube/objects.ts';
import { startControlPlane, type ControlPlane } from '../test/harness/controlplane.ts';
import { uniqueNamespaceName } from '../test/harness/namespace.ts';
import { PLUGIN_BINARY, ROOT, pluginBinDir } from '../test/harness/plugin.ts';

/** The plugin's and kubectl's list page size (src/kube/events-api.ts PAGE_SIZE, kubectl --chunk-size). */
const PAGE_SIZE = 500;
/** POSTs in flight while writing the events. */
const WRITE_CONCURRENCY = 32;

interface Options {
  events: number;
  runs: number;
  kubectl: string;
}

function parseArgs(argv: string[]): Options {
  let events = 2000;
  let runs = 10;
  let kubectl: string | undefined;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    const eq = arg.indexOf('=');
    const flag = eq < 0 ? arg : arg.slice(0, eq);
    const value = (): string => {
      const v = eq < 0 ? argv[++i] : arg.slice(eq + 1);
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    if (flag === '--events') events = Number(value());
    else if (flag === '--runs') runs = Number(value());
    else if (flag === '--kubectl') kubectl = resolve(value());
    else throw new Error(`unknown argument ${arg} (want --events N, --runs N, --kubectl PATH)`);
  }
  if (!Number.isInteger(events) || events < 10) throw new Error('--events must be a whole number of at least 10');
  if (!Number.isInteger(runs) || runs < 10) throw new Error('--runs must be a whole number of at least 10');
  kubectl ??= onPath('kubectl');
  if (!kubectl) throw new Error('no kubectl on PATH: pass --kubectl PATH');
  return { events, runs, kubectl };
}

function onPath(name: string): string | undefined {
  return (process.env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .map((dir) => join(dir, name))
    .find((path) => existsSync(path));
}


// ---------------------------------------------------------------------------------------------
// The API server, straight over HTTPS with the admin token

class Api {
  private readonly agent: Agent;
  private readonly base: URL;

  constructor(private readonly cp: ControlPlane) {
    this.agent = new Agent({ ca: cp.ca, keepAlive: true, maxSockets: WRITE_CONCURRENCY });
    this.base = new URL(cp.server);
  }

  call(method: string, path: string, body?: unknown): Promise<any> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    return new Promise((resolvePromise, reject) => {
      const req = request(
        {
          agent: this.agent,
          hostname: this.base.hostname,
          port: this.base.port,
          method,
          path,
          headers: {
            authorization: `Bearer ${this.cp.token}`,
            accept: 'application/json',
            ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}),
          },
          timeout: 60_000,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            if ((res.statusCode ?? 0) >= 300) reject(new Error(`${method} ${path}: HTTP ${res.statusCode}: ${text.slice(0, 500)}`));
            else resolvePromise(text === '' ? null : JSON.parse(text));
          });
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`${method} ${path}: timed out`)));
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** Every item of a list, in pages of PAGE_SIZE, and how many pages that took. */
  async listAll(path: string): Promise<{ items: any[]; pages: number }> {
    const items: any[] = [];
    let pages = 0;
    let next = '';
    do {
      const query = `limit=${PAGE_SIZE}${next ? `&continue=${encodeURIComponent(next)}` : ''}`;
      const page = await this.call('GET', `${path}?${query}`);
      pages += 1;
      items.push(...(page.items ?? []));
      next = page.metadata?.continue ?? '';
    } while (next);
    return { items, pages };
  }

  close(): void {
    this.agent.destroy();
  }
}


// ---------------------------------------------------------------------------------------------
// The events: what a small web app's namespace looks like after an hour

interface Subject {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  component: string;
}

const NORMAL_REASONS: [string, string][] = [
  ['Scheduled', 'Successfully assigned {ns}/{obj} to node-1'],
  ['Pulling', 'Pulling image "registry.example/web:1.4.{i}"'],
  ['Pulled', 'Successfully pulled image "registry.example/web:1.4.{i}" in 812ms (812ms including waiting)'],
  ['Created', 'Created container web'],
  ['Started', 'Started container web'],
  ['Killing', 'Stopping container web'],
];
const WARNING_REASONS: [string, string][] = [
  ['BackOff', 'Back-off restarting failed container web in pod {obj}'],
  ['Unhealthy', 'Readiness probe failed: Get "http://10.0.0.{i}:8080/healthz": dial tcp 10.0.0.{i}:8080: connect: connection refused'],
  ['FailedMount', 'MountVolume.SetUp failed for volume "config" : configmap "web-config-{i}" not found'],
];

function fill(template: string, ns: string, obj: string, i: number): string {
  return template.replaceAll('{ns}', ns).replaceAll('{obj}', obj).replaceAll('{i}', String(i % 250));
}

const rfc3339 = (ms: number): string => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
const micro = (ms: number, i: number): string => new Date(Math.floor(ms)).toISOString().replace(/\.(\d{3})Z$/, `.$1${String(i % 1000).padStart(3, '0')}Z`);

interface Planned {
  path: string;
  body: unknown;
}

/**
 * N event bodies: every tenth through events.k8s.io/v1 (a third of those with a series), the rest
 * core/v1; a quarter Warning, exactly one Critical (core/v1: events.k8s.io/v1 checks type), every
 * seventh core event with count > 1. Times spread over the last 50 minutes (inside the 1 h TTL).
 */
function planEvents(ns: string, n: number, subjects: Subject[], now: number): Planned[] {
  const planned: Planned[] = [];
  const span = 50 * 60 * 1000;
  const critical = Math.floor(n / 2) | 1; // odd, so a core/v1 event
  for (let i = 0; i < n; i += 1) {
    const subject = subjects[i % subjects.length] as Subject;
    const at = now - span + Math.floor((span * i) / n);
    const warning = i % 4 === 3;
    const [reason, template] = warning
      ? (WARNING_REASONS[i % WARNING_REASONS.length] as [string, string])
      : (NORMAL_REASONS[i % NORMAL_REASONS.length] as [string, string]);
    const message = fill(template, ns, subject.name, i);
    const name = `${subject.name}.${(0x17f0000000 + i).toString(16)}`;
    const regarding = { apiVersion: subject.apiVersion, kind: subject.kind, name: subject.name, namespace: ns, uid: subject.uid };
    if (i % 10 === 0 && i !== critical) {
      const series = i % 30 === 0 ? { series: { count: 2 + (i % 9), lastObservedTime: micro(at, i) } } : {};
      planned.push({
        path: `/apis/events.k8s.io/v1/namespaces/${ns}/events`,
        body: {
          apiVersion: 'events.k8s.io/v1',
          kind: 'Event',
          metadata: { name, namespace: ns },
          regarding,
          reason,
          note: message,
          type: warning ? 'Warning' : 'Normal',
          eventTime: micro(at - (i % 30 === 0 ? 120_000 : 0), i),
          reportingController: subject.component,
          reportingInstance: `${subject.component}-node-1`,
          action: warning ? 'Failing' : 'Reconciling',
          ...series,
        },
      });
      continue;
    }
    const repeated = i % 7 === 0 ? 2 + (i % 13) : 1;
    planned.push({
      path: `/api/v1/namespaces/${ns}/events`,
      body: {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name, namespace: ns },
        involvedObject: { ...regarding, ...(subject.kind === 'Pod' ? { fieldPath: 'spec.containers{web}' } : {}) },
        reason: i === critical ? 'StageUnknown' : reason,
        message: i === critical ? `Pipeline build-${i} names a stage the operator does not know.` : message,
        type: i === critical ? 'Critical' : warning ? 'Warning' : 'Normal',
        firstTimestamp: rfc3339(at - (repeated - 1) * 30_000),
        lastTimestamp: rfc3339(at),
        count: repeated,
        source: { component: subject.component, ...(subject.kind === 'Pod' ? { host: 'node-1' } : {}) },
        reportingComponent: subject.component,
        reportingInstance: subject.kind === 'Pod' ? 'node-1' : '',
      },
    });
  }
  return planned;
}

/** The namespace, one real Deployment (so some lookups find their object), and N events about it, its ReplicaSets and Pods. */
async function populate(api: Api, ns: string, n: number): Promise<{ distinctObjects: number; seconds: number }> {
  const started = performance.now();
  await api.call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  const labels = { app: 'web' };
  const deployment = await api.call('POST', `/apis/apps/v1/namespaces/${ns}/deployments`, {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: ns },
    spec: { replicas: 3, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'web', image: 'registry.example/web:1.4' }] } } },
  });
  const fakeUid = (k: number): string => `0b5e7a11-0000-4000-8000-${k.toString(16).padStart(12, '0')}`;
  const subjects: Subject[] = [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: deployment.metadata.uid, component: 'deployment-controller' }];
  const hashes = ['5d9f7c8b4', '6c4b9d7f8', '7f8d6b5c9'];
  hashes.forEach((h, k) => subjects.push({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `web-${h}`, uid: fakeUid(100 + k), component: 'replicaset-controller' }));
  for (let k = 0; k < 40; k += 1) {
    const suffix = createHash('sha1').update(String(k)).digest('hex').slice(0, 5);
    subjects.push({ apiVersion: 'v1', kind: 'Pod', name: `web-${hashes[k % 3]}-${suffix}`, uid: fakeUid(1000 + k), component: 'kubelet' });
  }
  const planned = planEvents(ns, n, subjects, Date.now());
  await eachLimited(planned, WRITE_CONCURRENCY, async (p) => {
    await api.call('POST', p.path, p.body);
  });
  return { distinctObjects: subjects.length, seconds: (performance.now() - started) / 1000 };
}

// ---------------------------------------------------------------------------------------------
// Measuring

interface Measured {
  wallSeconds: number;
  maxRssKiB: number;
  exitCode: number;
}

function measure(helper: string, command: string[], env: NodeJS.ProcessEnv): Promise<Measured> {
  return new Promise((resolvePromise, reject) => {
    execFile(helper, command, { env, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`maxrss ${command.join(' ')}: ${stderr || error.message}`));
      const result = JSON.parse(stdout) as Measured;
      if (result.exitCode !== 0) reject(new Error(`${command.join(' ')} exited ${result.exitCode}`));
      else resolvePromise(result);
    });
  });
}

function capture(command: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    execFile(command[0] as string, command.slice(1), { env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command.join(' ')} failed: ${stderr.trim() || error.message}`));
      else resolvePromise(stdout);
    });
  });
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

/** Fails loudly unless the plugin's -o json holds exactly the events written, with their types and both styles. */
async function checkPluginJson(kubectl: string, ns: string, n: number, env: NodeJS.ProcessEnv): Promise<void> {
  const out = await capture([kubectl, 'evtimeline', '-n', ns, '-o', 'json'], env);
  const events = JSON.parse(out) as { uid: string; type: string; count: number; seriesStyle: boolean }[];
  const problems: string[] = [];
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
  if (problems.length > 0) {
    throw new Error(`kubectl evtimeline -n ${ns} -o json is wrong: ${problems.join('; ')}`);
  }
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const scriptStarted = performance.now();
  const opts = parseArgs(process.argv.slice(2));
  if (!existsSync(PLUGIN_BINARY)) throw new Error(`${PLUGIN_BINARY} is missing: run npm run build first`);
  const helper = await ensureMaxRssHelper();

  let cp: ControlPlane | undefined;
  let api: Api | undefined;
  let work: string | undefined;
  let cleaning: Promise<void> | undefined;
  const cleanUp = (): Promise<void> => {
    cleaning ??= (async () => {
      api?.close();
      if (cp) {
        process.stderr.write('stopping the control plane...\n');
        await cp.stop();
      }
      if (work) await rm(work, { recursive: true, force: true });
    })();
    return cleaning;
  };
  const onSignal = (signal: NodeJS.Signals): void => {
    process.stderr.write(`\nbench-timeline: ${signal}\n`);
    void cleanUp().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    process.stderr.write('starting the control plane (etcd, kube-apiserver, kube-scheduler)...\n');
    cp = await startControlPlane();
    api = new Api(cp);
    const ns = uniqueNamespaceName('bench-timeline');
    process.stderr.write(`writing ${opts.events} events into namespace ${ns}...\n`);
    const populated = await populate(api, ns, opts.events);

    const core = await api.listAll(`/api/v1/namespaces/${ns}/events`);
    const newApi = await api.listAll(`/apis/events.k8s.io/v1/namespaces/${ns}/events`);
    if (core.items.length !== opts.events || newApi.items.length !== opts.events) {
      throw new Error(`the server holds ${core.items.length} events through core/v1 and ${newApi.items.length} through events.k8s.io/v1, not ${opts.events}`);
    }
    const byType = new Map<string, number>();
    for (const e of core.items) byType.set(e.type, (byType.get(e.type) ?? 0) + 1);
    const repeated = core.items.filter((e) => (e.count ?? 0) > 1 || (e.series?.count ?? 0) > 1).length;
    const seriesStyle = core.items.filter((e) => e.eventTime || e.series).length;

    // A HOME of its own (kubectl's discovery cache lives there, filled by the warm-up runs); PATH holds
    // the plugin's folder first, then kubectl's.
    work = await mkdtemp(join(tmpdir(), 'evtimeline-bench-'));
    const env: NodeJS.ProcessEnv = {
      PATH: [pluginBinDir(), dirname(opts.kubectl), '/usr/bin', '/bin'].join(delimiter),
      HOME: work,
      KUBECONFIG: cp.kubeconfig,
    };
    await checkPluginJson(opts.kubectl, ns, opts.events, env);

    const k = opts.kubectl;
    const subjects = [
      { name: `kubectl evtimeline`, command: [k, 'evtimeline', '-n', ns] },
      { name: `kubectl evtimeline -o json`, command: [k, 'evtimeline', '-n', ns, '-o', 'json'] },
      { name: `kubectl evtimeline incident`, command: [k, 'evtimeline', 'incident', '-n', ns] },
      { name: `kubectl events`, command: [k, 'events', '-n', ns] },
      { name: `kubectl get events -o json`, command: [k, 'get', 'events', '-n', ns, '-o', 'json'] },
    ].map((s) => ({ ...s, wall: [] as number[], rss: [] as number[] }));

    const pluginVersion = (await capture([k, 'evtimeline', '--version'], env)).trim().split('\n')[0];
    const kubectlVersion = (await capture([k, 'version', '--client'], env)).trim().split('\n')[0];
    console.log(`plugin:  ${pluginVersion}`);
    console.log(`kubectl: ${kubectlVersion} (${k})`);
    console.log(`server:  Kubernetes ${cp.kubernetesVersion}, etcd ${cp.etcdVersion}, started in ${cp.startupSeconds.toFixed(1)} s`);
    const types = [...byType].map(([t, c]) => `${c} ${t}`).join(', ');
    console.log(
      `events:  ${core.items.length} in ${ns} (${types}; ${seriesStyle} written through events.k8s.io/v1, ${repeated} with count > 1; ` +
        `about ${populated.distinctObjects} objects), written in ${populated.seconds.toFixed(1)} s`,
    );
    console.log(`pages:   ${core.pages} of ${PAGE_SIZE} per list (core/v1; events.k8s.io/v1: ${newApi.pages})`);

    process.stderr.write(`measuring: ${subjects.length} commands x ${opts.runs} runs, interleaved...\n`);
    for (const s of subjects) await measure(helper, s.command, env); // warm the page cache and kubectl's discovery cache
    for (let run = 0; run < opts.runs; run += 1) {
      // Rotate the order, so no command always runs right after the same other one.
      const order = subjects.map((_, j) => subjects[(j + run) % subjects.length] as (typeof subjects)[number]);
      for (const s of order) {
        const { wallSeconds, maxRssKiB } = await measure(helper, s.command, env);
        s.wall.push(wallSeconds);
        s.rss.push(maxRssKiB / 1024);
      }
    }

    const rows = subjects.map((s) => ({ ...s, wallMedian: median(s.wall), rssMedian: median(s.rss) }));
    const base = rows.find((r) => r.name === 'kubectl events') as (typeof rows)[number];
    const row = (cells: string[]): string =>
      `${(cells[0] as string).padEnd(30)}${(cells[1] as string).padStart(13)}${(cells[2] as string).padStart(17)}${(cells[3] as string).padStart(14)}${(cells[4] as string).padStart(13)}`;
    console.log(`\n${opts.runs} runs each, interleaved; ratios are to kubectl events\n`);
    console.log(row(['', 'median wall', 'median peak RSS', 'wall ratio', 'RSS ratio']));
    for (const r of rows) {
      console.log(
        row([
          r.name,
          `${(r.wallMedian * 1000).toFixed(0)} ms`,
          `${r.rssMedian.toFixed(1)} MiB`,
          `${(r.wallMedian / base.wallMedian).toFixed(2)}x`,
          `${(r.rssMedian / base.rssMedian).toFixed(2)}x`,
        ]),
      );
    }
    await cleanUp();
    console.log(`\nthe whole benchmark took ${((performance.now() - scriptStarted) / 1000).toFixed(1)} s`);
  } finally {
    await cleanUp();
  }
}

main().catch((err: unknown) => {
  console.error(`bench-timeline: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});

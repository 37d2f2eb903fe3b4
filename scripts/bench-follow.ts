// `npm run bench:follow`: a follow and a record that run for a long time (issue 27, goal 5). A
// private control plane (test/harness) with --event-ttl 3m, so the events the server holds level
// off after about 3 minutes (the TTL, plus up to 9 s: kube-apiserver reuses an etcd lease for 5% of
// the TTL, at most --lease-reuse-duration-seconds 60, k8s.io/apiserver pkg/storage/etcd3/
// lease_manager.go) and memory that still grows after minute 5 is the reader's own. Three readers
// start on it at once:
//
//   kubectl evtimeline -w -A                (the table, read from its stdout)
//   kubectl evtimeline record -A FILE       (the JSON Lines, read back from FILE as it grows)
//   scripts/informer                        (client-go's shared informer: the reference)
//
// then a driver creates core/v1 events at --rate per second (default 50) for --minutes (default
// 30), spread over --namespaces namespaces, each with its own name and message
// (`bench-follow ev#N`), so every row, line and informer call is matched to the event it shows.
// Every minute it prints the RSS and RssAnon of each reader (/proc/PID/status; kubectl execs the
// plugin in its own process) and what each has seen; at the end, per reader: events seen, lost
// (created, never seen), duplicated (seen more than once), TTL deletions, lag p50/p99/max, how flat
// RSS stayed after minute 5, and CPU per event (/proc/PID/stat).
//
// Then the ramp (--ramp-seconds per step, 0 skips it): the same readers, the rate doubled each step
// from 2 x --rate until record falls behind, then the gap halved. Record keeps up with a rate when, 5 s after the step's
// last create, its file holds every event of the step and the 99th percentile of its lag (the
// line's observedAt minus the time the create returned) is at most 2 s. The informer is judged
// alike, as the reference; a step where the driver cannot create at 90% of the rate (the API server
// is the limit) ends the ramp too, and says so.
//
// A benchmark, not a test: it fails nothing, but it ends with verdict lines against issue 27's
// goal (per reader: 0 lost, 0 duplicated, VmRSS from minute 5 to the end within 10% of its lowest;
// flatness is only judged from 10 minutes on, as a shorter run has too few minutes after the
// events the server holds level off), and the highest rate each reader kept up with. Needs Go
// (the control plane and the informer are built from Go modules into
// ${XDG_CACHE_HOME:-~/.cache}/kubectl-evtimeline/).
//
//   node --import tsx scripts/bench-follow.ts [--minutes 30] [--rate 50] [--namespaces 5]
//       [--ramp-seconds 30] [--event-ttl 3m] [--kubectl PATH] [--plugin PATH]
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Workspace, chooseBinaries, readFlags } from './bench-session.ts';
import { ensureGoBinary } from '../test/harness/build-controlplane.mjs';
import { uniqueNamespaceName } from '../test/harness/namespace.ts';
import { Api } from './bench-api.ts';

interface Options {
  minutes: number;
  rate: number;
  namespaces: number;
  rampSeconds: number;
  eventTTL: string;
  kubectl: string;
  plugin: string;
}

function parseArgs(argv: string[]): Options {
  const opts: Partial<Options> & Omit<Options, 'kubectl' | 'plugin'> = { minutes: 30, rate: 50, namespaces: 5, rampSeconds: 30, eventTTL: '3m' };
  readFlags(argv, 'bench-follow', (flag, value, whole) => {
    if (flag === '--minutes') opts.minutes = whole(1);
    else if (flag === '--rate') opts.rate = whole(1);
    else if (flag === '--namespaces') opts.namespaces = whole(1);
    else if (flag === '--ramp-seconds') opts.rampSeconds = whole(0);
    else if (flag === '--event-ttl') opts.eventTTL = value();
    else if (flag === '--kubectl') opts.kubectl = resolve(value());
    else if (flag === '--plugin') opts.plugin = resolve(value());
    else return false;
    return true;
  });
  return { ...opts, ...chooseBinaries(opts.kubectl, opts.plugin) };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const MARK = /bench-follow ev#(\d+)\b/;
const NAME = /^bench-follow-(\d+)$/;

/** What one reader saw of the driver's events: how often each, and when first (epoch ms). */
class Tally {
  readonly times = new Map<number, number>();
  readonly first = new Map<number, number>();
  deleted = 0;
  deletedTwice = 0;
  private readonly deletions = new Set<number>();
  constructor(readonly name: string) {}

  saw(n: number, at: number): void {
    this.times.set(n, (this.times.get(n) ?? 0) + 1);
    if (!this.first.has(n)) this.first.set(n, at);
  }
  sawDeleted(n: number): void {
    if (this.deletions.has(n)) this.deletedTwice += 1;
    else this.deletions.add(n);
    this.deleted += 1;
  }
  /** Events in [from, to) the driver created that this reader has not seen yet. */
  missing(from: number, to: number, created: Map<number, number>): number {
    let m = 0;
    for (let n = from; n < to; n += 1) if (created.has(n) && !this.first.has(n)) m += 1;
    return m;
  }
  duplicated(from: number, to: number): number {
    let d = 0;
    for (let n = from; n < to; n += 1) d += Math.max(0, (this.times.get(n) ?? 0) - 1);
    return d;
  }
}

function quantile(values: number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
}

/** How long after its create returned each of events [from, to) reached a reader (ms; the create's own time is not known closer). */
function lags(t: Tally, created: Map<number, number>, from: number, to: number): number[] {
  const out: number[] = [];
  for (let n = from; n < to; n += 1) {
    const seen = t.first.get(n);
    const made = created.get(n);
    if (seen !== undefined && made !== undefined) out.push(seen - made);
  }
  return out;
}

/** Lines of a child's stdout, as they come. */
function eachLine(child: ChildProcessWithoutNullStreams, on: (line: string) => void): void {
  let carry = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    const lines = (carry + chunk).split('\n');
    carry = lines.pop() ?? '';
    for (const line of lines) on(line);
  });
}

/** A record file read as it grows: each complete line, parsed. */
async function tailRecord(path: string, tally: Tally, stop: AbortSignal): Promise<void> {
  let offset = 0;
  let carry = '';
  const buf = Buffer.alloc(4 * 1024 * 1024);
  while (!stop.aborted) {
    if (existsSync(path)) {
      const fh = await open(path, 'r');
      try {
        for (;;) {
          const { bytesRead } = await fh.read(buf, 0, buf.length, offset);
          if (bytesRead === 0) break;
          offset += bytesRead;
          const lines = (carry + buf.toString('utf8', 0, bytesRead)).split('\n');
          carry = lines.pop() ?? '';
          for (const line of lines) {
            if (!line.includes('bench-follow')) continue;
            const o = JSON.parse(line) as { observedAt?: string; type?: string; event?: { metadata?: { name?: string } } };
            const m = NAME.exec(o.event?.metadata?.name ?? '');
            if (m === null) continue;
            if (o.type === 'DELETED') tally.sawDeleted(Number(m[1]));
            else tally.saw(Number(m[1]), Date.parse(o.observedAt ?? ''));
          }
        }
      } finally {
        await fh.close();
      }
    }
    await sleep(250);
  }
}

/**
 * VmRSS of a process in MiB, and RssAnon, the part that is its own memory (the rest is mostly the
 * 115 MiB executable's pages, mapped as they are first run and dropped when the page cache needs
 * room); NaN once it is gone.
 */
function rssMiB(pid: number | undefined): { rss: number; anon: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string): number => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN) / 1024;
    return { rss: kib('VmRSS'), anon: kib('RssAnon') };
  } catch {
    return { rss: Number.NaN, anon: Number.NaN };
  }
}

/** user+sys CPU seconds of a running process (/proc/PID/stat fields 14 and 15, in ticks of 1/100 s); NaN once it is gone. */
function cpuSeconds(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** How far apart the lowest and highest values are, as a share of the lowest. */
function spread(values: number[]): string {
  const lo = Math.min(...values);
  return `${(((Math.max(...values) - lo) / lo) * 100).toFixed(1)}%`;
}

/** The goal's bar on memory: VmRSS from this minute to the end within FLAT_WITHIN % of its lowest, judged from FLAT_JUDGED minutes on. */
const FLAT_FROM = 5;
const FLAT_WITHIN = 10;
const FLAT_JUDGED = 10;

/** One reader's verdict line: each part of the goal met or not, with the figure it was judged on. */
function verdict(name: string, lost: number, duplicated: number, rssFrom5: number[], minutes: number): string {
  const met = (ok: boolean): string => (ok ? 'met' : 'NOT MET');
  const lo = Math.min(...rssFrom5);
  const growth = ((Math.max(...rssFrom5) - lo) / lo) * 100;
  const flat =
    minutes < FLAT_JUDGED || rssFrom5.length < 2 || rssFrom5.some(Number.isNaN)
      ? `not judged (${minutes} min: run at least ${FLAT_JUDGED})`
      : `${met(growth <= FLAT_WITHIN)} (${growth.toFixed(1)}%)`;
  return `${name.padEnd(10)}  0 lost: ${met(lost === 0)} (${lost}); 0 duplicated: ${met(duplicated === 0)} (${duplicated}); RSS flat within ${FLAT_WITHIN}% from minute ${FLAT_FROM}: ${flat}`;
}

/** Objects the events are about, per namespace: a Pod name and a made-up uid (record looks each up once, and writes it as not found). */
const OBJECTS = 400;
const uidOf = (ns: string, k: number): string => `${createHash('sha256').update(`${ns}/${k}`).digest('hex').replace(/^(.{8})(.{4})(.{4})(.{4})(.{12}).*$/, '$1-$2-$3-$4-$5')}`;

/**
 * Creates events `from`, `from+1`, ... at `rate` per second for `seconds`, 32 requests in flight
 * per connection pool in `apis`; `created[n]` is when the create of n returned (epoch ms). Returns
 * the next number.
 */
async function drive(apis: Api[], namespaces: string[], created: Map<number, number>, from: number, rate: number, seconds: number): Promise<number> {
  const total = Math.round(rate * seconds);
  const started = performance.now();
  let next = 0;
  let failures = 0;
  const one = async (i: number): Promise<void> => {
    const n = from + i;
    const ns = namespaces[n % namespaces.length] as string;
    const now = new Date().toISOString();
    const k = Math.floor(n / namespaces.length) % OBJECTS;
    await (apis[i % apis.length] as Api).call('POST', `/api/v1/namespaces/${ns}/events`, {
      metadata: { name: `bench-follow-${n}` },
      involvedObject: { apiVersion: 'v1', kind: 'Pod', name: `web-${k}`, namespace: ns, uid: uidOf(ns, k) },
      reason: 'BenchFollow',
      message: `bench-follow ev#${n}`,
      type: 'Normal',
      source: { component: 'bench-follow' },
      firstTimestamp: now,
      lastTimestamp: now,
      count: 1,
    }).then(
      () => created.set(n, Date.now()),
      (error: unknown) => {
        // Not created: not counted against any reader.
        failures += 1;
        if (failures <= 3) process.stderr.write(`create ${n} failed: ${error instanceof Error ? error.message : String(error)}\n`);
      },
    );
  };
  await Promise.all(
    Array.from({ length: 32 * apis.length }, async () => {
      while (next < total) {
        const i = next++;
        const due = started + (i * 1000) / rate;
        const wait = due - performance.now();
        if (wait > 0) await sleep(wait);
        await one(i);
      }
    }),
  );
  return from + total;
}

const secs = (ms: number): string => (Math.max(0, ms) / 1000).toFixed(2);
const mib = (v: number): string => (Number.isNaN(v) ? '-' : v.toFixed(1));
const load = (): string => loadavg().map((l) => l.toFixed(2)).join(' ');

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  const here = dirname(fileURLToPath(import.meta.url));
  const informerBinary = await ensureGoBinary({ name: 'informer', sourceDir: join(here, 'informer'), ldflags: '-s -w', log: (m: string) => process.stderr.write(`informer: ${m}\n`) });
  const ws = await Workspace.open('bench-follow', opts.kubectl);
  const children: ChildProcessWithoutNullStreams[] = [];
  // Ctrl-C: the workspace stops the control plane and exits; the readers go with it.
  process.once('exit', () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGINT');
  });
  const stopTail = new AbortController();
  const pools: Api[] = [];
  try {
    await ws.link(opts.plugin, 'evtimeline', opts.kubectl);
    const { cp, api } = await ws.startControlPlane(`etcd, kube-apiserver with --event-ttl ${opts.eventTTL}`, { eventTTL: opts.eventTTL });
    const namespaces = Array.from({ length: opts.namespaces }, () => uniqueNamespaceName('bench-follow'));
    for (const ns of namespaces) await api.call('POST', '/api/v1/namespaces', { metadata: { name: ns } });

    const tallies = { watch: new Tally('-w -A'), record: new Tally('record -A'), informer: new Tally('informer') };
    const stderrOf = new Map<string, string>();
    const start = (name: string, command: string, args: string[]): ChildProcessWithoutNullStreams => {
      const child = spawn(command, args, { env: ws.env, stdio: ['pipe', 'pipe', 'pipe'] });
      children.push(child);
      stderrOf.set(name, '');
      child.stderr.setEncoding('utf8');
      // Kept short: a record's progress line rewrites itself.
      child.stderr.on('data', (chunk: string) => stderrOf.set(name, ((stderrOf.get(name) ?? '') + chunk).slice(-4000)));
      return child;
    };
    const recordFile = join(ws.dir, 'follow.jsonl');
    const watch = start('watch', opts.kubectl, ['evtimeline', '-w', '-A']);
    eachLine(watch, (line) => {
      const m = MARK.exec(line);
      if (m) tallies.watch.saw(Number(m[1]), Date.now());
    });
    const record = start('record', opts.kubectl, ['evtimeline', 'record', '-A', recordFile]);
    void tailRecord(recordFile, tallies.record, stopTail.signal);
    const informer = start('informer', informerBinary, [`--kubeconfig=${cp.kubeconfig}`]);
    eachLine(informer, (line) => {
      const [at, kind, , name] = line.split(' ');
      const m = NAME.exec(name ?? '');
      if (m === null) return;
      if (kind === 'D') tallies.informer.sawDeleted(Number(m[1]));
      else if (kind === 'A') tallies.informer.saw(Number(m[1]), Number(at));
      else tallies.informer.saw(Number(m[1]), Number(at)); // an update of an event created once is a duplicate
    });

    // Event 0 says every reader is following: once all three have it, what comes next is watched.
    const created = new Map<number, number>();
    let next = await drive([api], namespaces, created, 0, 1, 1);
    const readyBy = Date.now() + 120_000;
    while (Object.values(tallies).some((t) => !t.first.has(0))) {
      if (Date.now() > readyBy) throw new Error(`not every reader saw the first event in 2 minutes: ${[...stderrOf].map(([k, v]) => `${k}: ${v.trim()}`).join('; ')}`);
      for (const child of children) if (child.exitCode !== null) throw new Error(`a reader exited ${child.exitCode}: ${[...stderrOf].map(([k, v]) => `${k}: ${v.trim()}`).join('; ')}`);
      await sleep(200);
    }
    const pids = { watch: watch.pid, record: record.pid, informer: informer.pid };
    console.log(`readers: ${Object.entries(pids).map(([k, p]) => `${k} pid ${p}`).join(', ')}; ${opts.namespaces} namespaces; load average ${load()}`);

    // -- The long run --------------------------------------------------------------------------
    console.log(`\n${opts.rate} events/s for ${opts.minutes} min (RSS in MiB; seen = the driver's events each reader has shown, of those created):`);
    console.log('minute  created  load average      | -w RSS (anon)    seen  | record RSS (anon)  seen  | informer RSS (anon)  seen');
    const rss: Record<keyof typeof pids, { rss: number; anon: number }[]> = { watch: [], record: [], informer: [] };
    const first = next;
    const report = (minute: number): void => {
      for (const k of Object.keys(pids) as (keyof typeof pids)[]) rss[k].push(rssMiB(pids[k]));
      const seen = (t: Tally): string => String(t.first.size - 1).padStart(7);
      const both = (k: keyof typeof pids, width: number): string => {
        const last = rss[k].at(-1);
        return `${mib(last?.rss ?? NaN)} (${mib(last?.anon ?? NaN)})`.padStart(width);
      };
      console.log(
        `${String(minute).padStart(6)}  ${String(created.size - 1).padStart(7)}  ${load().padEnd(16)}  | ${both('watch', 14)}  ${seen(tallies.watch)} | ${both('record', 16)}  ${seen(tallies.record)} | ${both('informer', 18)}  ${seen(tallies.informer)}`,
      );
    };
    const cpuAt = (): Record<keyof typeof pids, number> => ({ watch: cpuSeconds(pids.watch), record: cpuSeconds(pids.record), informer: cpuSeconds(pids.informer) });
    const cpuBefore = cpuAt();
    report(0);
    for (let minute = 1; minute <= opts.minutes; minute += 1) {
      next = await drive([api], namespaces, created, next, opts.rate, 60);
      for (const child of children) if (child.exitCode !== null) throw new Error(`a reader exited ${child.exitCode}: ${[...stderrOf].map(([k, v]) => `${k}: ${v.trim()}`).join('; ')}`);
      report(minute);
    }
    const longEnd = next;
    // What is still on its way.
    const settleBy = Date.now() + 60_000;
    while (Object.values(tallies).some((t) => t.missing(first, next, created) > 0) && Date.now() < settleBy) await sleep(500);
    console.log(`\nafter ${opts.minutes} min (${created.size - 1} events created at ${opts.rate}/s, then up to 60 s to arrive; load average ${load()}):`);
    const from5 = Math.min(FLAT_FROM, opts.minutes);
    console.log(`reader        seen     lost  duplicated  deleted (TTL)  lag p50/p99/max  | from minute ${from5}: RSS (MiB)  spread | anon (MiB)      spread`);
    const verdicts: string[] = [];
    for (const [k, t] of Object.entries(tallies) as [keyof typeof pids, Tally][]) {
      const later = rss[k].slice(from5);
      const range = (values: number[]): string => `${mib(Math.min(...values))} .. ${mib(Math.max(...values))}`.padStart(15) + spread(values).padStart(8);
      verdicts.push(verdict(t.name, t.missing(first, next, created), t.duplicated(first, next), later.map((r) => r.rss), opts.minutes));
      const deleted = k === 'watch' ? '-' : `${t.deleted}${t.deletedTwice ? ` (${t.deletedTwice} twice)` : ''}`;
      const late = lags(t, created, first, next);
      const lag = `${secs(quantile(late, 0.5))}/${secs(quantile(late, 0.99))}/${secs(late.reduce((a, b) => Math.max(a, b), 0))} s`;
      console.log(
        `${t.name.padEnd(10)}  ${String(created.size - 1 - t.missing(first, next, created)).padStart(7)}  ${String(t.missing(first, next, created)).padStart(7)}  ${String(t.duplicated(first, next)).padStart(10)}  ${deleted.padStart(13)}  ${lag.padStart(16)} |      ${range(later.map((r) => r.rss))} | ${range(later.map((r) => r.anon))}`,
      );
    }

    // What each reader's CPU allows, whatever the API server on this machine can serve: events per CPU second.
    const cpuAfter = cpuAt();
    const perEvent = (k: keyof typeof pids): string => {
      const used = cpuAfter[k] - cpuBefore[k];
      return `${k === 'watch' ? '-w -A' : k === 'record' ? 'record -A' : 'informer'} ${used.toFixed(1)} s (${((used * 1000 * 1000) / (created.size - 1)).toFixed(0)} us an event, ${((created.size - 1) / used).toFixed(0)} events per CPU second)`;
    };
    console.log(`CPU (user+sys) over the ${opts.minutes} min: ${(Object.keys(pids) as (keyof typeof pids)[]).map(perEvent).join('; ')}`);
    console.log(`\nverdict (goal: 0 lost, 0 duplicated, RSS from minute ${FLAT_FROM} to the end within ${FLAT_WITHIN}% of its lowest):`);
    for (const line of verdicts) console.log(line);

    // -- The ramp ------------------------------------------------------------------------------
    if (opts.rampSeconds > 0) {
      console.log(`\nramp: ${opts.rampSeconds} s per step; keeps up = 5 s after the step's last create every event is there and the p99 lag is <= 2 s`);
      console.log('target/s  achieved/s  load average     | record p50/p99 lag   missing  | informer p50/p99 lag  missing  | -w p50/p99 lag   missing');
      // The highest rate each reader kept up with: the long run's, when it kept up there, then each step's.
      const keptUp = (t: Tally, from: number, to: number): boolean => t.missing(from, to, created) === 0 && quantile(lags(t, created, from, to), 0.99) <= 2000;
      const best = { record: 0, informer: 0, watch: 0 };
      for (const k of Object.keys(best) as (keyof typeof best)[]) if (keptUp(tallies[k], first, longEnd)) best[k] = opts.rate;
      const tried: string[] = [];
      const rateText = (n: number): string => (n === 0 ? `under ${opts.rate}/s (none of the rates tried)` : `${n}/s`);
      let ended = '';
      // 8 pools of 32 connections: the driver's own latency is not what limits the rate.
      pools.push(...Array.from({ length: 8 }, () => new Api(cp)));
      // Doubling until record falls behind, then halving the gap between the highest rate kept and
      // the lowest not kept until it is within a quarter of the latter.
      let rate = opts.rate * 2;
      let failedAt = 0;
      for (;;) {
        const from = next;
        const t0 = performance.now();
        next = await drive(pools, namespaces, created, from, rate, opts.rampSeconds);
        const achieved = (next - from) / ((performance.now() - t0) / 1000);
        await sleep(5_000);
        const judge = (t: Tally): { ok: boolean; text: string } => {
          const late = lags(t, created, from, next);
          const missing = t.missing(from, next, created);
          const p99 = quantile(late, 0.99);
          return { ok: keptUp(t, from, next), text: `${secs(quantile(late, 0.5))} / ${secs(p99)} s`.padStart(18) + `  ${String(missing).padStart(7)}` };
        };
        const r = judge(tallies.record);
        const i = judge(tallies.informer);
        const w = judge(tallies.watch);
        tried.push(`${rate}`);
        console.log(`${String(rate).padStart(8)}  ${achieved.toFixed(0).padStart(10)}  ${load().padEnd(15)}  | ${r.text}  | ${i.text}   | ${w.text}`);
        const informer = i.ok ? 'the informer kept up' : 'the informer fell behind too';
        // A step the server took only part of is judged at the rate it took.
        const given = achieved < 0.9 * rate ? Math.round(achieved) : rate;
        if (r.ok) best.record = Math.max(best.record, given);
        else failedAt = failedAt === 0 ? given : Math.min(failedAt, given);
        if (i.ok) best.informer = Math.max(best.informer, given);
        if (w.ok) best.watch = Math.max(best.watch, given);
        if (given < rate) {
          const server = `the API server took only ${given}/s of the ${rate}/s asked`;
          ended = r.ok
            ? `${server}: here the server is the limit, and record kept up with all it was given`
            : i.ok
              ? `record fell behind at ${given}/s while the informer kept up (${server})`
              : `${server}, and record and the informer both fell behind at it: the machine is the limit`;
          break;
        }
        const between = Math.round((Math.max(best.record, opts.rate) + failedAt) / 2);
        if (failedAt !== 0 && (failedAt - best.record <= failedAt / 4 || between === rate)) {
          ended = `record fell behind at ${failedAt}/s (at ${rate}/s ${informer})`;
          break;
        }
        rate = failedAt === 0 ? rate * 2 : between;
        // What the step left is let settle, so the next starts from an empty backlog.
        await sleep(10_000);
      }
      console.log(
        `\nhighest rate kept up with (nothing missing 5 s after the last create, p99 lag <= 2 s; ${opts.rate}/s for ${opts.minutes} min, then ${opts.rampSeconds} s at ${tried.join(', ')}/s): ` +
          `record ${rateText(best.record)}, the informer (reference) ${rateText(best.informer)}, -w ${rateText(best.watch)}; the ramp ended: ${ended}`,
      );
    }
  } finally {
    stopTail.abort();
    for (const pool of pools) pool.close();
    for (const child of children) if (child.exitCode === null) child.kill('SIGINT');
    await Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.on('close', r)) : undefined)));
    await ws.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

// What the benchmarks share: running a command under scripts/maxrss.go, interleaving the runs of
// several commands, and printing medians with their ratios to a reference command.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export interface Measured {
  wallSeconds: number;
  /** user + system CPU seconds */
  cpuSeconds: number;
  maxRssMiB: number;
}

export interface Subject {
  name: string;
  command: string[];
  /** exit codes that count as success (type-audit exits 3 on findings) */
  okExits?: number[];
}

interface Sample {
  wallSeconds: number;
  userSeconds: number;
  sysSeconds: number;
  maxRssKiB: number;
  exitCode: number;
}

export function measure(helper: string, subject: Subject, env: NodeJS.ProcessEnv): Promise<Measured> {
  return new Promise((resolve, reject) => {
    execFile(helper, subject.command, { env, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`maxrss ${subject.command.join(' ')}: ${stderr || error.message}`));
      const s = JSON.parse(stdout) as Sample;
      if (!(subject.okExits ?? [0]).includes(s.exitCode)) reject(new Error(`${subject.command.join(' ')} exited ${s.exitCode}`));
      else resolve({ wallSeconds: s.wallSeconds, cpuSeconds: s.userSeconds + s.sysSeconds, maxRssMiB: s.maxRssKiB / 1024 });
    });
  });
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export interface Result extends Measured {
  name: string;
  /** with interleave's `server`: the median of what it read grew by over each run (a server's CPU seconds) */
  serverSeconds?: number;
  /** the fastest and slowest of the runs' wall times: the spread around the median */
  wallRange: [number, number];
  /** each run, in round order (run k of every subject is of the same round) */
  runs: Measured[];
}

/**
 * Drops the executables' pages from the page cache (GNU dd: iflag=nocache with count=0 drops the
 * whole file), so each starts as one that has been on disk a while. A file just written (a fresh
 * build) is wholly in the page cache, and a page fault then maps every cached neighbour page too
 * (the kernel's fault-around): the same executable shows about 17 MiB more peak RSS than it does
 * once only the pages it runs are cached, which is what kubectl's own binary is measured with.
 */
export function evictFromPageCache(paths: string[]): void {
  for (const path of new Set(paths.map((p) => realpathSync(p)))) {
    execFileSync('dd', [`if=${path}`, 'iflag=nocache', 'count=0', 'status=none']);
  }
}

/**
 * Runs every subject once to warm caches, then `runs` rounds in a rotating order (no command always
 * follows the same other one), and returns each subject's medians. `server`: read before and after
 * each run (a server's CPU seconds, processCpuSeconds): its growth is the server's share of the run.
 */
export async function interleave(helper: string, subjects: Subject[], runs: number, env: NodeJS.ProcessEnv, server?: () => number): Promise<Result[]> {
  const samples = subjects.map(() => [] as Measured[]);
  const served = subjects.map(() => [] as number[]);
  for (const s of subjects) await measure(helper, s, env);
  for (let run = 0; run < runs; run += 1) {
    for (let j = 0; j < subjects.length; j += 1) {
      const k = (j + run) % subjects.length;
      const at = server?.() ?? 0;
      samples[k]?.push(await measure(helper, subjects[k] as Subject, env));
      if (server !== undefined) served[k]?.push(server() - at);
    }
  }
  return subjects.map((s, k) => {
    const mine = samples[k] as Measured[];
    return {
      ...(server === undefined ? {} : { serverSeconds: median(served[k] as number[]) }),
      name: s.name,
      wallSeconds: median(mine.map((m) => m.wallSeconds)),
      cpuSeconds: median(mine.map((m) => m.cpuSeconds)),
      maxRssMiB: median(mine.map((m) => m.maxRssMiB)),
      wallRange: [Math.min(...mine.map((m) => m.wallSeconds)), Math.max(...mine.map((m) => m.wallSeconds))],
      runs: mine,
    };
  });
}

/**
 * The CPU seconds (user + system) a process has used, from the text of its /proc/PID/stat: fields
 * 14 and 15 (utime, stime), in clock ticks of USER_HZ, which Linux fixes at 100 for user space
 * (proc(5): "divide by sysconf(_SC_CLK_TCK)"). The command name (field 2) is in parentheses and
 * may hold spaces or parentheses itself: the fields are counted from after its last `)`.
 */
export function processCpuSeconds(stat: string): number {
  const after = stat.slice(stat.lastIndexOf(')') + 1).trim().split(/\s+/);
  // `after` starts at field 3 (state): utime is field 14, stime 15.
  const utime = Number(after[11]);
  const stime = Number(after[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) throw new Error(`not a /proc/PID/stat line: ${stat.slice(0, 80)}`);
  return (utime + stime) / 100;
}

/** The paired overhead of one subject over another, round by round: the median ratio and its quartiles. */
export interface PairedOverhead {
  /** per-round wall ratio minus one (0.12 is 12% more), median and quartiles */
  median: number;
  q1: number;
  q3: number;
  /** rounds in all, and those over the target */
  rounds: number;
  over: number;
  /** the median per-round CPU difference, seconds */
  cpuSeconds: number;
}

/**
 * How much more wall time `a` takes than `b`, from the rounds interleave ran: each round's ratio, so a
 * slow moment of the machine weighs on both sides of one ratio, not on one side's median.
 */
export function pairedOverhead(a: Result, b: Result, target: number): PairedOverhead {
  const rounds = Math.min(a.runs.length, b.runs.length);
  if (rounds === 0) throw new Error('no rounds to compare');
  const ratios: number[] = [];
  const cpu: number[] = [];
  for (let k = 0; k < rounds; k += 1) {
    const x = a.runs[k] as Measured;
    const y = b.runs[k] as Measured;
    ratios.push(x.wallSeconds / y.wallSeconds - 1);
    cpu.push(x.cpuSeconds - y.cpuSeconds);
  }
  ratios.sort((p, q) => p - q);
  const at = (f: number) => ratios[Math.min(rounds - 1, Math.floor(f * rounds))] as number;
  return { median: median(ratios), q1: at(0.25), q3: at(0.75), rounds, over: ratios.filter((r) => r > target).length, cpuSeconds: median(cpu) };
}

const seconds = (s: number): string => (s < 1 ? `${(s * 1000).toFixed(0)} ms` : `${s.toFixed(2)} s`);
const ratio = (a: number, b: number): string => `${(a / b).toFixed(2)}x`;

/** A Markdown table of medians, with ratios to the subject named `reference`. */
export function markdownTable(results: Result[], reference: string): string {
  const base = results.find((r) => r.name === reference);
  if (base === undefined) throw new Error(`no results for ${reference}`);
  const head = ['command', 'wall', 'CPU (user+sys)', 'peak RSS', 'wall ratio', 'CPU ratio', 'RSS ratio'];
  const rows = results.map((r) => [
    `\`${r.name}\``,
    seconds(r.wallSeconds),
    seconds(r.cpuSeconds),
    `${r.maxRssMiB.toFixed(1)} MiB`,
    ratio(r.wallSeconds, base.wallSeconds),
    ratio(r.cpuSeconds, base.cpuSeconds),
    ratio(r.maxRssMiB, base.maxRssMiB),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] as string).length)));
  const line = (cells: string[]): string => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join(' | ')} |`;
  const rule = `| ${widths.map((w, i) => (i === 0 ? '-'.repeat(w) : `${'-'.repeat(w - 1)}:`)).join(' | ')} |`;
  return [line(head), rule, ...rows.map(line)].join('\n');
}

export function onPath(name: string): string | undefined {
  return (process.env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .map((dir) => join(dir, name))
    .find((path) => existsSync(path));
}

/** Seconds since `since` (a performance.now() reading), for progress lines. */
export function elapsed(since: number): string {
  return `${((performance.now() - since) / 1000).toFixed(1)} s`;
}

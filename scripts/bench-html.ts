// `npm run bench:html`: what the -o html page of N events (--events, default 20,000, about --objects
// objects, default 400, in 4 namespaces) costs: the page's size, the single executable's time to write it from a
// saved list (`--from FILE -o html`), and in Debian's headless Chromium the time from opening the
// file to the first drawn frame, the time a zoom, a type filter (untick Normal, tick it again) and a
// jump to the page's end take to the second frame drawn after them (wall, and the CPU time of
// Chromium's processes meanwhile, which a loaded machine does not inflate), and the JavaScript heap after drawing. Medians of --runs (default 5), each in a fresh page. A benchmark, not a test: it prints
// figures and judges nothing, except that it fails loudly when the page does not draw.
//
//   node --import tsx scripts/bench-html.ts [--events 20000] [--objects 400] [--runs 5] [--write-runs N] [--plugin PATH]
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { median } from './bench-measure.ts';
import { PLUGIN_BINARY } from '../test/harness/plugin.ts';
import { launchBrowser, openPage } from '../test/support/browser.ts';
import { manyEvents } from '../test/support/many-events.ts';

function parseArgs(argv: string[]): { events: number; objects: number; runs: number; writeRuns: number; plugin: string } {
  const opts = { events: 20_000, objects: 400, runs: 5, writeRuns: NaN, plugin: PLUGIN_BINARY };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1] ?? ''];
    if (flag === '--events') opts.events = Number(value);
    else if (flag === '--objects') opts.objects = Number(value);
    else if (flag === '--runs') opts.runs = Number(value);
    else if (flag === '--write-runs') opts.writeRuns = Number(value);
    else if (flag === '--plugin') opts.plugin = value;
    else throw new Error(`unknown flag ${flag}: want --events N, --objects N, --runs N, --write-runs N or --plugin PATH`);
  }
  // Writing a page of 20,000 objects takes minutes on a loaded machine: --write-runs 1 times it once.
  return { ...opts, writeRuns: Number.isNaN(opts.writeRuns) ? opts.runs : opts.writeRuns };
}

const ms = (value: number): string => `${Math.round(value)} ms`;

const TICK_MS = 10; // USER_HZ is 100 on Linux: /proc/PID/stat counts CPU time in 10 ms ticks

/** CPU ms (user + system) each process of the Chromium whose profile is under `dir` (it and every process it started) has used so far. */
function browserCpu(dir: string): Map<string, number> {
  const procs = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  const parent = new Map<string, string>();
  const cpu = new Map<string, number>();
  let root: string | undefined;
  for (const pid of procs) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Fields after the command (which may hold spaces) in parentheses: state ppid ... utime(14) stime(15).
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(pid, fields[1] ?? '');
      cpu.set(pid, (Number(fields[11]) + Number(fields[12])) * TICK_MS);
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (root === undefined && cmdline.includes(`${dir}/profile`) && !cmdline.includes('--type=')) root = pid;
    } catch {
      // gone meanwhile
    }
  }
  if (root === undefined) throw new Error(`no Chromium with its profile under ${dir}`);
  const mine = new Map<string, number>();
  for (const [pid, ms] of cpu) {
    for (let p: string | undefined = pid, depth = 0; p !== undefined && p !== '0' && depth < 10; p = parent.get(p), depth += 1) {
      if (p === root) {
        mine.set(pid, ms);
        break;
      }
    }
  }
  return mine;
}

/** CPU ms Chromium's processes used since `before` (a process that ended meanwhile is left out, not subtracted). */
function cpuSince(dir: string, before: Map<string, number>): number {
  let total = 0;
  for (const [pid, ms] of browserCpu(dir)) total += ms - (before.get(pid) ?? 0);
  return total;
}

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  const dir = await mkdtemp(join(tmpdir(), 'evtimeline-bench-html-'));
  const browser = await launchBrowser();
  try {
    const list = join(dir, 'events.json');
    await writeFile(list, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: manyEvents(opts.events, opts.objects) }));
    const page = join(dir, 'timeline.html');
    const writes: number[] = [];
    for (let run = 0; run < opts.writeRuns; run += 1) {
      const started = performance.now();
      await promisify(execFile)(opts.plugin, ['--from', list, '-o', 'html', '--output-file', page], { maxBuffer: 1 << 20 });
      writes.push(performance.now() - started);
    }
    const html = await readFile(page, 'utf8');
    const loads: number[] = [];
    const drawn: number[] = [];
    const firstCpu: number[] = [];
    const zooms = { wall: [] as number[], cpu: [] as number[] };
    const untick = { wall: [] as number[], cpu: [] as number[] };
    const retick = { wall: [] as number[], cpu: [] as number[] };
    const jumps = { wall: [] as number[], cpu: [] as number[] };
    const heaps: number[] = [];
    for (let run = 0; run < opts.runs; run += 1) {
      const started = performance.now();
      const cpuBefore = browserCpu(browser.dir);
      const opened = await openPage(browser, `run-${run}.html`, html);
      loads.push(performance.now() - started);
      firstCpu.push(cpuSince(browser.dir, cpuBefore));
      if (opened.errors.length > 0) throw new Error(`the page reported errors: ${opened.errors.join('; ')}`);
      // The page stamps its own clock (ms since navigation began) on <body> when a frame is drawn.
      drawn.push(Number(await opened.page.locator('body').getAttribute('data-drawn')));
      // Each action timed twice: wall time to the second frame after it (what a person waits for; on a
      // loaded machine mostly waiting for a CPU), and the CPU time all of Chromium's processes spent
      // over the same span (/proc: the page's own work, renderer, GPU and browser, whatever the load).
      const timed = async (into: { wall: number[]; cpu: number[] }, action: string): Promise<void> => {
        const before = browserCpu(browser.dir);
        into.wall.push(
          await opened.page.evaluate(async (what) => {
            // No named functions in here: tsx would wrap them in a __name helper the page does not have.
            const box = Array.from(document.querySelectorAll('.type-choice')).find((l) => l.querySelector('.type-name')?.textContent === 'Normal')?.querySelector('input');
            const t = performance.now();
            if (what === 'zoom') document.dispatchEvent(new KeyboardEvent('keydown', { key: '+' }));
            else if (what === 'end') window.scrollTo(0, document.documentElement.scrollHeight);
            else if (box) box.click();
            else throw new Error('no Normal type box');
            await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
            return performance.now() - t;
          }, action),
        );
        into.cpu.push(cpuSince(browser.dir, before));
      };
      await timed(zooms, 'zoom');
      // A type filter as a person makes it: a click on the Normal box; then a click to tick it again.
      await timed(untick, 'filter');
      await timed(retick, 'filter');
      // The End key's jump to the last lane, to the frame drawn there.
      await timed(jumps, 'end');
      heaps.push(await opened.page.evaluate(() => (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? 0));
      await opened.page.close();
    }
    const size = (await stat(page)).size;
    const load = loadavg()[0]?.toFixed(1);
    console.log(`-o html with ${opts.events.toLocaleString('en-US')} events about ${opts.objects.toLocaleString('en-US')} objects, ${opts.runs} runs, medians (Chromium ${browser.context.browser()?.version() ?? 'unknown'}; load average ${load}):\n`);
    console.log('| figure | value |\n| --- | ---: |');
    console.log(`| page size | ${(size / 1024 / 1024).toFixed(2)} MiB |`);
    console.log(`| \`kubectl-evtimeline --from FILE -o html\` (wall) | ${ms(median(writes))} |`);
    console.log(`| Chromium: open the file to first drawn frame | ${ms(median(loads))} |`);
    console.log(`| Chromium: navigation start to first drawn frame, by the page's clock | ${ms(median(drawn))} |`);
    console.log(`| Chromium: CPU time of its processes until then | ${ms(median(firstCpu))} |`);
    const both = (t: { wall: number[]; cpu: number[] }): string => `${ms(median(t.wall))} (CPU ${ms(median(t.cpu))})`;
    console.log(`| Chromium: zoom in, to the second frame drawn | ${both(zooms)} |`);
    console.log(`| Chromium: untick a type (Normal), to the second frame drawn | ${both(untick)} |`);
    console.log(`| Chromium: tick it again, to the second frame drawn | ${both(retick)} |`);
    console.log(`| Chromium: scroll to the page's end, to the second frame drawn | ${both(jumps)} |`);
    console.log(`| Chromium: JS heap after drawing | ${(median(heaps) / 1024 / 1024).toFixed(1)} MiB |`);
  } finally {
    await browser.close();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`bench:html failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});

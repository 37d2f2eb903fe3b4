// `npm run bench:html`: what the -o html page of N events (--events, default 20,000, about --objects
// objects, default 400, in 4 namespaces) costs: the page's size, the single executable's time to write it from a
// saved list (`--from FILE -o html`), and in Debian's headless Chromium the time from opening the
// file to the first drawn frame, the time a zoom, a type filter (untick Normal, tick it again) and a
// jump to the page's end take to the next drawn frame, and the JavaScript heap after drawing. Medians of --runs (default 5), each in a fresh page. A benchmark, not a test: it prints
// figures and judges nothing, except that it fails loudly when the page does not draw.
//
//   node --import tsx scripts/bench-html.ts [--events 20000] [--objects 400] [--runs 5] [--plugin PATH]
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { median } from './bench-measure.ts';
import { PLUGIN_BINARY } from '../test/harness/plugin.ts';
import { launchBrowser, openPage } from '../test/support/browser.ts';
import { manyEvents } from '../test/support/many-events.ts';

function parseArgs(argv: string[]): { events: number; objects: number; runs: number; plugin: string } {
  const opts = { events: 20_000, objects: 400, runs: 5, plugin: PLUGIN_BINARY };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1] ?? ''];
    if (flag === '--events') opts.events = Number(value);
    else if (flag === '--objects') opts.objects = Number(value);
    else if (flag === '--runs') opts.runs = Number(value);
    else if (flag === '--plugin') opts.plugin = value;
    else throw new Error(`unknown flag ${flag}: want --events N, --objects N, --runs N or --plugin PATH`);
  }
  return opts;
}

const ms = (value: number): string => `${Math.round(value)} ms`;

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  const dir = await mkdtemp(join(tmpdir(), 'evtimeline-bench-html-'));
  const browser = await launchBrowser();
  try {
    const list = join(dir, 'events.json');
    await writeFile(list, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: manyEvents(opts.events, opts.objects) }));
    const page = join(dir, 'timeline.html');
    const writes: number[] = [];
    for (let run = 0; run < opts.runs; run += 1) {
      const started = performance.now();
      await promisify(execFile)(opts.plugin, ['--from', list, '-o', 'html', '--output-file', page], { maxBuffer: 1 << 20 });
      writes.push(performance.now() - started);
    }
    const html = await readFile(page, 'utf8');
    const loads: number[] = [];
    const drawn: number[] = [];
    const zooms: number[] = [];
    const untick: number[] = [];
    const retick: number[] = [];
    const jumps: number[] = [];
    const heaps: number[] = [];
    for (let run = 0; run < opts.runs; run += 1) {
      const started = performance.now();
      const opened = await openPage(browser, `run-${run}.html`, html);
      loads.push(performance.now() - started);
      if (opened.errors.length > 0) throw new Error(`the page reported errors: ${opened.errors.join('; ')}`);
      // The page stamps its own clock (ms since navigation began) on <body> when a frame is drawn.
      drawn.push(Number(await opened.page.locator('body').getAttribute('data-drawn')));
      zooms.push(
        await opened.page.evaluate(async () => {
          const t = performance.now();
          document.dispatchEvent(new KeyboardEvent('keydown', { key: '+' }));
          await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
          return performance.now() - t;
        }),
      );
      // A type filter as a person makes it: a click on the Normal box, timed to the frame drawn after it.
      const [off, on] = await opened.page.evaluate(async () => {
        const box = Array.from(document.querySelectorAll('.type-choice')).find((l) => l.querySelector('.type-name')?.textContent === 'Normal')?.querySelector('input');
        if (!box) throw new Error('no Normal type box');
        // No named functions in here: tsx would wrap them in a __name helper the page does not have.
        const times: number[] = [];
        for (let i = 0; i < 2; i += 1) {
          const t = performance.now();
          box.click();
          await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
          times.push(performance.now() - t);
        }
        return times;
      });
      untick.push(off ?? NaN);
      retick.push(on ?? NaN);
      // The End key's jump to the last lane, to the frame drawn there.
      jumps.push(
        await opened.page.evaluate(async () => {
          const t = performance.now();
          window.scrollTo(0, document.documentElement.scrollHeight);
          await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
          return performance.now() - t;
        }),
      );
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
    console.log(`| Chromium: zoom in, to the next frame drawn | ${ms(median(zooms))} |`);
    console.log(`| Chromium: untick a type (Normal), to the next frame drawn | ${ms(median(untick))} |`);
    console.log(`| Chromium: tick it again, to the next frame drawn | ${ms(median(retick))} |`);
    console.log(`| Chromium: scroll to the page's end, to the next frame drawn | ${ms(median(jumps))} |`);
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

// A real headless Chromium (Debian's `chromium` package, never a downloaded browser) driven by
// playwright-core, one per test file, for the timeline page. Everything the page tries to do that a
// page of events must never do is recorded: console errors, uncaught errors, dialogs and requests
// (any request but the page's own file is aborted and counted).

import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import type { BrowserContext, Page } from 'playwright-core';
import { ROOT } from '../harness/plugin.ts';

export const CHROMIUM = process.env.EVTIMELINE_CHROMIUM ?? '/usr/bin/chromium';
/** Screenshots the tests take, kept for people to look at (git-ignored). */
export const SCREENSHOTS = join(ROOT, 'out', 'screenshots');

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  context: BrowserContext;
  /** a folder for this file's pages */
  dir: string;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`no Chromium at ${CHROMIUM}: install Debian's chromium package (apt-get install -y chromium) or set EVTIMELINE_CHROMIUM`);
  }
  const dir = await mkdtemp(join(tmpdir(), 'evtimeline-browser-'));
  // A fresh profile every run: nothing cached or remembered from another run.
  const context = await chromium.launchPersistentContext(join(dir, 'profile'), {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 1280, height: 800 },
    colorScheme: 'light',
  });
  return {
    context,
    dir,
    close: async () => {
      await context.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface OpenedPage {
  page: Page;
  url: string;
  /** console errors and uncaught exceptions */
  errors: string[];
  dialogs: string[];
  /** every request other than the page's own file */
  requests: string[];
}

/** Writes the page to a file and opens it from there, as someone who was sent the file would. */
export async function openPage(browser: Browser, name: string, html: string): Promise<OpenedPage> {
  const file = join(browser.dir, name);
  await writeFile(file, html);
  const url = pathToFileURL(file).href;
  const page = await browser.context.newPage();
  const opened: OpenedPage = { page, url, errors: [], dialogs: [], requests: [] };
  page.on('console', (m) => {
    if (m.type() === 'error') opened.errors.push(m.text());
  });
  page.on('pageerror', (e) => opened.errors.push(e.message));
  page.on('dialog', (d) => {
    opened.dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('request', (r) => {
    if (r.url() !== url) opened.requests.push(r.url());
  });
  await page.route('**/*', (route) => (route.request().url() === url ? route.continue() : route.abort()));
  await page.goto(url);
  await page.waitForSelector('body[data-drawn]');
  return opened;
}

/** Saves a screenshot (of the viewport, or `fullPage`) under out/screenshots and returns the PNG. */
export async function screenshot(page: Page, name: string, fullPage = false): Promise<Buffer> {
  await mkdir(SCREENSHOTS, { recursive: true });
  return page.screenshot({ path: join(SCREENSHOTS, name), fullPage });
}

export interface PixelStats {
  width: number;
  height: number;
  /** variance of the grey level over all pixels: 0 for a blank image */
  variance: number;
  /** distinct colours, capped at 1000 */
  colours: number;
}

interface Analysis extends PixelStats {
  /** [r, g, b] of each pixel of the row asked for, left to right */
  row: [number, number, number][];
}

/**
 * Decodes a PNG in a blank page of the same browser (no image library needed) and measures it.
 * The timeline page itself cannot load a data: image: its CSP forbids every image source.
 */
async function analyse(browser: Browser, png: Buffer, y: number): Promise<Analysis> {
  const page = await browser.context.newPage();
  try {
    return await page.evaluate(
      async ([b64, rowY]) => {
        const img = new Image();
        img.src = `data:image/png;base64,${b64}`;
        await img.decode();
        const canvas = new OffscreenCanvas(img.width, img.height);
        const ctx = canvas.getContext('2d') as OffscreenCanvasRenderingContext2D;
        ctx.drawImage(img, 0, 0);
        const { data } = ctx.getImageData(0, 0, img.width, img.height);
        // No named functions in here: tsx would wrap them in a __name helper the page does not have.
        let sum = 0;
        let sq = 0;
        const colours = new Set<number>();
        for (let i = 0; i < data.length; i += 4) {
          const r = data[i] ?? 0;
          const g = data[i + 1] ?? 0;
          const b = data[i + 2] ?? 0;
          sum += (r + g + b) / 3;
          sq += ((r + g + b) / 3) ** 2;
          if (colours.size < 1000) colours.add((r << 16) | (g << 8) | b);
        }
        const n = data.length / 4;
        const row: [number, number, number][] = [];
        const line = Math.round(rowY);
        for (let x = 0; line >= 0 && line < img.height && x < img.width; x += 1) {
          const i = (line * img.width + x) * 4;
          row.push([data[i] ?? 0, data[i + 1] ?? 0, data[i + 2] ?? 0]);
        }
        return { width: img.width, height: img.height, variance: sq / n - (sum / n) ** 2, colours: colours.size, row };
      },
      [png.toString('base64'), y] as const,
    );
  } finally {
    await page.close();
  }
}

export async function pixelStats(browser: Browser, png: Buffer): Promise<PixelStats> {
  const { width, height, variance, colours } = await analyse(browser, png, -1);
  return { width, height, variance, colours };
}

/** The colour of every pixel along row `y` of a PNG, left to right, as [r, g, b]. */
export async function pixelRow(browser: Browser, png: Buffer, y: number): Promise<[number, number, number][]> {
  return (await analyse(browser, png, y)).row;
}

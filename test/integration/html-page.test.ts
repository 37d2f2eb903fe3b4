// The lab played on the real control plane, then `kubectl evtimeline -n <ns> -o html` (the single
// executable as kubectl's plugin mechanism runs it, test/harness/plugin.ts), opened in a real
// headless Chromium: the page the README shows.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedControlPlane } from '../harness/controlplane.ts';
import { playLab } from '../harness/lab.ts';
import { labEventsAfterHungry } from '../harness/lab-shared.ts';
import { freshNamespace } from '../harness/namespace.ts';
import { evtimeline } from '../harness/plugin.ts';
import { launchBrowser, openPage, pixelStats, screenshot } from '../support/browser.ts';
import type { Browser } from '../support/browser.ts';

const controlPlane = sharedControlPlane();
let browser: Browser;
let kubeconfig = '';
let ns = '';
let outDir = '';
/** FailedScheduling events about Pod hungry: one alone on a cluster, more beside other files (lab-shared.ts). */
let failedScheduling = 0;

before(async () => {
  const cp = await controlPlane;
  kubeconfig = cp.kubeconfig;
  ns = await freshNamespace(kubeconfig, 'op-events');
  outDir = await mkdtemp(join(tmpdir(), 'evtimeline-lab-html-'));
  await playLab({ kubeconfig, namespace: ns, outDir });
  const events = await labEventsAfterHungry(cp, ns);
  failedScheduling = events.filter((e) => e.reason === 'FailedScheduling').length;
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  if (outDir !== '') await rm(outDir, { recursive: true, force: true });
});

test("the lab's page shows its story: two objects, the repeat, the Critical event and the scheduler's warning", async () => {
  const r = await evtimeline(['-n', ns, '-o', 'html'], kubeconfig);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, '');
  const opened = await openPage(browser, 'lab.html', r.stdout);
  const { page } = opened;
  assert.deepEqual(await page.locator('.lane-row .toggle').evaluateAll((els) => els.map((e) => e.firstChild?.textContent)), ['Pipeline/build-1', 'Pod/hungry']);
  const rows = await page.locator('.track-row').evaluateAll((els) =>
    els.map((e) => `${e.querySelector('.reason')?.textContent} ${e.querySelector('.badge')?.textContent}${e.querySelector('.count')?.textContent ?? ''} marks=${(e as HTMLElement).dataset.marks}`),
  );
  // The lab's step 5 patched build-1-started to count 5; step 4 wrote a Critical event; step 7's pod did
  // not fit, told once or more (marks in one pixel column count once).
  assert.deepEqual([...rows].sort().slice(1), ['ReconcileStarted Normal\u00D75 marks=1', 'ReconcileSucceeded Normal marks=1', 'StageUnknown Critical marks=1']);
  const [scheduler = ''] = [...rows].sort();
  const marks = Number(/^FailedScheduling Warning marks=(\d+)$/.exec(scheduler)?.[1]);
  assert.ok(marks >= 1 && marks <= failedScheduling, `${scheduler} of ${failedScheduling} events`);
  assert.equal(
    await page.locator('.track-row').filter({ hasText: 'FailedScheduling' }).getAttribute('aria-label'),
    `FailedScheduling, type Warning, ${failedScheduling} ${failedScheduling === 1 ? 'event' : 'events'}`,
  );
  assert.match((await page.locator('.headline').textContent()) ?? '', new RegExp(`Incident in namespace ${ns}, read from the cluster at `));
  assert.match((await page.locator('.headline').textContent()) ?? '', new RegExp(`${failedScheduling} Warnings?: FailedScheduling on Pod/hungry`));
  // As tall as the page, so the README's picture has no empty band below the lanes.
  await page.setViewportSize({ width: 1280, height: await page.evaluate(() => Math.ceil((document.getElementById('app') as HTMLElement).getBoundingClientRect().bottom) + 8) });
  await page.waitForFunction(() => Number(document.body.dataset.drawn) > 0);
  const png = await screenshot(page, 'lab.png');
  const stats = await pixelStats(browser, png);
  assert.ok(stats.variance > 100 && stats.colours > 50, JSON.stringify(stats));
  assert.deepEqual({ errors: opened.errors, dialogs: opened.dialogs, requests: opened.requests }, { errors: [], dialogs: [], requests: [] });
  await page.close();
});

test('capture writes the same page beside its reports, and --output-file writes it whole', async () => {
  const dir = join(outDir, 'capture');
  const r = await evtimeline(['capture', '-n', ns, dir], kubeconfig);
  assert.equal(r.code, 0, r.stderr);
  const opened = await openPage(browser, 'capture.html', await readFile(join(dir, 'timeline.html'), 'utf8'));
  assert.equal(await opened.page.locator('.lane').count(), 2);
  assert.equal(await opened.page.locator('#shown').textContent(), `${3 + failedScheduling} events of ${3 + failedScheduling} shown`);
  await opened.page.close();
  const file = join(outDir, 'from-capture.html');
  const replay = await evtimeline(['--from', join(dir, 'events.json'), '-o', 'html', '--output-file', file], kubeconfig);
  assert.equal(replay.code, 0, replay.stderr);
  assert.equal(replay.stdout, '');
  const again = await openPage(browser, 'replay.html', await readFile(file, 'utf8'));
  assert.match((await again.page.locator('.headline li').first().textContent()) ?? '', /read from a capture taken at /);
  assert.equal(await again.page.locator('.track-row').count(), 4);
  await again.page.close();
});

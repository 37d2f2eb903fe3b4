// The -o html page in a real headless Chromium: what a person sees on it, and what hostile event text
// cannot do to it. Pages come from the verb itself (runCli with --from, a fixed clock); one browser
// serves the whole file.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { runCli } from '../../src/cli.ts';
import { normaliseEvent } from '../../src/core/event.ts';
import type { Event } from '../../src/core/event.ts';
import { sortTimeline } from '../../src/core/timeline.ts';
import { buildPageData } from '../../src/render/html-data.ts';
import { renderTimelineHtml } from '../../src/render/html.ts';
import { ev, LAB_STABLE, labEvents, newEv, NOW } from '../support/builders.ts';
import { fakeDeps } from '../support/deps.ts';
import { manyEvents } from '../support/many-events.ts';
import { scratchDir } from '../support/tmp.ts';
import { launchBrowser, openPage, pixelRow, pixelStats, screenshot } from '../support/browser.ts';
import { timelineHtml } from '../../src/app/timeline-html.ts';
import { about, handTree, SMALL_ROLLOUT } from '../support/trees.ts';
import { fromCluster, memorySource, openSources } from '../support/sources.ts';
import { fleetSource } from '../../src/core/fleet.ts';
import type { Browser, OpenedPage } from '../support/browser.ts';

const dir = scratchDir('html');
let browser: Browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

/** The page `kubectl evtimeline --from FILE -o html ARGS` writes for these raw events, at NOW. */
async function pageFor(name: string, items: Record<string, unknown>[], args: string[] = []): Promise<string> {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
  const fake = fakeDeps();
  const code = await runCli(['--from', file, '-o', 'html', ...args], fake.deps);
  assert.equal(code, 0, fake.stderr());
  return fake.stdout();
}

async function open(name: string, items: Record<string, unknown>[], args: string[] = []): Promise<OpenedPage> {
  return openPage(browser, `${name}.html`, await pageFor(name, items, args));
}

/** Nothing ran, opened or was fetched that the page did not mean to. */
function assertQuiet(opened: OpenedPage): void {
  assert.deepEqual({ errors: opened.errors, dialogs: opened.dialogs, requests: opened.requests }, { errors: [], dialogs: [], requests: [] });
}

interface Geometry {
  left: number;
  width: number;
  start: number;
  end: number;
}

async function geometry(page: Page): Promise<Geometry> {
  return page.evaluate(() => {
    const layer = (document.querySelector('.plot-layer') as HTMLElement).getBoundingClientRect();
    const range = document.getElementById('range') as HTMLElement;
    return { left: layer.left, width: layer.width, start: Number(range.dataset.start), end: Number(range.dataset.end) };
  });
}

const xAt = (g: Geometry, ms: number): number => g.left + ((ms - g.start) / (g.end - g.start)) * g.width;

async function rowCentre(page: Page, reason: string): Promise<number> {
  const box = await page.locator('.track-row', { hasText: reason }).boundingBox();
  assert.ok(box, `no row for ${reason}`);
  return box.y + box.height / 2;
}

/** The tooltip as a person reads it: its heading, then each term with its value. */
async function tooltip(page: Page): Promise<Record<string, string>> {
  await page.locator('#tooltip').waitFor({ state: 'visible' });
  return page.evaluate(() => {
    const tip = document.getElementById('tooltip') as HTMLElement;
    const read: Record<string, string> = { heading: tip.querySelector('.tt-type')?.textContent ?? '' };
    const terms = tip.querySelectorAll('dt');
    for (const dt of Array.from(terms)) read[dt.textContent ?? ''] = dt.nextElementSibling?.textContent ?? '';
    return read;
  });
}

const visibleCount = (page: Page, selector: string): Promise<number> =>
  page.evaluate((sel) => Array.from(document.querySelectorAll(sel)).filter((e) => (e as HTMLElement).offsetParent !== null).length, selector);

const span = async (page: Page): Promise<number> => {
  const g = await geometry(page);
  return g.end - g.start;
};

const ago = (seconds: number): number => NOW - seconds * 1000;

/** The first run of blue ink (the Normal colour and its translucent bar, not the pale window shade) along row y of the plot. */
async function blueRun(page: Page, g: Geometry, y: number): Promise<number[]> {
  const row = await pixelRow(browser, await page.screenshot(), y);
  const blue = row.map(([r, , b], x) => (b - r > 40 ? x : -1)).filter((x) => x >= g.left);
  const runEnd = blue.findIndex((x, i) => i > 0 && x !== (blue[i - 1] ?? 0) + 1);
  return runEnd === -1 ? blue : blue.slice(0, runEnd);
}

/** The run of ink goes from the first occurrence's mark to the last's (each mark 4 px either side of its time). */
function assertSpan(run: number[], first: number, last: number): void {
  assert.ok(Math.abs((run[0] ?? 0) - (first - 4)) <= 2, `span starts at ${run[0]}, first seen at ${first}`);
  assert.ok(Math.abs((run.at(-1) ?? 0) - (last + 4)) <= 2, `span ends at ${run.at(-1)}, last seen at ${last}`);
}

test('the lab page: one lane per object under its namespace, a row per reason, one mark in each', async () => {
  const opened = await open('lab', labEvents(), ['-n', 'op-events']);
  const { page } = opened;
  assert.equal(await page.locator('.group-title').textContent(), 'namespace op-events \u00B7 2 objects');
  assert.deepEqual(await page.locator('.lane-row .toggle').evaluateAll((els) => els.map((e) => e.firstChild?.textContent)), ['Pipeline/build-1', 'Pod/hungry']);
  assert.deepEqual(await page.locator('.track-row .reason').allTextContents(), ['ReconcileStarted', 'StageUnknown', 'ReconcileSucceeded', 'FailedScheduling']);
  assert.deepEqual(await page.locator('.track-row').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.marks)), ['1', '1', '1', '1']);
  assert.equal(await page.locator('.headline li').first().textContent(), 'Incident in namespace op-events, read from a saved file');
  assert.match((await page.locator('.headline').textContent()) ?? '', /1 Warning: FailedScheduling on Pod\/hungry\./);
  // The unconventional type is named on its lane, on its row and in the legend.
  assert.equal(await page.locator('.lane-row', { hasText: 'Pipeline/build-1' }).locator('.badge.odd').textContent(), 'Critical');
  assert.match((await page.locator('.type-choice.odd').textContent()) ?? '', /Critical\(unconventional type: neither Normal nor Warning\)1/);
  // The legend names every mark and shade the chart uses, each with its swatch.
  const legend = await page.locator('.legend > span').evaluateAll((els) =>
    els.map((e) => ({ text: e.textContent, swatch: (e.firstElementChild as Element).getBoundingClientRect().width > 0 })),
  );
  assert.deepEqual(legend, [
    { text: 'repeated event: first to last seen, \u00D7count', swatch: true },
    { text: 'the window the events cover', swatch: true },
    { text: 'before the TTL horizon: events last written then were already deleted', swatch: true },
    { text: 'capture time', swatch: true },
  ]);
  // The window the events cover (first seen of the oldest to last seen of the newest) is shaded, and the capture time drawn.
  const g = await geometry(page);
  const shade = await page.locator('.shade.window').boundingBox();
  assert.ok(shade, 'the window is shaded');
  assert.ok(Math.abs(shade.x - xAt(g, ago(120))) <= 1.5 && Math.abs(shade.x + shade.width - xAt(g, ago(3))) <= 1.5, `window shade ${shade.x}..${shade.x + shade.width}`);
  const capture = await page.locator('.vline.capture').boundingBox();
  assert.ok(capture && Math.abs(capture.x - xAt(g, NOW)) <= 2, `capture line at ${capture?.x}, capture time at ${xAt(g, NOW)}`);
  assert.match((await page.locator('header').textContent()) ?? '', /The events cover 2026-11-30T11:58:00Z to 2026-11-30T11:59:57Z \(1m57s\)\./);
  const png = await screenshot(page, 'lab-fixture.png', true);
  const stats = await pixelStats(browser, png);
  assert.ok(stats.variance > 100 && stats.colours > 50, JSON.stringify(stats));
  assertQuiet(opened);
  await page.close();
});

// A count bumped by the legacy recorder, and an events.k8s.io series: each one span with its count.
const repeats: [string, () => Record<string, unknown>[], string, number, number, string[]][] = [
  ['a repeated event (count) is one span from its first to its last occurrence, with its count', labEvents, 'ReconcileStarted', 120, 3,
    ['5', '2026-11-30T11:58:00Z (2m00s before capture)', '2026-11-30T11:59:57Z (3s before capture)', '1m57s']],
  ['a series (events.k8s.io) is a span too, from its first to its last observation, with its count',
    () => [...labEvents(), newEv({ name: 'series-1', reason: 'Retried', seriesCount: 4, first: 100, seriesLast: 10 })], 'Retried', 100, 10,
    ['4', '2026-11-30T11:58:20Z (1m40s before capture)', '2026-11-30T11:59:50Z (10s before capture)', '1m30s']],
];
for (const [name, items, reason, firstAgo, lastAgo, told] of repeats) {
  test(name, async () => {
    const opened = await open(reason, items());
    const { page } = opened;
    assert.equal(await page.locator('.track-row', { hasText: reason }).locator('.count').textContent(), `\u00D7${told[0]}`);
    const g = await geometry(page);
    const y = await rowCentre(page, reason);
    const first = xAt(g, ago(firstAgo));
    const last = xAt(g, ago(lastAgo));
    assertSpan(await blueRun(page, g, y), first, last);
    await page.mouse.move((first + last) / 2, y);
    const tip = await tooltip(page);
    assert.deepEqual([tip.Reason, tip.Count, tip['First seen'], tip['Last seen'], tip['Repeated over']], [reason, ...told]);
    assertQuiet(opened);
    await page.close();
  });
}

test('unconventional types (Critical, empty, lower-case warning) are named on their lane, their row, beside each mark and in the type list, in a colour of their own', async () => {
  const items = [
    ev({ reason: 'Started', kind: 'Pod', apiVersion: 'v1', objectName: 'a', objectUid: 'uid-a', first: 100 }),
    ev({ reason: 'Slow', type: 'Warning', kind: 'Pod', apiVersion: 'v1', objectName: 'b', objectUid: 'uid-b', first: 80 }),
    ev({ reason: 'Exploded', type: 'Critical', kind: 'Pod', apiVersion: 'v1', objectName: 'c', objectUid: 'uid-c', first: 60 }),
    ev({ reason: 'Untyped', type: '', kind: 'Pod', apiVersion: 'v1', objectName: 'd', objectUid: 'uid-d', first: 40 }),
    ev({ reason: 'Quiet', type: 'warning', kind: 'Pod', apiVersion: 'v1', objectName: 'e', objectUid: 'uid-e', first: 20 }),
  ];
  const opened = await open('unconventional', items);
  const { page } = opened;
  const laneBadges = await page.locator('.lane-row').evaluateAll((els) => els.map((e) => [e.querySelector('.toggle')?.firstChild?.textContent, e.querySelector('.badge.odd')?.textContent ?? null]));
  assert.deepEqual(laneBadges, [['Pod/a', null], ['Pod/b', null], ['Pod/c', 'Critical'], ['Pod/d', '(empty)'], ['Pod/e', 'warning']]);
  const rowBadges = await page.locator('.track-row').evaluateAll((els) => els.map((e) => `${e.querySelector('.reason')?.textContent}:${e.querySelector('.badge')?.className}:${e.querySelector('.badge')?.textContent}`));
  assert.deepEqual(rowBadges, ['Started:badge :Normal', 'Slow:badge warning:Warning', 'Exploded:badge odd:Critical', 'Untyped:badge odd:(empty)', 'Quiet:badge odd:warning']);
  assert.deepEqual(await page.locator('.type-choice.odd').allTextContents(), [
    'Critical(unconventional type: neither Normal nor Warning)1',
    '(empty)(empty type: most tools show nothing)1',
    'warning(wrong case: not Warning, so exact filters miss it)1',
  ]);
  assert.match((await page.locator('.headline').textContent()) ?? '', /3 events have a type other than Normal or Warning/);
  // On the chart: the mark of an unconventional type is magenta, which no other type uses, and its type is written beside it.
  const g = await geometry(page);
  const png = await page.screenshot();
  const magenta = ([r, gr, b]: [number, number, number]) => r > 150 && gr < 80 && b > 80 && b < 180;
  for (const [reason, seconds, odd] of [['Started', 100, false], ['Slow', 80, false], ['Exploded', 60, true], ['Untyped', 40, true], ['Quiet', 20, true]] as const) {
    const row = await pixelRow(browser, png, await rowCentre(page, reason));
    const x = Math.round(xAt(g, ago(seconds)));
    const mark = row.slice(x - 6, x + 7);
    const beside = row.slice(x + 8, x + 60);
    assert.equal(mark.some(magenta), odd, `${reason}: mark ${odd ? '' : 'not '}magenta`);
    assert.equal(beside.some(magenta), odd, `${reason}: ${odd ? 'its type written' : 'nothing written'} beside the mark`);
  }
  assertQuiet(opened);
  await page.close();
});

test('with -A each namespace is a group of its own lanes, in order', async () => {
  const items = [
    ...labEvents(),
    ev({ namespace: 'shop', kind: 'Deployment', apiVersion: 'apps/v1', objectName: 'web', objectUid: 'uid-web', reason: 'ScalingReplicaSet', first: 600 }),
    ev({ namespace: 'shop', kind: 'Pod', apiVersion: 'v1', objectName: 'web-1', objectUid: 'uid-web-1', reason: 'BackOff', type: 'Warning', first: 20 }),
    ev({ namespace: 'kube-system', kind: 'Pod', apiVersion: 'v1', objectName: 'dns', objectUid: 'uid-dns', reason: 'Pulled', first: 50 }),
  ];
  const opened = await open('namespaces', items, ['-A']);
  const { page } = opened;
  const groups = await page.locator('section.group').evaluateAll((els) =>
    els.map((e) => [e.querySelector('.group-title')?.textContent, Array.from(e.querySelectorAll('.lane-row .toggle'), (t) => t.firstChild?.textContent)]),
  );
  assert.deepEqual(groups, [
    ['namespace kube-system \u00B7 1 object', ['Pod/dns']],
    ['namespace op-events \u00B7 2 objects', ['Pipeline/build-1', 'Pod/hungry']],
    ['namespace shop \u00B7 2 objects', ['Deployment/web', 'Pod/web-1']],
  ]);
  assert.equal(await page.locator('h1').textContent(), 'Event timeline: all namespaces');
  // Filtering away every lane of a namespace hides its group too.
  await page.locator('#reason-filter').fill('BackOff');
  assert.deepEqual(await page.locator('section.group:visible .group-title').allTextContents(), ['namespace shop \u00B7 2 objects']);
  assertQuiet(opened);
  await page.close();
});

test('hovering a mark shows its type, reason, message, reporter, count and times; the keyboard reaches it too', async () => {
  const opened = await open('tooltip', labEvents());
  const { page } = opened;
  const g = await geometry(page);
  await page.mouse.move(xAt(g, ago(45)), await rowCentre(page, 'FailedScheduling'));
  const hovered = await tooltip(page);
  assert.deepEqual(hovered, {
    heading: 'Warning',
    Reason: 'FailedScheduling',
    Object: 'Pod/hungry in op-events',
    Message: '0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.',
    Reporter: 'default-scheduler',
    Count: '1',
    'First seen': '2026-11-30T11:59:15Z (45s before capture)',
    'Last seen': '2026-11-30T11:59:15Z (45s before capture)',
    Event: 'hungry.18a1b2c3d4e5f607',
  });
  await page.mouse.move(5, 5);
  await page.locator('#tooltip').waitFor({ state: 'hidden' });
  // The keyboard tells the same: Tab to a reason row and its first event shows at once; Tab on to the next row.
  await page.getByRole('button', { name: 'Expand all' }).focus();
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.closest('.lane-row')?.querySelector('.name')?.textContent), 'Pipeline/build-1');
  await page.keyboard.press('Tab');
  assert.deepEqual([(await tooltip(page)).Reason, (await tooltip(page)).Count], ['ReconcileStarted', '5']);
  await page.keyboard.press('Tab');
  assert.equal((await tooltip(page)).Reason, 'StageUnknown');
  for (let i = 0; i < 3; i += 1) await page.keyboard.press('Tab');
  assert.deepEqual(await tooltip(page), hovered);
  // A click on a row's label focuses it too, but shows nothing: the pointer shows what it points at.
  await page.locator('.track-row', { hasText: 'ReconcileSucceeded' }).locator('.label').click();
  await page.locator('#tooltip').waitFor({ state: 'hidden' });
  assert.equal(await page.evaluate(() => document.activeElement?.querySelector('.reason')?.textContent), 'ReconcileSucceeded');
  // Left/Right step to a row's marks from there.
  await page.locator('.track-row', { hasText: 'FailedScheduling' }).focus();
  await page.keyboard.press('ArrowRight');
  assert.deepEqual(await tooltip(page), hovered);
  await page.keyboard.press('Escape');
  await page.locator('#tooltip').waitFor({ state: 'hidden' });
  await page.locator('.track-row', { hasText: 'StageUnknown' }).focus();
  await page.keyboard.press('ArrowRight');
  const tip = await tooltip(page);
  assert.deepEqual([tip.heading, tip.Reason, tip.Message], ['Critical \u2014 unconventional type: neither Normal nor Warning', 'StageUnknown', 'Stage of build-1 is not known.']);
  await page.keyboard.press('Escape');
  await page.locator('#tooltip').waitFor({ state: 'hidden' });
  assertQuiet(opened);
  await page.close();
});

test('zoom and pan change the visible range, by button, key, wheel and drag', async () => {
  const opened = await open('zoom', labEvents());
  const { page } = opened;
  const fitted = await geometry(page);
  const ticks = await page.locator('.tick').allTextContents();
  await page.getByRole('button', { name: 'Zoom in' }).click();
  assert.ok(Math.abs((await span(page)) - (fitted.end - fitted.start) / 2) <= 2);
  // The axis is redrawn at the next frame.
  await page.waitForFunction((before) => Array.from(document.querySelectorAll('.tick'), (t) => t.textContent).join() !== before, ticks.join());
  await page.keyboard.press('-');
  assert.ok(Math.abs((await span(page)) - (fitted.end - fitted.start)) <= 2);
  const y = await rowCentre(page, 'StageUnknown');
  await page.mouse.move(fitted.left + 200, y);
  await page.keyboard.down('Control');
  await page.mouse.wheel(0, -100);
  await page.keyboard.up('Control');
  await page.waitForFunction((before) => Number(document.getElementById('range')?.dataset.end) - Number(document.getElementById('range')?.dataset.start) < before, fitted.end - fitted.start);
  const zoomed = await geometry(page);
  // Zooming around the pointer keeps the time under it where it was.
  const under = fitted.start + (200 / fitted.width) * (fitted.end - fitted.start);
  assert.ok(Math.abs(xAt(zoomed, under) - (fitted.left + 200)) <= 2);
  await page.mouse.move(fitted.left + 400, y);
  await page.mouse.down();
  await page.mouse.move(fitted.left + 300, y, { steps: 4 });
  await page.mouse.up();
  const dragged = await geometry(page);
  assert.ok(dragged.start > zoomed.start, 'dragging left moves the view later in time');
  assert.ok(Math.abs(dragged.end - dragged.start - (zoomed.end - zoomed.start)) <= 2, 'a pan keeps the span');
  await page.keyboard.press('Shift+ArrowLeft');
  assert.ok((await geometry(page)).start < dragged.start);
  await page.keyboard.press('0');
  assert.deepEqual(await geometry(page), fitted);
  assertQuiet(opened);
  await page.close();
});

test('the filter hides a type and a reason; a lane collapses into one row of its marks', async () => {
  const opened = await open('filter', labEvents());
  const { page } = opened;
  assert.equal(await visibleCount(page, '.track-row'), 4);
  const normal = page.locator('.type-choice').filter({ has: page.locator('.type-name', { hasText: /^Normal$/ }) }).locator('input');
  await normal.uncheck();
  assert.deepEqual(await page.locator('.track-row:visible .reason').allTextContents(), ['StageUnknown', 'FailedScheduling']);
  assert.equal(await page.locator('#shown').textContent(), '2 events of 4 shown');
  await normal.check();
  await page.locator('#reason-filter').fill('fail');
  assert.deepEqual(await page.locator('.track-row:visible .reason').allTextContents(), ['FailedScheduling']);
  assert.equal(await visibleCount(page, '.lane'), 1);
  await page.locator('#reason-filter').fill('');
  const toggle = page.locator('.lane-row', { hasText: 'Pipeline/build-1' }).locator('.toggle');
  await toggle.click();
  assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
  assert.deepEqual(await page.locator('.track-row:visible .reason').allTextContents(), ['FailedScheduling']);
  await page.waitForFunction(() => document.querySelector('.lane-row')?.getAttribute('data-marks') === '3');
  // The collapsed lane's marks are still reached from the keyboard, in time order.
  await toggle.focus();
  await page.keyboard.press('ArrowRight');
  assert.equal((await tooltip(page)).Reason, 'ReconcileStarted');
  await page.keyboard.press('ArrowRight');
  assert.equal((await tooltip(page)).Reason, 'StageUnknown');
  // ... and skips what the filter hides.
  await normal.uncheck();
  await toggle.focus();
  await page.keyboard.press('ArrowRight');
  assert.equal((await tooltip(page)).Reason, 'StageUnknown');
  await page.keyboard.press('ArrowRight');
  assert.equal((await tooltip(page)).Reason, 'StageUnknown');
  await normal.check();
  await toggle.click();
  assert.equal(await visibleCount(page, '.track-row'), 4);
  assertQuiet(opened);
  await page.close();
});

// Events from 70 to 50 minutes before the capture, and one 10 minutes before: the horizon of the
// default TTL (1h) lies among the first, that of --event-ttl 30m between them and the last.
for (const [args, ttlMs, note] of [
  [[], 3_600_000, 'TTL horizon 2026-11-30T11:00:00Z'],
  [['--event-ttl', '30m'], 1_800_000, 'TTL horizon 2026-11-30T11:30:00Z'],
] as [string[], number, string][]) {
  test(`the TTL horizon (${note}${args.length === 0 ? ', the default 1h' : `, ${args.join(' ')}`}) and everything before it is shaded where the story may have been cut`, async () => {
    const opened = await open('ttl', [ev({ reason: 'Old', first: 4200, last: 3000, count: 9 }), ev({ reason: 'Late', first: 600 })], args);
    const { page } = opened;
    const g = await geometry(page);
    const shade = await page.locator('.shade.ttl').boundingBox();
    assert.ok(shade, 'the TTL shade is shown');
    const horizon = xAt(g, NOW - ttlMs);
    assert.ok(Math.abs(shade.x + shade.width - horizon) <= 1.5, `shade ends at ${shade.x + shade.width}, horizon at ${horizon}`);
    assert.ok(shade.x <= g.left + 1);
    assert.equal(await page.locator('.axis-note.ttl').textContent(), note);
    // What a person sees: hatching left of the horizon, none right of it, in an empty stretch of a row.
    const row = await pixelRow(browser, await page.screenshot(), await rowCentre(page, 'Late'));
    const differs = (a: number, b: number) => row.slice(Math.round(a), Math.round(b)).some((p, i, all) => i > 0 && p.join() !== all[i - 1]?.join());
    assert.equal(differs(g.left + 4, horizon - 4), true, 'hatched before the horizon');
    assert.equal(differs(horizon + 4, horizon + 60), false, 'plain after it');
    assertQuiet(opened);
    await page.close();
  });
}

test('light, dark and print', async () => {
  const opened = await open('themes', labEvents());
  const { page } = opened;
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.equal(await background(), 'rgb(255, 255, 255)');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForFunction(() => getComputedStyle(document.body).backgroundColor === 'rgb(13, 17, 23)');
  const dark = await pixelStats(browser, await screenshot(page, 'lab-fixture-dark.png'));
  assert.ok(dark.variance > 100, JSON.stringify(dark));
  await page.getByRole('button', { name: 'Theme: auto' }).click();
  assert.equal(await background(), 'rgb(255, 255, 255)', 'the theme button picks light over a dark system');
  // A short window shows some rows only, so the canvas on screen covers those.
  await page.setViewportSize({ width: 1280, height: 560 });
  // Runs in the page: does the marks canvas cover exactly the rows?
  const coversRows = () => {
    const canvas = (document.querySelector('canvas.marks') as HTMLElement).getBoundingClientRect();
    const rows = (document.querySelector('.rows') as HTMLElement).getBoundingClientRect();
    return Math.abs(canvas.top - rows.top) < 1 && Math.abs(canvas.bottom - rows.bottom) < 1;
  };
  const covered = () => page.evaluate(coversRows);
  await page.waitForFunction(() => (document.querySelector('canvas.marks') as HTMLElement).getBoundingClientRect().bottom <= innerHeight + 1);
  assert.equal(await covered(), false);
  await page.emulateMedia({ media: 'print' });
  assert.equal(await page.getByRole('button', { name: 'Zoom in' }).isVisible(), false);
  assert.equal(await visibleCount(page, '.track-row'), 4);
  // On screen a lane out of view is not laid out; on paper every lane is.
  assert.deepEqual(await page.locator('.lane').evaluateAll((els) => els.map((e) => getComputedStyle(e).contentVisibility)), ['visible', 'visible']);
  // On paper the marks cover every row, not just those that were on screen. The page redraws for
  // print on its next frame, so wait for it (this fails after the wait if it never happens).
  await page.waitForFunction(coversRows);
  assert.equal(await covered(), true);
  const pdf = await page.pdf();
  assert.ok(pdf.length > 10_000, `a printed page of ${pdf.length} bytes`);
  assertQuiet(opened);
  await page.close();
});

/** The page of these events as a live read with object lookups would make it: each event's object gone or a previous incarnation. */
function openWithStanding(name: string, raw: Record<string, unknown>[], incarnation: (ev: Event) => 'gone' | 'previous'): Promise<OpenedPage> {
  const data = buildPageData(sortTimeline(raw.map(normaliseEvent)), {
    scope: 'namespace op-events',
    headline: [],
    capturedAt: NOW,
    eventTTLms: 3_600_000,
    standing: (ev) => ({ incarnation: incarnation(ev) }),
  });
  return openPage(browser, `${name}.html`, renderTimelineHtml(data));
}

test('a lane about a deleted object, or an earlier one of the same name, says so (a live lookup)', async () => {
  const opened = await openWithStanding('incarnations', labEvents(), (ev) => (ev.object.kind === 'Pod' ? 'gone' : 'previous'));
  const { page } = opened;
  assert.deepEqual(await page.locator('.lane-row .badge.incarnation').allTextContents(), ['previous incarnation', 'gone']);
  await page.locator('.track-row', { hasText: 'FailedScheduling' }).focus();
  await page.keyboard.press('ArrowRight');
  assert.equal((await tooltip(page)).Object, 'Pod/hungry in op-events (gone: no such object now)');
  assertQuiet(opened);
  await page.close();
});

test('a long name or reason is cut short, never the badges after it: the type, gone, previous incarnation', async () => {
  // Names as long as the API allows: a Pod of a long Deployment's ReplicaSet, a reason of 128 characters.
  const longName = `checkout-${'payments-'.repeat(5)}5694fc8c57-qcr4s`;
  const longReason = `Failed${'AndRetried'.repeat(12)}`.slice(0, 128);
  const raw = [
    ev({ kind: 'Pod', apiVersion: 'v1', objectName: longName, objectUid: 'uid-long', reason: longReason, type: 'Critical', first: 50 }),
    ev({ kind: 'Pod', apiVersion: 'v1', objectName: `${longName}x`, objectUid: 'uid-long-2', reason: 'BackOff', type: 'Warning', first: 40 }),
  ];
  const opened = await openWithStanding('long-names', raw, (e) => (e.object.uid === 'uid-long' ? 'gone' : 'previous'));
  const { page } = opened;
  // Each badge lies wholly inside its label's visible box; the name or reason before it is the one cut (ellipsis).
  const seen = await page.locator('.row > .label').evaluateAll((labels) =>
    labels.map((label) => {
      const box = label.getBoundingClientRect();
      const cut = label.querySelector('.name, .reason') as HTMLElement;
      return {
        badges: Array.from(label.querySelectorAll('.badge'), (b) => {
          const r = b.getBoundingClientRect();
          return `${b.textContent}${r.width > 0 && r.left >= box.left && r.right <= box.right ? '' : ' (hidden)'}`;
        }),
        cut: cut.scrollWidth > cut.clientWidth,
        whole: cut.title === cut.textContent,
      };
    }),
  );
  assert.deepEqual(seen, [
    { badges: ['Critical', 'gone'], cut: true, whole: true },
    { badges: ['Critical'], cut: true, whole: true },
    { badges: ['previous incarnation'], cut: true, whole: true },
    { badges: ['Warning'], cut: false, whole: true },
  ]);
  assertQuiet(opened);
  await page.close();
});

test('with --tree the lanes come owner first, each indented under its owner with a connector; a gone member is marked', async () => {
  // The second ReplicaSet is an owner no event is about: its lane holds no marks, and what it owns hangs under it.
  const tree = handTree(SMALL_ROLLOUT);
  const raw = [
    about('Pod', 'web-7c9d8f6b5-m4x7q', 90, { type: 'Warning', reason: 'FailedScheduling', component: 'default-scheduler' }),
    about('Pod', 'web-5d4f7c9b8-b7fzw', 80, { type: 'Warning', reason: 'FailedScheduling', component: 'default-scheduler' }),
    about('Pod', 'web-5d4f7c9b8-x2k4q', 70, { reason: 'Scheduled', component: 'default-scheduler' }),
    about('Deployment', 'web', 60, { reason: 'ScalingReplicaSet', component: 'deployment-controller' }),
    about('ReplicaSet', 'web-5d4f7c9b8', 50, { reason: 'SuccessfulCreate', component: 'replicaset-controller' }),
  ];
  const html = timelineHtml({ provenance: fromCluster(), events: sortTimeline(raw.map(normaliseEvent)), now: NOW, eventTTLms: 3_600_000, tree });
  const opened = await openPage(browser, 'tree.html', html);
  const { page } = opened;
  const lanes = await page.locator('.lane').evaluateAll((els) =>
    els.map((e) => {
      const toggle = e.querySelector('.lane-row .toggle') as HTMLElement;
      const connector = e.querySelector('.lane-row .connector') as HTMLElement | null;
      return {
        name: toggle.firstChild?.textContent,
        x: Math.round(toggle.getBoundingClientRect().left),
        y: Math.round(toggle.getBoundingClientRect().top),
        connector: connector === null ? null : { text: connector.textContent, shown: connector.getBoundingClientRect().width > 0 },
        label: e.getAttribute('aria-label'),
        gone: (() => {
          const badge = e.querySelector('.lane-row .badge.incarnation');
          // shown in full, not cut off at the label's edge
          return badge !== null && badge.getBoundingClientRect().right <= toggle.getBoundingClientRect().right ? badge.textContent : null;
        })(),
        // the name is not cut short by the indentation (the counts after it may be)
        whole: (() => {
          const range = document.createRange();
          range.selectNodeContents(toggle.firstChild as Node);
          return range.getBoundingClientRect().right <= toggle.getBoundingClientRect().right;
        })(),
      };
    }),
  );
  assert.deepEqual(
    lanes.map((l) => l.name),
    ['Deployment/web', 'ReplicaSet/web-5d4f7c9b8', 'Pod/web-5d4f7c9b8-x2k4q', 'Pod/web-5d4f7c9b8-b7fzw', 'ReplicaSet/web-7c9d8f6b5', 'Pod/web-7c9d8f6b5-m4x7q'],
  );
  // Top to bottom in that order, each member further right than its owner, siblings level.
  assert.ok(lanes.every((l, i) => i === 0 || l.y > (lanes[i - 1]?.y ?? Infinity)), JSON.stringify(lanes));
  const [deploy, rs1, pod1, pod2, rs2, pod3] = lanes.map((l) => l.x) as [number, number, number, number, number, number];
  assert.ok(deploy < rs1 && rs1 < pod1 && pod1 === pod2 && rs1 === rs2 && pod3 === pod1, JSON.stringify(lanes));
  assert.deepEqual(lanes.map((l) => l.connector?.shown ?? false), [false, true, true, true, true, true]);
  assert.ok(lanes.every((l) => l.whole), JSON.stringify(lanes));
  // ├─ while the owner has more below, └─ for its last.
  assert.deepEqual(lanes.map((l) => l.connector?.text ?? null), [null, '\u251C\u2500 ', '\u251C\u2500 ', '\u2514\u2500 ', '\u2514\u2500 ', '\u2514\u2500 ']);
  assert.equal(lanes[3]?.label, 'Pod/web-5d4f7c9b8-b7fzw, owned by ReplicaSet/web-5d4f7c9b8');
  assert.deepEqual(lanes.map((l) => l.gone), [null, null, null, 'gone', null, null]);
  // The track rows of a member are indented with it.
  const trackX = async (reason: string, lane: string) =>
    (await page.locator('.lane', { has: page.locator('.lane-row', { hasText: lane }) }).locator('.track-row .reason', { hasText: reason }).boundingBox())?.x ?? NaN;
  assert.ok((await trackX('ScalingReplicaSet', 'Deployment/web')) < (await trackX('SuccessfulCreate', 'ReplicaSet/web-5d4f7c9b8')));
  assert.ok((await trackX('SuccessfulCreate', 'ReplicaSet/web-5d4f7c9b8')) < (await trackX('Scheduled', 'Pod/web-5d4f7c9b8-x2k4q')));
  assert.match((await page.locator('.headline').textContent()) ?? '', /The tree of Deployment\/web: 2 ReplicaSets, 3 Pods \(1 gone\)\./);
  await screenshot(page, 'tree.png', true);
  // Warnings only: the owner with no events stays while its Pod shows; the Normal-only Pod and owners go.
  const normal = page.locator('.type-choice').filter({ has: page.locator('.type-name', { hasText: /^Normal$/ }) }).locator('input');
  await normal.uncheck();
  const shown = async () => page.locator('.lane:visible .lane-row .toggle').evaluateAll((els) => els.map((e) => e.firstChild?.textContent));
  assert.deepEqual(await shown(), ['Deployment/web', 'ReplicaSet/web-5d4f7c9b8', 'Pod/web-5d4f7c9b8-b7fzw', 'ReplicaSet/web-7c9d8f6b5', 'Pod/web-7c9d8f6b5-m4x7q']);
  await page.locator('#reason-filter').fill('nothing-matches');
  assert.deepEqual(await shown(), []);
  assertQuiet(opened);
  await page.close();
});

test('a saved stable table, which carries no times, gives its lanes and says why they hold no marks', async () => {
  const table = join(dir, 'timeline.txt');
  writeFileSync(table, LAB_STABLE);
  const fake = fakeDeps();
  assert.equal(await runCli(['--from', table, '-o', 'html'], fake.deps), 0, fake.stderr());
  const opened = await openPage(browser, 'stable.html', fake.stdout());
  const { page } = opened;
  assert.deepEqual(await page.locator('.track-row .reason').allTextContents(), ['StageUnknown', 'ReconcileStarted', 'ReconcileSucceeded', 'FailedScheduling']);
  assert.deepEqual(await page.locator('.track-row').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.marks)), ['0', '0', '0', '0']);
  assert.match((await page.locator('header').textContent()) ?? '', /4 events carry no time and are listed without marks\./);
  assertQuiet(opened);
  await page.close();
});

const SENTINEL = 'window.__evtimelinePwned';
const HOSTILE = {
  script: `</script><script>${SENTINEL}=1;alert(1)</script>`,
  img: `<img src=x onerror="${SENTINEL}=2;alert(2)">`,
  js: `javascript:${SENTINEL}=3;alert(3)`,
  svg: `</svg><svg onload="${SENTINEL}=4"><image href="http://127.0.0.1:9/x.png"/>`,
  separators: 'line\u2028separator\u2029paragraph',
  bidi: 'abc\u202Edcba\u202C tail \u2066isolate\u2069',
  comment: `<!-- <script>${SENTINEL}=5</script> -->`,
};

test('hostile event text runs no script, opens no dialog, makes no request, and is shown literally', async () => {
  const items = [
    ev({ reason: HOSTILE.script, message: `${HOSTILE.img} ${HOSTILE.separators}`, kind: HOSTILE.js, objectName: HOSTILE.svg, type: HOSTILE.img, component: HOSTILE.comment, first: 30 }),
    ev({ reason: 'Bidi', message: HOSTILE.bidi, kind: 'Pod', objectName: HOSTILE.bidi, objectUid: 'bidi', name: HOSTILE.script, first: 20, count: 3, last: 10 }),
  ];
  const opened = await open('hostile', items);
  const { page } = opened;
  assert.equal(await page.evaluate(() => (window as unknown as Record<string, unknown>).__evtimelinePwned), undefined);
  assert.equal(await page.locator('script').count(), 2);
  assert.equal(await page.locator('main img, main iframe, main object, main embed, main a[href]').count(), 0);
  const lanes = await page.locator('.lane-row .toggle').evaluateAll((els) => els.map((e) => e.firstChild?.textContent));
  assert.deepEqual(lanes, [`${HOSTILE.js}/${HOSTILE.svg}`, 'Pod/abc\\u202edcba\\u202c tail \\u2066isolate\\u2069']);
  assert.deepEqual(await page.locator('.track-row .reason').allTextContents(), [HOSTILE.script, 'Bidi']);
  assert.equal(await page.locator('.track-row .badge').first().textContent(), HOSTILE.img);
  await page.locator('.track-row').first().focus();
  await page.keyboard.press('ArrowRight');
  const tip = await tooltip(page);
  assert.deepEqual([tip.Message, tip.Reporter], [`${HOSTILE.img} line\\u2028separator\\u2029paragraph`, HOSTILE.comment]);
  await page.locator('.track-row').nth(1).focus();
  await page.keyboard.press('ArrowRight');
  const bidi = await tooltip(page);
  assert.deepEqual([bidi.Message, bidi.Event], ['abc\\u202edcba\\u202c tail \\u2066isolate\\u2069', HOSTILE.script]);
  assert.equal(await page.evaluate(() => (window as unknown as Record<string, unknown>).__evtimelinePwned), undefined);
  assertQuiet(opened);
  await page.close();
});

test('a page of 20,000 events loads, draws and still answers zoom and hover', async () => {
  const html = await pageFor('big', manyEvents(20_000));
  const started = performance.now();
  const opened = await openPage(browser, 'big.html', html);
  const loaded = performance.now() - started;
  const { page } = opened;
  const drawnAt = Number(await page.locator('body').getAttribute('data-drawn'));
  process.stderr.write(`20,000-event page: ${(html.length / 1024 / 1024).toFixed(2)} MiB; Chromium loaded and drew it in ${Math.round(loaded)} ms (page clock at first draw: ${drawnAt} ms)\n`);
  assert.equal(await page.locator('#shown').textContent(), '20,000 events of 20,000 shown');
  // Four namespaces of 100 objects: the first at the top, the last at the page's end.
  assert.equal(await page.locator('.group-title').first().textContent(), 'namespace team-0 \u00B7 100 objects');
  await scrollTo(page, 'end');
  await page.locator('.group-title', { hasText: 'namespace team-3 \u00B7 100 objects' }).waitFor({ state: 'visible' });
  await scrollTo(page, 'top');
  await page.locator('.group-title', { hasText: 'namespace team-0 \u00B7 100 objects' }).waitFor({ state: 'visible' });
  const marks = await page.locator('.track-row[data-marks]').evaluateAll((els) => els.map((e) => Number((e as HTMLElement).dataset.marks)));
  assert.ok(marks.length > 5 && marks.every((n) => n > 0), `drawn rows: ${marks.length}`);
  const stats = await pixelStats(browser, await screenshot(page, 'big-20000.png'));
  assert.ok(stats.variance > 100 && stats.colours > 50, JSON.stringify(stats));
  const before = await span(page);
  await page.keyboard.press('+');
  assert.ok(Math.abs((await span(page)) - before / 2) <= 2);
  await page.locator('.track-row').first().focus();
  await page.keyboard.press('ArrowRight');
  assert.match((await tooltip(page)).Message ?? '', /^Message \d+ about obj-\d+/);
  assertQuiet(opened);
  await page.close();
});

/**
 * Scrolls the page to its top or its end at once, as a drag of the scrollbar does (the Home and End
 * keys animate the scroll: a wait for a row met on the way could end before the page gets there).
 */
async function scrollTo(page: Page, where: 'top' | 'end'): Promise<void> {
  await page.evaluate((end) => window.scrollTo({ top: end ? document.documentElement.scrollHeight : 0, behavior: 'instant' }), where === 'end');
}

/** The lane names on screen (below the sticky axis, above the window's bottom), top to bottom. */
async function lanesOnScreen(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const axisBottom = (document.querySelector('.axis-row') as HTMLElement).getBoundingClientRect().bottom;
    return Array.from(document.querySelectorAll('.lane-row'))
      .map((row) => ({ box: row.getBoundingClientRect(), name: row.querySelector('.name')?.textContent ?? '' }))
      .filter(({ box }) => box.top >= axisBottom && box.bottom <= innerHeight)
      .sort((a, b) => a.box.top - b.box.top)
      .map(({ name }) => name);
  });
}

test('a page of 20,000 events about as many objects: rows appear where they lie when scrolled to, marked and readable', async () => {
  // The last object's name is hostile: a row made on scrolling is escaped as the first ones are.
  const items = [...manyEvents(20_000, 20_000), ev({ name: 'last', namespace: 'team-3', kind: HOSTILE.js, objectName: HOSTILE.img, objectUid: 'hostile', reason: HOSTILE.script, message: HOSTILE.svg, first: 30 })];
  const opened = await openPage(browser, 'many-lanes.html', await pageFor('many-lanes', items));
  const { page } = opened;
  assert.equal(await page.locator('#shown').textContent(), '20,001 events of 20,001 shown');
  // The page is as long as all its rows (one lane and one reason row per object, four namespace titles): its scrollbar says so.
  const tall = await page.evaluate(() => document.documentElement.scrollHeight);
  assert.ok(tall >= 20_001 * (26 + 22) + 4 * 30, `the page is ${tall} px`);
  // In the data's order: the first lanes on screen at the top, consecutive lanes anywhere the page is scrolled to.
  const order = await page.evaluate(() => {
    const data = JSON.parse(document.getElementById('timeline-data')?.textContent ?? '{}') as { lanes: { kind: string; name: string }[]; groups: { lanes: number[] }[] };
    return data.groups.flatMap((g) => g.lanes.map((l) => `${data.lanes[l]?.kind}/${data.lanes[l]?.name}`));
  });
  const top = await lanesOnScreen(page);
  assert.ok(top.length >= 3, `${top.length} lanes on screen`);
  assert.deepEqual(top, order.slice(0, top.length));
  await page.mouse.move(640, 500);
  for (const fraction of [0.5, 0.93]) {
    await page.evaluate((f) => window.scrollTo(0, document.documentElement.scrollHeight * f), fraction);
    await page.waitForFunction(() => Array.from(document.querySelectorAll('.track-row')).some((r) => r.getBoundingClientRect().top > innerHeight / 2 && r.getBoundingClientRect().bottom < innerHeight && (r as HTMLElement).dataset.marks === '1'));
    const seen = await lanesOnScreen(page);
    const at = order.indexOf(seen[0] ?? '');
    assert.ok(seen.length >= 5 && at > 0, `scrolled to ${fraction}: ${seen.join(', ')}`);
    assert.deepEqual(seen, order.slice(at, at + seen.length), `scrolled to ${fraction}: consecutive lanes`);
  }
  // The end of the page: the last lane, its hostile name shown literally, its mark drawn in its row at its time.
  await scrollTo(page, 'end');
  const lastName = `${HOSTILE.js}/${HOSTILE.img}`;
  assert.equal(order.at(-1), lastName);
  const lastLane = page.locator('.lane').filter({ has: page.locator('.lane-row .name', { hasText: HOSTILE.img }) });
  await lastLane.waitFor({ state: 'visible' });
  assert.equal((await lanesOnScreen(page)).at(-1), lastName);
  const last = lastLane.locator('.track-row');
  assert.equal(await last.locator('.reason').textContent(), HOSTILE.script);
  await page.waitForFunction(() => Array.from(document.querySelectorAll('.track-row')).at(-1)?.getAttribute('data-marks') === '1');
  await lastLane.locator('.lane-row .toggle').focus();
  await page.keyboard.press('Tab');
  const tip = await tooltip(page);
  assert.equal(tip.Message, HOSTILE.svg);
  assert.equal(tip.Object, `${lastName} in team-3`);
  const g = await geometry(page);
  const x = Math.round(xAt(g, Date.parse((tip['First seen'] ?? '').split(' ')[0] ?? '')));
  const box = await last.boundingBox();
  assert.ok(box && box.y > 0 && box.y + box.height <= 800, `the last row on screen: ${JSON.stringify(box)}`);
  const row = await pixelRow(browser, await page.screenshot(), box.y + box.height / 2);
  const ink = ([r, gr, b]: [number, number, number]) => r + gr + b < 600;
  assert.equal(row.slice(x - 4, x + 5).some(ink), true, `a mark at x=${x} in the last row`);
  // Collapse all: one row per lane, drawn in place too.
  // (by its text: asking for a role makes Playwright name each lane button)
  await page.keyboard.press('Escape');
  await page.locator('.controls button:text-is("Collapse all")').click();
  await scrollTo(page, 'end');
  await lastLane.waitFor({ state: 'visible' });
  await page.waitForFunction(() => Array.from(document.querySelectorAll('.lane-row')).at(-1)?.getAttribute('data-marks') === '1');
  assert.equal(await lastLane.locator('.track-row').count(), 0, 'a collapsed lane shows no reason rows');
  // A type filter: only the lanes with a Warning left, the view back at the top.
  await page.locator('.controls button:text-is("Expand all")').click();
  for (const name of ['Normal', 'Critical', 'warning', '(empty)']) {
    await page.locator('.type-choice').filter({ has: page.locator('.type-name', { hasText: new RegExp(`^${name.replace(/[()]/g, '\\$&')}$`) }) }).locator('input').uncheck();
  }
  await scrollTo(page, 'top');
  assert.equal(await page.locator('#shown').textContent(), '2,857 events of 20,001 shown');
  await page.waitForFunction(() => Array.from(document.querySelectorAll('.track-row')).some((r) => r.getBoundingClientRect().bottom < innerHeight && (r as HTMLElement).dataset.marks === '1'));
  const badges = await page.locator('.track-row .badge').evaluateAll((els) => [...new Set(els.map((e) => e.textContent))]);
  assert.deepEqual(badges, ['Warning']);
  assert.equal(await page.evaluate(() => (window as unknown as Record<string, unknown>).__evtimelinePwned), undefined);
  assertQuiet(opened);
  await page.close();
});

// ---- times far from the capture (issue 28, H2) ----------------------------------------------------
// Anyone who may create events can date one 3000-01-01 (the API server and kubectl events accept it).

/** The axis labels as drawn: their text and where each begins and ends on screen, left to right. */
async function axisLabels(page: Page): Promise<{ text: string; left: number; right: number }[]> {
  await page.waitForFunction(() => document.body.dataset.drawn !== undefined);
  return page.evaluate(() =>
    Array.from(document.querySelectorAll('.tick'), (t) => {
      const box = t.getBoundingClientRect();
      return { text: t.textContent ?? '', left: box.left, right: box.right };
    }).sort((a, b) => a.left - b.left),
  );
}

/** Readable: a handful of labels, none over another. */
function assertReadable(labels: { text: string; left: number; right: number }[], what: string): void {
  assert.ok(labels.length >= 2 && labels.length <= 16, `${what}: ${labels.length} axis labels`);
  labels.forEach((l, i) => {
    const next = labels[i + 1];
    if (next !== undefined) assert.ok(l.right + 4 <= next.left, `${what}: "${l.text}" runs into "${next.text}"`);
  });
}

const secondsBefore = (iso: string): number => (NOW - Date.parse(iso)) / 1000;

for (const far of ['2100-06-01T00:00:00Z', '2300-01-01T00:00:00Z', '3000-01-01T00:00:00Z', '9999-12-31T23:59:59Z', '1970-01-01T00:00:01Z', '2001-01-01T00:00:00Z']) {
  test(`an event dated ${far} is told and drawn at the edge, not to scale; the others keep the view and the axis stays readable`, async () => {
    const opened = await open(`far-${far.slice(0, 4)}`, [ev({ reason: 'Near', first: 600, last: 300, count: 3 }), ev({ reason: 'Far', first: secondsBefore(far) })]);
    const { page } = opened;
    const facts = (await page.locator('.facts').allTextContents()).join(' ');
    assert.match(facts, new RegExp(`1 event is dated far from the capture \\(${far}\\): it is drawn at the (left|right) edge, not to scale`));
    const g = await geometry(page);
    assert.ok(g.start >= NOW - 3_600_000 && g.end <= NOW + 3_600_000, `the view stays around the capture: ${new Date(g.start).toISOString()} to ${new Date(g.end).toISOString()}`);
    assertReadable(await axisLabels(page), 'fitted');
    assert.equal(await page.locator('.track-row', { hasText: 'Far' }).getAttribute('data-marks'), '1', 'the far event has its mark');
    await screenshot(page, `far-${far.slice(0, 4)}.png`);
    // Its tooltip tells the real time.
    await page.locator('.track-row', { hasText: 'Far' }).focus();
    assert.equal((await tooltip(page))['First seen']?.startsWith(far), true);
    // Zoomed out as far as the page goes: still a handful of labels, and no view of the far time.
    for (let i = 0; i < 12; i += 1) await page.keyboard.press('-');
    assertReadable(await axisLabels(page), 'zoomed out');
    assertQuiet(opened);
    await page.close();
  });
}

test('a repeat since years before the capture is drawn to scale, with year labels that stay readable', async () => {
  const opened = await open('years', [ev({ reason: 'BackOff', first: secondsBefore('2019-03-01T00:00:00Z'), last: 60, count: 90_000 })]);
  const { page } = opened;
  const labels = await axisLabels(page);
  assertReadable(labels, 'seven years');
  assert.ok(labels.every((l) => /^\d{4}$/.test(l.text)), labels.map((l) => l.text).join(' '));
  assert.match((await page.locator('.facts').allTextContents()).join(' '), /^(?!.*not to scale)/);
  assertQuiet(opened);
  await page.close();
});

test('Show TTL horizon with the largest --event-ttl (2562047h, 292 years) gives a readable axis of years', async () => {
  const opened = await open('ttl-huge', [ev({ reason: 'Near', first: 600 })], ['--event-ttl', '2562047h']);
  const { page } = opened;
  await page.getByRole('button', { name: 'Show TTL horizon' }).click();
  await page.waitForFunction(() => Number(document.getElementById('range')?.dataset.start) < Date.parse('1800-01-01T00:00:00Z'));
  // The axis is redrawn at the next frame after the range changes (a loaded machine showed the old
  // minutes between the two): wait until its labels are years, failing at the timeout if they never are.
  await page.waitForFunction(() => {
    const ticks = Array.from(document.querySelectorAll('.tick'));
    return ticks.length > 0 && ticks.every((t) => /^\d{4}$/.test(t.textContent ?? ''));
  });
  const labels = await axisLabels(page);
  assertReadable(labels, '292 years');
  assert.ok(labels.every((l) => /^\d{4}$/.test(l.text)), labels.map((l) => l.text).join(' '));
  assert.equal(await page.locator('.axis-note.ttl').textContent(), `TTL horizon ${new Date(NOW - 2562047 * 3_600_000).toISOString().replace('.000Z', 'Z')}`);
  assertQuiet(opened);
  await page.close();
});

test('the causes stand above the lanes, each linked to its events: a click shows the event on the timeline', async () => {
  const hostile = ev({ kind: 'Pod', apiVersion: 'v1', objectName: 'evil', objectUid: 'uid-evil', type: 'Warning', reason: 'FailedScheduling', component: 'default-scheduler', message: '0/1 nodes are available: 1 Insufficient cpu\u001b[31m\u202e.', first: 30 });
  const opened = await open('causes', [...labEvents(), hostile]);
  const { page } = opened;
  const causes = await page.locator('.why .cause').evaluateAll((els) => els.map((e) => e.firstChild?.textContent));
  assert.deepEqual(causes, [
    'Pod/evil: cannot be scheduled: 0/1 nodes are available: 1 Insufficient cpu^[[31m\\u202e.',
    'Pod/hungry: cannot be scheduled: 0/1 nodes are available: 1 Insufficient cpu.',
  ]);
  // Above the lanes: the Why comes before the first lane in the page.
  const order = await page.evaluate(() => {
    const why = document.querySelector('.why') as Element;
    const lane = document.querySelector('.lane-row') as Element;
    return why.compareDocumentPosition(lane) & Node.DOCUMENT_POSITION_FOLLOWING;
  });
  assert.ok(order > 0);
  await page.locator('.why .cause').nth(1).locator('.cause-event').click();
  const tip = await tooltip(page);
  assert.deepEqual([tip.Reason, tip.Object], ['FailedScheduling', 'Pod/hungry in op-events']);
  assertQuiet(opened);
});

// Issue 28, L8: the headline is the incident account's (the terminal escaper's `^[`); the lanes, rows
// and tooltips write a control character the same way, so one character reads alike all over the page.
test('a control character reads the same in the headline and in the lanes: ESC as ^[, as the terminal shows it', async () => {
  const opened = await open('controls', [ev({ type: 'Warning', kind: 'ReplicaSet\u001b[31mRS', objectName: 'web\u0007', reason: 'Scaled\u007f', message: 'a\rb', first: 30 })]);
  const { page } = opened;
  const headline = (await page.locator('.headline li').allTextContents()).join('\n');
  assert.match(headline, /ReplicaSet\^\[\[31mRS\/web\^G/);
  assert.equal(await page.locator('.lane-row .toggle .name').textContent(), 'ReplicaSet^[[31mRS/web^G');
  assert.equal(await page.locator('.track-row .reason').textContent(), 'Scaled^?');
  await page.locator('.track-row').first().focus();
  assert.equal((await tooltip(page)).Message, 'a\\rb');
  assert.doesNotMatch(await page.locator('main').innerText(), /\\u001b|\\u0007/);
  assertQuiet(opened);
  await page.close();
});

test('several contexts: a group of lanes per cluster and namespace, titled with its context; the same Pod name in two clusters is two lanes', async () => {
  const member = (context: string, raw: Record<string, unknown>[]) => {
    const server = `https://${context.replace(/[^a-z]/g, '')}.example:6443`;
    return { context, server, namespace: 'shop', source: memorySource({ provenance: fromCluster({ context, server, namespace: 'shop' }), raw }) };
  };
  const pod = (objectUid: string, reason: string, first: number) => ev({ namespace: 'shop', kind: 'Pod', apiVersion: 'v1', objectName: 'web-1', objectUid, reason, type: 'Warning', first });
  const live = fleetSource([member('east', [pod('uid-east', 'BackOff', 300)]), member('west\x1b[1m', [pod('uid-west', 'FailedScheduling', 200), ev({ namespace: 'shop', kind: 'Deployment', apiVersion: 'apps/v1', objectName: 'web', objectUid: 'uid-web', reason: 'ScalingReplicaSet', first: 400 })])]);
  const fake = fakeDeps({ openSource: openSources({ live }).open, now: NOW });
  assert.equal(await runCli(['--context', 'east,west', '-o', 'html'], fake.deps), 0, fake.stderr());
  const opened = await openPage(browser, 'fleet.html', fake.stdout());
  const { page } = opened;
  const groups = await page.locator('section.group').evaluateAll((els) =>
    els.map((e) => [e.querySelector('.group-title')?.textContent, Array.from(e.querySelectorAll('.lane-row .toggle'), (t) => t.firstChild?.textContent)]),
  );
  assert.deepEqual(groups, [
    ['context east \u00B7 namespace shop \u00B7 1 object', ['Pod/web-1']],
    ['context west^[[1m \u00B7 namespace shop \u00B7 2 objects', ['Deployment/web', 'Pod/web-1']],
  ]);
  assertQuiet(opened);
  await page.close();
});

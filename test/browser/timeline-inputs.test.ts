// -o html from every input the timeline reads, and with every filter, opened in a real headless
// Chromium: each saved format (a capture's folder and its events.json, a record, a plain list, stdin,
// a stable table, a collector's OTLP file) gives the page of the same story, and a filter leaves on the
// page only what it selects. The live cluster's page is test/integration/html-page.test.ts.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../src/cli.ts';
import { formatObservation } from '../../src/io/record-line.ts';
import { encodeLogs } from '../../src/otlp/encode.ts';
import { eventToLog, hrTimeFromMs } from '../../src/otlp/logs.ts';
import { ev, LAB_STABLE, labEvents, NOW } from '../support/builders.ts';
import { fakeDeps } from '../support/deps.ts';
import { scratchDir } from '../support/tmp.ts';
import { launchBrowser, openPage } from '../support/browser.ts';
import type { Browser } from '../support/browser.ts';

const dir = scratchDir('html-inputs');
let browser: Browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

const lab = labEvents();
const list = join(dir, 'lab.json');
writeFileSync(list, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: lab }));

/** `kubectl evtimeline ARGS -o html` at the fixed clock: the page, and what went to stderr. */
async function html(args: string[], stdin?: string): Promise<{ page: string; stderr: string }> {
  const fake = fakeDeps(stdin === undefined ? {} : { stdin });
  const code = await runCli([...args, '-o', 'html'], fake.deps);
  assert.equal(code, 0, fake.stderr());
  return { page: fake.stdout(), stderr: fake.stderr() };
}

interface Seen {
  lanes: (string | null | undefined)[];
  /** each reason row: `reason type count marks=N` as a person reads the label and sees the marks */
  rows: string[];
  headline: string;
  shown: string;
}

/** Opens the page in Chromium and reads what a person sees; nothing may run, load or complain. */
async function look(name: string, page: string): Promise<Seen> {
  const opened = await openPage(browser, `${name}.html`, page);
  const p = opened.page;
  try {
    // The marks are drawn at the next frame after the layout: wait until every shown row has its count.
    await p.waitForFunction(() => Array.from(document.querySelectorAll('.track-row')).every((e) => (e as HTMLElement).dataset.marks !== undefined));
    const seen: Seen = {
      lanes: await p.locator('.lane-row .toggle').evaluateAll((els) => els.map((e) => e.firstChild?.textContent)),
      rows: await p.locator('.track-row').evaluateAll((els) =>
        els.map((e) => `${e.querySelector('.reason')?.textContent} ${e.querySelector('.badge')?.textContent}${e.querySelector('.count')?.textContent ?? ''} marks=${(e as HTMLElement).dataset.marks}`),
      ),
      headline: (await p.locator('.headline li').first().textContent()) ?? '',
      shown: (await p.locator('#shown').textContent()) ?? '',
    };
    assert.deepEqual({ errors: opened.errors, dialogs: opened.dialogs, requests: opened.requests }, { errors: [], dialogs: [], requests: [] });
    return seen;
  } finally {
    await p.close();
  }
}

const LAB_LANES = ['Pipeline/build-1', 'Pod/hungry'];
const LAB_ROWS = ['ReconcileStarted Normal\u00D75 marks=1', 'StageUnknown Critical marks=1', 'ReconcileSucceeded Normal marks=1', 'FailedScheduling Warning marks=1'];

describe('every saved format gives the page of the same story', () => {
  const capture = join(dir, 'capture');
  const record = join(dir, 'lab.jsonl');
  const otlp = join(dir, 'collector.json');
  before(async () => {
    const fake = fakeDeps();
    assert.equal(await runCli(['capture', '--from', list, capture], fake.deps), 0, fake.stderr());
    writeFileSync(record, lab.map((event, i) => formatObservation({ observedAt: NOW - 30_000 + i * 1000, type: 'ADDED', event })).join(''));
    // What a collector's file exporter writes of the events the plugin exported: OTLP JSON, a line per request.
    writeFileSync(otlp, `${new TextDecoder().decode(await encodeLogs(lab.map((e) => eventToLog(e, hrTimeFromMs(NOW))), 'json'))}\n`);
  });

  const cases: [string, () => string[], RegExp, string?][] = [
    ['a plain list (kubectl get events -o json)', () => ['--from', list], /read from a saved file$/],
    ['stdin (--from -)', () => ['--from', '-'], /read from a saved file$/, readFileSync(list, 'utf8')],
    // The capture was made from the plain list, so it was taken when that list was: its newest event
    // (README, Times in saved files), not at the clock of the run that wrote the folder.
    ["a capture's folder", () => ['--from', capture], /read from a capture taken at 2026-11-30T11:59:57Z$/],
    ["a capture's events.json", () => ['--from', join(capture, 'events.json')], /read from a capture taken at 2026-11-30T11:59:57Z$/],
    ['a record', () => ['--from', record], /read from a record/],
    ["a collector's OTLP file", () => ['--from', otlp], /read from an OpenTelemetry Collector's file/],
  ];
  for (const [name, args, headline, stdin] of cases) {
    test(`${name}: two lanes, four reason rows, a mark each, the repeat's count`, async () => {
      const seen = await look(name.replace(/\W+/g, '-'), (await html(args(), stdin)).page);
      assert.deepEqual(seen.lanes, LAB_LANES);
      assert.deepEqual(seen.rows, LAB_ROWS);
      assert.match(seen.headline, headline);
      assert.equal(seen.shown, '4 events of 4 shown');
    });
  }

  test('a stable table: the same lanes and rows, without marks (it holds no times)', async () => {
    const table = join(dir, 'timeline.txt');
    writeFileSync(table, LAB_STABLE);
    const seen = await look('stable-input', (await html(['--from', table])).page);
    assert.deepEqual(seen.lanes, LAB_LANES);
    assert.deepEqual([...seen.rows].sort(), ['FailedScheduling Warning marks=0', 'ReconcileStarted Normal marks=0', 'ReconcileSucceeded Normal marks=0', 'StageUnknown Critical marks=0']);
  });

  test('--output-file writes the page whole and nothing to stdout', async () => {
    const file = join(dir, 'written.html');
    const fake = fakeDeps();
    assert.equal(await runCli(['--from', list, '-o', 'html', '--output-file', file], fake.deps), 0, fake.stderr());
    assert.equal(fake.stdout(), '');
    const seen = await look('output-file', readFileSync(file, 'utf8'));
    assert.deepEqual(seen.rows, LAB_ROWS);
  });
});

describe('every filter leaves on the page only what it selects', () => {
  // The lab, plus an event in another namespace and one of a lower-case type, over all namespaces.
  const mixed = join(dir, 'mixed.json');
  writeFileSync(
    mixed,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'List',
      items: [
        ...lab,
        ev({ namespace: 'shop', kind: 'Pod', apiVersion: 'v1', objectName: 'web-1', objectUid: 'uid-web-1', reason: 'BackOff', type: 'warning', first: 20 }),
        ev({ namespace: 'shop', kind: 'Deployment', apiVersion: 'apps/v1', objectName: 'web', objectUid: 'uid-web', reason: 'ScalingReplicaSet', first: 600 }),
      ],
    }),
  );
  const cases: [string, string[], string[], string[]][] = [
    ['-A alone shows everything', ['-A'], ['Pipeline/build-1', 'Pod/hungry', 'Deployment/web', 'Pod/web-1'], [...LAB_ROWS, 'ScalingReplicaSet Normal marks=1', 'BackOff warning marks=1']],
    ['-n shop: one namespace', ['-n', 'shop'], ['Deployment/web', 'Pod/web-1'], ['ScalingReplicaSet Normal marks=1', 'BackOff warning marks=1']],
    ['--types Critical', ['-A', '--types', 'Critical'], ['Pipeline/build-1'], ['StageUnknown Critical marks=1']],
    // kubectl compares --types with strings.EqualFold: Warning selects the lower-case warning too.
    ['--types Warning (any case, as kubectl)', ['-A', '--types', 'Warning'], ['Pod/hungry', 'Pod/web-1'], ['FailedScheduling Warning marks=1', 'BackOff warning marks=1']],
    ['--reason', ['-A', '--reason', 'FailedScheduling'], ['Pod/hungry'], ['FailedScheduling Warning marks=1']],
    ['--since', ['-A', '--since', '50s'], ['Pipeline/build-1', 'Pod/hungry', 'Pod/web-1'], ['ReconcileStarted Normal\u00D75 marks=1', 'FailedScheduling Warning marks=1', 'BackOff warning marks=1']],
    ['--for a Kind/name', ['-A', '--for', 'pod/hungry'], ['Pod/hungry'], ['FailedScheduling Warning marks=1']],
    ['--for a resource.group/name', ['-A', '--for', 'pipelines.ev.labhub.io/build-1'], ['Pipeline/build-1'], LAB_ROWS.slice(0, 3)],
    ['filters together', ['-n', 'op-events', '--types', 'Normal', '--for', 'Pipeline/build-1', '--since', '100s'], ['Pipeline/build-1'], ['ReconcileStarted Normal\u00D75 marks=1', 'ReconcileSucceeded Normal marks=1']],
  ];
  for (const [name, args, lanes, rows] of cases) {
    test(`${name}: ${lanes.join(', ')}`, async () => {
      const seen = await look(`filter-${name.replace(/\W+/g, '-')}`, (await html(['--from', mixed, ...args])).page);
      assert.deepEqual(seen.lanes, lanes);
      assert.deepEqual(seen.rows, rows);
      assert.equal(seen.shown, `${rows.length} event${rows.length === 1 ? '' : 's'} of ${rows.length} shown`);
    });
  }

  test('a filter that selects nothing still writes a page, which says so, and the notice goes to stderr', async () => {
    const { page, stderr } = await html(['--from', mixed, '-n', 'op-events', '--reason', 'NoSuchReason']);
    // the footer of what the selection hid goes to stderr too, so stdout stays the page alone
    assert.equal(stderr, 'No events found in op-events namespace.\nHidden: 4 events by --reason.\n');
    const opened = await openPage(browser, 'nothing.html', page);
    assert.equal(await opened.page.locator('.empty').textContent(), 'No events.');
    assert.equal(await opened.page.locator('.lane').count(), 0);
    assert.deepEqual(opened.errors, []);
    await opened.page.close();
  });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { normaliseEvent } from '../../../src/core/event.ts';
import { buildIncident } from '../../../src/core/incident.ts';
import { sortTimeline } from '../../../src/core/timeline.ts';
import { buildPageData, describeType } from '../../../src/render/html-data.ts';
import type { PageData } from '../../../src/render/html-data.ts';
import { escapeHtml, renderTimelineHtml, toScriptJson } from '../../../src/render/html.ts';
import { renderTimelinePage } from '../../../src/render/timeline-page.ts';
import { fromCluster } from '../../support/sources.ts';
import { ev, labEvents, NOW } from '../../support/builders.ts';

const HOUR = 3_600_000;
const events = (raw: Record<string, unknown>[]) => sortTimeline(raw.map(normaliseEvent));
const labData = (): PageData =>
  buildPageData(events(labEvents()), { scope: 'namespace op-events', headline: ['Incident in namespace op-events'], capturedAt: NOW, eventTTLms: HOUR });

test('the lab page embeds its lanes, tracks and events as golden data at the fixed clock', () => {
  const t0 = NOW - 120_000;
  assert.deepEqual(labData(), {
    version: 1,
    scope: 'namespace op-events',
    headline: ['Incident in namespace op-events'],
    // No causes were handed to buildPageData: none on the page.
    causes: [],
    capturedAt: NOW,
    ttlHorizon: NOW - HOUR,
    eventTTLms: HOUR,
    observed: null,
    t0,
    window: [t0, NOW - 3000],
    types: [
      { name: 'Normal', kind: 'normal', note: '' },
      { name: 'Critical', kind: 'unconventional', note: 'unconventional type: neither Normal nor Warning' },
      { name: 'Warning', kind: 'warning', note: '' },
    ],
    strings: [
      'ReconcileStarted', 'build-1-started', 'Started reconciling Pipeline build-1.', 'pipeline-operator',
      'StageUnknown', 'build-1-weird', 'Stage of build-1 is not known.',
      'ReconcileSucceeded', 'build-1-done', 'Pipeline build-1 reconciled.',
      'FailedScheduling', 'hungry.18a1b2c3d4e5f607',
      '0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.',
      'default-scheduler',
    ],
    lanes: [
      { namespace: 'op-events', apiVersion: 'ev.labhub.io/v1', kind: 'Pipeline', name: 'build-1', uid: '11111111-2222-3333-4444-555555555555', owner: null, gone: false, incarnation: null },
      { namespace: 'op-events', apiVersion: 'v1', kind: 'Pod', name: 'hungry', uid: '99999999-8888-7777-6666-555555555555', owner: null, gone: false, incarnation: null },
    ],
    groups: [{ namespace: 'op-events', lanes: [0, 1] }],
    tracks: [[0, 0, 0], [0, 4, 1], [0, 7, 0], [1, 10, 2]],
    fields: ['track', 'event', 'message', 'reporter', 'first', 'last', 'count'],
    // The repeated ReconcileStarted spans 0 .. 117 s after t0 with count 5.
    events: [[0, 1, 2, 3, 0, 117_000, 5], [1, 5, 6, 3, 30_000, 30_000, 1], [2, 8, 9, 3, 60_000, 60_000, 1], [3, 11, 12, 13, 75_000, 75_000, 1]],
  });
});

test('a record shades its TTL horizon from its first observation', () => {
  const data = buildPageData(events(labEvents()), { scope: 's', headline: [], capturedAt: NOW, eventTTLms: HOUR, observed: [NOW - 7200_000, NOW] });
  assert.deepEqual([data.observed, data.ttlHorizon], [[NOW - 7200_000, NOW], NOW - 7200_000 - HOUR]);
});

test('a lane carries what the live lookup said of its object', () => {
  const data = buildPageData(events(labEvents()), {
    scope: 's',
    headline: [],
    capturedAt: NOW,
    eventTTLms: HOUR,
    standing: (ev) => ({ incarnation: ev.object.kind === 'Pod' ? 'gone' : 'previous' }),
  });
  assert.deepEqual(data.lanes.map((l) => `${l.kind}:${l.incarnation}`), ['Pipeline:previous', 'Pod:gone']);
});

test('events without times are kept, with null times and no window', () => {
  const raw = ev({ first: 10 });
  for (const key of ['firstTimestamp', 'lastTimestamp']) delete raw[key];
  (raw.metadata as Record<string, unknown>).creationTimestamp = undefined;
  const data = buildPageData(events([raw]), { scope: 's', headline: [], capturedAt: NOW, eventTTLms: HOUR });
  assert.deepEqual([data.window, data.t0, data.events[0]?.slice(4)], [null, NOW, [null, null, 1]]);
});

for (const [name, kind, note] of [
  ['Normal', 'normal', ''],
  ['Warning', 'warning', ''],
  ['Critical', 'unconventional', 'unconventional type: neither Normal nor Warning'],
  ['', 'unconventional', 'empty type: most tools show nothing'],
  ['warning', 'unconventional', 'wrong case: not Warning, so exact filters miss it'],
  ['NORMAL', 'unconventional', 'wrong case: not Normal, so exact filters miss it'],
] as const) {
  test(`type ${JSON.stringify(name)} is ${kind}${note === '' ? '' : `: ${note}`}`, () => {
    assert.deepEqual(describeType(name), { name, kind, note });
  });
}

const HOSTILE = '</script><script>alert(1)</script><!-- <img src=x onerror=alert(2)> & \u2028\u2029 \u202eevil\u202c javascript:alert(3) </svg>';

test('script-safe JSON escapes <, >, &, U+2028/9 and bidi overrides, and parses back exactly (golden)', () => {
  const text = toScriptJson({ m: HOSTILE });
  assert.equal(
    text,
    '{"m":"\\u003c/script\\u003e\\u003cscript\\u003ealert(1)\\u003c/script\\u003e\\u003c!-- \\u003cimg src=x onerror=alert(2)\\u003e \\u0026 \\u2028\\u2029 \\u202eevil\\u202c javascript:alert(3) \\u003c/svg\\u003e"}',
  );
  assert.deepEqual(JSON.parse(text), { m: HOSTILE });
});

test('HTML text escaping covers the five special characters', () => {
  assert.equal(escapeHtml(`<a href="x" title='y'>&</a>`), '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
});

function hostilePage(): string {
  const hostile = events([
    ev({ reason: '</script><script>alert(1)</script>', message: HOSTILE, type: '<img src=x onerror=alert(4)>', objectName: '</svg><svg onload=alert(5)>', kind: 'javascript:alert(6)', namespace: 'op-events' }),
  ]);
  const incident = buildIncident(hostile, { now: NOW, provenance: fromCluster({ namespace: '</title><script>alert(7)</script>' }), eventTTLms: HOUR });
  return renderTimelinePage(hostile, incident, { capturedAt: NOW, eventTTLms: HOUR });
}

function elementText(html: string, open: string): string {
  const start = html.indexOf(open);
  assert.ok(start >= 0, `no ${open}`);
  return html.slice(start + open.length, html.indexOf('</', start + open.length));
}

test('a page of hostile event text holds exactly its own two script elements, and the data parses back exactly', () => {
  const html = hostilePage();
  assert.equal(html.match(/<script/gi)?.length, 2);
  assert.equal(html.match(/<\/script/gi)?.length, 2);
  assert.doesNotMatch(html, /alert\(\d\)<\/script>|<img|<svg|\u2028|\u2029|\u202e/);
  const data = JSON.parse(elementText(html, '<script type="application/json" id="timeline-data">')) as PageData;
  assert.equal(data.strings.includes(HOSTILE), true);
  assert.equal(data.strings.includes('</script><script>alert(1)</script>'), true);
  assert.deepEqual(data.types.map((t) => t.name), ['<img src=x onerror=alert(4)>']);
  assert.deepEqual([data.lanes[0]?.kind, data.lanes[0]?.name], ['javascript:alert(6)', '</svg><svg onload=alert(5)>']);
  assert.match(html, /<title>Event timeline: namespace &lt;\/title&gt;&lt;script&gt;alert\(7\)&lt;\/script&gt;<\/title>/);
});

test("the CSP allows only the page's own script and style, by hash, and no request of any kind", () => {
  const html = hostilePage();
  const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1]?.replaceAll('&#39;', "'") ?? '';
  const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
  const script = elementText(html, '<script>');
  const style = elementText(html, '<style>');
  assert.equal(
    csp,
    `default-src 'none'; script-src ${hash(script)}; style-src ${hash(style)}; img-src 'none'; connect-src 'none'; base-uri 'none'; form-action 'none'`,
  );
});

test('the document around the data is golden (script and style elided)', () => {
  const html = renderTimelineHtml(labData())
    .replace(/<style>[^]*?<\/style>/, '<style>…</style>')
    .replace(/<script>[^]*?<\/script>/, '<script>…</script>')
    .replace(/(id="timeline-data">)[^]*?(<\/script>)/, '$1…$2')
    .replace(/content="default-src[^"]*"/, 'content="…"');
  assert.equal(
    html,
    [
      '<!doctype html>',
      '<html lang="en">',
      '<head>',
      '<meta charset="utf-8">',
      '<meta http-equiv="Content-Security-Policy" content="…">',
      '<meta name="referrer" content="no-referrer">',
      '<meta name="viewport" content="width=device-width, initial-scale=1">',
      '<meta name="color-scheme" content="light dark">',
      '<meta name="generator" content="kubectl evtimeline">',
      '<title>Event timeline: namespace op-events</title>',
      '<style>…</style>',
      '</head>',
      '<body>',
      '<noscript><p>This page draws the timeline with its own inline script; it needs JavaScript, and nothing else.</p></noscript>',
      '<main id="app"></main>',
      '<script type="application/json" id="timeline-data">…</script>',
      '<script>…</script>',
      '</body>',
      '</html>',
      '',
    ].join('\n'),
  );
});

test("the page's headline is the incident account's, with event text made visible as in the terminal", () => {
  const html = hostilePage();
  const data = JSON.parse(elementText(html, '<script type="application/json" id="timeline-data">')) as PageData;
  assert.equal(data.headline[0], 'Incident in namespace </title><script>alert(7)</script>, read from the cluster at 2026-11-30T12:00:00Z');
  assert.equal(data.headline[1], '  1 event about 1 object.');
});

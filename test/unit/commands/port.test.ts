// Every read verb in process through an in-memory source at the EventSource port: the branches that
// otherwise need a cluster (object lookups, incarnations, --compare). Agreement with Kubernetes itself
// is proven against the real control plane in test/integration; these doubles only stand at the port.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../../src/cli.ts';
import { UsageError } from '../../../src/errors.ts';
import { normaliseEvent } from '../../../src/core/event.ts';
import type { ObjectRef } from '../../../src/core/event.ts';
import { parseStableTable } from '../../../src/core/stable-table.ts';
import { ev, eventsV1, LAB_STABLE, labEvents, NOW } from '../../support/builders.ts';
import { fakeDeps } from '../../support/deps.ts';
import { fromCapture, fromCluster, fromRecord, fromStableTable, lookupsOf, memorySource, openSources } from '../../support/sources.ts';
import { scratchDir } from '../../support/tmp.ts';

const dir = scratchDir('port');
const PIPELINE_UID = '11111111-2222-3333-4444-555555555555';
const HUNGRY_UID = '99999999-8888-7777-6666-555555555555';

function refOf(raw: Record<string, unknown>): ObjectRef {
  return normaliseEvent(raw).object;
}

/** The lab's objects as the live cluster answers: build-1 re-created under a new uid, hungry deleted. */
function labLookups() {
  const [started] = labEvents();
  const hungry = labEvents().find((e) => (e.involvedObject as { name: string }).name === 'hungry');
  return lookupsOf([
    [refOf(started as Record<string, unknown>), { state: 'exists', uid: 'new-build-1-uid', creationTimestamp: '2026-11-30T11:59:00Z' }],
    [refOf(hungry as Record<string, unknown>), { state: 'gone' }],
  ]);
}

async function run(argv: string[], sources: ReturnType<typeof openSources>, o: { tty?: boolean; env?: Record<string, string> } = {}) {
  const fake = fakeDeps({ openSource: sources.open, ...o });
  const code = await runCli(argv, fake.deps).catch((error: unknown) => error);
  return { code, stdout: fake.stdout(), stderr: fake.stderr() };
}

describe('a live read through the port', () => {
  test('timeline marks the events about a previous incarnation and about a deleted object', async () => {
    const live = memorySource({ provenance: fromCluster(), raw: labEvents(), lookups: labLookups() });
    const r = await run(['-n', 'op-events'], openSources({ live }));
    assert.equal(r.code, 0);
    const rows = r.stdout.trimEnd().split('\n').slice(1);
    assert.equal(rows.length, 4);
    for (const row of rows.filter((line) => line.includes('Pipeline/build-1'))) assert.match(row, /Pipeline\/build-1 \(previous\)/);
    assert.match(rows.find((line) => line.includes('Pod/hungry')) ?? '', /Pod\/hungry \(gone\)/);
    assert.deepEqual(live.looked.map((refs) => refs.map((ref) => ref.name)), [['build-1', 'hungry']], 'each object looked up once');
  });

  test('timeline -o stable asks no lookups: nothing it prints could change', async () => {
    const live = memorySource({ provenance: fromCluster(), raw: labEvents(), lookups: labLookups() });
    const r = await run(['-o', 'stable'], openSources({ live }));
    assert.equal(r.stdout, LAB_STABLE);
    assert.deepEqual(live.looked, []);
  });

  test('timeline -o json carries each event\'s incarnation', async () => {
    const live = memorySource({ provenance: fromCluster(), raw: labEvents(), lookups: labLookups() });
    const r = await run(['-o', 'json'], openSources({ live }));
    const rows = JSON.parse(r.stdout) as { object: { uid: string }; incarnation: string }[];
    assert.deepEqual(
      rows.map((row) => [row.object.uid, row.incarnation]),
      [[PIPELINE_UID, 'previous'], [PIPELINE_UID, 'previous'], [PIPELINE_UID, 'previous'], [HUNGRY_UID, 'gone']],
    );
  });

  test('incident tells the re-created object and the deleted one apart', async () => {
    const live = memorySource({ provenance: fromCluster(), raw: labEvents(), lookups: labLookups() });
    const r = await run(['incident'], openSources({ live }));
    assert.equal(r.code, 0);
    assert.match(r.stdout, /^Incident in namespace op-events, read from the cluster at 2026-11-30T12:00:00Z\n/);
    assert.match(r.stdout, /Pipeline\/build-1 was re-created at 2026-11-30T11:59:00Z \(uid 11111111-2222-3333-4444-555555555555 -> uid new-build-1-uid\); 3 events are about the previous build-1 and none about the current one\./);
    assert.match(r.stdout, /Pod\/hungry \(uid 99999999-8888-7777-6666-555555555555\) no longer exists; 1 event is about it\./);
  });

  test('an object the cluster could not answer for is said to be unchecked, with why', async () => {
    const [started] = labEvents();
    const lookups = lookupsOf([[refOf(started as Record<string, unknown>), { state: 'unknown', why: { reason: 'forbidden', step: 'get', target: 'pipelines' } }]]);
    const live = memorySource({ provenance: fromCluster(), raw: labEvents(), lookups });
    const r = await run(['incident', '-o', 'json'], openSources({ live }));
    const incident = JSON.parse(r.stdout) as { uncheckedObjects: { name: string; why: string }[] };
    assert.deepEqual(incident.uncheckedObjects.map((u) => [u.name, u.why]), [['build-1', 'not allowed to get pipelines'], ['hungry', 'not looked up']]);
  });

  test('type-audit exits 3 on the lab read live, and names the source of nothing', async () => {
    const live = memorySource({ provenance: fromCluster(), raw: labEvents(), lookups: labLookups() });
    const r = await run(['type-audit', '-o', 'json'], openSources({ live }));
    assert.equal(r.code, 3);
    assert.deepEqual((JSON.parse(r.stdout) as { types: { type: string }[] }).types.map((t) => t.type), ['Critical']);
  });

  test('a live capture keeps both API views and marks incarnations in its reports', async () => {
    const newApi = [eventsV1({ name: 'only-v1-view' })];
    const live = memorySource({ provenance: fromCluster(), raw: labEvents(), eventsK8sIo: newApi, lookups: labLookups() });
    const out = join(dir, 'live-capture');
    const r = await run(['capture', out], openSources({ live }));
    assert.equal(r.code, 0, String(r.code));
    assert.match(r.stdout, /^captured 4 events of namespace op-events into /);
    const saved = JSON.parse(readFileSync(join(out, 'events.json'), 'utf8')) as { context: string; server: string; namespace: string; capturedAt: string; eventsK8sIo: unknown[] };
    assert.deepEqual([saved.context, saved.server, saved.namespace, saved.capturedAt], ['lab', 'https://127.0.0.1:6443', 'op-events', '2026-11-30T12:00:00.000Z']);
    assert.deepEqual(saved.eventsK8sIo, newApi);
    assert.match(readFileSync(join(out, 'events-list.txt'), 'utf8'), /Pod\/hungry \(gone\)/);
    assert.match(readFileSync(join(out, 'incident.txt'), 'utf8'), /Pipeline\/build-1 was re-created/);
    assert.match(readFileSync(join(out, 'both-apis.txt'), 'utf8'), /only-v1-view/);
    // objects.json: neither object could be read (build-1's name holds another uid now, hungry is gone).
    assert.equal(readdirSync(out).length, 10);
    const objects = JSON.parse(readFileSync(join(out, 'objects.json'), 'utf8')) as { items: { metadata: { name: string }; unknown: unknown }[] };
    assert.deepEqual(objects.items.map((i) => [i.metadata.name, i.unknown]), [['build-1', { reason: 'gone' }], ['hungry', { reason: 'gone' }]]);
    assert.match(readFileSync(join(out, 'timeline.html'), 'utf8'), /^<!DOCTYPE html>/i);
  });
});

describe('a saved file beside the live cluster (--compare)', () => {
  // One set of lab events (each call of labEvents makes new uids): the record and the cluster share them.
  const lab = labEvents();
  const saved = () => memorySource({ provenance: fromRecord({ namespace: null, firstObserved: NOW - 7_200_000, lastObserved: NOW - 60_000 }), raw: lab });
  /** the live cluster still holds every lab event but the Critical one, plus one written since */
  const live = () => {
    const held = lab.filter((e) => e.reason !== 'StageUnknown');
    return memorySource({ provenance: fromCluster(), raw: [...held, ev({ name: 'written-since', reason: 'Later', first: 5 })], lookups: labLookups() });
  };

  test('timeline --compare marks what only the record holds and says so on stderr', async () => {
    const sources = openSources({ saved: saved(), live: live() });
    const r = await run(['--from', 'events.jsonl', '--compare'], sources);
    assert.equal(r.code, 0);
    assert.match(r.stdout.split('\n').find((line) => line.includes('StageUnknown')) ?? '', /\[not on server\]/);
    assert.equal(r.stdout.split('\n').filter((line) => line.includes('[not on server]')).length, 1);
    assert.match(r.stderr, /1 of 4 events in the record is no longer on the server \(expired after --event-ttl or deleted\), marked \[not on server\]; 1 event on the server is not in the record\.\n/);
    // Last, right above the table: after the record's notice and the comparison.
    assert.match(r.stderr, /last observation\); [^\n]*\.\n1 of 4 [^\n]*\nAges are counted from 2026-11-30T11:59:00Z, the record.s last observation\.\n$/);
  });

  test('incident --compare counts ages from the record, as timeline --compare does (one rule, core/ages.ts)', async () => {
    const r = await run(['incident', '--from', 'events.jsonl', '--compare'], openSources({ saved: saved(), live: live() }));
    assert.equal(r.code, 0);
    assert.equal(r.stderr, "Ages are counted from 2026-11-30T11:59:00Z, the record's last observation.\n");
  });

  test('incident --compare names the moment the cluster was read, not the record\'s last observation its ages count from', async () => {
    // Regression: with ages counted from the record (7843499) the title said the cluster was read at
    // 11:59, an hour-long record's end, while it was read now (12:00, the fake clock).
    const r = await run(['incident', '--from', 'events.jsonl', '--compare'], openSources({ saved: saved(), live: live() }));
    assert.equal(r.code, 0);
    assert.match(r.stdout, /^Incident across all namespaces, read from a record, compared with the cluster at 2026-11-30T12:00:00Z\n/);
    assert.match(r.stdout, /to 2026-11-30T11:59:00Z: the record's first and last observation; the ages here count from then\.\n/);
  });

  test('--compare reads the one namespace the file\'s events are in, with the user\'s kubeconfig and context', async () => {
    const sources = openSources({ saved: saved(), live: live() });
    await run(['incident', '--from', 'events.jsonl', '--compare', '--context', 'other'], sources);
    assert.deepEqual(
      sources.requests.map((req) => (req.kind === 'file' ? ['file', req.path, req.namespace] : req.kind === 'cluster' ? ['cluster', req.scope.namespace, req.scope.allNamespaces, req.scope.context] : ['store'])),
      [['file', 'events.jsonl', null], ['cluster', 'op-events', false, 'other']],
    );
  });

  test('--compare with -A reads every namespace', async () => {
    const sources = openSources({ saved: saved(), live: live() });
    await run(['--from', 'events.jsonl', '--compare', '-A'], sources);
    const cluster = sources.requests.find((req) => req.kind === 'cluster');
    assert.ok(cluster?.kind === 'cluster' && cluster.scope.allNamespaces);
  });

  test('incident --compare counts and lists what only the record holds, and looks the objects up on the live cluster', async () => {
    const theLive = live();
    const r = await run(['incident', '--from', 'events.jsonl', '--compare', '-o', 'json'], openSources({ saved: saved(), live: theLive }));
    const incident = JSON.parse(r.stdout) as { comparison: unknown; onlyInRecord: { reason: string }[]; recreatedObjects: unknown[]; source: string; saved: unknown };
    assert.deepEqual(incident.comparison, { savedEvents: 4, onlyInSaved: 1, share: 0.25, onlyOnServer: 1 });
    assert.deepEqual(incident.onlyInRecord.map((e) => e.reason), ['StageUnknown']);
    assert.equal(incident.recreatedObjects.length, 1);
    assert.equal(incident.source, 'file');
    assert.deepEqual(incident.saved, { format: 'record', firstObserved: '2026-11-30T10:00:00.000Z', lastObserved: '2026-11-30T11:59:00.000Z' });
    assert.equal(theLive.looked.length, 1);
  });

  test('without --compare a saved file asks the cluster nothing', async () => {
    const sources = openSources({ saved: saved() });
    const r = await run(['incident', '--from', 'events.jsonl'], sources);
    assert.equal(r.code, 0);
    assert.deepEqual(sources.requests.map((req) => req.kind), ['file']);
  });

  test('a stable table cannot be compared: it carries no uids', async () => {
    const table = memorySource({ provenance: fromStableTable(), events: parseStableTable(LAB_STABLE) });
    const r = await run(['--from', 'timeline.txt', '--compare'], openSources({ saved: table }));
    assert.ok(r.code instanceof UsageError);
    assert.match(r.code.message, /a stable table has none/);
  });

  test('a capture\'s --since counts back from when it was taken', async () => {
    const capture = memorySource({ provenance: fromCapture({ capturedAt: NOW - 3_600_000 }), raw: [ev({ name: 'old', first: 3_600 + 30 }), ev({ name: 'older', first: 3_600 + 600 })] });
    const r = await run(['-o', 'json', '--from', 'events.json', '--since', '1m'], openSources({ saved: capture }));
    assert.deepEqual((JSON.parse(r.stdout) as { name: string }[]).map((e) => e.name), ['old']);
  });
});

describe('a stable table through the port', () => {
  test('type-audit does not flag missing uids it could never have had', async () => {
    const table = memorySource({ provenance: fromStableTable(), events: parseStableTable(LAB_STABLE) });
    const r = await run(['type-audit', '-o', 'json', '--from', 'timeline.txt'], openSources({ saved: table }));
    const report = JSON.parse(r.stdout) as { findings: { kind: string }[] };
    assert.ok(report.findings.length > 0);
    assert.ok(report.findings.every((f) => f.kind !== 'no-object-uid'));
  });

  test('capture refuses it: it holds no events to save', async () => {
    const table = memorySource({ provenance: fromStableTable(), events: parseStableTable(LAB_STABLE) });
    const r = await run(['capture', '--from', 'timeline.txt', join(dir, 'never')], openSources({ saved: table }));
    assert.ok(r.code instanceof UsageError);
    assert.match(r.code.message, /^capture needs events: a stable table holds only/);
  });
});

describe('the count of events listed, on stderr', () => {
  const terminals: [string, string, boolean, string][] = [
    ['a terminal shows it while listing and clears it', 'xterm-256color', true, '\r\u001b[Klisting events... 4\r\u001b[K'],
    ['a dumb terminal (TERM=dumb), which cannot redraw a line, gets nothing', 'dumb', true, ''],
    ['a pipe gets nothing', 'xterm-256color', false, ''],
  ];
  for (const [name, term, tty, want] of terminals) {
    test(name, async () => {
      const live = memorySource({ provenance: fromCluster(), raw: labEvents(), lookups: labLookups() });
      const r = await run(['-o', 'stable', '--color', 'never'], openSources({ live }), { tty, env: { TERM: term } });
      assert.equal(r.stderr, want);
    });
  }
});

describe('record through the port', () => {
  const started = ev({ name: 'build-1-started', uid: 'uid-started' });
  const rv = (raw: Record<string, unknown>, resourceVersion: string) => ({ ...raw, metadata: { ...(raw.metadata as object), resourceVersion } });
  const lines = (file: string) => readFileSync(file, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);

  test('a list then a change become a header and one line per version, and the summary', async () => {
    const file = join(dir, 'new.jsonl');
    const live = memorySource({
      provenance: fromCluster(),
      steps: [
        { kind: 'list', items: [rv(started, '10')], resourceVersion: '10', why: 'start' },
        { kind: 'change', type: 'MODIFIED', object: rv(started, '11') },
      ],
    });
    const r = await run(['record', file], openSources({ live }));
    assert.equal(r.code, 0, String(r.code));
    assert.deepEqual(live.followed.map((f) => f.resourceVersion), ['']);
    const written = lines(file);
    // The list's version once its events are written: where the next session resumes.
    assert.deepEqual(written.map((l) => l.kind ?? l.type), ['EvtimelineRecord', 'ADDED', 'EvtimelineSeen', 'MODIFIED']);
    assert.deepEqual([written[0]?.context, written[0]?.server, written[0]?.namespace, written[0]?.startedAt], ['lab', 'https://127.0.0.1:6443', 'op-events', '2026-11-30T12:00:00.000Z']);
    assert.equal(r.stderr, `recorded 2 lines (1 added, 1 modified, 0 deleted) to ${file}; it holds 2 observations\n`);
  });

  test('a record of the same scope continues from its newest resourceVersion once the server has reached it', async () => {
    const file = join(dir, 'again.jsonl');
    const first = memorySource({ provenance: fromCluster(), steps: [{ kind: 'list', items: [rv(started, '10')], resourceVersion: '10', why: 'start' }] });
    await run(['record', file], openSources({ live: first }));
    const live = memorySource({
      provenance: fromCluster(),
      steps: [
        { kind: 'resume', from: '10', current: '12', verdict: 'resume' },
        { kind: 'change', type: 'MODIFIED', object: rv(started, '12') },
      ],
    });
    const r = await run(['record', file], openSources({ live }));
    assert.deepEqual(live.followed.map((f) => f.resourceVersion), ['10']);
    assert.match(r.stderr, new RegExp(`^continuing ${file} \\(1 observation\\) from resourceVersion 10\n`));
    assert.deepEqual(lines(file).map((l) => l.kind ?? l.type), ['EvtimelineRecord', 'ADDED', 'EvtimelineSeen', 'EvtimelineRecord', 'MODIFIED']);
  });

  test('a record of another namespace is added to after a list, and said so', async () => {
    const file = join(dir, 'other.jsonl');
    await run(['record', file], openSources({ live: memorySource({ provenance: fromCluster(), steps: [{ kind: 'list', items: [rv(started, '10')], resourceVersion: '10', why: 'start' }] }) }));
    const live = memorySource({ provenance: fromCluster({ namespace: 'elsewhere' }), steps: [] });
    const r = await run(['record', file], openSources({ live }));
    assert.deepEqual(live.followed.map((f) => f.resourceVersion), ['']);
    assert.match(r.stderr, /it was recorded with another namespace or filters, so listing first\n/);
  });
});

describe('timeline -w through the port', () => {
  const bumped = (raw: Record<string, unknown>, count: number, resourceVersion: string) => ({
    ...raw,
    count,
    lastTimestamp: '2026-11-30T11:59:59Z',
    metadata: { ...(raw.metadata as object), resourceVersion },
  });

  test('the current timeline, then each new occurrence once: a count bump is a row, the same version again is not', async () => {
    const lab = labEvents();
    const started = lab.find((e) => e.reason === 'ReconcileStarted') as Record<string, unknown>;
    const live = memorySource({
      provenance: fromCluster(),
      steps: [
        { kind: 'list', items: lab, resourceVersion: '100', why: 'start' },
        { kind: 'change', type: 'MODIFIED', object: bumped(started, 6, '101') },
        { kind: 'change', type: 'MODIFIED', object: bumped(started, 6, '101') },
        { kind: 'change', type: 'DELETED', object: bumped(started, 6, '102') },
      ],
    });
    const r = await run(['-w', '-o', 'stable'], openSources({ live }));
    assert.equal(r.code, 0, String(r.code));
    assert.deepEqual(live.followed.map((f) => f.resourceVersion), ['']);
    // -o stable prints each line once: the bump repeats a line already shown.
    assert.equal(r.stdout, LAB_STABLE);
  });

  test('--watch-only prints only what comes after the list, one JSON object a line with -o json', async () => {
    const lab = labEvents();
    const started = lab.find((e) => e.reason === 'ReconcileStarted') as Record<string, unknown>;
    const live = memorySource({
      provenance: fromCluster(),
      steps: [
        { kind: 'list', items: lab, resourceVersion: '100', why: 'start' },
        { kind: 'change', type: 'MODIFIED', object: bumped(started, 6, '101') },
      ],
    });
    const r = await run(['--watch-only', '-o', 'json'], openSources({ live }));
    const lines = r.stdout.trimEnd().split('\n');
    assert.equal(lines.length, 1);
    const shown = JSON.parse(lines[0] ?? '') as { reason: string; count: number };
    assert.deepEqual([shown.reason, shown.count], ['ReconcileStarted', 6]);
  });
});

describe('what the timeline asks a saved file to keep of each event (core/keep.ts)', () => {
  const keepAsked = async (argv: string[]) => {
    const sources = openSources({
      saved: memorySource({ provenance: fromRecord({ namespace: null, firstObserved: NOW - 60_000, lastObserved: NOW }), raw: labEvents() }),
      live: memorySource({ provenance: fromCluster(), raw: labEvents() }),
    });
    await run(['--from', 'rec.jsonl', ...argv], sources);
    const file = sources.requests.find((req) => req.kind === 'file');
    return file?.kind === 'file' ? (file.keep ?? 'all') : undefined;
  };

  for (const [argv, keep] of [
    [['-o', 'stable'], 'stable'],
    [['-o', 'stable', '--types', 'Warning', '--for', 'pod/hungry'], 'stable'],
    [['-o', 'stable', '--since', '1h'], 'all'],
    [['-o', 'stable', '--compare'], 'all'],
    [['-o', 'stable', '--for', 'pod/hungry', '--tree'], 'all'],
    [[], 'table'],
    [['-o', 'wide', '--types', 'Warning'], 'table'],
    [['--absolute-times'], 'table'],
    [['--since', '1h'], 'all'],
    [['--compare'], 'all'],
    [['--for', 'pod/hungry', '--tree'], 'all'],
    [['-o', 'json'], 'table'],
    [['-o', 'yaml'], 'table'],
    [['-o', 'jsonpath={.items[*].reason}'], 'table'],
    [['-o', 'json', '--since', '1h'], 'all'],
    [['-o', 'json', '--for', 'pod/hungry', '--tree'], 'all'],
    [['-o', 'html'], 'all'],
  ] as [string[], string][]) {
    test(`${argv.join(' ') || 'the table'}: ${keep}`, async () => assert.equal(await keepAsked(argv), keep));
  }
});

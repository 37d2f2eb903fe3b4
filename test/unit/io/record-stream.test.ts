import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { normaliseEvent } from '../../../src/core/event.ts';
import { formatHeader, formatObservation } from '../../../src/io/record-line.ts';
import { parseRecordSaved } from '../../../src/io/record-replay.ts';
import { foldRecord, readLines } from '../../../src/io/record-stream.ts';
import { ev } from '../../support/builders.ts';
import { selectEvents } from '../../../src/core/filter.ts';
import { dedupeByUid, sortTimeline } from '../../../src/core/timeline.ts';
import type { Event } from '../../../src/core/event.ts';
import { renderTimelineTable } from '../../../src/render/timeline-table.ts';
import { plainPalette } from '../../../src/render/color.ts';
import type { EventFilter } from '../../../src/core/filter.ts';
import { eventWindow } from '../../../src/core/incident.ts';
import type { Keep } from '../../../src/core/keep.ts';
import { renderStable } from '../../../src/render/stable.ts';

const NOW = Date.parse('2026-11-30T12:00:00Z');

async function* chunksOf(text: string, size: number): AsyncGenerator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

async function lines(text: string, size: number): Promise<{ line: string; complete: boolean }[]> {
  const out = [];
  for await (const l of readLines(chunksOf(text, size))) out.push(l);
  return out;
}

const header = (namespace: string | null) =>
  formatHeader({ kind: 'EvtimelineRecord', version: 1, context: 'lab', server: 'https://127.0.0.1:6443', namespace, filter: {}, startedAt: Date.parse('2026-11-30T12:00:00Z') } as never);

function observed(name: string, rv: number, opts: { namespace?: string; count?: number; uid?: string; type?: 'ADDED' | 'MODIFIED' | 'DELETED' } = {}): string {
  const raw = ev({ name, count: opts.count ?? 1 }) as Record<string, any>;
  raw.metadata.resourceVersion = String(rv);
  raw.metadata.uid = opts.uid ?? `uid-${name}`;
  if (opts.namespace) raw.metadata.namespace = opts.namespace;
  return formatObservation({ observedAt: Date.parse(`2026-11-30T12:00:${String(rv % 60).padStart(2, '0')}Z`), type: opts.type ?? 'ADDED', event: raw } as never);
}

/** What the whole-text reader keeps, normalised: the reference the streaming fold must match. */
function reference(text: string): unknown {
  const saved = parseRecordSaved(text);
  return saved === null ? null : (saved as { raw: { core: unknown[] } }).raw.core.map(normaliseEvent);
}

async function folded(text: string, size = 7, namespace: string | null = null): Promise<unknown> {
  const fold = await foldRecord(readLines(chunksOf(text, size)), namespace);
  return fold === null ? null : fold.events;
}

describe('readLines', () => {
  test('gives each line once whatever the chunk size, and the text after the last newline as incomplete', async () => {
    const text = 'one\ntwo\n\nthree\nfour';
    for (const size of [1, 2, 3, 5, 100]) {
      assert.deepEqual(await lines(text, size), [
        { line: 'one', complete: true },
        { line: 'two', complete: true },
        { line: '', complete: true },
        { line: 'three', complete: true },
        { line: 'four', complete: false },
      ]);
    }
  });

  test('gives nothing after a final newline', async () => {
    assert.deepEqual(await lines('a\n', 1), [{ line: 'a', complete: true }]);
  });
});

describe('foldRecord keeps what the whole-text reader keeps', () => {
  const record = [
    header('op-events'),
    observed('a', 10),
    observed('b', 11),
    observed('a', 14, { count: 3, type: 'MODIFIED' }),
    '\n',
    observed('b', 12, { count: 2, type: 'DELETED' }),
    observed('c', 13),
    observed('a', 12, { count: 2, type: 'MODIFIED' }), // older than the version already seen
  ].join('');

  test('the newest version of each event, in the order each first appeared', async () => {
    const events = (await folded(record)) as { name: string; count: number }[];
    assert.deepEqual(events.map((e) => [e.name, e.count]), [['a', 3], ['b', 2], ['c', 1]]);
    assert.deepEqual(events, reference(record));
  });

  test('a newer version that changes every field replaces the kept one whole, and an older one after it changes nothing', async () => {
    const version = (rv: number, o: Parameters<typeof ev>[0]): string => {
      const raw = ev({ name: 'x.17a', uid: 'uid-x', ...o }) as Record<string, any>;
      raw.metadata.resourceVersion = String(rv);
      return formatObservation({ observedAt: Date.parse('2026-11-30T12:00:00Z'), type: 'MODIFIED', event: raw } as never);
    };
    const first = { type: 'Normal', reason: 'Pulling', message: 'Pulling image', component: 'kubelet', host: 'node-1', kind: 'Pod', objectName: 'web-1', first: 300, last: 200, count: 2 };
    const newer = { type: 'Warning', reason: 'BackOff', message: 'Back-off restarting', component: 'kubelet-2', host: 'node-2', kind: 'Job', objectName: 'job-1', first: 100, last: 5, count: 9 };
    const text = [header('op-events'), version(20, first), observed('y', 21), version(30, newer), version(25, first)].join('');
    const events = (await folded(text)) as ReturnType<typeof normaliseEvent>[];
    assert.deepEqual(events, reference(text));
    const x = events[0] as ReturnType<typeof normaliseEvent>;
    assert.deepEqual([x.resourceVersion, x.type, x.reason, x.message, x.reporter, x.instance, x.object.kind, x.object.name, x.count], ['30', 'Warning', 'BackOff', 'Back-off restarting', 'kubelet-2', 'node-2', 'Job', 'job-1', 9]);
    assert.equal(x.lastSeen! - x.firstSeen!, 95_000);
  });

  test('ignores a torn last line, as a recorder killed mid-write leaves it', async () => {
    const torn = `${record}${observed('d', 20).slice(0, 40)}`;
    assert.deepEqual(await folded(torn, 3), reference(torn));
    assert.equal(((await folded(torn)) as unknown[]).length, 3);
  });

  test('skips and counts torn fragments in the middle, keeping the whole line after one, as the whole-text reader does', async () => {
    const torn = [header('op-events'), observed('a', 10), `${observed('b', 11).slice(0, 30)}${observed('c', 12)}`, `${observed('d', 13).slice(0, 25)}\n`, observed('e', 14)].join('');
    const fold = await foldRecord(readLines(chunksOf(torn, 11)), null);
    assert.deepEqual(fold?.events.map((e) => e.name), ['a', 'c', 'e']);
    assert.equal(fold?.tornLines, 2);
    const whole = parseRecordSaved(torn)?.provenance;
    assert.equal(whole?.kind === 'record' ? whole.tornLines : undefined, 2);
    assert.deepEqual(fold?.events, reference(torn));
  });

  test('is not a record when a complete line in the middle is not one of ours', async () => {
    const bad = `${header('op-events')}${observed('a', 1)}{"not":"a record line"}\n${observed('b', 2)}`;
    assert.equal(await folded(bad), null);
    assert.equal(reference(bad), null);
  });

  test('is not a record when no line is ours', async () => {
    assert.equal(await folded('{"kind":"EventList","items":[]}\n'), null);
  });

  test('reads a header alone as a record with no events', async () => {
    assert.deepEqual(await folded(header(null)), []);
  });

  test('keeps only the namespace asked for', async () => {
    const two = [header(null), observed('a', 1, { namespace: 'one' }), observed('b', 2, { namespace: 'two' })].join('');
    const events = (await folded(two, 5, 'two')) as { name: string }[];
    assert.deepEqual(events.map((e) => e.name), ['b']);
  });

  test('keeps one version of each event, so there is nothing to de-duplicate (SourceRead.distinct)', async () => {
    const lines = [header('op-events')];
    for (let i = 0; i < 200; i += 1) lines.push(observed(`e${i % 30}`, 1 + ((i * 37) % 400), { uid: i % 7 === 0 ? '' : undefined }));
    const fold = await foldRecord(readLines(chunksOf(lines.join(''), 97)), null);
    assert.ok(fold !== null && fold.events.length >= 30);
    assert.deepEqual(dedupeByUid(fold.events), fold.events);
  });

  test('matches the whole-text reader on shuffled versions of many events', async () => {
    let seed = 7;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n);
    const lines = [header('op-events')];
    for (let i = 0; i < 300; i += 1) lines.push(observed(`e${rnd(40)}`, 1 + rnd(500), { count: 1 + rnd(5), type: rnd(3) === 0 ? 'MODIFIED' : 'ADDED' }));
    const text = lines.join('');
    assert.deepEqual(await folded(text, 61), reference(text));
  });
});

describe("foldRecord keeping 'stable' (core/keep.ts): what -o stable prints, and the span its notice gives", () => {
  function version(name: string, rv: number, opts: { type?: string; reason?: string; kind?: string; apiVersion?: string; object?: string; last?: string | null; namespace?: string } = {}): string {
    const raw = ev({ name, type: opts.type ?? 'Normal', reason: opts.reason ?? 'Pulled', kind: opts.kind ?? 'Pod', apiVersion: opts.apiVersion ?? 'v1', objectName: opts.object ?? 'web' }) as Record<string, any>;
    raw.metadata.resourceVersion = String(rv);
    raw.metadata.uid = `uid-${name}`;
    if (opts.namespace) raw.metadata.namespace = opts.namespace;
    if (opts.last !== undefined) raw.lastTimestamp = opts.last;
    // no time at all: the span leaves it out
    if (opts.last === null) [raw.firstTimestamp, raw.metadata.creationTimestamp] = [null, null];
    return formatObservation({ observedAt: Date.parse('2026-11-30T12:00:00Z'), type: 'ADDED', event: raw } as never);
  }

  async function both(text: string, filter: EventFilter = {}): Promise<{ all: unknown; stable: unknown }> {
    const view = async (keep: Keep) => {
      const fold = await foldRecord(readLines(chunksOf(text, 13)), null, keep);
      const events = selectEvents(fold?.events ?? [], filter, NOW);
      return { lines: renderStable(events), window: eventWindow(events), none: events.length === 0 };
    };
    return { all: await view('all'), stable: await view('stable') };
  }

  const record = [
    header(null),
    version('a', 1, { last: '2026-11-30T11:00:00Z' }),
    version('b', 2, { last: '2026-11-30T11:30:00Z' }),
    version('c', 3, { type: 'Warning', reason: 'BackOff', last: '2026-11-30T10:00:00Z' }),
    // a newer version of c changes its reason: only the newest counts
    version('c', 9, { type: 'Warning', reason: 'Failed', last: '2026-11-30T11:45:00Z' }),
    // an older version seen later changes nothing
    version('a', 0, { type: 'Warning', reason: 'Old', last: '2026-11-30T11:59:00Z' }),
    version('d', 4, { kind: 'Pipeline', apiVersion: 'ev.labhub.io/v1', object: 'p' }),
    version('e', 5, { kind: 'Pipeline', apiVersion: 'ci.example.com/v1', object: 'p', last: null }),
    version('f', 6, { object: 'db', namespace: 'other', last: '2026-11-30T09:00:00Z' }),
  ].join('');

  test('prints the same lines with the same span as the whole events', async () => {
    const { all, stable } = await both(record);
    assert.deepEqual(stable, all);
    assert.match((all as { lines: string }).lines, /Warning Failed Pod\/web/);
    assert.doesNotMatch((all as { lines: string }).lines, /BackOff|Old/);
  });

  for (const [name, filter] of [
    ['--types', { types: ['warning'] }],
    ['--reasons', { reasons: ['Pulled'] }],
    ['--for', { object: { kind: 'pod', name: 'db' } }],
    ['--for that matches nothing', { object: { kind: 'pod', name: 'nothing' } }],
  ] as [string, EventFilter][]) {
    test(`prints the same lines with the same span under ${name}`, async () => {
      const { all, stable } = await both(record, filter);
      assert.deepEqual(stable, all);
    });
  }

  test('keeps one event per line, however many events the record holds', async () => {
    const many = [header(null), ...Array.from({ length: 50 }, (_, i) => version(`e${i}`, i + 1, { last: `2026-11-30T11:${String(i).padStart(2, '0')}:00Z` }))].join('');
    const fold = await foldRecord(readLines(chunksOf(many, 101)), null, 'stable');
    assert.equal(fold?.events.length, 1);
    assert.deepEqual(eventWindow(fold?.events ?? []).end, Date.parse('2026-11-30T11:49:00Z'));
  });
});

describe("foldRecord keeping 'table' (core/keep.ts): every field, the numbers in columns", () => {
  function version(name: string, rv: number, opts: { count?: number; series?: boolean; message?: string; last?: number; noTime?: boolean } = {}): string {
    const raw = ev({ name, count: opts.count ?? 1, message: opts.message ?? `about ${name}`, first: 600, last: opts.last ?? 600, host: `node-${rv % 3}` }) as Record<string, any>;
    raw.metadata.resourceVersion = String(rv);
    raw.metadata.uid = `uid-${name}`;
    raw.action = rv % 2 === 0 ? 'Binding' : '';
    if (opts.series) [raw.eventTime, raw.series] = ['2026-11-30T11:50:00.000000Z', { count: opts.count ?? 2, lastObservedTime: '2026-11-30T11:58:00.000000Z' }];
    if (opts.noTime) [raw.firstTimestamp, raw.lastTimestamp, raw.metadata.creationTimestamp] = [null, null, null];
    return formatObservation({ observedAt: Date.parse('2026-11-30T12:00:00Z'), type: 'ADDED', event: raw } as never);
  }

  /** Each Event field read by name, as the table reads them: a field the kept form drops reads undefined. */
  const fields = (events: readonly Event[]) =>
    events.map((e) => Object.fromEntries(Object.keys(normaliseEvent({})).map((key) => [key, structuredClone(e[key as keyof Event])])));

  async function both(text: string): Promise<{ all: Event[]; table: Event[] }> {
    const view = async (keep: Keep) => (await foldRecord(readLines(chunksOf(text, 97)), null, keep))?.events ?? [];
    return { all: await view('all'), table: await view('table') };
  }

  // Past a column chunk (4,096 slots), with newer versions written over kept ones in both chunks.
  const record = [
    header(null),
    ...Array.from({ length: 4200 }, (_, i) => version(`e${i}`, 10 * i + 1, { count: 1 + (i % 4), series: i % 5 === 0, last: 600 - (i % 50), noTime: i % 97 === 0 })),
    version('e3', 100_000, { count: 9, message: 'later', last: 10 }),
    version('e4100', 100_001, { count: 7, series: true }),
    // older: changes nothing
    version('e7', 1, { count: 30, message: 'stale' }),
  ].join('');

  test('keeps every field of every event, the newest version of each', async () => {
    const { all, table } = await both(record);
    assert.equal(table.length, 4200);
    assert.deepEqual(fields(table), fields(all));
    const e3 = table[3] as Event;
    assert.deepEqual([e3.count, e3.message, e3.resourceVersion], [9, 'later', '100000']);
    assert.equal((table[4100] as Event).seriesStyle, true);
    assert.equal((table[97] as Event).firstSeen, null);
  });

  test('prints the same table, plain and wide, as the whole events', async () => {
    const { all, table } = await both(record);
    for (const wide of [false, true]) {
      const opts = { now: NOW, wide, allNamespaces: true, noHeaders: false, palette: plainPalette };
      assert.equal(renderTimelineTable(sortTimeline(table), opts), renderTimelineTable(sortTimeline(all), opts));
    }
  });
});

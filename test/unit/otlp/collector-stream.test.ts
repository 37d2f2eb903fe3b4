// A collector's file read as a stream (src/otlp/collector-stream.ts) reads as the whole-file reader
// (src/otlp/collector-file.ts) does: the same events, the same provenance; a torn last line ignored;
// a file that is not one handed back to the whole-file reader.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { collectorFileSource } from '../../../src/otlp/collector-stream.ts';
import { parseOtlpEventLines } from '../../../src/otlp/collector-file.ts';
import { encodeLogs } from '../../../src/otlp/encode.ts';
import { eventToLog, hrTimeFromMs } from '../../../src/otlp/logs.ts';
import { fileSource } from '../../../src/io/event-file.ts';
import { eventWindow } from '../../../src/core/incident.ts';
import { stableLines } from '../../../src/core/timeline.ts';
import type { Event } from '../../../src/core/event.ts';
import type { SavedEvents } from '../../../src/io/saved-events.ts';
import { NOW, ev } from '../../support/builders.ts';
import { scratchDir } from '../../support/tmp.ts';

const dir = scratchDir('collector-stream');
let serial = 0;

/** One export request line of these events, as the file exporter writes it. */
async function line(events: Record<string, unknown>[], at = NOW): Promise<string> {
  return `${new TextDecoder().decode(await encodeLogs(events.map((e) => eventToLog(e, hrTimeFromMs(at))), 'json'))}\n`;
}

async function file(text: string): Promise<string> {
  serial += 1;
  const path = join(dir, `c-${serial}.jsonl`);
  await writeFile(path, text);
  return path;
}

const strip = (list: unknown[]) => JSON.parse(JSON.stringify(list)) as unknown[];

/** How many times `path` is opened while `run` runs (the reader opens it with fs.openSync: io/record-stream.ts chunksOf). */
async function opensOf<T>(path: string, run: () => Promise<T>): Promise<{ result: T; opens: number }> {
  const openSync = fs.openSync;
  let opens = 0;
  fs.openSync = ((...args: Parameters<typeof openSync>) => {
    if (args[0] === path) opens += 1;
    return openSync(...args);
  }) as typeof openSync;
  // The reader's named import of node:fs follows the module's property only once told to.
  syncBuiltinESMExports();
  try {
    return { result: await run(), opens };
  } finally {
    fs.openSync = openSync;
    syncBuiltinESMExports();
  }
}

describe('a collector file streamed', () => {
  const a1 = ev({ name: 'a', uid: 'ua', count: 1, first: 300 });
  const a2 = { ...ev({ name: 'a', uid: 'ua', count: 4, first: 300, last: 10 }), metadata: { ...(a1.metadata as object), resourceVersion: '9999' } };
  const b = ev({ name: 'b', uid: 'ub', namespace: 'other' });

  test('the newest version of each event, as the whole-file reader reads them, and the same provenance', async () => {
    const text = (await line([a1, b], NOW - 60_000)) + (await line([a2], NOW));
    const streamed = await collectorFileSource(await file(text), null);
    assert.ok(streamed);
    const whole = fileSource(parseOtlpEventLines(text) as SavedEvents, null);
    assert.deepEqual(strip((await streamed.read()).events).sort(), strip((await whole.read()).events).sort());
    const pick = (p: object) => {
      const { tells, writers, firstObserved, lastObserved, namespace, skipped } = p as Record<string, unknown>;
      return { tells, writers, firstObserved, lastObserved, namespace, skipped };
    };
    assert.deepEqual(pick(streamed.provenance), pick(whole.provenance));
    assert.deepEqual(((await streamed.versions()) ?? []).length, 3);
  });

  test('-n narrows as it reads', async () => {
    const streamed = await collectorFileSource(await file((await line([a1, b])) + (await line([a2]))), 'other');
    assert.deepEqual((await streamed?.read())?.events.map((e) => e.name), ['b']);
  });

  test('a torn last line (a collector stopped mid-write) is ignored', async () => {
    const whole = await line([a1]);
    const streamed = await collectorFileSource(await file(whole + (await line([b])).slice(0, 40)), null);
    assert.deepEqual((await streamed?.read())?.events.map((e) => e.name), ['a']);
  });

  test('a torn last line is ignored whole, also the elements of it that were whole before the tear', async () => {
    // Two involved objects: two resourceLogs elements in the line; torn inside the second.
    const c = ev({ name: 'c', uid: 'uc', objectName: 'pod-c', objectUid: 'o-c' });
    const d = ev({ name: 'd', uid: 'ud', objectName: 'pod-d', objectUid: 'o-d' });
    const torn = await line([c, d]);
    const cut = torn.indexOf('pod-d');
    assert.ok(cut > 0 && torn.slice(0, cut).includes('pod-c'));
    const text = (await line([a1])) + torn.slice(0, cut);
    const streamed = await collectorFileSource(await file(text), null);
    assert.deepEqual((await streamed?.read())?.events.map((e) => e.name), ['a']);
    assert.deepEqual(((await streamed?.versions()) ?? []).map((v) => (v.event.metadata as { name: string }).name), ['a']);
    // As the whole-file reader reads it.
    assert.deepEqual((await fileSource(parseOtlpEventLines(text) as SavedEvents, null).read()).events.map((e) => e.name), ['a']);
  });

  for (const keep of ['all', 'table'] as const) {
    test(`keeping ${keep}, a torn last line costs no second read: the file opened once, nothing of that line in the events or the provenance`, async () => {
      // The torn line's whole element is of another namespace and observed later: counted, it would show.
      const c = ev({ name: 'c', uid: 'uc', namespace: 'late', objectName: 'pod-c', objectUid: 'o-c' });
      const d = ev({ name: 'd', uid: 'ud', objectName: 'pod-d', objectUid: 'o-d' });
      const torn = await line([c, d], NOW + 60_000);
      const text = (await line([a1], NOW)) + torn.slice(0, torn.indexOf('pod-d'));
      const path = await file(text);
      const { result, opens } = await opensOf(path, () => collectorFileSource(path, null, keep));
      assert.equal(opens, 1);
      assert.ok(result);
      assert.deepEqual((await result.read()).events.map((e) => e.name), ['a']);
      const whole = fileSource(parseOtlpEventLines(text) as SavedEvents, null);
      const pick = ({ writers, firstObserved, lastObserved, namespace, skipped, unreadable }: Record<string, unknown>) => ({ writers, firstObserved, lastObserved, namespace, skipped, unreadable });
      assert.deepEqual(pick(result.provenance as unknown as Record<string, unknown>), pick(whole.provenance as unknown as Record<string, unknown>));
      assert.equal(result.provenance.namespace, 'op-events');
    });
  }

  test('a torn last line longer than a read (64 KiB), after lines longer than one: only it dropped, the file opened once', async () => {
    const many = (prefix: string, n: number, at: number) => line(Array.from({ length: n }, (_, i) => ev({ name: `${prefix}${i}`, uid: `${prefix}${i}`, objectName: `pod-${prefix}${i}`, objectUid: `o-${prefix}${i}` })), at);
    const whole = (await many('a', 120, NOW - 2000)) + (await many('b', 120, NOW - 1000));
    const torn = await many('t', 200, NOW);
    assert.ok(whole.length > 128 * 1024 && torn.length > 2 * 64 * 1024);
    const text = whole + torn.slice(0, torn.length - 100);
    const path = await file(text);
    const { result, opens } = await opensOf(path, () => collectorFileSource(path, null, 'table'));
    assert.equal(opens, 1);
    const names = ((await result?.read())?.events ?? []).map((e) => e.name).sort();
    assert.equal(names.length, 240);
    assert.deepEqual(names, (await fileSource(parseOtlpEventLines(text) as SavedEvents, null).read()).events.map((e) => e.name).sort());
  });

  test('a last line whole but without its newline is read, once', async () => {
    const text = (await line([a1])) + (await line([b])).trimEnd();
    const path = await file(text);
    const { result, opens } = await opensOf(path, () => collectorFileSource(path, null, 'table'));
    assert.equal(opens, 1);
    assert.deepEqual((await result?.read())?.events.map((e) => e.name).sort(), ['a', 'b']);
  });

  test('lines far longer than a read (64 KiB), messages holding quotes, brackets, commas and backslashes: as the whole-file reader reads them', async () => {
    const hostile = (i: number) => `"}],{"resourceLogs":[\\"${'\\'.repeat(i % 3)}] }, ${'x'.repeat(i * 7)} \u001b[2J`;
    const events = Array.from({ length: 600 }, (_, i) => ev({ name: `e${i}`, uid: `u${i}`, objectName: `pod-${i % 40}`, objectUid: `o-${i % 40}`, message: hostile(i) }));
    const text = (await line(events.slice(0, 300), NOW - 1000)) + (await line(events.slice(300), NOW));
    assert.ok(text.length > 4 * 65_536);
    const streamed = await collectorFileSource(await file(text), null);
    assert.ok(streamed);
    const whole = fileSource(parseOtlpEventLines(text) as SavedEvents, null);
    const byName = (list: unknown[]) => strip(list).sort((x, y) => String((x as { name: string }).name).localeCompare(String((y as { name: string }).name)));
    assert.deepEqual(byName((await streamed.read()).events), byName((await whole.read()).events));
    assert.equal((await streamed.read()).events.find((e) => e.name === 'e599')?.message, hostile(599));
  });

  test('a line in the middle that is not an export request: not a collector file, left to the whole-file reader', async () => {
    assert.equal(await collectorFileSource(await file(`${await line([a1])}not json\n${await line([b])}`), null), null);
    assert.equal(await collectorFileSource(await file('{"kind":"EventList","items":[]}\n'), null), null);
  });
});

describe('a collector file of several contexts (k8s.cluster.name, as export --context a,b writes it)', () => {
  /** One export request line, each log record's resource naming `context` as its cluster. */
  async function lineOf(events: Record<string, unknown>[], context: string | undefined, at = NOW): Promise<string> {
    return `${new TextDecoder().decode(await encodeLogs(events.map((e) => eventToLog(e, hrTimeFromMs(at), context)), 'json'))}\n`;
  }
  // One uid in two clusters (a copied namespace): two events, as a live read of both shows them.
  const a1 = ev({ name: 'a', uid: 'ua', count: 1, first: 300 });
  const a2 = { ...ev({ name: 'a', uid: 'ua', count: 4, first: 300, last: 10 }), metadata: { ...(a1.metadata as object), resourceVersion: '9999' } };
  const b = ev({ name: 'b', uid: 'ub', namespace: 'other' });
  const text = async () => (await lineOf([a1], 'east', NOW - 60_000)) + (await lineOf([a1, b], 'west\u001b[2J', NOW - 30_000)) + (await lineOf([a2], 'east', NOW));
  const seen = (events: { name: string; count: number; cluster?: { context: string; server: string } }[]) => events.map((e) => `${e.cluster?.context ?? '-'} ${e.cluster?.server ?? '-'} ${e.name} ${e.count}`).sort();

  for (const keep of ['all', 'table', 'stable'] as const) {
    test(`streamed, keeping ${keep}: each event labelled with its cluster, the clusters in the provenance, as the whole-file reader reads it`, async () => {
      const t = await text();
      const streamed = await collectorFileSource(await file(t), null, keep);
      assert.ok(streamed);
      // Whatever the output keeps: its kept forms hold no context, so such a file keeps whole events.
      assert.deepEqual(seen((await streamed.read()).events), ['east  a 4', 'west\u001b[2J  a 1', 'west\u001b[2J  b 1']);
      const clusters = [
        { context: 'east', server: '', namespace: 'op-events' },
        { context: 'west\u001b[2J', server: '', namespace: null },
      ];
      assert.deepEqual((streamed.provenance as { clusters?: unknown }).clusters, clusters);
      const whole = fileSource(parseOtlpEventLines(t) as SavedEvents, null);
      assert.deepEqual((whole.provenance as { clusters?: unknown }).clusters, clusters);
      assert.deepEqual(seen((await whole.read()).events), ['east  a 4', 'west\u001b[2J  a 1', 'west\u001b[2J  b 1']);
      // Every version, each under its cluster (export back-fills them so); the raw objects' contexts one for one.
      for (const source of [streamed, whole]) {
        assert.deepEqual(((await source.versions()) ?? []).map((v) => `${v.cluster?.context} ${v.event.count}`), ['east 1', 'west\u001b[2J 1', 'west\u001b[2J 1', 'east 4']);
        const raw = (await source.read({ raw: true })).raw;
        assert.deepEqual(raw?.core.map((r, i) => `${raw.coreContexts?.[i]} ${(r as { count: number }).count}`).sort(), ['east 4', 'west\u001b[2J 1', 'west\u001b[2J 1']);
      }
    });
  }

  for (const keep of ['all', 'table', 'stable'] as const) {
    test(`keeping ${keep}, a file of several contexts is read once`, async () => {
      const path = await file(await text());
      const { result, opens } = await opensOf(path, () => collectorFileSource(path, null, keep));
      assert.deepEqual(seen((await result?.read())?.events ?? []), ['east  a 4', 'west\u001b[2J  a 1', 'west\u001b[2J  b 1']);
      assert.equal(opens, 1);
    });
  }

  test('a file naming clusters only from its middle on (a single context\'s export and then several, in one file): as one whole fold reads it, in the same order', async () => {
    // Unnamed versions before, between and after the named ones: a's newer version after the first named line, c new after it.
    const c = ev({ name: 'c', uid: 'uc', objectName: 'pod-c', objectUid: 'o-c', first: 200 });
    const a3 = { ...ev({ name: 'a', uid: 'ua', count: 9, first: 300, last: 5 }), metadata: { ...(a1.metadata as object), resourceVersion: '10001' } };
    const t =
      (await lineOf([a1, b], undefined, NOW - 90_000)) +
      (await lineOf([a1], 'east', NOW - 60_000)) +
      (await lineOf([a3, c], undefined, NOW - 50_000)) +
      (await lineOf([a1, b], 'west', NOW - 30_000)) +
      (await lineOf([a2], 'east', NOW));
    const all = await collectorFileSource(await file(t), null, 'all');
    assert.ok(all);
    const whole = (await all.read()).events;
    assert.deepEqual(seen(whole), ['- - a 9', '- - b 1', '- - c 1', 'east  a 4', 'west  a 1', 'west  b 1']);
    // Every field read by name (the table's form keeps them behind getters), in the order each event first appeared.
    const fields = (events: Event[]) => events.map((e) => Object.fromEntries(Object.keys(whole[0] as Event).concat('cluster').map((k) => [k, (e as unknown as Record<string, unknown>)[k]])));
    const path = await file(t);
    const table = await opensOf(path, async () => (await (await collectorFileSource(path, null, 'table'))?.read())?.events ?? []);
    assert.equal(table.opens, 1);
    assert.deepEqual(fields(table.result), fields(whole));
    // -o stable's lines and span.
    const stable = (await (await collectorFileSource(path, null, 'stable'))?.read())?.events ?? [];
    assert.deepEqual(stableLines(stable), stableLines(whole));
    assert.deepEqual(eventWindow(stable), eventWindow(whole));
  });

  test('a file that names no cluster (one context exported) reads as before: no clusters, no labels', async () => {
    const t = (await lineOf([a1, b], undefined)) + (await lineOf([a2], undefined));
    const streamed = await collectorFileSource(await file(t), null, 'table');
    assert.equal((streamed?.provenance as { clusters?: unknown }).clusters, undefined);
    assert.deepEqual(seen((await streamed?.read())?.events ?? []), ['- - a 4', '- - b 1']);
    assert.equal((parseOtlpEventLines(t)?.provenance as { clusters?: unknown }).clusters, undefined);
  });
});

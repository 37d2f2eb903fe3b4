// A collector's file read as a stream (src/otlp/collector-stream.ts) reads as the whole-file reader
// (src/otlp/collector-file.ts) does: the same events, the same provenance; a torn last line ignored;
// a file that is not one handed back to the whole-file reader.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { collectorFileSource } from '../../../src/otlp/collector-stream.ts';
import { parseOtlpEventLines } from '../../../src/otlp/collector-file.ts';
import { encodeLogs } from '../../../src/otlp/encode.ts';
import { eventToLog, hrTimeFromMs } from '../../../src/otlp/logs.ts';
import { fileSource } from '../../../src/io/event-file.ts';
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

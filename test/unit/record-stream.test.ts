import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { normaliseEvent } from '../../src/core/event.ts';
import { formatHeader, formatObservation, parseRecordSaved } from '../../src/io/record-file.ts';
import { foldRecord, readLines } from '../../src/io/record-stream.ts';
import { ev } from '../support/builders.ts';

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
  it('gives each line once whatever the chunk size, and the text after the last newline as incomplete', async () => {
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

  it('gives nothing after a final newline', async () => {
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

  it('the newest version of each event, in the order each first appeared', async () => {
    const events = (await folded(record)) as { name: string; count: number }[];
    assert.deepEqual(events.map((e) => [e.name, e.count]), [['a', 3], ['b', 2], ['c', 1]]);
    assert.deepEqual(events, reference(record));
  });

  it('ignores a torn last line, as a recorder killed mid-write leaves it', async () => {
    const torn = `${record}${observed('d', 20).slice(0, 40)}`;
    assert.deepEqual(await folded(torn, 3), reference(torn));
    assert.equal(((await folded(torn)) as unknown[]).length, 3);
  });

  it('skips and counts torn fragments in the middle, keeping the whole line after one, as the whole-text reader does', async () => {
    const torn = [header('op-events'), observed('a', 10), `${observed('b', 11).slice(0, 30)}${observed('c', 12)}`, `${observed('d', 13).slice(0, 25)}\n`, observed('e', 14)].join('');
    const fold = await foldRecord(readLines(chunksOf(torn, 11)), null);
    assert.deepEqual(fold?.events.map((e) => e.name), ['a', 'c', 'e']);
    assert.equal(fold?.tornLines, 2);
    const whole = parseRecordSaved(torn)?.provenance;
    assert.equal(whole?.kind === 'record' ? whole.tornLines : undefined, 2);
    assert.deepEqual(fold?.events, reference(torn));
  });

  it('is not a record when a complete line in the middle is not one of ours', async () => {
    const bad = `${header('op-events')}${observed('a', 1)}{"not":"a record line"}\n${observed('b', 2)}`;
    assert.equal(await folded(bad), null);
    assert.equal(reference(bad), null);
  });

  it('is not a record when no line is ours', async () => {
    assert.equal(await folded('{"kind":"EventList","items":[]}\n'), null);
  });

  it('reads a header alone as a record with no events', async () => {
    assert.deepEqual(await folded(header(null)), []);
  });

  it('keeps only the namespace asked for', async () => {
    const two = [header(null), observed('a', 1, { namespace: 'one' }), observed('b', 2, { namespace: 'two' })].join('');
    const events = (await folded(two, 5, 'two')) as { name: string }[];
    assert.deepEqual(events.map((e) => e.name), ['b']);
  });

  it('matches the whole-text reader on shuffled versions of many events', async () => {
    let seed = 7;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n);
    const lines = [header('op-events')];
    for (let i = 0; i < 300; i += 1) lines.push(observed(`e${rnd(40)}`, 1 + rnd(500), { count: 1 + rnd(5), type: rnd(3) === 0 ? 'MODIFIED' : 'ADDED' }));
    const text = lines.join('');
    assert.deepEqual(await folded(text, 61), reference(text));
  });
});

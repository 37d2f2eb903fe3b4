// Property tests of what --from reads (captures, lists, records, stable tables, collector files) and of record
// lines: whatever a file holds, a read verb shows its events or refuses it with one usage error,
// never a crash and never an event invented from something that is not one.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { runCli } from '../../../src/cli.ts';
import { RuntimeError, UsageError } from '../../../src/errors.ts';
import { RECORD_KIND } from '../../../src/core/record.ts';
import { formatHeader, formatObservation, parseRecordLine } from '../../../src/io/record-line.ts';
import { encodeLogs } from '../../../src/otlp/encode.ts';
import { eventToLog, hrTimeFromMs } from '../../../src/otlp/logs.ts';
import { ev, labEvents } from '../../support/builders.ts';
import { fakeDeps } from '../../support/deps.ts';
import { scratchDir } from '../../support/tmp.ts';

const dir = scratchDir('file-props');
let serial = 0;

/** Runs a read verb over `text` saved as a file: its exit code and stdout, or the error it threw. */
async function readBack(text: string, verb: string[] = ['-o', 'json']): Promise<{ code?: number; stdout: string; error?: unknown }> {
  serial += 1;
  const file = join(dir, `in-${serial}`);
  writeFileSync(file, text);
  const fake = fakeDeps();
  try {
    return { code: await runCli([...verb, '--from', file], fake.deps), stdout: fake.stdout() };
  } catch (error) {
    return { stdout: fake.stdout(), error };
  }
}

const jsonValue = fc.jsonValue({ maxDepth: 3 });

describe('--from, for any file', () => {
  test('any text: events, or a usage error, never a crash', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ maxLength: 200 }), jsonValue.map((v) => JSON.stringify(v))), async (text) => {
        const r = await readBack(text);
        if (r.error !== undefined) assert.ok(r.error instanceof UsageError || r.error instanceof RuntimeError, String(r.error));
        else assert.ok(Array.isArray(JSON.parse(r.stdout)));
      }),
      { numRuns: 200 },
    );
  });

  test('a list whose items are Events reads back every one of them', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ reason: fc.stringMatching(/^[A-Za-z]{1,12}$/), message: fc.string({ maxLength: 40 }) }), { maxLength: 8 }), async (specs) => {
        const items = specs.map((s, i) => ev({ name: `e-${i}`, uid: `uid-${i}`, reason: s.reason, message: s.message }));
        const r = await readBack(JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
        assert.equal(r.error, undefined, String(r.error));
        const events = JSON.parse(r.stdout) as { name: string; reason: string; message: string }[];
        assert.deepEqual(events.map((e) => [e.reason, e.message]).sort(), specs.map((s) => [s.reason, s.message]).sort());
      }),
      { numRuns: 100 },
    );
  });

  test('the lab as a record, cut at any byte after its header, reads back the events whose lines are whole', async () => {
    const header = formatHeader({ kind: RECORD_KIND, version: 1, context: 'lab', server: 'https://127.0.0.1:6443', namespace: 'op-events', filter: {}, startedAt: Date.parse('2026-11-30T12:00:00.000Z') });
    const lines = labEvents().map((event, i) => formatObservation({ observedAt: Date.parse(`2026-11-30T12:00:0${i}.000Z`), type: 'ADDED', event }));
    const whole = header + lines.join('');
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: header.length, max: whole.length }), async (cut) => {
        const r = await readBack(whole.slice(0, cut));
        assert.equal(r.error, undefined, String(r.error));
        // A line is whole once its JSON is (its newline may be what was cut).
        let end = header.length;
        const whole_ = lines.filter((line) => (end += line.length) - 1 <= cut).length;
        assert.equal((JSON.parse(r.stdout) as unknown[]).length, whole_);
      }),
      { numRuns: 60 },
    );
  });
});

describe('--from a collector file (OTLP JSON lines), for any cut or stray line', () => {
  const observed = hrTimeFromMs(Date.parse('2026-11-30T12:00:00.000Z'));
  const lab = labEvents();
  /** Our export as the collector's file exporter stores it: one OTLP JSON request a line, here one event a line. */
  const linesOf = async (): Promise<string[]> =>
    Promise.all(lab.map(async (event) => `${new TextDecoder().decode(await encodeLogs([eventToLog(event, observed)], 'json'))}\n`));

  test('cut at any byte after its first line, reads back the events whose lines are whole', async () => {
    const lines = await linesOf();
    const whole = lines.join('');
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: (lines[0] ?? '').length - 1, max: whole.length }), async (cut) => {
        const r = await readBack(whole.slice(0, cut));
        assert.equal(r.error, undefined, String(r.error));
        let end = 0;
        const wholeLines = lines.filter((line) => (end += line.length) - 1 <= cut).length;
        assert.equal((JSON.parse(r.stdout) as unknown[]).length, wholeLines);
      }),
      { numRuns: 40 },
    );
  });

  test('with any line in the middle replaced by other text: its events, or a usage error, never a crash', async () => {
    const lines = await linesOf();
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ maxLength: 80 }), jsonValue.map((v) => JSON.stringify(v))), async (stray) => {
        const text = [lines[0], `${stray.replace(/\n/g, ' ')}\n`, ...lines.slice(1)].join('');
        const r = await readBack(text);
        if (r.error !== undefined) assert.ok(r.error instanceof UsageError, String(r.error));
        else assert.ok((JSON.parse(r.stdout) as unknown[]).length <= lab.length);
      }),
      { numRuns: 60 },
    );
  });
});

describe('record lines', () => {
  test('an observation reads back exactly as it was written', () => {
    fc.assert(
      fc.property(
        // Epoch ms up to year 9999 (written as ISO 8601), or null (written as '', read back as null).
        fc.record({ observedAt: fc.option(fc.integer({ min: 0, max: 253_402_300_799_999 })), type: fc.constantFrom('ADDED', 'MODIFIED', 'DELETED'), event: fc.dictionary(fc.string(), jsonValue) }),
        fc.boolean(),
        (observation, inferred) => {
          const written = formatObservation(inferred ? { ...observation, inferred } : observation);
          assert.ok(written.endsWith('\n') && !written.slice(0, -1).includes('\n'));
          assert.deepEqual(parseRecordLine(written.slice(0, -1)), { observation: JSON.parse(JSON.stringify(inferred ? { ...observation, inferred } : observation)) });
        },
      ),
    );
  });

  test('any other line is not an observation, or is one only when it has the shape of one', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), jsonValue.map((v) => JSON.stringify(v))), (line) => {
        const parsed = parseRecordLine(line);
        if (parsed !== null && 'observation' in parsed) assert.equal(typeof parsed.observation.type, 'string');
      }),
    );
  });
});

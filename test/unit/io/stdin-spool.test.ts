// --from - holding a record or a collector's file is copied to a private file as it arrives and
// read line by line from there (src/io/stdin-spool.ts): the same events as the file itself, every
// version and raw object still there for export and capture, the copy private and gone at exit;
// anything else on stdin is read whole, as before.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { spawnSync } from 'node:child_process';
import { spoolIfLines } from '../../../src/io/stdin-spool.ts';
import { systemSources } from '../../../src/system.ts';
import { SavedFileError } from '../../../src/io/saved-events.ts';
import { formatHeader, formatObservation } from '../../../src/io/record-line.ts';
import { encodeLogs } from '../../../src/otlp/encode.ts';
import { eventToLog, hrTimeFromMs } from '../../../src/otlp/logs.ts';
import { NOW, ev } from '../../support/builders.ts';
import { scratchDir } from '../../support/tmp.ts';

const dir = scratchDir('stdin-spool');

function recordText(n: number): string {
  const header = formatHeader({ kind: 'EvtimelineRecord', version: 1, context: 'lab', server: 'https://127.0.0.1:6443', namespace: null, filter: {}, startedAt: NOW } as never);
  const lines = [header];
  for (let i = 0; i < n; i++) {
    const raw = ev({ name: `e${i % (n / 2)}`, uid: `u${i % (n / 2)}`, count: 1 + Math.floor(i / (n / 2)) }) as Record<string, any>;
    raw.metadata.resourceVersion = String(100 + i);
    lines.push(formatObservation({ observedAt: NOW + i, type: 'MODIFIED', event: raw } as never));
  }
  return lines.map((l) => `${l.replace(/\n$/, '')}\n`).join('');
}

/** A stream of `text` in small pieces, as a pipe delivers it. */
const piped = (text: string | Buffer) => Readable.from(Array.from({ length: Math.ceil(text.length / 1000) }, (_, i) => Buffer.from(text.slice(i * 1000, (i + 1) * 1000))));

const open = (stdin: Readable) => systemSources({ env: {}, stdin, stderr: { write: () => {} } })({ kind: 'file', path: '-', namespace: null });

describe('--from - holding a record', () => {
  const text = recordText(400);

  test('a record on stdin is copied to a private file whole, and read as the file is', async () => {
    const input = await spoolIfLines(piped(text), () => {});
    assert.equal(input.kind, 'spooled');
    if (input.kind !== 'spooled') return;
    assert.equal(readFileSync(input.path, 'utf8'), text);
    assert.equal(statSync(input.path).mode & 0o777, 0o600);
    assert.equal(statSync(dirname(input.path)).mode & 0o777, 0o700);

    const file = join(dir, 'record.jsonl');
    await writeFile(file, text);
    const fromFile = await systemSources({ env: {}, stdin: Readable.from([]), stderr: { write: () => {} } })({ kind: 'file', path: file, namespace: null });
    const fromStdin = await open(piped(text));
    assert.equal(fromStdin.provenance.kind, 'record');
    const plain = (x: unknown) => JSON.parse(JSON.stringify(x));
    assert.deepEqual(plain((await fromStdin.read()).events), plain((await fromFile.read()).events));
    assert.equal((await fromStdin.read()).events.length, 200);
    // What export and capture read: every version, the raw objects.
    assert.equal((await fromStdin.versions())?.length, 400);
    assert.deepEqual(plain((await fromStdin.read({ raw: true })).raw?.core), plain((await fromFile.read({ raw: true })).raw?.core));
  });

  test('a collector\'s file on stdin is read as the file is', async () => {
    const events = [ev({ name: 'a', uid: 'ua' }), ev({ name: 'b', uid: 'ub' })];
    const line = `${new TextDecoder().decode(await encodeLogs(events.map((e) => eventToLog(e, hrTimeFromMs(NOW))), 'json'))}\n`;
    const source = await open(piped(line + line));
    assert.equal(source.provenance.kind, 'otlp');
    assert.deepEqual((await source.read()).events.map((e) => e.name).sort(), ['a', 'b']);
  });

  test('anything else on stdin is read whole, as before; a NUL byte after a record\'s start is still "not text"', async () => {
    const list = JSON.stringify({ kind: 'EventList', apiVersion: 'v1', items: [ev({ name: 'x' })] });
    const input = await spoolIfLines(piped(list), () => {});
    assert.equal(input.kind, 'chunks');
    assert.deepEqual((await (await open(piped(list))).read()).events.map((e) => e.name), ['x']);
    const broken = Buffer.concat([Buffer.from(text.slice(0, 5000)), Buffer.from([0]), Buffer.from('more')]);
    await assert.rejects(open(piped(broken)), (e: unknown) => e instanceof SavedFileError && e.problem === 'binary' && e.detail === '5001');
  });

  test('the copy is removed when the process exits', () => {
    const script = `
      import { spoolIfLines } from ${JSON.stringify(new URL('../../../src/io/stdin-spool.ts', import.meta.url).pathname)};
      import { Readable } from 'node:stream';
      const input = await spoolIfLines(Readable.from([Buffer.from(${JSON.stringify(text.slice(0, 3000))})]), () => {});
      console.log(input.path);`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    assert.equal(child.status, 0, child.stderr);
    const path = child.stdout.trim();
    assert.match(path, /kubectl-evtimeline-stdin-.*\/input$/);
    assert.equal(existsSync(dirname(path)), false);
  });
});

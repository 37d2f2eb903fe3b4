// A long output goes to a slow reader (`| less`, a pipe Node queues in memory on POSIX) a piece
// at a time: the verb waits for the reader between pieces instead of queueing the whole output.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../../src/cli.ts';
import type { Output } from '../../../src/deps.ts';
import { RECORD_KIND } from '../../../src/core/record.ts';
import { formatHeader, formatObservation } from '../../../src/io/record-line.ts';
import { ev } from '../../support/builders.ts';
import { fakeDeps } from '../../support/deps.ts';
import { scratchDir } from '../../support/tmp.ts';

/**
 * A pipe whose reader takes what is queued once per turn of the event loop; drain() is a promise
 * while more than `limit` characters wait, as a net.Socket's writableNeedDrain past its high-water mark.
 */
function slowPipe(limit: number): { out: Output; text(): string; mostQueued(): number } {
  let taken = '';
  let queued = '';
  let most = 0;
  let waiting: (() => void)[] = [];
  const read = (): void => {
    taken += queued;
    queued = '';
    for (const resolve of waiting) resolve();
    waiting = [];
  };
  const out: Output = {
    isTTY: false,
    write: (text) => {
      if (queued === '') setImmediate(read);
      queued += text;
      most = Math.max(most, queued.length);
    },
    drain: () => (queued.length <= limit ? undefined : new Promise<void>((resolve) => waiting.push(resolve))),
  };
  return { out, text: () => taken + queued, mostQueued: () => most };
}

describe('timeline output to a slow reader', () => {
  const dir = scratchDir('backpressure');
  const file = join(dir, 'record.jsonl');
  const at = Date.parse('2026-11-30T11:00:00.000Z');
  const header = formatHeader({ kind: RECORD_KIND, version: 1, context: 'c', server: 'https://h', namespace: 'op-events', filter: {}, startedAt: at });
  // 3,000 events: a table of about 390 kB, a JSON document of about 2 MB.
  const lines = Array.from({ length: 3000 }, (_, i) => formatObservation({ observedAt: at, type: 'ADDED', event: ev({ name: `web-${i}.18a1b2c3d4e5f607`, message: `Started container web-${i} after ${i}s` }) }));
  writeFileSync(file, header + lines.join(''));

  for (const output of [[], ['-o', 'wide'], ['-o', 'json'], ['-o', 'yaml']]) {
    test(`${output.join(' ') || 'the table'}: at most one piece waits for the reader, and the reader gets every byte`, async () => {
      const whole = fakeDeps();
      assert.equal(await runCli(['--from', file, ...output], whole.deps), 0);
      const pipe = slowPipe(16 * 1024);
      const slow = fakeDeps();
      assert.equal(await runCli(['--from', file, ...output], { ...slow.deps, stdout: pipe.out }), 0);
      assert.ok(whole.stdout().length > 300_000, `${whole.stdout().length} characters`);
      assert.equal(pipe.text(), whole.stdout());
      // One piece is at most 48 K UTF-16 units (render/timeline-table.ts); the whole output is far more.
      assert.ok(pipe.mostQueued() <= 16 * 1024 + 48 * 1024 + 2048, `${pipe.mostQueued()} characters waited for the reader`);
    });
  }
});

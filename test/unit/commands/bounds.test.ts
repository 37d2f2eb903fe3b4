// Bounds on what a server, a proxy or a user can make the plugin do: counts past int32, pages that
// never end, watch lines that never end.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, ftruncateSync, mkdirSync, openSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { runCli } from '../../../src/cli.ts';
import { RuntimeError, UsageError } from '../../../src/errors.ts';
import { continueTokens, MAX_PAGES } from '../../../src/kube/paging.ts';
import { MAX_WATCH_LINE, readWatchLines } from '../../../src/kube/watch.ts';
import { RECORD_KIND } from '../../../src/core/record.ts';
import { formatHeader, formatObservation } from '../../../src/io/record-line.ts';
import { ev } from '../../support/builders.ts';
import { fakeDeps } from '../../support/deps.ts';
import { scratchDir } from '../../support/tmp.ts';

/** The message of the error a verb fails with, which must be of class `kind` (usage: exit 2, runtime: exit 1). */
async function failure(argv: string[], kind: typeof UsageError | typeof RuntimeError = UsageError): Promise<string> {
  const error = await runCli(argv, fakeDeps().deps).then(
    () => assert.fail(`expected a ${kind.name}`),
    (e: unknown) => e,
  );
  assert.ok(error instanceof kind, String(error));
  return error.message;
}

const usageError = (argv: string[]): Promise<string> => failure(argv);

describe('aggregate-patch counts are int32, as the API has them', () => {
  const cases: [string, string[], string][] = [
    ['--count 2147483648', ['--count', '2147483648'], '--count "2147483648": want a whole number from 1 to 2147483647 (the API\'s int32 count)'],
    ['--add 2147483648', ['--add', '2147483648'], '--add "2147483648": want a whole number from 1 to 2147483647 (the API\'s int32 count)'],
    ['--count 1e9', ['--count', '1e9'], '--count "1e9": want a whole number from 1 to 2147483647 (the API\'s int32 count)'],
    ['--count 0', ['--count', '0'], '--count "0": want a whole number from 1 to 2147483647 (the API\'s int32 count)'],
  ];
  for (const [name, flags, want] of cases) {
    test(`${name} is a usage error before any request, even with --dry-run=client`, async () => {
      assert.equal(await usageError(['aggregate-patch', 'ev-1', '-n', 'ns', '--dry-run=client', ...flags]), want);
    });
  }
});

describe('continue tokens', () => {
  test('follows new tokens and stops at an empty one', () => {
    const tokens = continueTokens('events in namespace ns');
    assert.equal(tokens.next('a'), 'a');
    assert.equal(tokens.next('b'), 'b');
    assert.equal(tokens.next(''), undefined);
    assert.equal(tokens.next(undefined), undefined);
  });

  test('refuses a token handed out twice in one list', () => {
    const tokens = continueTokens('events in namespace ns');
    tokens.next('a');
    tokens.next('b');
    assert.throws(() => tokens.next('a'), {
      message: 'the API server sent the same continue token twice while listing events in namespace ns: stopping instead of reading the same page forever',
    });
  });

  test(`stops at ${MAX_PAGES} pages`, () => {
    const tokens = continueTokens('x');
    for (let i = 1; i < MAX_PAGES; i += 1) tokens.next(`t${i}`);
    assert.throws(() => tokens.next('last'), RuntimeError);
  });
});

describe('watch lines', () => {
  test('a line that never ends is refused once past the limit, never buffered whole', async () => {
    async function* endless(): AsyncGenerator<string> {
      const chunk = 'x'.repeat(1024 * 1024);
      for (let i = 0; i < MAX_WATCH_LINE / chunk.length + 2; i += 1) yield chunk;
      assert.fail('read past the limit');
    }
    await assert.rejects(async () => {
      for await (const _ of readWatchLines(endless())) assert.fail('no line was complete');
    }, /the watch of events sent a line longer than 16 MiB/);
  });

  test('lines just under the limit still pass', async () => {
    const object = { type: 'ADDED', object: { message: 'y'.repeat(1024 * 1024) } };
    const got = [];
    for await (const line of readWatchLines(Readable.from([`${JSON.stringify(object)}\n`]))) got.push(line);
    assert.equal(got.length, 1);
  });
});

describe('aggregate-patch and the read filters', () => {
  for (const flag of [['--for', 'Pod/x'], ['--types', 'Warning'], ['--reason', 'BackOff'], ['--since', '5m']]) {
    test(`refuses ${flag[0]}, which it would otherwise ignore`, async () => {
      assert.equal(
        await usageError(['aggregate-patch', 'ev-1', '-n', 'ns', ...flag]),
        `aggregate-patch patches the one event it names: ${flag[0]} does not apply`,
      );
    });
  }
});

describe('--from files the file system or V8 refuse', () => {
  const dir = scratchDir('bounds-from');

  const runtimeError = (argv: string[]): Promise<string> => failure(argv, RuntimeError);

  test('a folder that is not a capture is named in words, not EISDIR', async () => {
    assert.equal(await runtimeError(['--from', dir]), `--from ${dir}: a folder with no events.json in it (not a capture)`);
  });

  // H4: a device's or a pipe's size is 0 to stat; /dev/zero passed the size check and took 23 GB.
  for (const device of ['/dev/zero', '/dev/urandom']) {
    test(`${device} is refused at its first NUL byte, not read until memory runs out`, async () => {
      assert.match(await usageError(['--from', device]), new RegExp(`^--from ${device}: not text \\(a NUL byte at byte \\d+\\): neither JSON, a record, nor a stable table$`));
    });
  }

  test('stdin of NUL bytes (--from - < /dev/zero) is refused as soon as it starts', async () => {
    const zeros = Readable.from((function* () {
      for (;;) yield Buffer.alloc(65536);
    })());
    const error = await runCli(['--from', '-'], fakeDeps({ stdin: zeros }).deps).catch((e: unknown) => e);
    assert.ok(error instanceof UsageError, String(error));
    assert.equal(error.message, '--from -: not text (a NUL byte at byte 1): neither JSON, a record, nor a stable table');
  });

  test('a FIFO is read as a stream, as stdin is (--from <(kubectl get events -o json))', async () => {
    const fifo = join(dir, 'events.fifo');
    execFileSync('mkfifo', [fifo]);
    const writer = spawn('sh', ['-c', `printf '%s' "$0" > "$1"`, JSON.stringify([ev({ reason: 'FromFifo' })]), fifo]);
    const written = new Promise((resolve) => writer.on('close', resolve));
    const fake = fakeDeps();
    assert.equal(await runCli(['--from', fifo, '-o', 'stable'], fake.deps), 0);
    assert.equal(fake.stdout(), 'Normal FromFifo Pipeline/build-1\n');
    await written;
  });

  test("a capture folder's events.json that is a FIFO or a device is refused in one line, not waited on or read without end", async () => {
    for (const [name, make, what] of [
      ['fifo', (file: string) => execFileSync('mkfifo', [file]), 'a pipe (FIFO)'],
      ['device', (file: string) => symlinkSync('/dev/zero', file), 'a device'],
    ] as const) {
      const capture = join(dir, `capture-${name}`);
      mkdirSync(capture);
      make(join(capture, 'events.json'));
      assert.equal(await runtimeError(['--from', capture]), `--from ${join(capture, 'events.json')}: ${what}, not a file`);
    }
  });

  test('a file past 512 MiB is refused by its size before it is read (not "Invalid string length")', async () => {
    const big = join(dir, 'big.json');
    // Sparse: 513 MiB long, no disk used.
    const fd = openSync(big, 'w');
    ftruncateSync(fd, 513 * 1024 * 1024);
    closeSync(fd);
    assert.equal(await runtimeError(['--from', big]), `--from ${big}: 513 MiB is more than --from reads (512 MiB)`);
  });
});

describe('a record with a torn line in the middle', () => {
  test('is read with a warning, not refused as "not a record"', async () => {
    const dir = scratchDir('bounds-torn');
    const file = join(dir, 'torn.jsonl');
    const line = (uid: string) => formatObservation({ observedAt: Date.parse('2026-11-30T11:00:00.000Z'), type: 'ADDED', event: ev({ uid, reason: `R${uid}` }) });
    const header = formatHeader({ kind: RECORD_KIND, version: 1, context: 'c', server: 'https://h', namespace: 'op-events', filter: {}, startedAt: Date.parse('2026-11-30T11:00:00.000Z') });
    writeFileSync(file, header + line('a') + line('b').slice(0, 50) + line('c'));
    const fake = fakeDeps();
    assert.equal(await runCli(['--from', file, '-o', 'stable'], fake.deps), 0);
    assert.deepEqual(fake.stdout().trimEnd().split('\n').map((l) => l.split(' ')[1]), ['Ra', 'Rc']);
    assert.equal(fake.stderr().split('\n')[0], `warning: ${file}: skipped a torn line left by a recorder stopped mid-write`);
  });
});

// Bounds on what a server, a proxy or a user can make the plugin do: counts past int32, pages that
// never end, watch lines that never end.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { runCli } from '../../src/cli.ts';
import { RuntimeError, UsageError } from '../../src/errors.ts';
import { continueTokens, MAX_PAGES } from '../../src/kube/paging.ts';
import { MAX_WATCH_LINE, readWatchLines } from '../../src/kube/watch.ts';
import { fakeDeps } from '../support/deps.ts';

async function usageError(argv: string[]): Promise<string> {
  const error = await runCli(argv, fakeDeps().deps).then(
    () => assert.fail('expected a usage error'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof UsageError, String(error));
  return error.message;
}

describe('aggregate-patch counts are int32, as the API has them', () => {
  const cases: [string, string[], string][] = [
    ['--count 2147483648', ['--count', '2147483648'], '--count "2147483648": want a whole number from 1 to 2147483647 (the API\'s int32 count)'],
    ['--add 2147483648', ['--add', '2147483648'], '--add "2147483648": want a whole number from 1 to 2147483647 (the API\'s int32 count)'],
    ['--count 1e9', ['--count', '1e9'], '--count "1e9": want a whole number from 1 to 2147483647 (the API\'s int32 count)'],
    ['--count 0', ['--count', '0'], '--count "0": want a whole number from 1 to 2147483647 (the API\'s int32 count)'],
  ];
  for (const [name, flags, want] of cases) {
    it(`${name} is a usage error before any request, even with --dry-run=client`, async () => {
      assert.equal(await usageError(['aggregate-patch', 'ev-1', '-n', 'ns', '--dry-run=client', ...flags]), want);
    });
  }
});

describe('continue tokens', () => {
  it('follows new tokens and stops at an empty one', () => {
    const tokens = continueTokens('events in namespace ns');
    assert.equal(tokens.next('a'), 'a');
    assert.equal(tokens.next('b'), 'b');
    assert.equal(tokens.next(''), undefined);
    assert.equal(tokens.next(undefined), undefined);
  });

  it('refuses a token handed out twice in one list', () => {
    const tokens = continueTokens('events in namespace ns');
    tokens.next('a');
    tokens.next('b');
    assert.throws(() => tokens.next('a'), {
      message: 'the API server sent the same continue token twice while listing events in namespace ns: stopping instead of reading the same page forever',
    });
  });

  it(`stops at ${MAX_PAGES} pages`, () => {
    const tokens = continueTokens('x');
    for (let i = 1; i < MAX_PAGES; i += 1) tokens.next(`t${i}`);
    assert.throws(() => tokens.next('last'), RuntimeError);
  });
});

describe('watch lines', () => {
  it('a line that never ends is refused once past the limit, never buffered whole', async () => {
    async function* endless(): AsyncGenerator<string> {
      const chunk = 'x'.repeat(1024 * 1024);
      for (let i = 0; i < MAX_WATCH_LINE / chunk.length + 2; i += 1) yield chunk;
      assert.fail('read past the limit');
    }
    await assert.rejects(async () => {
      for await (const _ of readWatchLines(endless())) assert.fail('no line was complete');
    }, /the watch of events sent a line longer than 16 MiB/);
  });

  it('lines just under the limit still pass', async () => {
    const object = { type: 'ADDED', object: { message: 'y'.repeat(1024 * 1024) } };
    const got = [];
    for await (const line of readWatchLines(Readable.from([`${JSON.stringify(object)}\n`]))) got.push(line);
    assert.equal(got.length, 1);
  });
});

describe('aggregate-patch and the read filters', () => {
  for (const flag of [['--for', 'Pod/x'], ['--types', 'Warning'], ['--reason', 'BackOff'], ['--since', '5m']]) {
    it(`refuses ${flag[0]}, which it would otherwise ignore`, async () => {
      assert.equal(
        await usageError(['aggregate-patch', 'ev-1', '-n', 'ns', ...flag]),
        `aggregate-patch patches the one event it names: ${flag[0]} does not apply`,
      );
    });
  }
});

// A server that accepts TCP and never answers the TLS ClientHello (a stuck load balancer or proxy),
// against the built executable: every verb gives up on client-go's handshake deadline (10 s,
// transport/cache.go:149) with kubectl's words, whatever --request-timeout says, and -w and record
// retry it with their back-off instead of hanging silently.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { startBlackHole } from '../harness/misbehaving-server.ts';
import { PLUGIN_BINARY } from '../harness/plugin.ts';
import { spawnCollecting } from '../harness/spawned.ts';
import { waitFor } from '../harness/wait.ts';
import { scratchDir } from '../support/tmp.ts';

const dir = scratchDir('deadlines');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function plugin(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    // 60 s is past both deadlines (30 s connect, 10 s handshake): a hang is a kill, exit -1.
    execFile(PLUGIN_BINARY, args, { env: { PATH: process.env.PATH, HOME: dir }, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

describe('a server that never answers the TLS handshake', () => {
  let hole: Awaited<ReturnType<typeof startBlackHole>>;
  before(async () => {
    hole = await startBlackHole(dir);
  });
  after(() => hole.close());

  test('every one-shot verb: exit 1, one line with "net/http: TLS handshake timeout", --request-timeout 0 too', async () => {
    const kc = ['--kubeconfig', hole.kubeconfig];
    const cases: [string, string[]][] = [
      ['timeline', kc],
      ['timeline --request-timeout 0', [...kc, '--request-timeout', '0']],
      ['capture', ['capture', ...kc, join(dir, 'cap')]],
      ['incident', ['incident', ...kc]],
    ];
    const runs = await Promise.all(cases.map(([, args]) => plugin(args)));
    for (const [i, [name]] of cases.entries()) {
      const run = runs[i] as Run;
      assert.equal(run.code, 1, `${name}: ${run.stderr}`);
      const lines = run.stderr.split('\n').filter((l) => l !== '');
      assert.deepEqual(lines, [`error: cannot reach the API server at ${hole.url} (context "broken"): net/http: TLS handshake timeout`], name);
    }
  });

  for (const [name, args] of [
    ['-w', ['-w']],
    ['record without --duration', ['record', 'REC']],
  ] as const) {
    test(`${name}: says the handshake timed out and retries with its back-off, instead of hanging`, async () => {
      const argv = args.map((a) => (a === 'REC' ? join(dir, 'rec.jsonl') : a));
      const before = hole.connections();
      const run = spawnCollecting(PLUGIN_BINARY, [...argv, '--kubeconfig', hole.kubeconfig], { env: { PATH: process.env.PATH, HOME: dir } });
      try {
        const notice = /failed \(cannot reach the API server at \S+ \(context "broken"\): net\/http: TLS handshake timeout\): retrying in /;
        await waitFor('a retry notice', async () => notice.test(run.err()), { timeoutMs: 60_000 });
        assert.ok(hole.connections() > before);
      } finally {
        run.child.kill('SIGINT');
        await run.exited;
      }
    });
  }
});

// Faults a healthy API server cannot produce, from a deliberately misbehaving server on loopback,
// and output faults (a full disk, a reader that leaves), against the built executable: each case
// asserts the exit code, the one line a user sees, and what was (not) left behind.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync, openSync, closeSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMisbehavingServer } from '../harness/misbehaving-server.ts';
import type { Fault, MisbehavingServer } from '../harness/misbehaving-server.ts';
import { PLUGIN_BINARY } from '../harness/plugin.ts';
import { ev, labEvents } from '../support/builders.ts';
import { scratchDir } from '../support/tmp.ts';

const dir = scratchDir('faults');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The built plugin, run directly (kubectl would only add its own process in between). */
function plugin(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(PLUGIN_BINARY, args, { env: { PATH: process.env.PATH, HOME: dir, ...env }, maxBuffer: 256 * 1024 * 1024, timeout: 300_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

/** One line on stderr: `error: ...`, no stack trace. */
function oneLine(run: Run): string {
  const lines = run.stderr.split('\n').filter((l) => l !== '');
  assert.equal(lines.length, 1, `want one line on stderr, got:\n${run.stderr}`);
  return lines[0] ?? '';
}

/** The one `error: ...` line, which ends stderr; notices may come before it. */
function errorLine(run: Run): string {
  const lines = run.stderr.split('\n').filter((l) => l !== '');
  assert.equal(lines.filter((l) => l.startsWith('error: ')).length, 1, run.stderr);
  return lines.at(-1) ?? '';
}

describe('a misbehaving server', () => {
  const servers: MisbehavingServer[] = [];
  const serve = async (fault: Fault, events: unknown[] = labEvents()): Promise<MisbehavingServer> => {
    const server = await startMisbehavingServer(fault, events, dir);
    servers.push(server);
    return server;
  };
  after(async () => {
    for (const server of servers) await server.close();
  });

  test('repeating the same continue token: exit 1 after two pages, not a loop', async () => {
    const server = await serve({ kind: 'repeat-continue' });
    const run = await plugin(['--kubeconfig', server.kubeconfig]);
    assert.equal(run.code, 1);
    assert.equal(
      oneLine(run),
      'error: the API server sent the same continue token twice while listing events in namespace op-events: stopping instead of reading the same page forever',
    );
    assert.equal(server.requests.length, 2);
    assert.equal(run.stdout, '');
  });

  test('the same for every verb that lists: incident, type-audit, capture (no folder left)', async () => {
    const server = await serve({ kind: 'repeat-continue' });
    for (const args of [['incident'], ['type-audit'], ['capture', join(dir, 'never')]]) {
      const run = await plugin([...args, '--kubeconfig', server.kubeconfig]);
      assert.equal(run.code, 1, args.join(' '));
      assert.match(oneLine(run), /same continue token twice/);
    }
    assert.equal(existsSync(join(dir, 'never')), false);
  });

  test('a body shorter than its Content-Length: exit 1, said to be cut off', async () => {
    const server = await serve({ kind: 'truncated-body' });
    const run = await plugin(['--kubeconfig', server.kubeconfig, '-o', 'json']);
    assert.equal(run.code, 1);
    assert.equal(oneLine(run), `error: the answer from the API server at ${server.url} to GET /api/v1/namespaces/op-events/events was cut off (ECONNRESET)`);
    assert.equal(run.stdout, '');
  });

  test('a 300 MB body: refused at 128 MiB, not read whole', async () => {
    const server = await serve({ kind: 'huge-body', bytes: 300 * 1024 * 1024 }, [ev({ message: 'x'.repeat(4000) })]);
    const run = await plugin(['--kubeconfig', server.kubeconfig]);
    assert.equal(run.code, 1);
    assert.equal(oneLine(run), "error: the API server's answer to GET /api/v1/namespaces/op-events/events is larger than 128 MiB: refusing to read it");
  });

  test("500 with a Status and 64 MiB after it: the Status's words in one line, the rest not read", async () => {
    const server = await serve({ kind: 'huge-error', bytes: 64 * 1024 * 1024 });
    const run = await plugin(['--kubeconfig', server.kubeconfig]);
    assert.equal(run.code, 1);
    assert.equal(oneLine(run), 'error: etcdserver: request timed out');
    // Loopback's socket buffers take a few MiB from a writer whose reader has stopped.
    assert.ok(server.handedOver() < 24 * 1024 * 1024, `${(server.handedOver() / 1024 / 1024).toFixed(1)} MiB handed over`);
  });

  // A compressed answer that breaks is one line, as a plain one is (src/kube/gzip-answer.ts).
  for (const [how, want] of [
    ['corrupt', () => "error: the API server's answer to GET /api/v1/namespaces/op-events/events says it is gzip but does not inflate (incorrect header check)"],
    ['short', () => "error: the API server's answer to GET /api/v1/namespaces/op-events/events says it is gzip but does not inflate (unexpected end of file)"],
    ['cut', (url: string) => `error: the answer from the API server at ${url} to GET /api/v1/namespaces/op-events/events was cut off (ECONNRESET)`],
    ['bomb', () => "error: the API server's answer to GET /api/v1/namespaces/op-events/events is larger than 128 MiB: refusing to read it"],
  ] as const) {
    test(`a gzip answer (${how}): exit 1, one line, no output; asked for none (--disable-compression), the same server's plain list reads`, async () => {
      const server = await serve({ kind: 'gzip', how });
      const run = await plugin(['--kubeconfig', server.kubeconfig, '-o', 'stable']);
      assert.equal(run.code, 1, run.stderr);
      assert.equal(oneLine(run), want(server.url));
      assert.equal(run.stdout, '');
      const plain = await plugin(['--kubeconfig', server.kubeconfig, '-o', 'stable', '--disable-compression']);
      assert.equal(plain.code, 0, plain.stderr);
      assert.match(plain.stdout, /^Warning FailedScheduling Pod\/hungry$/m);
    });
  }

  test('a slow drip: --request-timeout bounds the whole answer', async () => {
    const server = await serve({ kind: 'slow-drip', everyMs: 50 });
    const run = await plugin(['--kubeconfig', server.kubeconfig, '--request-timeout', '1s']);
    assert.equal(run.code, 1);
    assert.equal(oneLine(run), `error: request to ${server.url} timed out after 1000 ms (--request-timeout)`);
  });

  test('429 with Retry-After: asked again after the wait, as client-go does, and the list arrives', async () => {
    const server = await serve({ kind: 'too-many-requests', times: 2, seconds: 1 });
    const run = await plugin(['--kubeconfig', server.kubeconfig, '-o', 'stable']);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(server.requests.length, 3);
    assert.match(run.stdout, /^Warning FailedScheduling Pod\/hungry$/m);
  });

  test('a connection reset before any answer: the GET asked again after a second, as client-go does, and the list arrives', async () => {
    const server = await serve({ kind: 'reset-before-answer', times: 2 });
    const run = await plugin(['--kubeconfig', server.kubeconfig, '-o', 'stable']);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(server.requests.length, 3);
    assert.match(run.stdout, /^Warning FailedScheduling Pod\/hungry$/m);
  });

  test('503: exit 1 with the server\'s words', async () => {
    const server = await serve({ kind: 'unavailable' });
    const run = await plugin(['--kubeconfig', server.kubeconfig]);
    assert.equal(run.code, 1);
    assert.equal(oneLine(run), 'error: the server is currently unable to handle the request');
    assert.equal(server.requests.length, 1);
  });

  test('a GET of an event answered with another object: exit 1, and no PATCH is sent', async () => {
    const server = await serve({ kind: 'wrong-object' });
    const run = await plugin(['aggregate-patch', 'build-1-started', '--kubeconfig', server.kubeconfig]);
    assert.equal(run.code, 1);
    assert.equal(oneLine(run), 'error: the API server answered for Event "op-events/build-1-started" with Namespace ""/"op-events": refusing to use it');
    assert.deepEqual(server.requests.map((r) => r.split(' ')[0]), ['GET']);
  });
});

describe('output that cannot be written', () => {
  const events = join(dir, 'events.json');
  before(() => writeFileSync(events, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: labEvents() })));

  test('stdout on a full device (/dev/full): exit 1 with kubectl\'s line, for every verb', async () => {
    for (const args of [['-o', 'json'], ['incident'], ['type-audit']]) {
      const run = await new Promise<Run>((resolve) => {
        const out = openSync('/dev/full', 'w');
        const child = spawn(PLUGIN_BINARY, [...args, '--from', events], { stdio: ['ignore', out, 'pipe'] });
        let stderr = '';
        child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.on('close', (code) => {
          closeSync(out);
          resolve({ code: code ?? -1, stdout: '', stderr });
        });
      });
      assert.equal(run.code, 1, args.join(' '));
      // A saved file's notices (where ages count from) may come first; the error is one line, the last.
      assert.equal(errorLine(run), 'error: write /dev/stdout: no space left on device');
    }
  });

  test('a full device that is never written to is no failure: no events on stdout, or no notice on stderr, exit 0', async () => {
    const empty = join(dir, 'empty.json');
    writeFileSync(empty, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [] }));
    /** Runs the plugin with one of its outputs on /dev/full and the other piped: exit code and the piped text. */
    const withFull = (args: string[], full: 'stdout' | 'stderr'): Promise<Run> =>
      new Promise((resolve) => {
        const fd = openSync('/dev/full', 'w');
        const child = spawn(PLUGIN_BINARY, args, { stdio: ['ignore', full === 'stdout' ? fd : 'pipe', full === 'stderr' ? fd : 'pipe'] });
        let piped = '';
        (full === 'stdout' ? child.stderr : child.stdout)?.on('data', (chunk: Buffer) => (piped += chunk.toString()));
        child.on('close', (code) => {
          closeSync(fd);
          resolve({ code: code ?? -1, stdout: full === 'stdout' ? '' : piped, stderr: full === 'stderr' ? '' : piped });
        });
      });
    // Nothing to print: kubectl events > /dev/full exits 0 too. Finding out by writing '' failed with ENOSPC.
    const none = await withFull(['--from', empty], 'stdout');
    assert.deepEqual([none.code, none.stderr], [0, 'No events found.\n']);
    const json = await withFull(['--from', events, '-o', 'json'], 'stderr');
    assert.equal(json.code, 0);
    assert.equal((JSON.parse(json.stdout) as unknown[]).length, labEvents().length);
    assert.equal((await withFull(['--version'], 'stderr')).code, 0);
  });

  test('a reader that leaves early (| head -1): quiet, the verb\'s own exit code', async () => {
    const many = join(dir, 'many.json');
    writeFileSync(many, JSON.stringify({ items: Array.from({ length: 5000 }, (_, i) => ev({ name: `e-${i}`, message: 'm'.repeat(200) })) }));
    const run = await new Promise<Run>((resolve) => {
      // The plugin's own status, not head's: bash's PIPESTATUS.
      const child = spawn('bash', ['-c', `"${PLUGIN_BINARY}" --from "${many}" -o json | head -1; exit \${PIPESTATUS[0]}`], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    });
    assert.equal(run.stdout, '[\n');
    assert.equal(run.stderr, '');
    assert.equal(run.code, 0);
  });

  test('a file on a full filesystem (a small tmpfs): exit 1, and the file is not left looking complete', async (t) => {
    const mnt = join(dir, 'tiny');
    const mounted = await new Promise<boolean>((resolve) => {
      execFile('sh', ['-c', `mkdir -p "${mnt}" && mount -t tmpfs -o size=64k tmpfs "${mnt}"`], (error) => resolve(error === null));
    });
    if (!mounted) {
      // Not root, or no mount namespace: /dev/full above covers the same write path.
      t.diagnostic('mount -t tmpfs is not allowed here; /dev/full covers the write error');
      return;
    }
    try {
      const big = join(dir, 'big.json');
      writeFileSync(big, JSON.stringify({ items: Array.from({ length: 2000 }, (_, i) => ev({ name: `e-${i}`, message: 'm'.repeat(200) })) }));
      const target = join(mnt, 'out.json');
      const run = await new Promise<Run>((resolve) => {
        const out = openSync(target, 'w');
        const child = spawn(PLUGIN_BINARY, ['--from', big, '-o', 'json'], { stdio: ['ignore', out, 'pipe'] });
        let stderr = '';
        child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.on('close', (code) => {
          closeSync(out);
          resolve({ code: code ?? -1, stdout: '', stderr });
        });
      });
      assert.equal(run.code, 1);
      assert.equal(errorLine(run), 'error: write /dev/stdout: no space left on device');
      assert.throws(() => JSON.parse(readFileSync(target, 'utf8')), SyntaxError);
      // The files the plugin writes itself: the error names the file (not `write: no space left on
      // device`), and neither a capture's temp folder nor a temp file is left beside them.
      for (const [args, file] of [
        [['capture', '--from', big, join(mnt, 'cap')], join(mnt, 'cap', 'events.json')],
        [['--from', big, '-o', 'html', '--output-file', join(mnt, 'page.html')], join(mnt, 'page.html')],
      ] as const) {
        const wrote = await plugin([...args]);
        assert.equal(wrote.code, 1, wrote.stderr);
        assert.equal(errorLine(wrote), `error: write ${file}: no space left on device`);
        assert.deepEqual(readdirSync(mnt), ['out.json']);
      }
    } finally {
      await new Promise((resolve) => execFile('umount', [mnt], resolve));
    }
  });
});

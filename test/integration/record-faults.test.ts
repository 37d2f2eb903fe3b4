// `record` when it cannot trust or reach its server (D6), and Ctrl-C / SIGTERM at each phase of a
// record, against the real control plane and the built executable: exit codes that tell "never
// reached the server" from "reached it", TLS failures that are not retried, and a file whose every
// line is whole after any stop.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { sharedControlPlane } from '../harness/controlplane.ts';
import type { ControlPlane } from '../harness/controlplane.ts';
import { freshNamespace } from '../harness/namespace.ts';
import { kubectl } from '../harness/plugin.ts';
import { scratchDir } from '../support/tmp.ts';
import { startRecord } from '../support/recorder.ts';
import type { Recorder } from '../support/recorder.ts';

const cpPromise = sharedControlPlane();
let cp: ControlPlane;
let ns: string;
let work: string;
const children = new Set<ChildProcess>();

before(async () => {
  cp = await cpPromise;
  work = scratchDir('record-faults');
  ns = await freshNamespace(cp.kubeconfig, 'record-faults');
});
after(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

function record(args: string[], kubeconfig: string): Recorder {
  return startRecord(args, kubeconfig, work, children);
}

/** The admin kubeconfig with its cluster entry changed. */
function kubeconfigWith(name: string, change: (text: string) => string): string {
  const path = join(work, name);
  writeFileSync(path, change(readFileSync(cp.kubeconfig, 'utf8')));
  return path;
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function createEvent(name: string): Promise<void> {
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const event = {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, namespace: ns },
    involvedObject: { apiVersion: 'v1', kind: 'Pod', name: 'web', namespace: ns },
    reason: 'Started',
    type: 'Normal',
    message: 'started',
    firstTimestamp: now,
    lastTimestamp: now,
    count: 1,
    source: { component: 'record-faults' },
  };
  const r = await kubectl(['-n', ns, 'create', '-f', '-'], cp.kubeconfig, { input: JSON.stringify(event) });
  assert.equal(r.code, 0, r.stderr);
}

function wholeLines(file: string): unknown[] {
  const text = readFileSync(file, 'utf8');
  assert.ok(text.endsWith('\n'), 'the record ends with a whole line');
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as unknown);
}

async function waitForText(read: () => string, pattern: RegExp): Promise<void> {
  while (!pattern.test(read())) await new Promise((resolve) => setTimeout(resolve, 100));
}

describe('a record that cannot trust its server stops at once', () => {
  test('a CA that did not sign the server certificate: exit 1 with one line, no file', async () => {
    // Without the cluster's CA, the system's CAs are asked, and none signed this one.
    const config = kubeconfigWith('no-ca.kubeconfig', (t) => t.replace(/^\s*certificate-authority(-data)?:.*$/m, ''));
    const file = join(work, 'no-ca.jsonl');
    const run = record([file, '-n', ns, '--duration', '10m'], config);
    const end = await run.ended;
    assert.equal(end.code, 1);
    assert.match(end.stderr, /^error: cannot trust the API server at https:\/\/127\.0\.0\.1:\d+ \(context "[^"]+"\): TLS verification failed \([A-Z_]+: .+\)\n$/);
    // Node's advice for its own command line is no use to a plugin user.
    assert.doesNotMatch(end.stderr, /Node\.js|--use-system-ca/);
    assert.equal(existsSync(file), false);
  });

  test('a server name the certificate does not hold: exit 1 with one line, no file', async () => {
    const config = kubeconfigWith('wrong-name.kubeconfig', (t) => t.replace(/^(\s*)server: (.*)$/m, '$1server: $2\n$1tls-server-name: wrong.example'));
    const file = join(work, 'wrong-name.jsonl');
    const end = await record([file, '-n', ns, '--duration', '10m'], config).ended;
    assert.equal(end.code, 1);
    assert.match(end.stderr, /^error: cannot trust the API server .*TLS verification failed \(ERR_TLS_CERT_ALTNAME_INVALID: .+\)\n$/);
    assert.equal(existsSync(file), false);
  });
});

describe('a record that never reached its server', () => {
  test('for its whole --duration: exit 1, says so, no file', async () => {
    const port = await closedPort();
    const config = kubeconfigWith('closed.kubeconfig', (t) => t.replace(/server: https:\/\/127\.0\.0\.1:\d+/, `server: https://127.0.0.1:${port}`));
    const file = join(work, 'closed.jsonl');
    const end = await record([file, '-n', ns, '--duration', '3s'], config).ended;
    assert.equal(end.code, 1, end.stderr);
    const last = end.stderr.trimEnd().split('\n').at(-1) ?? '';
    assert.equal(
      last,
      `error: record never reached the server: cannot reach the API server at https://127.0.0.1:${port} (context "evtimeline"): ECONNREFUSED; nothing recorded, ${file} not created`,
    );
    assert.equal(existsSync(file), false);
  });

  test('stopped by Ctrl-C before it ever reached the server: the same exit 1', async () => {
    const port = await closedPort();
    const config = kubeconfigWith('closed-int.kubeconfig', (t) => t.replace(/server: https:\/\/127\.0\.0\.1:\d+/, `server: https://127.0.0.1:${port}`));
    const file = join(work, 'closed-int.jsonl');
    const run = record([file, '-n', ns], config);
    await waitForText(run.stderr, /retry|ECONNREFUSED/);
    run.child.kill('SIGINT');
    const end = await run.ended;
    assert.equal(end.code, 1, end.stderr);
    assert.match(end.stderr.trimEnd().split('\n').at(-1) ?? '', /^error: record never reached the server: cannot reach the API server at .*: ECONNREFUSED; nothing recorded/);
    assert.equal(existsSync(file), false);
  });
});

describe('a record on a full disk', () => {
  test('exit 1 with one line naming the file, not `write: no space left on device`', async (t) => {
    const mnt = join(work, 'tiny');
    mkdirSync(mnt, { recursive: true });
    if (spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=16k', 'tmpfs', mnt]).status !== 0) {
      // Not root, or no mount namespace: faults.test.ts covers the stdout write path with /dev/full.
      t.diagnostic('mount -t tmpfs is not allowed here');
      return;
    }
    try {
      await createEvent('full-disk');
      writeFileSync(join(mnt, 'pad'), Buffer.alloc(16 * 1024));
      const file = join(mnt, 'full.jsonl');
      const end = await record([file, '-n', ns, '--duration', '10m'], cp.kubeconfig).ended;
      assert.equal(end.code, 1, end.stderr);
      assert.equal(end.stderr.trimEnd().split('\n').at(-1), `error: write ${file}: no space left on device`);
    } finally {
      spawnSync('umount', [mnt]);
    }
  });
});

describe('a record stopped while it follows the server', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    test(`${signal} while watching: exit 0, the summary, every line whole`, async () => {
      await createEvent(`watched-${signal.toLowerCase()}`);
      const file = join(work, `watch-${signal}.jsonl`);
      const run = record([file, '-n', ns], cp.kubeconfig);
      // The file appears with the server's first answer (the header, then the listed events).
      while (!existsSync(file) || !readFileSync(file, 'utf8').includes(`watched-${signal.toLowerCase()}`)) await new Promise((r) => setTimeout(r, 100));
      await createEvent(`during-${signal.toLowerCase()}`);
      run.child.kill(signal);
      const end = await run.ended;
      assert.equal(end.code, 0, end.stderr);
      assert.match(end.stderr.trimEnd().split('\n').at(-1) ?? '', /^recorded \d+ lines? \(.*\) to .*; it holds \d+ observations?$/);
      const lines = wholeLines(file);
      assert.ok(lines.length >= 2);
    });
  }
});

// Paths that are not plain files, given to the built executable as a user gives them: devices
// (/dev/null, /dev/zero, /dev/stdout), FIFOs, pipes and process substitutions, symlinks (H4, H5, M1,
// L3 of issue 28). What replaced /dev/null as root is tried only inside a private mount namespace
// (`unshare --mount` with a tmpfs over /dev holding its own null device): never on the machine's /dev.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { sharedControlPlane } from '../harness/controlplane.ts';
import type { ControlPlane } from '../harness/controlplane.ts';
import { emitEvents } from '../harness/emit.ts';
import { freshNamespace } from '../harness/namespace.ts';
import { PLUGIN_BINARY } from '../harness/plugin.ts';
import { scratchDir } from '../support/tmp.ts';

const dir = scratchDir('special-paths');
const children = new Set<ChildProcess>();
after(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) process.kill(-(child.pid as number), 'SIGKILL');
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * A command line run by sh (bash for `>(...)`), the plugin as `$P`, in a process group of its own:
 * past `timeoutMs` the whole group is killed (code null), so a plugin that hangs (as record into a
 * FIFO did) is not left running behind the shell.
 */
function shell(script: string, opts: { env?: NodeJS.ProcessEnv; shell?: string; timeoutMs?: number } = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(opts.shell ?? 'sh', ['-c', script], {
      env: { PATH: process.env.PATH, HOME: dir, P: PLUGIN_BINARY, ...opts.env },
      cwd: dir,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      process.kill(-(child.pid as number), 'SIGKILL');
    }, opts.timeoutMs ?? 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: killed ? null : code, stdout, stderr });
    });
  });
}

const events = JSON.stringify([
  {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: 'e1', namespace: 'shop', uid: 'u-1' },
    involvedObject: { kind: 'Pod', name: 'web-1', namespace: 'shop' },
    reason: 'Pulled',
    type: 'Normal',
    message: 'pulled',
  },
]);

describe('devices and descriptors as --output-file, as root, in a private mount namespace (H5)', () => {
  // A tmpfs over /dev in a mount namespace of its own: its /dev/null is a device node made here, so
  // the machine's /dev/null is never at risk, before the fix or after.
  const privateDev = [
    'set -e',
    'mount --make-rprivate /',
    'mount -t tmpfs tmpfs /dev',
    'mknod -m 666 /dev/null c 1 3; mknod -m 666 /dev/zero c 1 5; mknod -m 666 /dev/urandom c 1 9; mknod -m 666 /dev/random c 1 8',
    'ln -s /proc/self/fd /dev/fd; ln -s /proc/self/fd/0 /dev/stdin; ln -s /proc/self/fd/1 /dev/stdout; ln -s /proc/self/fd/2 /dev/stderr',
    'set +e',
  ].join('\n');

  before(() => mkdirSync(join(dir, 'in'), { recursive: true }));

  test('--output-file /dev/null writes into the device, which stays a character device (it became a regular file for every process)', async () => {
    const run = await shell(
      `printf '%s' '${events}' > in/events.json
unshare --mount sh -c '${privateDev}
"$P" --from in/events.json -o stable --output-file /dev/null; echo "rc=$?"
stat -c "%F %t,%T" /dev/null'`,
    );
    assert.equal(run.stderr, '');
    assert.equal(run.stdout, 'rc=0\ncharacter special file 1,3\n');
  });

  test('--output-file /dev/stdout prints to stdout (it replaced the link, printed nothing and exited 0); `>> log` appends to the log', async () => {
    const run = await shell(
      `unshare --mount sh -c '${privateDev}
"$P" --from in/events.json -o stable --output-file /dev/stdout; echo "rc=$?"
echo before > log.txt
"$P" --from in/events.json -o stable --output-file /dev/stdout >> log.txt; echo "appended rc=$?"
cat log.txt
stat -c "%F" /dev/stdout'`,
    );
    assert.equal(run.stderr, '');
    assert.equal(run.stdout, 'Normal Pulled Pod/web-1\nrc=0\nappended rc=0\nbefore\nNormal Pulled Pod/web-1\nsymbolic link\n');
  });

  test('a process substitution (/dev/fd/63) is written through, not replaced', async () => {
    const run = await shell(`"$P" --from in/events.json -o stable --output-file >(tr a-z A-Z > upper.txt); echo "rc=$?"; sleep 0.5; cat upper.txt`, { shell: 'bash' });
    assert.equal(run.stderr, '');
    assert.equal(run.stdout, 'rc=0\nNORMAL PULLED POD/WEB-1\n');
  });

  test('a symlinked --output-file is followed: the link stays, its target gets the output (L3)', async () => {
    const run = await shell(`ln -s report.txt linked.txt && "$P" --from in/events.json -o stable --output-file linked.txt; echo "rc=$?"; cat report.txt`);
    assert.equal(run.stdout, 'rc=0\nNormal Pulled Pod/web-1\n');
    assert.equal(lstatSync(join(dir, 'linked.txt')).isSymbolicLink(), true);
  });

  test('a folder is refused in one line, exit 2', async () => {
    const run = await shell(`mkdir -p afolder && "$P" --from in/events.json --output-file afolder; echo "rc=$?"`);
    assert.equal(run.stdout, 'rc=2\n');
    assert.equal(run.stderr, 'error: cannot write afolder: it is a folder\n');
  });
});

describe('--from a device or stdin of zeros (H4)', () => {
  test('/dev/stdin < /dev/zero ends at the first byte: exit 2, one line', async () => {
    const run = await shell('"$P" --from /dev/stdin < /dev/zero; echo "rc=$?"');
    assert.equal(run.stdout, 'rc=2\n');
    assert.equal(run.stderr, 'error: --from /dev/stdin: not text (a NUL byte at byte 1): neither JSON, a record, nor a stable table\n');
  });
});

describe('record into a FIFO, a pipe, a process substitution (M1)', () => {
  let cp: ControlPlane;
  let ns: string;
  let kubeconfig: string;
  before(async () => {
    cp = await sharedControlPlane();
    kubeconfig = cp.kubeconfig;
    ns = await freshNamespace(cp.kubeconfig, 'special-paths');
    await emitEvents(cp, { kind: 'Pod', name: 'web-1', namespace: ns, uid: 'u-web-1', reason: 'Pulled', message: 'pulled' });
  });

  /** The record's observation lines' reasons, from JSON Lines text. */
  const reasons = (text: string): string[] =>
    text
      .split('\n')
      .filter((line) => line.startsWith('{"observedAt"') && line.includes('"event"'))
      .map((line) => (JSON.parse(line) as { event: { reason: string } }).event.reason);

  test('a FIFO nobody reads: --duration ends it (it hung before starting), exit 1, one line, the FIFO stays', async () => {
    const run = await shell(`mkfifo unread.fifo && "$P" record -n ${ns} unread.fifo --duration 3s; echo "rc=$?"`, { env: { KUBECONFIG: kubeconfig } });
    assert.equal(run.stdout, 'rc=1\n');
    const lines = run.stderr.split('\n').filter((l) => l !== '');
    assert.equal(lines.at(-1), 'error: record stopped before any process read unread.fifo (a FIFO): nothing recorded');
    assert.ok(lines.includes('waiting for a process to read unread.fifo (a FIFO)'), run.stderr);
    assert.equal(lstatSync(join(dir, 'unread.fifo')).isFIFO(), true);
  });

  test('a FIFO with a reader gets the record as it is written, without being read first', async () => {
    const run = await shell(`mkfifo read.fifo && (cat read.fifo > got.jsonl &) && "$P" record -n ${ns} read.fifo --duration 3s; echo "rc=$?"; sleep 0.5; cat got.jsonl`, {
      env: { KUBECONFIG: kubeconfig },
    });
    assert.match(run.stdout, /^rc=0\n/);
    assert.deepEqual(reasons(run.stdout), ['Pulled']);
    assert.match(run.stderr, /^recorded 1 line \(1 added, 0 modified, 0 deleted\) to read\.fifo/m);
  });

  test('record /dev/stdout | cat: the lines come out of the pipe', async () => {
    const run = await shell(`"$P" record -n ${ns} /dev/stdout --duration 3s | cat`, { env: { KUBECONFIG: kubeconfig } });
    assert.deepEqual(reasons(run.stdout), ['Pulled']);
    assert.match(run.stdout, /^\{"kind":"EvtimelineRecord"/);
  });

  test('record >(gzip > r.jsonl.gz): a replayable record, compressed', async () => {
    const run = await shell(`"$P" record -n ${ns} >(gzip > r.jsonl.gz) --duration 3s; echo "rc=$?"; sleep 0.5`, { shell: 'bash', env: { KUBECONFIG: kubeconfig } });
    assert.equal(run.stdout, 'rc=0\n');
    assert.deepEqual(reasons(gunzipSync(readFileSync(join(dir, 'r.jsonl.gz'))).toString('utf8')), ['Pulled']);
  });

  test('--otlp, which reads the record back, is refused for a pipe: exit 2 before anything is asked', async () => {
    const run = await shell(`set -o pipefail; "$P" record -n ${ns} /dev/stdout --otlp http://127.0.0.1:9 --duration 3s | cat; echo "rc=$?"`, { shell: 'bash', env: { KUBECONFIG: kubeconfig } });
    assert.equal(run.stdout, 'rc=2\n');
    assert.equal(run.stderr, 'error: --otlp ships what the record file holds, read back from it: /dev/stdout is a pipe (FIFO), not a file\n');
  });

  test('a capture DIR that is a symlink is followed: the link stays, the target holds the capture (L3)', async () => {
    mkdirSync(join(dir, 'cap-target'));
    symlinkSync('cap-target', join(dir, 'capl'));
    const run = await shell(`"$P" capture -n ${ns} capl; echo "rc=$?"`, { env: { KUBECONFIG: kubeconfig } });
    assert.match(run.stdout, /rc=0\n$/);
    assert.equal(lstatSync(join(dir, 'capl')).isSymbolicLink(), true);
    assert.ok(readdirSync(join(dir, 'cap-target')).includes('events.json'));
    assert.equal(existsSync(join(dir, 'cap-target', 'objects.json')), true);
  });
});

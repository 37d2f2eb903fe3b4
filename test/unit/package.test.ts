// The release packaging: archive names, the krew manifest that `npm run package` fills, the
// reproducible archive, and the completion wrapper that ships in it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { chmod, copyFile, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { archiveName, fillManifest, manifestPlatforms, MANIFEST_TEMPLATE, releaseUri, writeArchive } from '../../scripts/package.mjs';

const root = join(import.meta.dirname, '..', '..');
const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { version: string };
const committed = await readFile(MANIFEST_TEMPLATE, 'utf8');
const SHA = 'a'.repeat(64);

const names: [string, string, string, string][] = [
  ['linux/amd64 is the one built here', '0.1.0', 'linux/amd64', 'kubectl-evtimeline_0.1.0_linux_amd64.tar.gz'],
  ['another platform only changes the suffix', '1.2.3', 'darwin/arm64', 'kubectl-evtimeline_1.2.3_darwin_arm64.tar.gz'],
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

test('committed manifest: is the filled manifest of the current version, sha256 aside', () => {
  const sha = /^\s+sha256: ([0-9a-f]{64})$/m.exec(committed)?.[1];
  assert.ok(sha, 'krew-manifest.yaml has a sha256 of 64 hex digits');
  assert.equal(fillManifest(committed, pkg.version, () => sha), committed);
});

test('committed manifest: ships only the platform built and tested here', () => {
  assert.deepEqual(manifestPlatforms(committed), ['linux/amd64']);
});

test('committed manifest: installs the executable, its completion and the licence', () => {
  assert.match(committed, /^    bin: kubectl-evtimeline$/m);
  for (const file of ['kubectl-evtimeline', 'kubectl_complete-evtimeline', 'LICENSE']) {
    assert.match(committed, new RegExp(`^    - from: ${file}\\n      to: \\.$`, 'm'));
  }
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

// The one table of tools the build and the tests need (scripts/prerequisites.mjs): a missing one is
// one line naming the Debian package that brings it, before anything is built.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { missingFor, packagesFor, PREREQUISITES } from '../../../scripts/prerequisites.mjs';
import { scratchDir } from '../../support/tmp.ts';

const root = join(import.meta.dirname, '..', '..', '..');
const bin = scratchDir('prereq');
for (const tool of ['strip', 'tar', 'gzip']) {
  writeFileSync(join(bin, tool), '#!/bin/sh\nexit 0\n');
  chmodSync(join(bin, tool), 0o755);
}
const ARM64_STRIP =
  "missing: aarch64-linux-gnu-strip (strips the linux/arm64 executable before injection): install Debian's binutils-aarch64-linux-gnu (apt-get install -y binutils-aarch64-linux-gnu), as .ci/run does";

test('package: a PATH without the cross strip gives exactly its line, naming the Debian package', () => {
  assert.deepEqual(missingFor(['package'], { PATH: bin }), [ARM64_STRIP]);
});

test('package: an empty PATH names every tool, one line each, in the table\'s order', () => {
  const lines = missingFor(['package'], { PATH: '' });
  assert.deepEqual(lines.map((l) => /^missing: (\S+) \(/.exec(l)?.[1]), ['strip', 'aarch64-linux-gnu-strip', 'tar', 'gzip']);
  assert.ok(lines.every((l) => /apt-get install -y \S+/.test(l)), lines.join('\n'));
});

test('browser: a Chromium that is not there is named with its package and EVTIMELINE_CHROMIUM', () => {
  assert.deepEqual(missingFor(['browser'], { PATH: bin, EVTIMELINE_CHROMIUM: join(bin, 'no-chromium') }), [
    "missing: chromium (runs the -o html page in the browser tests): install Debian's chromium (apt-get install -y chromium), as .ci/run does, or set EVTIMELINE_CHROMIUM",
  ]);
});

test('every row says what it is for and how to get it, or gives its own line', () => {
  for (const row of PREREQUISITES) assert.ok(row.missing !== undefined || (row.why && row.get && row.present), row.tool);
});

test('npm run package without the cross strip stops before building, with that one line (exit 1)', async () => {
  const run = await new Promise<{ code: number; stderr: string }>((resolve) =>
    execFile(process.execPath, [join(root, 'scripts', 'package.mjs'), '--platform', 'linux/arm64'], { env: { PATH: bin } }, (error, _out, stderr) =>
      resolve({ code: typeof error?.code === 'number' ? error.code : 0, stderr }),
    ),
  );
  assert.equal(run.code, 1);
  assert.equal(run.stderr, `package: ${ARM64_STRIP}\n`);
});

test('--install names the Debian packages of the missing rows only, once each, in the table\'s order', () => {
  assert.deepEqual(packagesFor(['package'], { PATH: bin }), ['binutils-aarch64-linux-gnu']);
  assert.deepEqual(packagesFor(['package'], { PATH: '' }), ['binutils', 'binutils-aarch64-linux-gnu', 'tar', 'gzip']);
  assert.deepEqual(packagesFor(['browser'], { PATH: bin, EVTIMELINE_CHROMIUM: join(bin, 'no-chromium') }), ['chromium']);
  assert.ok(packagesFor(['demo'], { PATH: bin }).includes('runc'), 'the demo starts the real node, which needs runc');
  assert.deepEqual(packagesFor(['browser'], { PATH: bin, EVTIMELINE_CHROMIUM: join(bin, 'strip') }), []);
});

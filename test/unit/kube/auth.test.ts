// A kubeconfig tokenFile as client-go's cachingTokenSource reads it: an error only until it has
// given a token once, so a follower is not stopped by a token file being rotated.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readTokenFile } from '../../../src/kube/auth.ts';
import { scratchDir } from '../../support/tmp.ts';

test('a tokenFile that has never been read is an error naming it; once read, a later failure sends the last token', async () => {
  const dir = scratchDir('token-file');
  const path = join(dir, 'token');
  await assert.rejects(readTokenFile(path), { name: 'LocalCredentialError', message: `tokenFile ${path}: cannot read it (no such file or directory)` });
  writeFileSync(path, '\n');
  await assert.rejects(readTokenFile(path), { message: `tokenFile ${path}: read empty token from file` });
  writeFileSync(path, ' first-token\n');
  assert.equal(await readTokenFile(path), 'first-token');
  writeFileSync(path, 'second-token');
  assert.equal(await readTokenFile(path), 'second-token');
  rmSync(path);
  assert.equal(await readTokenFile(path), 'second-token');
  writeFileSync(path, '');
  assert.equal(await readTokenFile(path), 'second-token');
});

// The rusage helper the benchmarks measure peak memory with (scripts/maxrss.go), built once per
// source and Go version into the same cache as the control plane.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheRoot, findGo } from '../test/harness/build-controlplane.mjs';

const HELPER_SOURCE = join(dirname(fileURLToPath(import.meta.url)), 'maxrss.go');

/** @returns {Promise<string>} the helper's path */
export async function ensureMaxRssHelper() {
  const { go, version } = findGo();
  const source = await readFile(HELPER_SOURCE);
  const key = createHash('sha256').update(source).update(`\0${version}`).digest('hex').slice(0, 16);
  const dir = join(cacheRoot(), `maxrss-${key}`);
  const helper = join(dir, 'maxrss');
  if (existsSync(helper)) return helper;
  await mkdir(dir, { recursive: true });
  const tmp = `${helper}.tmp-${process.pid}`;
  execFileSync(go, ['build', '-trimpath', '-o', tmp, HELPER_SOURCE], { cwd: dir, env: { ...process.env, GOTOOLCHAIN: 'local' }, stdio: 'inherit' });
  await rename(tmp, helper);
  return helper;
}

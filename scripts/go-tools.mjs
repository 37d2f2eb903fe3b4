// Builds Go commands pinned by a small Go module of this repository (its go.mod `tool` lines and
// go.sum) into the cache folder the control plane uses, keyed by a hash of go.mod, go.sum, the
// flags, the target and the Go version, so they are rebuilt only when a pin changes:
//
//   ${XDG_CACHE_HOME:-~/.cache}/kubectl-evtimeline/<name>-<16 hex>/<command>
//
// krew (test/krew) and quill (scripts/quill) are built this way.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { cacheRoot, findGo, run } from '../test/harness/build-controlplane.mjs';

/**
 * Returns the folder holding `packages`' commands built from the module in `moduleDir`, building
 * them first when the cache has none. `goarch` cross-compiles (pure Go, no cgo) for linux/<goarch>.
 * @param {{ name: string, moduleDir: string, packages: string[], ldflags?: string, goarch?: string }} tool
 */
export async function ensureGoTools({ name, moduleDir, packages, ldflags = '-s -w', goarch }) {
  let go, version;
  try {
    ({ go, version } = findGo());
  } catch (err) {
    throw new Error(`building ${name} needs Go: ${err instanceof Error ? err.message : err}`);
  }
  const gomod = await readFile(join(moduleDir, 'go.mod'), 'utf8');
  const gosum = await readFile(join(moduleDir, 'go.sum'), 'utf8');
  const target = goarch ? `linux/${goarch}` : 'host';
  const key = createHash('sha256').update(`${gomod}\0${gosum}\0${ldflags}\0${target}\0${version}`).digest('hex').slice(0, 16);
  const dir = join(cacheRoot(), `${name}-${key}`);
  const commands = packages.map((pkg) => join(dir, basename(pkg)));
  if (commands.every((command) => existsSync(command))) return dir;

  // Build into a private folder and rename it into place: concurrent builders cannot see half a
  // folder, and the loser of the race just drops its copy.
  const tmp = `${dir}.tmp-${process.pid}`;
  await rm(tmp, { recursive: true, force: true });
  await mkdir(tmp, { recursive: true });
  process.stderr.write(`${name}: building ${packages.join(', ')} for ${target} with ${version} into ${dir} ...\n`);
  const started = performance.now();
  try {
    const cross = goarch ? { GOOS: 'linux', GOARCH: goarch, CGO_ENABLED: '0' } : {};
    await run(go, ['build', '-trimpath', `-ldflags=${ldflags}`, '-o', `${tmp}/`, ...packages], {
      cwd: moduleDir,
      env: { ...process.env, ...cross, GOTOOLCHAIN: 'local', GOFLAGS: `${process.env.GOFLAGS ?? ''} -mod=readonly`.trim() },
    });
    await rename(tmp, dir).catch(async (err) => {
      if (!commands.every((command) => existsSync(command))) throw err;
    });
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  process.stderr.write(`${name}: built in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  return dir;
}

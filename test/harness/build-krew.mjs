// Builds krew and krew's manifest validator from the Go module test/krew (sigs.k8s.io/krew at the
// version its go.mod pins) into the cache folder the control plane uses, keyed by a hash of
// go.mod, go.sum and the Go version, so they are rebuilt only when a pin changes:
//
//   ${XDG_CACHE_HOME:-~/.cache}/kubectl-evtimeline/krew-<16 hex>/{krew,validate-krew-manifest}
//
// Usable as a script (`node test/harness/build-krew.mjs` prints the folder on stdout; progress and
// timings go to stderr) and as a module: `const { krew, validator } = await ensureKrew();`.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cacheRoot, findGo, run } from './build-controlplane.mjs';

const here = dirname(fileURLToPath(import.meta.url));
export const krewSourceDir = resolve(here, '..', 'krew');
const PACKAGES = ['sigs.k8s.io/krew/cmd/krew', 'sigs.k8s.io/krew/cmd/validate-krew-manifest'];

function log(msg) {
  process.stderr.write(`krew: ${msg}\n`);
}

/** `krew version` reports the tag go.mod pins, as a release build would (and enables its upgrade check, which KREW_NO_UPGRADE_CHECK turns off). */
function ldflags(gomod) {
  const m = /^\s*(?:require\s+)?sigs\.k8s\.io\/krew (v\S+)/m.exec(gomod);
  if (!m) throw new Error('test/krew/go.mod does not require sigs.k8s.io/krew');
  return `-s -w -X sigs.k8s.io/krew/internal/version.gitTag=${m[1]}`;
}

/**
 * Returns the paths of krew and validate-krew-manifest for the current pins, building them first
 * when the cache has none.
 * @returns {Promise<{ krew: string, validator: string, dir: string }>}
 */
export async function ensureKrew() {
  let go, version;
  try {
    ({ go, version } = findGo());
  } catch (err) {
    throw new Error(`the krew install test builds krew from source: ${err instanceof Error ? err.message : err}`);
  }
  const gomod = await readFile(join(krewSourceDir, 'go.mod'), 'utf8');
  const gosum = await readFile(join(krewSourceDir, 'go.sum'), 'utf8');
  const flags = ldflags(gomod);
  const key = createHash('sha256').update(`${gomod}\0${gosum}\0${flags}\0${version}`).digest('hex').slice(0, 16);
  const dir = join(cacheRoot(), `krew-${key}`);
  const result = { krew: join(dir, 'krew'), validator: join(dir, 'validate-krew-manifest'), dir };
  if (existsSync(result.krew) && existsSync(result.validator)) return result;

  // Build into a private folder and rename it into place: concurrent builders cannot see half a
  // folder, and the loser of the race just drops its copy.
  const tmp = `${dir}.tmp-${process.pid}`;
  await rm(tmp, { recursive: true, force: true });
  await mkdir(tmp, { recursive: true });
  log(`building ${PACKAGES.join(', ')} with ${version} into ${dir} ...`);
  const started = performance.now();
  try {
    await run(go, ['build', '-trimpath', `-ldflags=${flags}`, '-o', `${tmp}/`, ...PACKAGES], {
      cwd: krewSourceDir,
      env: { ...process.env, GOTOOLCHAIN: 'local', GOFLAGS: `${process.env.GOFLAGS ?? ''} -mod=readonly`.trim() },
    });
    await rename(tmp, dir).catch(async (err) => {
      if (!existsSync(result.krew)) throw err;
    });
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  log(`built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  ensureKrew().then(
    ({ dir }) => process.stdout.write(`${dir}\n`),
    (err) => {
      process.stderr.write(`krew: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}

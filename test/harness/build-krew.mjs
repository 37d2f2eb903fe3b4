// Builds krew and krew's manifest validator from the Go module test/krew (sigs.k8s.io/krew at the
// version its go.mod pins) into the cache folder the control plane uses (see scripts/go-tools.mjs),
// so they are rebuilt only when a pin changes. `ensureKrew({ goarch: 'arm64' })` cross-builds them
// for linux/arm64, to run under qemu-user: krew picks the platform it installs by its own GOOS/GOARCH.
//
// Usable as a script (`node test/harness/build-krew.mjs` prints the folder on stdout; progress and
// timings go to stderr) and as a module: `const { krew, validator } = await ensureKrew();`.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureGoTools } from '../../scripts/go-tools.mjs';

const here = dirname(fileURLToPath(import.meta.url));
export const krewSourceDir = resolve(here, '..', 'krew');
const PACKAGES = ['sigs.k8s.io/krew/cmd/krew', 'sigs.k8s.io/krew/cmd/validate-krew-manifest'];

/** `krew version` reports the tag go.mod pins, as a release build would (and enables its upgrade check, which KREW_NO_UPGRADE_CHECK turns off). */
function ldflags() {
  const m = /^\s*(?:require\s+)?sigs\.k8s\.io\/krew (v\S+)/m.exec(readFileSync(join(krewSourceDir, 'go.mod'), 'utf8'));
  if (!m) throw new Error('test/krew/go.mod does not require sigs.k8s.io/krew');
  return `-s -w -X sigs.k8s.io/krew/internal/version.gitTag=${m[1]}`;
}

/**
 * Returns the paths of krew and validate-krew-manifest for the current pins, building them first
 * when the cache has none.
 * @param {{ goarch?: string }} [target]
 * @returns {Promise<{ krew: string, validator: string, dir: string }>}
 */
export async function ensureKrew({ goarch } = {}) {
  const dir = await ensureGoTools({ name: goarch ? `krew-${goarch}` : 'krew', moduleDir: krewSourceDir, packages: PACKAGES, ldflags: ldflags(), goarch });
  return { krew: join(dir, 'krew'), validator: join(dir, 'validate-krew-manifest'), dir };
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

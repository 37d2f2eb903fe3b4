// quill (github.com/anchore/quill, pinned by scripts/quill/go.mod) ad-hoc signs the macOS
// executables on Linux. Chosen over an npm package because it is maintained (anchore signs and
// notarizes its own release binaries with it), its `sign --ad-hoc` needs no certificate and no
// network, and it is built here from the Go module proxy the control plane already needs, into the
// same cache (see scripts/go-tools.mjs).
import { execFileSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureGoTools } from './go-tools.mjs';

const moduleDir = resolve(dirname(fileURLToPath(import.meta.url)), 'quill');

/** Ad-hoc signs the Mach-O executable at `path` in place, with `identifier` in its code directory. */
export async function signAdHoc(path, identifier) {
  const dir = await ensureGoTools({ name: 'quill', moduleDir, packages: ['github.com/anchore/quill/cmd/quill'] });
  try {
    execFileSync(join(dir, 'quill'), ['sign', '--ad-hoc', '--quiet', '--identity', identifier, path], { stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    throw new Error(`quill sign --ad-hoc ${path} failed:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
  }
}

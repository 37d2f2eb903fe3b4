// Turns the CommonJS bundle into a Node.js single executable application (SEA): a copy of a Node
// binary with the bundle injected as the NODE_SEA_BLOB resource. Not pkg: vercel/pkg is
// deprecated (no target past Node 18) and both pkg projects download base binaries at build time.
import { execFileSync } from 'node:child_process';
import { chmod, copyFile, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';

const require = createRequire(import.meta.url);

// The fuse string every Node binary since 18.16 carries; postject flips its trailing 0 to 1.
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

// V8 seeds its string hashes at random and the seed leaks into the code cache, so two builds of one
// commit differ byte for byte. A fixed --hash-seed would make them identical, but it would also give
// up V8's defence against hash flooding, and this executable parses event text that anyone allowed
// to write an Event chooses (keys included), for hours on end in `record`. So: not reproducible.

/** The real Node binary of the pinned `node` devDependency (node_modules/.bin/node links to it). */
export function pinnedNodeBinary() {
  const pkgDir = dirname(require.resolve('node/package.json'));
  const { version } = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
  const binary = realpathSync(join(pkgDir, 'bin', 'node'));
  const reported = execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim();
  if (reported !== `v${version}`) {
    throw new Error(`${binary} reports ${reported}, but the node devDependency is ${version}: run npm ci`);
  }
  return { binary, version: reported };
}

/** Runs a build tool quietly; its output is shown only when it fails. */
function run(file, args) {
  try {
    execFileSync(file, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    throw new Error(`${[file, ...args].join(' ')} failed:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
  }
}

/**
 * Builds `output` from `bundle` (and `assets`, name -> file) with `nodeBinary` as the runtime. The preparation blob is made by
 * `generator` (the pinned Node; the blob format is tied to the Node version, so a foreign binary
 * must be the same version). V8's code cache is only valid in the binary that made it, so pass
 * useCodeCache: false when `nodeBinary` is another platform's.
 */
export async function buildSea({ bundle, assets = {}, output, nodeBinary, generator = nodeBinary, useCodeCache = true, strip = 'strip' }) {
  const work = await mkdtemp(join(tmpdir(), 'evtimeline-sea-'));
  // Built under a temporary name and renamed into place, so a plugin run while a build is under
  // way gets the old executable or the new one, never a bare node binary awaiting its blob.
  const partial = join(dirname(resolve(output)), `.${basename(output)}.partial-${process.pid}`);
  try {
    const blob = join(work, 'sea-prep.blob');
    const config = {
      main: resolve(bundle),
      // Scripts the bundle compiles on demand (sea.getAsset), so start-up does not pay for them.
      assets: Object.fromEntries(Object.entries(assets).map(([name, path]) => [name, resolve(path)])),
      output: blob,
      disableExperimentalSEAWarning: true,
      useSnapshot: false,
      useCodeCache,
      // V8 lets the young generation grow to tens of MiB on a machine with plenty of memory; a read
      // of 20,000 events (page after page parsed, normalised and dropped) then peaks about 90 MiB
      // higher than with 4 MiB semi-spaces, for no CPU saved (measured: scripts/bench-timeline.ts).
      execArgv: ['--max-semi-space-size=4'],
      // Ignore NODE_OPTIONS: the plugin must not pick up another project's --require or --import.
      execArgvExtension: 'none',
    };
    await writeFile(join(work, 'sea-config.json'), JSON.stringify(config));
    run(generator, ['--experimental-sea-config', join(work, 'sea-config.json')]);

    await copyFile(nodeBinary, partial);
    await chmod(partial, 0o755);
    // Strip BEFORE injecting: stripping afterwards drops the injected note and the binary segfaults.
    if (strip) run(strip, ['--strip-all', partial]);
    // postject's CLI rather than its API: its ELF library prints `.note.100` warnings we discard.
    run(generator, [require.resolve('postject/dist/cli.js'), partial, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', SEA_FUSE]);
    await rename(partial, output);
  } finally {
    await rm(partial, { force: true });
    await rm(work, { recursive: true, force: true });
  }
}

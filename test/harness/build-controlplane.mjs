// Builds the test control plane (test/controlplane, a Go module pinned to k8s.io/kubernetes)
// into a cache folder outside the work tree, keyed by a hash of its go.mod, go.sum, *.go
// sources, the link flags and the Go version, so it is rebuilt only when one of them changes:
//
//   ${XDG_CACHE_HOME:-~/.cache}/kubectl-evtimeline/controlplane-<16 hex>/controlplane
//
// Usable as a script (`node test/harness/build-controlplane.mjs` prints the binary path on
// stdout; progress and timings go to stderr) and as a module:
//
//   import { ensureControlPlane } from './build-controlplane.mjs';
//   const binary = await ensureControlPlane();
//
// Needs Go >= 1.26 (`go` on PATH, or $GO, or /usr/local/go/bin/go); fails with a clear message
// otherwise. Concurrent callers share one build through a lock file in the cache folder.

import { spawn, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, open, utimes, unlink } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const controlPlaneSourceDir = resolve(here, '..', 'controlplane');
const MIN_GO = [1, 26];

function log(msg) {
  process.stderr.write(`controlplane: ${msg}\n`);
}

/** Finds a usable `go` and checks its version; throws a clear error when there is none. */
export function findGo() {
  const candidates = [];
  if (process.env.GO) candidates.push(process.env.GO);
  for (const d of (process.env.PATH ?? '').split(':')) if (d) candidates.push(join(d, 'go'));
  candidates.push('/usr/local/go/bin/go');
  const go = candidates.find((c) => {
    try {
      return statSync(c).isFile();
    } catch {
      return false;
    }
  });
  if (!go) {
    throw new Error(
      'Go is required to build the test control plane (test/controlplane) but `go` was not found ' +
        '(looked at $GO, PATH and /usr/local/go/bin/go). Install Go >= 1.26 from https://go.dev/dl/.',
    );
  }
  let version;
  try {
    version = execFileSync(go, ['env', 'GOVERSION'], {
      encoding: 'utf8',
      env: { ...process.env, GOTOOLCHAIN: 'local' },
    }).trim();
  } catch (err) {
    throw new Error(`${go} env GOVERSION failed: ${err instanceof Error ? err.message : err}`);
  }
  const m = /^go(\d+)\.(\d+)/.exec(version);
  if (!m) throw new Error(`cannot parse the Go version ${JSON.stringify(version)} from ${go}`);
  const [maj, min] = [Number(m[1]), Number(m[2])];
  if (maj < MIN_GO[0] || (maj === MIN_GO[0] && min < MIN_GO[1])) {
    throw new Error(
      `Go >= ${MIN_GO.join('.')} is required to build the test control plane, but ${go} is ${version}. ` +
        'Install a newer Go from https://go.dev/dl/ (or point $GO at one).',
    );
  }
  return { go, version };
}

/** -ldflags: stamp the Kubernetes version that go.mod pins, as upstream's hack/lib/version.sh does. */
async function ldflags() {
  const gomod = await readFile(join(controlPlaneSourceDir, 'go.mod'), 'utf8');
  const m = /^\s*k8s\.io\/kubernetes v(\d+)\.(\d+)\.(\d+)\S*/m.exec(gomod);
  if (!m) throw new Error('test/controlplane/go.mod does not require k8s.io/kubernetes');
  const gitVersion = `v${m[1]}.${m[2]}.${m[3]}`;
  const flags = ['-s', '-w'];
  for (const pkg of ['k8s.io/component-base/version', 'k8s.io/client-go/pkg/version']) {
    flags.push(
      `-X ${pkg}.gitVersion=${gitVersion}`,
      `-X ${pkg}.gitMajor=${m[1]}`,
      `-X ${pkg}.gitMinor=${m[2]}`,
      `-X ${pkg}.gitTreeState=clean`,
      `-X ${pkg}.gitCommit=`,
    );
  }
  return flags.join(' ');
}

/** Where Go-built test tools live, outside the work tree. */
export function cacheRoot() {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'kubectl-evtimeline');
}

/** A 16-hex key over a Go module's go.mod, go.sum and *.go sources plus `extra` (link flags, Go version). */
export async function sourceKey(sourceDir, extra) {
  const h = createHash('sha256');
  const names = (await readdir(sourceDir))
    .filter((n) => n === 'go.mod' || n === 'go.sum' || n.endsWith('.go'))
    .sort();
  for (const n of names) {
    h.update(`${n}\0`);
    h.update(await readFile(join(sourceDir, n)));
    h.update('\0');
  }
  h.update(extra);
  return h.digest('hex').slice(0, 16);
}

function pidAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return /** @type {NodeJS.ErrnoException} */ (err).code === 'EPERM';
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Takes <dir>/build.lock (O_EXCL, holds our pid); waits while a live process holds it. */
async function lock(dir, say) {
  const lockPath = join(dir, 'build.lock');
  let said = false;
  for (;;) {
    try {
      const fh = await open(lockPath, 'wx');
      await fh.writeFile(String(process.pid));
      await fh.close();
      return async () => {
        await unlink(lockPath).catch(() => {});
      };
    } catch (err) {
      if (/** @type {NodeJS.ErrnoException} */ (err).code !== 'EEXIST') throw err;
    }
    const holder = Number((await readFile(lockPath, 'utf8').catch(() => '')).trim());
    if (!holder || !pidAlive(holder)) {
      // Stale (holder died) or being written this instant: remove it only when clearly stale.
      if (holder) await unlink(lockPath).catch(() => {});
      else await sleep(200);
      continue;
    }
    if (!said) {
      say(`waiting for the build running in process ${holder}`);
      said = true;
    }
    await sleep(500);
  }
}

/** Runs a build command; its output goes to stderr, never to a test's stdout. */
export function run(cmd, args, opts) {
  return new Promise((resolvePromise, reject) => {
    // stdout of a node:test file process carries the test protocol: send everything to stderr.
    const child = spawn(cmd, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pipe(process.stderr, { end: false });
    child.stderr.pipe(process.stderr, { end: false });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolvePromise();
      else reject(new Error(`${cmd} ${args.join(' ')} failed (${signal ?? `exit ${code}`})`));
    });
  });
}

/** Drops cache entries `<prefix>-*` of other pins unused for a week (each is ~100 MB). */
async function pruneOld(root, prefix, keep) {
  const weekAgo = Date.now() - 7 * 24 * 3600 * 1000;
  for (const name of await readdir(root).catch(() => [])) {
    if (!name.startsWith(`${prefix}-`) || name === keep) continue;
    try {
      if (statSync(join(root, name)).mtimeMs < weekAgo) await rm(join(root, name), { recursive: true, force: true });
    } catch {
      /* ignore */
    }
  }
}

/**
 * Returns `<cache>/<name>-<key>/<name>`, the binary `go build` makes of the main package in
 * sourceDir (or of `pkg`, a main package the module in sourceDir requires), building it first
 * when the cache has none. Concurrent callers share one build through a lock file; the binary
 * appears by rename, never half-written.
 * @param {{ name: string, sourceDir: string, ldflags: string, log: (msg: string) => void, pkg?: string, env?: Record<string, string> }} spec
 * @returns {Promise<string>}
 */
export async function ensureGoBinary({ name, sourceDir, ldflags: flags, log: say, pkg = '.', env = {} }) {
  const t0 = performance.now();
  const { go, version } = findGo();
  // pkg and env join the key only when given, so the keys of existing caches stay as they were.
  const more = pkg === '.' && Object.keys(env).length === 0 ? '' : `\0${pkg}\0${JSON.stringify(env)}`;
  const key = await sourceKey(sourceDir, `ldflags\0${flags}\0${version}${more}`);
  const root = cacheRoot();
  const dir = join(root, `${name}-${key}`);
  const binary = join(dir, name);
  if (existsSync(binary)) {
    const now = new Date();
    await utimes(dir, now, now).catch(() => {});
    say(`using cached ${binary} (checked in ${((performance.now() - t0) / 1000).toFixed(2)} s)`);
    return binary;
  }
  await mkdir(dir, { recursive: true });
  const unlock = await lock(dir, say);
  try {
    if (existsSync(binary)) {
      say(`using ${binary} built by another process`);
      return binary;
    }
    say(`building ${binary} with ${version} (first build of these pins takes minutes) ...`);
    const tmp = join(dir, `${name}.tmp-${process.pid}`);
    const tb = performance.now();
    await run(go, ['build', '-trimpath', `-ldflags=${flags}`, '-o', tmp, pkg], {
      cwd: sourceDir,
      env: { ...process.env, ...env, GOTOOLCHAIN: 'local', GOFLAGS: `${process.env.GOFLAGS ?? ''} -mod=readonly`.trim() },
    }).catch(async (err) => {
      await rm(tmp, { force: true });
      throw err;
    });
    await rename(tmp, binary);
    say(`built ${binary} in ${((performance.now() - tb) / 1000).toFixed(1)} s`);
  } finally {
    await unlock();
  }
  await pruneOld(root, name, `${name}-${key}`);
  return binary;
}

/**
 * Returns the path of the control plane binary for the current sources, building it first
 * when the cache has none.
 * @returns {Promise<string>}
 */
export async function ensureControlPlane() {
  return ensureGoBinary({ name: 'controlplane', sourceDir: controlPlaneSourceDir, ldflags: await ldflags(), log });
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  ensureControlPlane().then(
    (bin) => process.stdout.write(`${bin}\n`),
    (err) => {
      process.stderr.write(`controlplane: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}

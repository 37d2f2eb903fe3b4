// Builds what the real node runs besides the kubelet (which is a subcommand of the control plane
// binary, test/harness/build-controlplane.mjs): containerd, ctr and the runc shim, the CNI plugins,
// all from Go modules pinned by version, and the static pause/hog binary of its images
// (test/controlplane/podtools). Each goes to the same cache as the control plane, keyed by what
// it is built from, so it is built once per pin:
//
//   ${XDG_CACHE_HOME:-~/.cache}/kubectl-evtimeline/containerd-<16 hex>/{containerd,ctr,containerd-shim-runc-v2}
//   ${XDG_CACHE_HOME:-~/.cache}/kubectl-evtimeline/cni-<16 hex>/{bridge,host-local,loopback}
//   ${XDG_CACHE_HOME:-~/.cache}/kubectl-evtimeline/podtools-<16 hex>/podtools
//
// As a script, `node test/harness/build-node.mjs` prints the three paths as JSON.

import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm, utimes } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cacheRoot, controlPlaneSourceDir, ensureGoBinary, findGo, run } from './build-controlplane.mjs';

export const CONTAINERD_VERSION = 'v2.4.2';
export const CNI_PLUGINS_VERSION = 'v1.10.0';

function log(msg) {
  process.stderr.write(`node: ${msg}\n`);
}

/**
 * `go install pkg@version` of each package (a module proxy build, no go.mod of ours) into
 * <cache>/<name>-<key>/; the folder appears by rename, never half-filled.
 * @param {{ name: string, installs: { packages: string[], cgo: boolean, tags?: string, ldflags?: string }[] }} spec
 * @returns {Promise<string>} the folder
 */
async function ensureGoInstall({ name, installs }) {
  const t0 = performance.now();
  const { go, version } = findGo();
  const key = createHash('sha256').update(JSON.stringify({ installs, version })).digest('hex').slice(0, 16);
  const dir = join(cacheRoot(), `${name}-${key}`);
  if (existsSync(dir)) {
    const now = new Date();
    await utimes(dir, now, now).catch(() => {});
    log(`using cached ${dir} (checked in ${((performance.now() - t0) / 1000).toFixed(2)} s)`);
    return dir;
  }
  await mkdir(cacheRoot(), { recursive: true });
  const tmp = `${dir}.tmp-${process.pid}`;
  await rm(tmp, { recursive: true, force: true });
  log(`building ${dir} with ${version} ...`);
  try {
    for (const { packages, cgo, tags, ldflags = '' } of installs) {
      const tb = performance.now();
      const args = ['install', '-trimpath', `-ldflags=-s -w ${ldflags}`.trim()];
      if (tags) args.push('-tags', tags);
      await run(go, [...args, ...packages], {
        env: { ...process.env, GOTOOLCHAIN: 'local', GOBIN: tmp, CGO_ENABLED: cgo ? '1' : '0', GOFLAGS: '-buildvcs=false' },
      });
      log(`built ${packages.map((p) => p.replace(/.*\//, '')).join(', ')} in ${((performance.now() - tb) / 1000).toFixed(1)} s`);
    }
    // Another process may have finished the same build meanwhile: either result is the same.
    await rename(tmp, dir).catch((err) => {
      if (!existsSync(dir)) throw err;
    });
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  return dir;
}

/**
 * containerd (with cgo, as upstream releases it; btrfs/devmapper/zfs left out), ctr and the static
 * runc shim. The version is stamped as upstream's Makefile does (-X .../version.Version), or the
 * node would report containerd://2.4.2+unknown.
 */
export function ensureContainerd() {
  const m = `github.com/containerd/containerd/v2/cmd`;
  const ldflags = `-X github.com/containerd/containerd/v2/version.Version=${CONTAINERD_VERSION}`;
  return ensureGoInstall({
    name: 'containerd',
    installs: [
      { packages: [`${m}/containerd@${CONTAINERD_VERSION}`, `${m}/ctr@${CONTAINERD_VERSION}`], cgo: true, tags: 'no_btrfs no_devmapper no_zfs', ldflags },
      { packages: [`${m}/containerd-shim-runc-v2@${CONTAINERD_VERSION}`], cgo: false, ldflags },
    ],
  });
}

/** The CNI plugins the node's conflist names: bridge, host-local, loopback. */
export function ensureCniPlugins() {
  const m = 'github.com/containernetworking/plugins/plugins';
  return ensureGoInstall({
    name: 'cni',
    installs: [{ packages: ['main/bridge', 'ipam/host-local', 'main/loopback'].map((p) => `${m}/${p}@${CNI_PLUGINS_VERSION}`), cgo: false }],
  });
}

/** The static pause/hog binary of the node's images (CGO_ENABLED=0: no libc in the image). */
export function ensurePodTools() {
  return ensureGoBinary({
    name: 'podtools',
    sourceDir: join(controlPlaneSourceDir, 'podtools'),
    ldflags: '-s -w',
    env: { CGO_ENABLED: '0' },
    log,
  });
}

/** All three, built one after the other (the machine has few cores). */
export async function ensureNodeBinaries() {
  const containerdDir = await ensureContainerd();
  const cniDir = await ensureCniPlugins();
  const podTools = await ensurePodTools();
  return { containerdDir, cniDir, podTools };
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  ensureNodeBinaries().then(
    (paths) => process.stdout.write(`${JSON.stringify(paths)}\n`),
    (err) => {
      process.stderr.write(`node: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}

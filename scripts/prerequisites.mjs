// The one table of what the build and the tests need from this machine besides npm's packages,
// checked up front in milliseconds: `npm run package` and `npm test` stop at once with one line per
// missing tool, naming the Debian package (or the README section) that brings it, instead of failing
// minutes later mid-build (`aarch64-linux-gnu-strip --strip-all ... failed:` and nothing after the
// colon). Add a row here for a new tool; .ci/run installs what the rows name.
//
// As a script: `node scripts/prerequisites.mjs [--install] PURPOSE...` prints the missing lines and
// exits 1, else prints nothing. Purposes: package, unit, browser, integration, platforms, real-node,
// test (all), demo (what `npm run demo` and `npm run cluster` start). With --install, run as root on
// Debian, it first installs the Debian packages the missing rows name (the README's Quickstart
// commands do this, as .ci/run does), then checks again; otherwise it only says what is missing.

import { execFileSync } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync, statSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { missingForRealNode } from '../test/harness/node-prerequisites.mjs';

export function onPath(name, path = process.env.PATH ?? '') {
  return path.split(delimiter).some((d) => {
    if (!d) return false;
    try {
      accessSync(join(d, name), constants.X_OK);
      return statSync(join(d, name)).isFile();
    } catch {
      return false;
    }
  });
}

/** The arm64 C and C++ runtime qemu-user loads for linux/arm64 executables (test/support/qemu.ts). */
const QEMU_LD_PREFIX = '/usr/aarch64-linux-gnu';

/** qemu-user-static's install leaves the entry disabled where binfmt_misc was not mounted (a container). */
function enableQemuBinfmt() {
  if (!existsSync('/proc/sys/fs/binfmt_misc/register')) execFileSync('mount', ['-t', 'binfmt_misc', 'binfmt_misc', '/proc/sys/fs/binfmt_misc'], { stdio: 'inherit' });
  execFileSync('update-binfmts', ['--enable', 'qemu-aarch64'], { stdio: 'inherit' });
}

function binfmtEnabled() {
  try {
    return /^enabled$/m.test(readFileSync('/proc/sys/fs/binfmt_misc/qemu-aarch64', 'utf8'));
  } catch {
    return false;
  }
}

const apt = (packages) => `install Debian's ${packages.join(', ')} (apt-get install -y ${packages.join(' ')}), as .ci/run does`;

function debianPackageInstalled(name) {
  try {
    return execFileSync('dpkg-query', ['-W', '-f=${Status}', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).includes('ok installed');
  } catch {
    return false;
  }
}

/**
 * One row per tool: what it is for, the purposes that need it, whether it is here (`env`: the
 * environment to look in), and how to get it. `missing` (instead of `present`) gives its own line.
 */
export const PREREQUISITES = [
  { tool: 'strip', why: "strips this machine's executable before injection", for: ['package'], present: (env) => onPath('strip', env.PATH), apt: ['binutils'], get: apt(['binutils']) },
  {
    tool: 'aarch64-linux-gnu-strip',
    why: 'strips the linux/arm64 executable before injection',
    for: ['package'],
    present: (env) => onPath('aarch64-linux-gnu-strip', env.PATH),
    apt: ['binutils-aarch64-linux-gnu'],
    get: apt(['binutils-aarch64-linux-gnu']),
  },
  { tool: 'tar', why: 'makes the release archives', for: ['package'], present: (env) => onPath('tar', env.PATH), apt: ['tar'], get: apt(['tar']) },
  { tool: 'gzip', why: 'makes the release archives', for: ['package'], present: (env) => onPath('gzip', env.PATH), apt: ['gzip'], get: apt(['gzip']) },
  {
    tool: 'openssl',
    why: 'makes the TLS certificates of the test collectors and endpoints',
    for: ['unit', 'integration'],
    present: (env) => onPath('openssl', env.PATH),
    apt: ['openssl'],
    get: apt(['openssl']),
  },
  {
    tool: 'go',
    why: 'builds the control plane, collectors, krew and quill from Go modules',
    for: ['integration'],
    present: (env) => onPath('go', env.PATH) || existsSync('/usr/local/go/bin/go'),
    get: 'install Go >= 1.26 from https://go.dev/dl (README: Testing)',
  },
  {
    tool: 'chromium',
    why: 'runs the -o html page in the browser tests',
    for: ['browser'],
    present: (env) => existsSync(env.EVTIMELINE_CHROMIUM ?? '/usr/bin/chromium'),
    apt: ['chromium'],
    get: `${apt(['chromium'])}, or set EVTIMELINE_CHROMIUM`,
  },
  {
    tool: 'qemu-aarch64 in binfmt_misc',
    why: 'runs the linux/arm64 executable in the tests',
    for: ['platforms'],
    present: () => binfmtEnabled(),
    apt: ['qemu-user-static', 'binfmt-support'],
    after: enableQemuBinfmt,
    get: `${apt(['qemu-user-static', 'binfmt-support'])}, then update-binfmts --enable qemu-aarch64`,
  },
  {
    tool: `${QEMU_LD_PREFIX}/lib/ld-linux-aarch64.so.1`,
    why: 'the arm64 loader and C and C++ runtime qemu loads from QEMU_LD_PREFIX',
    for: ['platforms'],
    present: () => existsSync(join(QEMU_LD_PREFIX, 'lib', 'ld-linux-aarch64.so.1')),
    apt: ['libc6-arm64-cross', 'libstdc++6-arm64-cross', 'libgcc-s1-arm64-cross', 'libatomic1-arm64-cross'],
    get: apt(['libc6-arm64-cross', 'libstdc++6-arm64-cross', 'libgcc-s1-arm64-cross', 'libatomic1-arm64-cross']),
  },
  // The real node's runtime and the busybox its image is made of; installable, so rows of their own.
  { tool: 'runc', why: "runs the real node's containers", for: ['real-node'], present: (env) => onPath('runc', env.PATH), apt: ['runc'], get: apt(['runc']) },
  {
    tool: 'busybox-static',
    why: "the statically linked busybox the real node's image is made of",
    for: ['real-node'],
    present: () => debianPackageInstalled('busybox-static'),
    apt: ['busybox-static'],
    get: apt(['busybox-static']),
  },
  // The real node's own checks (root, cgroups, overlayfs, runc, busybox-static, unshare) live beside it.
  { tool: 'the real node', for: ['real-node'], missing: () => missingForRealNode() },
];

/** `npm test` runs all of these; `npm run demo` and `npm run cluster` start a control plane and the real node. */
const GROUPS = { test: ['package', 'unit', 'browser', 'integration', 'platforms', 'real-node'], demo: ['integration', 'real-node'] };

function rowsFor(purposes) {
  const wanted = new Set(purposes.flatMap((p) => GROUPS[p] ?? [p]));
  return PREREQUISITES.filter((row) => row.for.some((p) => wanted.has(p)));
}

/** One line per missing tool for the given purposes, in the table's order; [] when nothing is missing. */
export function missingFor(purposes, env = process.env) {
  const lines = [];
  for (const row of rowsFor(purposes)) {
    if (row.missing) {
      // Its own words, kept as they are (they name what is missing and how to get it).
      const line = row.missing(env);
      if (line) lines.push(line);
    } else if (!row.present(env)) {
      lines.push(`missing: ${row.tool} (${row.why}): ${row.get}`);
    }
  }
  return lines;
}

/**
 * The Debian packages the missing rows name, in the table's order (a row whose own check found
 * nothing missing, or that names no package, adds none).
 */
export function packagesFor(purposes, env = process.env) {
  return [...new Set(rowsFor(purposes).filter((row) => row.apt && !row.present(env)).flatMap((row) => row.apt))];
}

/** As root on Debian: installs what packagesFor names, then runs the rows' own steps (binfmt). */
function install(purposes) {
  const rows = rowsFor(purposes).filter((row) => row.apt && !row.present(process.env));
  if (rows.length === 0 || process.getuid?.() !== 0 || !onPath('apt-get')) return;
  const packages = packagesFor(purposes);
  process.stderr.write(`prerequisites: installing Debian's ${packages.join(' ')}\n`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  // stdout to stderr: a caller's stdout (npm run cluster prints an export line) stays its own.
  const stdio = ['ignore', 2, 2];
  execFileSync('apt-get', ['update'], { stdio, env });
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', ...packages], { stdio, env });
  for (const row of rows) if (row.after && !row.present(process.env)) row.after();
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const args = process.argv.slice(2);
  const purposes = args.filter((a) => a !== '--install');
  if (args.includes('--install')) install(purposes);
  const lines = missingFor(purposes);
  if (lines.length > 0) {
    process.stderr.write(`${lines.join('\n')}\n`);
    process.exit(1);
  }
}

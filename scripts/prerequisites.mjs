// The one table of what the build and the tests need from this machine besides npm's packages,
// checked up front in milliseconds: `npm run package` and `npm test` stop at once with one line per
// missing tool, naming the Debian package (or the README section) that brings it, instead of failing
// minutes later mid-build (`aarch64-linux-gnu-strip --strip-all ... failed:` and nothing after the
// colon). Add a row here for a new tool; .ci/run installs what the rows name.
//
// As a script: `node scripts/prerequisites.mjs PURPOSE...` prints the missing lines and exits 1, else
// prints nothing. Purposes: package, unit, browser, integration, platforms, real-node, test (all).

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

function binfmtEnabled() {
  try {
    return /^enabled$/m.test(readFileSync('/proc/sys/fs/binfmt_misc/qemu-aarch64', 'utf8'));
  } catch {
    return false;
  }
}

const apt = (packages) => `install Debian's ${packages.join(', ')} (apt-get install -y ${packages.join(' ')}), as .ci/run does`;

/**
 * One row per tool: what it is for, the purposes that need it, whether it is here (`env`: the
 * environment to look in), and how to get it. `missing` (instead of `present`) gives its own line.
 */
export const PREREQUISITES = [
  { tool: 'strip', why: "strips this machine's executable before injection", for: ['package'], present: (env) => onPath('strip', env.PATH), get: apt(['binutils']) },
  {
    tool: 'aarch64-linux-gnu-strip',
    why: 'strips the linux/arm64 executable before injection',
    for: ['package'],
    present: (env) => onPath('aarch64-linux-gnu-strip', env.PATH),
    get: apt(['binutils-aarch64-linux-gnu']),
  },
  { tool: 'tar', why: 'makes the release archives', for: ['package'], present: (env) => onPath('tar', env.PATH), get: apt(['tar']) },
  { tool: 'gzip', why: 'makes the release archives', for: ['package'], present: (env) => onPath('gzip', env.PATH), get: apt(['gzip']) },
  {
    tool: 'openssl',
    why: 'makes the TLS certificates of the test collectors and endpoints',
    for: ['unit', 'integration'],
    present: (env) => onPath('openssl', env.PATH),
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
    get: `${apt(['chromium'])}, or set EVTIMELINE_CHROMIUM`,
  },
  {
    tool: 'qemu-aarch64 in binfmt_misc',
    why: 'runs the linux/arm64 executable in the tests',
    for: ['platforms'],
    present: () => binfmtEnabled(),
    get: `${apt(['qemu-user-static', 'binfmt-support'])}, then update-binfmts --enable qemu-aarch64`,
  },
  {
    tool: `${QEMU_LD_PREFIX}/lib/ld-linux-aarch64.so.1`,
    why: 'the arm64 loader and C and C++ runtime qemu loads from QEMU_LD_PREFIX',
    for: ['platforms'],
    present: () => existsSync(join(QEMU_LD_PREFIX, 'lib', 'ld-linux-aarch64.so.1')),
    get: apt(['libc6-arm64-cross', 'libstdc++6-arm64-cross', 'libgcc-s1-arm64-cross', 'libatomic1-arm64-cross']),
  },
  // The real node's own checks (root, cgroups, overlayfs, runc, busybox-static, unshare) live beside it.
  { tool: 'the real node', for: ['real-node'], missing: () => missingForRealNode() },
];

/** `npm test` runs all of these. */
const ALL = ['package', 'unit', 'browser', 'integration', 'platforms', 'real-node'];

/** One line per missing tool for the given purposes, in the table's order; [] when nothing is missing. */
export function missingFor(purposes, env = process.env) {
  const wanted = new Set(purposes.flatMap((p) => (p === 'test' ? ALL : [p])));
  const lines = [];
  for (const row of PREREQUISITES) {
    if (!row.for.some((p) => wanted.has(p))) continue;
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

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const lines = missingFor(process.argv.slice(2));
  if (lines.length > 0) {
    process.stderr.write(`${lines.join('\n')}\n`);
    process.exit(1);
  }
}

// What a real node (test/controlplane/kubeletnode.go) needs from this machine, checked in
// milliseconds before anything is built or started, so `npm test`, `npm run cluster` and
// `npm run demo` stop at once with one line instead of failing minutes later. The node's
// supervisor checks the same again (nodePrerequisites in kubeletnode_host.go) for direct use.
//
// As a script: prints the line and exits 1 when something is missing, else prints nothing.

import { accessSync, closeSync, constants, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

function onPath(name) {
  return (process.env.PATH ?? '').split(delimiter).some((d) => {
    try {
      accessSync(join(d, name), constants.X_OK);
      return statSync(join(d, name)).isFile();
    } catch {
      return false;
    }
  });
}

/** True when path is an ELF executable without a PT_INTERP program header (it needs no libc). */
function staticELF(path) {
  let fd;
  try {
    fd = openSync(path, 'r');
    const head = Buffer.alloc(64);
    readSync(fd, head, 0, 64, 0);
    if (head.toString('latin1', 0, 4) !== '\x7fELF' || head[4] !== 2) return false; // ELF64 only
    const phoff = Number(head.readBigUInt64LE(0x20));
    const phentsize = head.readUInt16LE(0x36);
    const phnum = head.readUInt16LE(0x38);
    const table = Buffer.alloc(phentsize * phnum);
    readSync(fd, table, 0, table.length, phoff);
    for (let i = 0; i < phnum; i++) if (table.readUInt32LE(i * phentsize) === 3) return false; // PT_INTERP
    return true;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The first thing missing, as one line naming it and how to get it; undefined when none is. */
export function missingForRealNode() {
  if (process.platform !== 'linux') return `a real node (kubelet, containerd, runc) needs Linux, not ${process.platform}`;
  if (process.getuid?.() !== 0) return 'a real node needs root (the kubelet, containerd and runc manage cgroups, mounts and network namespaces): run as root';
  let mounts = '';
  try {
    mounts = readFileSync('/proc/self/mountinfo', 'utf8');
  } catch {
    /* no /proc */
  }
  if (!/ - cgroup2? /.test(mounts)) return 'a real node needs cgroups: no cgroup or cgroup2 file system is mounted under /sys/fs/cgroup';
  let filesystems = '';
  try {
    filesystems = readFileSync('/proc/filesystems', 'utf8');
  } catch {
    /* no /proc */
  }
  if (!/\toverlay\n/.test(filesystems)) return "a real node needs overlayfs (containerd's snapshotter): modprobe overlay";
  if (!onPath('runc')) return 'a real node needs runc on PATH: apt-get install -y runc (Debian), as .ci/run does';
  if (!staticELF('/bin/busybox')) return 'a real node needs a statically linked /bin/busybox for its busybox image: apt-get install -y busybox-static (Debian), as .ci/run does';
  if (!onPath('unshare')) return 'a real node needs unshare on PATH: apt-get install -y util-linux';
  return undefined;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const missing = missingForRealNode();
  if (missing) {
    process.stderr.write(`${missing}\n`);
    process.exit(1);
  }
}

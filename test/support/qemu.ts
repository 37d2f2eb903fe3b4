// Running linux/arm64 executables on an amd64 machine: Debian's qemu-user-static registers
// qemu-aarch64 with binfmt_misc, so the kernel hands any arm64 ELF to qemu (kubectl execs the
// plugin like any program); qemu finds the arm64 C and C++ runtime (libc6-arm64-cross,
// libstdc++6-arm64-cross, libgcc-s1-arm64-cross, libatomic1-arm64-cross) under QEMU_LD_PREFIX.
// .ci/run installs and enables all of it.
import { readFile } from 'node:fs/promises';

export const QEMU_LD_PREFIX = '/usr/aarch64-linux-gnu';

/** The qemu-aarch64 entry of binfmt_misc, or 'missing'. */
export function binfmtStatus(): Promise<string> {
  return readFile('/proc/sys/fs/binfmt_misc/qemu-aarch64', 'utf8').catch(() => 'missing');
}

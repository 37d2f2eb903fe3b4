// What can be checked of a single executable without running it, for the platforms this machine
// cannot run: the file format and CPU its platform needs, the SEA fuse flipped (else Node starts as
// plain node), this build's bundle injected, and for macOS a signature whose hashes match the pages
// (Apple Silicon kills a process whose pages do not). `npm run package` fails on any of them.
import { readFile } from 'node:fs/promises';
import { CPU_TYPE, machOSection, readMachO, verifySignature } from './macho.mjs';
import { MACHINE, readPE } from './pe.mjs';
import { SEA_FUSE } from './sea.mjs';

const ELF_MACHINE = { amd64: 62, arm64: 183 };
const IMAGE_SUBSYSTEM_WINDOWS_CUI = 3;

function checkFormat(platform, bytes) {
  const [os, arch] = platform.split('/');
  if (os === 'linux') {
    if (bytes.toString('latin1', 0, 4) !== '\x7fELF' || bytes[4] !== 2 || bytes[5] !== 1) throw new Error('not a 64-bit little-endian ELF file');
    const machine = bytes.readUInt16LE(18);
    if (machine !== ELF_MACHINE[arch]) throw new Error(`ELF machine ${machine}, want ${ELF_MACHINE[arch]} for ${arch}`);
    return `ELF 64-bit, machine ${machine}`;
  }
  if (os === 'darwin') {
    const { cputype } = readMachO(bytes).header;
    const want = CPU_TYPE[arch === 'amd64' ? 'x86_64' : 'arm64'];
    if (cputype !== want) throw new Error(`Mach-O CPU type 0x${cputype.toString(16)}, want 0x${want.toString(16)} for ${arch}`);
    return `Mach-O 64-bit, CPU type 0x${cputype.toString(16)}`;
  }
  const { machine, subsystem } = readPE(bytes);
  if (machine !== MACHINE[arch]) throw new Error(`PE machine 0x${machine.toString(16)}, want 0x${MACHINE[arch].toString(16)} for ${arch}`);
  if (subsystem !== IMAGE_SUBSYSTEM_WINDOWS_CUI) throw new Error(`PE subsystem ${subsystem}: not a console program`);
  return `PE32+ console, machine 0x${machine.toString(16)}`;
}

/**
 * Checks the executable at `path` built for `platform` from `scripts` (the bundle and its assets);
 * returns a one-line account of what was checked, or throws saying what is wrong.
 */
export async function checkExecutable(platform, path, scripts) {
  const bytes = await readFile(path);
  const facts = [checkFormat(platform, bytes)];
  if (!bytes.includes(`${SEA_FUSE}:1`)) throw new Error(`${path}: the SEA fuse is not flipped: Node would start as plain node`);
  facts.push('SEA fuse flipped');
  // The blob carries the main script and each asset verbatim (with or without V8's code cache).
  const blob = platform.startsWith('darwin/') ? machOSection(bytes, 'NODE_SEA', '__NODE_SEA_BLOB') : bytes;
  for (const script of scripts) {
    if (!blob?.includes(await readFile(script))) throw new Error(`${path}: ${script} is not injected${platform.startsWith('darwin/') ? ' in NODE_SEA,__NODE_SEA_BLOB' : ''}`);
  }
  facts.push(`${scripts.length} scripts injected`);
  if (platform.startsWith('darwin/')) {
    const directories = verifySignature(bytes);
    if (!directories.every((cd) => cd.adhoc)) throw new Error(`${path}: the signature is not ad-hoc`);
    // Under the hardened runtime macOS maps no JIT memory without the allow-jit entitlement (Node's
    // release signature carries it for V8), and this signature carries no entitlements.
    if (directories.some((cd) => cd.runtime)) throw new Error(`${path}: the signature asks for the hardened runtime, under which V8 could not JIT without entitlements`);
    facts.push(`ad-hoc signature valid (${directories.map((cd) => `${cd.algorithm}, ${cd.pages} pages`).join('; ')})`);
  }
  return facts.join(', ');
}

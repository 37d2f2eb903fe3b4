// Just enough Mach-O to ship a macOS single executable from Linux: read the header and load
// commands, remove the signature that injection would invalidate (what `codesign --remove-signature`
// does), and check a signature by recomputing its page hashes, independently of the tool that made it.
// Layouts: <mach-o/loader.h> and Apple's <Security/CSCommon.h> / cs_blobs.h (code signature blobs
// are big-endian, the rest of the file is the CPU's little-endian).
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';

const MH_MAGIC_64 = 0xfeedfacf;
const LC_SEGMENT_64 = 0x19;
const LC_CODE_SIGNATURE = 0x1d;
export const CPU_TYPE = { x86_64: 0x01000007, arm64: 0x0100000c };

const CSMAGIC_EMBEDDED_SIGNATURE = 0xfade0cc0;
const CSMAGIC_CODEDIRECTORY = 0xfade0c02;
const CSSLOT_CODEDIRECTORY = 0;
const CSSLOT_ALTERNATE_CODEDIRECTORIES = 0x1000;
const CS_ADHOC = 0x2;
const CS_RUNTIME = 0x10000;
const HASHES = { 1: 'sha1', 2: 'sha256' };

/** The 64-bit Mach-O header and load commands of `bytes`, or throws if it is not one (fat files included). */
export function readMachO(bytes) {
  if (bytes.length < 32 || bytes.readUInt32LE(0) !== MH_MAGIC_64) throw new Error('not a 64-bit little-endian Mach-O file');
  const header = {
    cputype: bytes.readUInt32LE(4),
    filetype: bytes.readUInt32LE(12),
    ncmds: bytes.readUInt32LE(16),
    sizeofcmds: bytes.readUInt32LE(20),
  };
  const commands = [];
  let at = 32;
  for (let i = 0; i < header.ncmds; i += 1) {
    const cmd = bytes.readUInt32LE(at);
    const cmdsize = bytes.readUInt32LE(at + 4);
    const command = { cmd, cmdsize, offset: at };
    if (cmd === LC_SEGMENT_64) {
      command.segname = bytes.toString('latin1', at + 8, at + 24).replace(/\0+$/, '');
      command.fileoff = Number(bytes.readBigUInt64LE(at + 40));
      command.filesize = Number(bytes.readBigUInt64LE(at + 48));
      const nsects = bytes.readUInt32LE(at + 64);
      command.sections = Array.from({ length: nsects }, (_, s) => {
        const sect = at + 72 + s * 80;
        return {
          sectname: bytes.toString('latin1', sect, sect + 16).replace(/\0+$/, ''),
          size: Number(bytes.readBigUInt64LE(sect + 40)),
          offset: bytes.readUInt32LE(sect + 48),
        };
      });
    } else if (cmd === LC_CODE_SIGNATURE) {
      command.dataoff = bytes.readUInt32LE(at + 8);
      command.datasize = bytes.readUInt32LE(at + 12);
    }
    commands.push(command);
    at += cmdsize;
  }
  return { header, commands };
}

/** The file bytes of section `segname,sectname`, or undefined. */
export function machOSection(bytes, segname, sectname) {
  const segment = readMachO(bytes).commands.find((c) => c.segname === segname);
  const section = segment?.sections.find((s) => s.sectname === sectname);
  return section && bytes.subarray(section.offset, section.offset + section.size);
}

/**
 * Removes the code signature from the Mach-O file at `path` in place: drops LC_CODE_SIGNATURE (the
 * last load command, as the linker and codesign place it), cuts the signature off the end of the
 * file and shrinks __LINKEDIT to match, as `codesign --remove-signature` does. postject's
 * documentation asks for this before injection on macOS. A file with no signature is left alone.
 */
export async function removeSignature(path) {
  const file = await open(path, 'r+');
  try {
    const bytes = await file.readFile();
    const { header, commands } = readMachO(bytes);
    const signature = commands.find((c) => c.cmd === LC_CODE_SIGNATURE);
    if (!signature) return;
    if (signature !== commands.at(-1)) throw new Error('LC_CODE_SIGNATURE is not the last load command');
    const linkedit = commands.find((c) => c.segname === '__LINKEDIT');
    if (!linkedit || linkedit.fileoff + linkedit.filesize !== signature.dataoff + signature.datasize
      || signature.dataoff + signature.datasize !== bytes.length) {
      throw new Error('the code signature is not at the end of __LINKEDIT and of the file');
    }
    const patch = Buffer.alloc(8);
    patch.writeUInt32LE(header.ncmds - 1, 0);
    patch.writeUInt32LE(header.sizeofcmds - signature.cmdsize, 4);
    await file.write(patch, 0, 8, 16);
    await file.write(Buffer.alloc(signature.cmdsize), 0, signature.cmdsize, signature.offset);
    const filesize = Buffer.alloc(8);
    filesize.writeBigUInt64LE(BigInt(signature.dataoff - linkedit.fileoff));
    await file.write(filesize, 0, 8, linkedit.offset + 48);
    await file.truncate(signature.dataoff);
  } finally {
    await file.close();
  }
}

/**
 * Checks the code signature of a Mach-O file structurally, as the kernel does when it maps pages:
 * every code directory's page hashes match the file's pages up to its code limit, its special slots
 * match the blobs they name, and the signature covers the whole file before it. Returns what it
 * found; throws on the first mismatch. Knows nothing of certificates: an ad-hoc signature has none.
 */
export function verifySignature(bytes) {
  const { commands } = readMachO(bytes);
  const signature = commands.find((c) => c.cmd === LC_CODE_SIGNATURE);
  if (!signature) throw new Error('no LC_CODE_SIGNATURE: the file is not signed');
  if (signature.dataoff + signature.datasize > bytes.length) throw new Error('the signature runs past the end of the file');
  // Bytes after the signature are covered by no page hash: a file changed after signing, which is
  // what this check is for (codesign places the signature last, at the end of __LINKEDIT).
  const linkedit = commands.find((c) => c.segname === '__LINKEDIT');
  if (!linkedit) throw new Error('no __LINKEDIT segment');
  if (signature.dataoff + signature.datasize !== bytes.length || linkedit.fileoff + linkedit.filesize !== bytes.length) {
    throw new Error(`${bytes.length - signature.dataoff - signature.datasize} bytes after the signature: it and __LINKEDIT must end the file`);
  }
  const blob = bytes.subarray(signature.dataoff, signature.dataoff + signature.datasize);
  if (blob.readUInt32BE(0) !== CSMAGIC_EMBEDDED_SIGNATURE) throw new Error('the signature is not an embedded signature SuperBlob');
  const count = blob.readUInt32BE(8);
  const index = Array.from({ length: count }, (_, i) => ({ type: blob.readUInt32BE(12 + i * 8), offset: blob.readUInt32BE(16 + i * 8) }));
  const blobAt = (offset) => blob.subarray(offset, offset + blob.readUInt32BE(offset + 4));
  const directories = index.filter((e) => e.type === CSSLOT_CODEDIRECTORY || (e.type >= CSSLOT_ALTERNATE_CODEDIRECTORIES && e.type < CSSLOT_ALTERNATE_CODEDIRECTORIES + 5));
  if (directories.length === 0) throw new Error('the signature holds no code directory');

  const found = [];
  for (const entry of directories) {
    const cd = blobAt(entry.offset);
    if (cd.readUInt32BE(0) !== CSMAGIC_CODEDIRECTORY) throw new Error(`slot ${entry.type} is not a code directory`);
    const flags = cd.readUInt32BE(12);
    const hashOffset = cd.readUInt32BE(16);
    const identOffset = cd.readUInt32BE(20);
    const nSpecialSlots = cd.readUInt32BE(24);
    const nCodeSlots = cd.readUInt32BE(28);
    const codeLimit = cd.readUInt32BE(32);
    const hashSize = cd.readUInt8(36);
    const algorithm = HASHES[cd.readUInt8(37)];
    const pageSize = 2 ** cd.readUInt8(39);
    if (!algorithm) throw new Error(`code directory ${entry.type}: unknown hash type ${cd.readUInt8(37)}`);
    if (codeLimit !== signature.dataoff) throw new Error(`code directory ${entry.type} covers ${codeLimit} bytes, but the signature starts at ${signature.dataoff}`);
    if (nCodeSlots !== Math.ceil(codeLimit / pageSize)) throw new Error(`code directory ${entry.type}: ${nCodeSlots} page hashes for ${codeLimit} bytes`);
    const hash = (data) => createHash(algorithm).update(data).digest().subarray(0, hashSize);
    for (let page = 0; page < nCodeSlots; page += 1) {
      const expected = cd.subarray(hashOffset + page * hashSize, hashOffset + (page + 1) * hashSize);
      const actual = hash(bytes.subarray(page * pageSize, Math.min((page + 1) * pageSize, codeLimit)));
      if (!actual.equals(expected)) throw new Error(`code directory ${entry.type}: page ${page} does not match its hash`);
    }
    for (let slot = 1; slot <= nSpecialSlots; slot += 1) {
      const expected = cd.subarray(hashOffset - slot * hashSize, hashOffset - (slot - 1) * hashSize);
      const named = index.find((e) => e.type === slot);
      // Slot 1 (Info.plist) and 3 (resources) name files outside a bare executable: hashes of nothing are zeros.
      if (named && !hash(blobAt(named.offset)).equals(expected)) throw new Error(`code directory ${entry.type}: special slot ${slot} does not match its blob`);
      if (!named && expected.some((b) => b !== 0)) throw new Error(`code directory ${entry.type}: special slot ${slot} names a blob the signature lacks`);
    }
    const identifier = cd.toString('latin1', identOffset, cd.indexOf(0, identOffset));
    found.push({ algorithm, pages: nCodeSlots, pageSize, adhoc: (flags & CS_ADHOC) !== 0, runtime: (flags & CS_RUNTIME) !== 0, identifier });
  }
  return found;
}

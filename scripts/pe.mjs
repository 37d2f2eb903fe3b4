// Just enough PE/COFF to ship a Windows single executable from Linux: read the headers and remove
// the Authenticode signature that injection would invalidate (what `signtool remove /s` does, which
// Node's SEA documentation suggests before injecting). Layout: Microsoft's PE Format specification.
import { open } from 'node:fs/promises';

export const MACHINE = { amd64: 0x8664, arm64: 0xaa64 };
const PE32_PLUS = 0x20b;
const SECURITY_DIRECTORY = 4;

/** The COFF and optional header fields this project checks, or throws if `bytes` is no PE32+ image. */
export function readPE(bytes) {
  if (bytes.length < 64 || bytes.toString('latin1', 0, 2) !== 'MZ') throw new Error('not a PE file: no MZ header');
  const pe = bytes.readUInt32LE(0x3c);
  if (bytes.toString('latin1', pe, pe + 4) !== 'PE\0\0') throw new Error('not a PE file: no PE signature');
  const optional = pe + 24;
  const magic = bytes.readUInt16LE(optional);
  if (magic !== PE32_PLUS) throw new Error(`not a PE32+ image (optional header magic 0x${magic.toString(16)})`);
  const directory = optional + 112 + SECURITY_DIRECTORY * 8;
  return {
    machine: bytes.readUInt16LE(pe + 4),
    subsystem: bytes.readUInt16LE(optional + 68),
    checksumAt: optional + 64,
    securityEntryAt: directory,
    security: { offset: bytes.readUInt32LE(directory), size: bytes.readUInt32LE(directory + 4) },
  };
}

/**
 * Removes the Authenticode signature from the PE file at `path` in place: the certificate table is
 * not mapped into memory and sits at the end of the file, so its directory entry is cleared and the
 * file cut before it. The header checksum is cleared too (Windows checks it only for drivers).
 */
export async function removeSignature(path) {
  const file = await open(path, 'r+');
  try {
    const bytes = await file.readFile();
    const { security, securityEntryAt, checksumAt } = readPE(bytes);
    if (security.size === 0) return;
    // The table is padded to 8 bytes; anything after it would be data we do not understand.
    if (Math.ceil((security.offset + security.size) / 8) * 8 < bytes.length) throw new Error('the certificate table is not at the end of the file');
    await file.write(Buffer.alloc(8), 0, 8, securityEntryAt);
    await file.write(Buffer.alloc(4), 0, 4, checksumAt);
    await file.truncate(security.offset);
  } finally {
    await file.close();
  }
}

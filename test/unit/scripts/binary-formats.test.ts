// Removing the signatures that SEA injection invalidates, on the smallest files of each format that
// carry one. The real Node binaries are covered in test/integration/platforms.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readMachO, removeSignature as removeMachOSignature } from '../../../scripts/macho.mjs';
import { MACHINE, readPE, removeSignature as removePESignature } from '../../../scripts/pe.mjs';
import { scratchDir } from '../../support/tmp.ts';

const dir = scratchDir('binary-formats');

/** A Mach-O with a __LINKEDIT of `data` bytes at 4096 and, after it, a signature of `signature` bytes. */
function machO({ data = 100, signature = 64 } = {}): Buffer {
  const bytes = Buffer.alloc(4096 + data + signature);
  bytes.writeUInt32LE(0xfeedfacf, 0);
  bytes.writeUInt32LE(0x0100000c, 4);
  bytes.writeUInt32LE(2, 12);
  bytes.writeUInt32LE(2, 16);
  bytes.writeUInt32LE(72 + 16, 20);
  bytes.writeUInt32LE(0x19, 32);
  bytes.writeUInt32LE(72, 36);
  bytes.write('__LINKEDIT', 40, 'latin1');
  bytes.writeBigUInt64LE(4096n, 72);
  bytes.writeBigUInt64LE(BigInt(data + signature), 80);
  bytes.writeUInt32LE(0x1d, 104);
  bytes.writeUInt32LE(16, 108);
  bytes.writeUInt32LE(4096 + data, 112);
  bytes.writeUInt32LE(signature, 116);
  bytes.fill(0xfa, 4096 + data);
  return bytes;
}

test('Mach-O: removing the signature drops its load command, cuts it off the file and shrinks __LINKEDIT', async () => {
  const path = join(dir, 'signed-macho');
  await writeFile(path, machO());
  await removeMachOSignature(path);
  const bytes = await readFile(path);
  assert.equal(bytes.length, 4196);
  const { header, commands } = readMachO(bytes);
  assert.deepEqual({ ncmds: header.ncmds, sizeofcmds: header.sizeofcmds }, { ncmds: 1, sizeofcmds: 72 });
  assert.deepEqual(commands.map((c) => [c.segname, c.fileoff, c.filesize]), [['__LINKEDIT', 4096, 100]]);
  assert.ok(bytes.subarray(104, 120).every((b) => b === 0), 'the old load command is zeroed');
});

test('Mach-O: a file with no signature is left as it is', async () => {
  const path = join(dir, 'unsigned-macho');
  await writeFile(path, machO());
  await removeMachOSignature(path);
  const once = await readFile(path);
  await removeMachOSignature(path);
  assert.deepEqual(await readFile(path), once);
});

test('Mach-O: a signature that is not at the end of the file is refused rather than cut', async () => {
  const path = join(dir, 'odd-macho');
  await writeFile(path, Buffer.concat([machO(), Buffer.alloc(16)]));
  await assert.rejects(removeMachOSignature(path), /not at the end of __LINKEDIT and of the file/);
});

test('Mach-O: a fat or 32-bit file is not read as one', () => {
  assert.throws(() => readMachO(Buffer.from('cafebabe00000002'.padEnd(64, '0'), 'hex')), /not a 64-bit little-endian Mach-O/);
});

/** A PE32+ image of `body` bytes followed by an Authenticode certificate table of `certificate` bytes. */
function pe({ body = 1024, certificate = 24 } = {}): Buffer {
  const bytes = Buffer.alloc(body + certificate);
  bytes.write('MZ', 0, 'latin1');
  bytes.writeUInt32LE(0x40, 0x3c);
  bytes.write('PE\0\0', 0x40, 'latin1');
  bytes.writeUInt16LE(MACHINE.amd64, 0x44);
  const optional = 0x40 + 24;
  bytes.writeUInt16LE(0x20b, optional);
  bytes.writeUInt32LE(0x1234, optional + 64);
  bytes.writeUInt16LE(3, optional + 68);
  bytes.writeUInt32LE(body, optional + 112 + 32);
  bytes.writeUInt32LE(certificate, optional + 112 + 36);
  return bytes;
}

test('PE: removing the Authenticode signature clears its directory entry and the checksum and cuts the table off', async () => {
  const path = join(dir, 'signed.exe');
  await writeFile(path, pe());
  assert.deepEqual(readPE(await readFile(path)).security, { offset: 1024, size: 24 });
  await removePESignature(path);
  const bytes = await readFile(path);
  assert.equal(bytes.length, 1024);
  const header = readPE(bytes);
  assert.deepEqual(header.security, { offset: 0, size: 0 });
  assert.equal(bytes.readUInt32LE(header.checksumAt), 0);
  assert.equal(header.machine, MACHINE.amd64);
});

test('PE: a certificate table followed by other data is refused rather than cut', async () => {
  const path = join(dir, 'odd.exe');
  await writeFile(path, Buffer.concat([pe(), Buffer.alloc(64)]));
  await assert.rejects(removePESignature(path), /not at the end of the file/);
});

test('PE: a 32-bit image is not read as PE32+', () => {
  const bytes = pe();
  bytes.writeUInt16LE(0x10b, 0x40 + 24);
  assert.throws(() => readPE(bytes), /not a PE32\+ image/);
});

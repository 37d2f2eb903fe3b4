// stdout and stderr of this process as a verb's Output (src/deps.ts), with their write errors kept.
import { fstatSync, writeSync } from 'node:fs';

/** stdout or stderr of this process, keeping its first write error for main to turn into an exit status. */
export interface ProcessOutput {
  write(text: string): void;
  readonly isTTY: boolean;
  /** A promise while a pipe's reader has not taken what was written (src/deps.ts Output) */
  drain(): Promise<void> | undefined;
  /** Resolves once everything written has gone out, with the first write error if there was one. */
  flush(): Promise<NodeJS.ErrnoException | undefined>;
  /** Resolves at the first write error (a reader that left, a full disk): nothing more can go out. */
  readonly failed: Promise<void>;
}

// A write error (ENOSPC on a full disk, EIO, EPIPE when the reader left) arrives after write() has
// returned, as a callback error and an 'error' event; unheard, the process would exit 0 with half
// its output lost (`-o json > file` on a full disk) or die on an unhandled 'error' event.
// Redirected to a file, Node's stdout is a SyncWriteStream whose single writeSync ignores a short
// write: on a disk with 64 KiB left, a 2 MiB -o json loses all but the first 64 KiB and no error
// ever comes. Files are therefore written here, looping until every byte is out or the OS says why not.
function isFile(fd: number): boolean {
  try {
    const stat = fstatSync(fd);
    return stat.isFile() || stat.isCharacterDevice();
  } catch {
    return false;
  }
}

/**
 * Bytes of one write that fit the buffer reused for them: the pieces of a long output (well below
 * this) then make no new buffer each, nor garbage outside V8's heap for a collection to find.
 */
const REUSED_BYTES = 256 * 1024;
let reused: Buffer | undefined;

function writeAll(fd: number, text: string): void {
  // At most 3 bytes per UTF-16 unit: text this short surely fits.
  const fits = text.length * 3 <= REUSED_BYTES;
  const buffer = fits ? (reused ??= Buffer.allocUnsafe(REUSED_BYTES)) : Buffer.from(text, 'utf8');
  const end = fits ? buffer.write(text, 'utf8') : buffer.length;
  for (let at = 0; at < end; ) at += writeSync(fd, buffer, at, end - at);
}

export function processOutput(stream: NodeJS.WriteStream, fd: number): ProcessOutput {
  let failure: NodeJS.ErrnoException | undefined;
  let fail = (): void => {};
  const failed = new Promise<void>((resolve) => (fail = resolve));
  const remember = (error: NodeJS.ErrnoException): void => {
    failure ??= error;
    fail();
  };
  stream.on('error', remember);
  const file = !stream.isTTY && isFile(fd);
  return {
    write: (text: string) => {
      // After the first failure nothing more is written: the output is already incomplete.
      if (failure !== undefined) return;
      if (!file) return void stream.write(text);
      try {
        writeAll(fd, text);
      } catch (error) {
        remember(error as NodeJS.ErrnoException);
      }
    },
    isTTY: stream.isTTY === true,
    drain: () => {
      if (file || failure !== undefined || stream.destroyed || !stream.writableNeedDrain) return undefined;
      return new Promise<void>((resolve) => {
        stream.once('drain', resolve);
        // A reader that leaves never drains: the failure ends the wait (and every later write).
        void failed.then(() => resolve());
      });
    },
    failed,
    flush: () =>
      new Promise((resolve) => {
        // A file or device was written synchronously: nothing is pending. Writing '' to learn of an
        // error would itself fail on /dev/full, making a verb that wrote nothing there exit 1.
        if (file || failure !== undefined || stream.destroyed) return resolve(failure);
        stream.write('', (error) => resolve(failure ?? (error as NodeJS.ErrnoException | null | undefined) ?? undefined));
      }),
  };
}

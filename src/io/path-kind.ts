// What a path names, settled in one place before anything reads or writes it. A file's size says
// nothing for a device or a pipe (stat's st_size is 0 for /dev/zero, a FIFO, /dev/stdin), and
// opening a FIFO waits for its other end: a reader that trusted either ran out of memory or hung.
// So: where a file is expected, it is opened without waiting (O_NONBLOCK) and its kind taken from
// the open descriptor (fstat, so nothing can swap it in between); where a stream will do (--from),
// bytes are counted as they arrive; a write goes through symlinks as the shell's `>` does.
import { constants, createReadStream } from 'node:fs';
import { constants as osConstants } from 'node:os';
import { lstat, open, readlink, realpath, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** What a path names once its symlinks are followed. */
export type PathKind = 'missing' | 'file' | 'folder' | 'pipe' | 'device' | 'disk' | 'socket';

export function kindOfStats(info: Stats): Exclude<PathKind, 'missing'> {
  if (info.isFile()) return 'file';
  if (info.isDirectory()) return 'folder';
  if (info.isFIFO()) return 'pipe';
  if (info.isCharacterDevice()) return 'device';
  if (info.isBlockDevice()) return 'disk';
  return 'socket';
}

/** The kind of what `path` names (symlinks followed); 'missing' when nothing is there. */
export async function kindOf(path: string): Promise<PathKind> {
  try {
    return kindOfStats(await stat(path));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw error;
  }
}

/** The words after `PATH is ` for a path that is not a file: `a named pipe, not a file`. */
export function kindWords(kind: PathKind): string {
  switch (kind) {
    case 'pipe':
      return 'a pipe (FIFO)';
    case 'device':
      return 'a device';
    case 'disk':
      return 'a block device (a disk)';
    case 'socket':
      return 'a socket';
    case 'folder':
      return 'a folder';
    case 'missing':
      return 'missing';
    case 'file':
      return 'a file';
  }
}

/** A path that names something else where a regular file was expected. */
export class NotAFileError extends Error {
  constructor(
    readonly path: string,
    readonly kind: PathKind,
  ) {
    super(`${path} is ${kindWords(kind)}, not a file`);
  }
}

/** More bytes than a reader takes (`bytes`: the file's size, or what was read so far). */
export class TooBigError extends Error {
  constructor(
    readonly path: string,
    readonly bytes: number,
    readonly limit: number,
  ) {
    super(`${path}: more than ${limit} bytes`);
  }
}

const READ_CHUNK = 1 << 20;

/**
 * Opens `path` for reading only if it is a regular file: O_NONBLOCK so a FIFO does not wait for a
 * writer, O_NOCTTY so a terminal is not made ours; the kind is then the descriptor's own.
 */
export async function openRegularFile(path: string): Promise<FileHandle> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  try {
    const kind = kindOfStats(await handle.stat());
    if (kind !== 'file') throw new NotAFileError(path, kind);
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
}

/**
 * A regular file's bytes in chunks, at most `limit` of them: TooBigError before reading when its
 * size says so, else at the first byte past it (a file that grows, /proc's files of size 0).
 */
async function* chunksOfHandle(handle: FileHandle, path: string, limit: number): AsyncGenerator<Buffer> {
  const { size } = await handle.stat();
  if (size > limit) throw new TooBigError(path, size, limit);
  let total = 0;
  for (;;) {
    const { buffer, bytesRead } = await handle.read({ buffer: Buffer.allocUnsafe(READ_CHUNK) });
    if (bytesRead === 0) return;
    total += bytesRead;
    if (total > limit) throw new TooBigError(path, total, limit);
    yield buffer.subarray(0, bytesRead);
  }
}

/** Counts a stream's bytes as the chunks arrive: TooBigError at the first byte past `limit`. */
export async function* countedChunks(stream: AsyncIterable<Buffer | string>, path: string, limit: number): AsyncGenerator<Buffer> {
  let total = 0;
  for await (const chunk of stream) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    total += buffer.length;
    if (total > limit) throw new TooBigError(path, total, limit);
    yield buffer;
  }
}

/** A regular file's whole content, at most `limit` bytes (NotAFileError for anything else, TooBigError past it). */
export async function readRegularFile(path: string, limit: number): Promise<Buffer> {
  const handle = await openRegularFile(path);
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of chunksOfHandle(handle, path, limit)) chunks.push(chunk);
    return Buffer.concat(chunks);
  } finally {
    await handle.close();
  }
}

/**
 * The bytes of what `path` names, as they arrive, at most `limit` (TooBigError at the first byte
 * past it): a regular file, or a pipe, FIFO or device read as a stream as `cat` reads it (`--from
 * <(...)`, `--from /dev/stdin`; a FIFO waits for its writer). A folder is NotAFileError.
 */
export async function* inputChunks(path: string, limit: number): AsyncGenerator<Buffer> {
  const kind = await kindOf(path);
  if (kind === 'folder') throw new NotAFileError(path, kind);
  if (kind !== 'file' && kind !== 'missing') {
    // Opened once, blocking: a look without waiting would count as the FIFO's reader, and the
    // writer's bytes would go with it when it closed.
    yield* countedChunks(createReadStream(path, { highWaterMark: READ_CHUNK }), path, limit);
    return;
  }
  const handle = await openRegularFile(path);
  try {
    yield* chunksOfHandle(handle, path, limit);
  } finally {
    await handle.close();
  }
}

/** Waits `ms`, or rejects with the signal's reason once it aborts. */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((done, fail) => {
    signal?.throwIfAborted();
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      done();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      fail(signal?.reason);
    };
    signal?.addEventListener('abort', stop, { once: true });
  });
}

/** Where bytes go once a stream target is open: written whole, in order. */
export interface Sink {
  write(bytes: Buffer): Promise<void>;
  close(): Promise<void>;
}

/** A file handle as a Sink: write(2) until every byte is taken. */
export function handleSink(handle: FileHandle): Sink {
  return {
    async write(bytes) {
      for (let offset = 0; offset < bytes.length; ) offset += (await handle.write(bytes, offset)).bytesWritten;
    },
    close: () => handle.close(),
  };
}

/**
 * A descriptor this process holds (/dev/stdout, /dev/fd/63) written as it is, as the shell's `>
 * /dev/stdout` dups it: reopening it through /proc fails for a socket (Node's own child stdio is a
 * socketpair) and would start a file over. EAGAIN (libuv made stdout non-blocking) is waited out.
 */
function descriptorSink(fd: number): Sink {
  const { write } = process.getBuiltinModule('node:fs');
  const once = (bytes: Buffer, offset: number) =>
    new Promise<number>((done, fail) => write(fd, bytes, offset, bytes.length - offset, null, (error, written) => (error ? fail(error) : done(written))));
  return {
    async write(bytes) {
      for (let offset = 0; offset < bytes.length; ) {
        try {
          offset += await once(bytes, offset);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
          await pause(10);
        }
      }
    },
    // Not ours to close: the shell's redirection owns it, and the process ends soon after.
    close: async () => {},
  };
}

/**
 * Opens a stream target (a pipe, FIFO, character device, or a descriptor of ours) for writing as
 * `>` would, without ever blocking: opening a FIFO with no reader waits in open(2), where neither
 * --duration nor Ctrl-C could end it. It is tried with O_NONBLOCK (ENXIO: no reader yet) until a
 * reader comes, `waiting` told once, or `signal` aborts. Then it is opened again, blocking, while
 * the probe still holds it open (closing the probe first would give a reader that came its end of
 * file), since writes on a non-blocking pipe fail with EAGAIN when it is full. A socket or a block
 * device (that is not a descriptor of ours) is NotAFileError: never written.
 */
export async function openSink(target: WriteTarget, opts: { signal?: AbortSignal; waiting?: () => void } = {}): Promise<Sink> {
  const { path, kind } = target;
  if (target.fd !== null) return descriptorSink(target.fd);
  if (kind === 'socket' || kind === 'disk' || kind === 'folder' || kind === 'missing' || kind === 'file') throw new NotAFileError(path, kind);
  const flags = constants.O_WRONLY | constants.O_NOCTTY | constants.O_TRUNC;
  if (kind !== 'pipe') return handleSink(await open(path, flags));
  let told = false;
  for (;;) {
    opts.signal?.throwIfAborted();
    const probe = await open(path, flags | constants.O_NONBLOCK).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENXIO') throw error;
      return null;
    });
    if (probe !== null) {
      try {
        return handleSink(await open(path, flags));
      } finally {
        await probe.close();
      }
    }
    if (!told) opts.waiting?.();
    told = true;
    await pause(100, opts.signal);
  }
}

/** Where a write lands, and how it is written there. */
export interface WriteTarget {
  /** the path to open or to replace: `path` itself unless it is a symlink to a file or a folder */
  path: string;
  /** what is there now; null: nothing (it is created) */
  info: Stats | null;
  kind: PathKind;
  /** written where it is, never read first nor replaced: a pipe, a device, or a descriptor this process holds open */
  stream: boolean;
  /** a descriptor of this process the path names (/dev/stdout: 1, /dev/fd/63: 63): written as it is */
  fd: number | null;
}

/** /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N (or /proc/<our pid>/fd/N): the descriptor named. */
function ownDescriptor(path: string): number | null {
  if (path === '/dev/stdout') return 1;
  if (path === '/dev/stderr') return 2;
  const match = /^\/(?:proc\/(self|\d+)\/fd|dev\/fd)\/(\d+)$/.exec(path);
  if (match === null || (match[1] !== undefined && match[1] !== 'self' && Number(match[1]) !== process.pid)) return null;
  return Number(match[2]);
}

/**
 * Where a write through `path` lands once its symlinks are followed, as `>` follows them, and how.
 * A link to a file or a folder: its real path (the link stays, its target is written). A dangling
 * link: the name it points to, created there. A path through /proc's descriptor links (/dev/stdout,
 * /dev/fd/63 of `>(gzip)`) names a descriptor, never a file to replace or to read.
 */
export async function writeTarget(path: string): Promise<WriteTarget> {
  const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  let current = path;
  let fd: number | null = null;
  // The links /dev/stdout -> /proc/self/fd/1 are followed by name; /proc's own (fd/1 -> "pipe:[123]")
  // are not names. Linux's own limit on links followed in one lookup (MAXSYMLINKS, 40).
  for (let hops = 0; hops < 40 && fd === null; hops += 1) {
    fd = ownDescriptor(current);
    const link = fd !== null ? null : await lstat(current).catch(() => null);
    if (link === null || !link.isSymbolicLink()) break;
    current = resolve(dirname(current), await readlink(current));
  }
  if (info === null) {
    // A closed descriptor (/dev/fd/9): nothing to create.
    if (fd !== null) {
      const error: NodeJS.ErrnoException = new Error('no such file or directory');
      Object.assign(error, { code: 'ENOENT', errno: -osConstants.errno.ENOENT, syscall: 'open', path });
      throw error;
    }
    return { path: current, info, kind: 'missing', stream: false, fd };
  }
  const kind = kindOfStats(info);
  if (fd !== null) return { path, info, kind, stream: true, fd };
  const real = (kind === 'file' || kind === 'folder') && current !== path ? await realpath(path) : path;
  return { path: real, info, kind, stream: kind !== 'file' && kind !== 'folder', fd };
}

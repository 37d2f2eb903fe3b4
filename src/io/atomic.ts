// A capture folder appears whole or not at all: written under a temporary name, then renamed.
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { namingPath } from './errno.ts';
import { NotAFileError, handleSink, openSink, writeTarget } from './path-kind.ts';
import type { PathKind, Sink } from './path-kind.ts';

/**
 * Why a folder or file cannot be written: a folder that is a file, or holds files (and replacing was
 * not asked for); a file that is a folder, a socket or a disk (`kind`); or the parent (`parent`) is
 * missing, of the folder to create or of the file to write (`what`). src/options/user-errors.ts words it.
 */
export class FolderError extends Error {
  constructor(
    readonly dir: string,
    readonly problem: 'not-a-folder' | 'not-a-file' | 'not-empty' | 'no-parent',
    readonly what: 'folder' | 'file',
    readonly parent = '',
    readonly kind: PathKind | null = null,
  ) {
    super(`${dir}: ${problem}`);
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/**
 * Writes and fsyncs one file, so the folder rename never publishes a file still in the page cache
 * only. An error names `shownAs`: the path the file was to have once renamed into place. With
 * `replacing`, the file first takes that file's owner and mode; false when its owner cannot be
 * given (EPERM: only root gives a file away), and nothing is written.
 */
async function writeDurably(path: string, text: string, shownAs: string, signal?: AbortSignal, replacing: Stats | null = null): Promise<boolean> {
  signal?.throwIfAborted();
  const handle = await open(path, 'w');
  try {
    if (replacing !== null) {
      const own = await handle.stat();
      if (own.uid !== replacing.uid || own.gid !== replacing.gid) {
        const given = await handle.chown(replacing.uid, replacing.gid).then(
          () => true,
          (error: NodeJS.ErrnoException) => {
            if (error.code === 'EPERM') return false;
            throw error;
          },
        );
        if (!given) return false;
      }
      // After chown, which clears set-user-ID bits.
      await handle.chmod(replacing.mode & 0o7777);
    }
    await namingPath(shownAs, async () => {
      await handle.writeFile(text, { signal });
      await handle.sync();
    });
    return true;
  } finally {
    await handle.close();
  }
}

/** Whether a process with this id runs on this machine (ours to judge: a temp folder names its writer). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** `.DIR.tmp-PID-HEX` and its `.old` sibling: the temp names a capture of DIR uses. */
function tempPattern(dir: string): RegExp {
  const base = basename(dir).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^\\.${base}\\.tmp-(\\d+)-[0-9a-f]+(\\.old)?$`);
}

/**
 * Removes the temp folders an earlier capture of the same `dir` left when it was killed (SIGKILL,
 * a power cut: no handler runs): those whose writer no longer runs. A `.old` folder is the earlier
 * `dir` moved aside mid-swap; if `dir` itself is missing, it is put back rather than deleted.
 */
async function collectStaleTemps(dir: string): Promise<void> {
  const parent = dirname(dir);
  const pattern = tempPattern(dir);
  for (const entry of await readdir(parent).catch(() => [] as string[])) {
    const match = pattern.exec(entry);
    if (!match || isRunning(Number(match[1]))) continue;
    const path = join(parent, entry);
    if (match[2] !== undefined && !(await exists(dir))) await rename(path, dir).catch(() => {});
    else await rm(path, { recursive: true, force: true });
  }
}

/**
 * Creates `dir` (through a symlink: its target) holding exactly `files`, atomically: they are written into a sibling temp folder
 * that is renamed into place, so a reader never sees half a capture. A non-empty `dir` is refused
 * unless `force`, and then replaced only after the new folder is complete; if the swap fails, the
 * old folder is put back. When `signal` aborts (Ctrl-C, SIGTERM) before the folder is in place,
 * the temp folder is removed and the AbortError thrown; temp folders of earlier captures of `dir`
 * whose process is gone are removed first.
 */
export async function writeFolderAtomic(given: string, files: Record<string, string>, force: boolean, opts: { signal?: AbortSignal } = {}): Promise<void> {
  const { signal } = opts;
  // A symlink to a folder is followed (its target gets the capture, the link stays), as `cd` would.
  const dir = (await writeTarget(given)).path;
  await collectStaleTemps(dir);
  const present = await exists(dir);
  if (present) {
    const info = await stat(dir);
    if (!info.isDirectory()) throw new FolderError(dir, 'not-a-folder', 'folder');
    const entries = await readdir(dir);
    if (entries.length > 0 && !force) throw new FolderError(dir, 'not-empty', 'folder');
  }
  const parent = dirname(dir);
  if (!(await exists(parent))) throw new FolderError(dir, 'no-parent', 'folder', parent);
  // mkdir, not mkdtemp: mkdtemp makes the folder 0700, and a capture is an ordinary folder.
  const temp = join(parent, `.${basename(dir)}.tmp-${process.pid}-${process.getBuiltinModule('node:crypto').randomBytes(6).toString('hex')}`);
  await mkdir(temp);
  const old = `${temp}.old`;
  let moved = false;
  try {
    for (const [name, text] of Object.entries(files)) await writeDurably(join(temp, name), text, join(dir, name), signal);
    // The last moment to stop: after the rename the capture is whole and stays.
    signal?.throwIfAborted();
    if (present) {
      await rename(dir, old);
      moved = true;
      await rename(temp, dir);
      await rm(old, { recursive: true, force: true });
    } else {
      await rename(temp, dir);
    }
  } catch (error) {
    if (moved && !(await exists(dir))) await rename(old, dir).catch(() => {});
    await rm(temp, { recursive: true, force: true });
    throw error;
  }
}

/** Writes `text` whole, naming `shownAs` in an error, and closes the sink. */
async function writeAndClose(sink: Sink, text: string, shownAs: string): Promise<void> {
  try {
    await namingPath(shownAs, () => sink.write(Buffer.from(text, 'utf8')));
  } finally {
    await sink.close();
  }
}

/**
 * Writes `path` as the shell's `>` would, but whole or not at all (--output-file). Symlinks are
 * followed (the link stays, its target is written). A regular file is replaced by a sibling temp
 * file, fsynced and renamed over it, which first takes the replaced file's mode and owner (a 0600
 * report stays 0600); when its owner cannot be kept (another user's file), it is written in place
 * as `>` writes it. A device, a pipe or a descriptor of ours (/dev/null, /dev/stdout, a FIFO) is
 * written in place: a rename would replace the node itself (as root, /dev/null became a regular
 * file for every process). A folder, a socket or a disk is refused.
 */
export async function writeFileAtomic(path: string, text: string, opts: { signal?: AbortSignal; waiting?: () => void } = {}): Promise<void> {
  const target = await writeTarget(path);
  if (target.stream || target.kind === 'folder') {
    const sink = await openSink(target, opts).catch((error: unknown) => {
      if (error instanceof NotAFileError) throw new FolderError(path, 'not-a-file', 'file', '', error.kind);
      throw error;
    });
    return writeAndClose(sink, text, path);
  }
  const parent = dirname(target.path);
  if (!(await exists(parent))) throw new FolderError(path, 'no-parent', 'file', parent);
  const temp = join(parent, `.${basename(target.path)}.tmp-${process.getBuiltinModule('node:crypto').randomBytes(6).toString('hex')}`);
  try {
    const kept = await writeDurably(temp, text, path, undefined, target.info);
    if (!kept) {
      await rm(temp, { force: true });
      return writeAndClose(handleSink(await open(target.path, 'w')), text, path);
    }
    await rename(temp, target.path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

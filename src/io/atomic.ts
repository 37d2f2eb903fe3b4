// A capture folder appears whole or not at all: written under a temporary name, then renamed.
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { namingPath } from './errno.ts';

/** Why a folder cannot be written: it is a file, it holds files (and replacing was not asked for), or its parent is missing. */
export class FolderError extends Error {
  constructor(
    readonly dir: string,
    readonly problem: 'not-a-folder' | 'not-empty' | 'no-parent',
    message: string,
  ) {
    super(message);
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
 * only. An error names `shownAs`: the path the file was to have once renamed into place.
 */
async function writeDurably(path: string, text: string, shownAs: string, signal?: AbortSignal): Promise<void> {
  signal?.throwIfAborted();
  const handle = await open(path, 'w');
  try {
    await namingPath(shownAs, async () => {
      await handle.writeFile(text, { signal });
      await handle.sync();
    });
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
 * Creates `dir` holding exactly `files`, atomically: they are written into a sibling temp folder
 * that is renamed into place, so a reader never sees half a capture. A non-empty `dir` is refused
 * unless `force`, and then replaced only after the new folder is complete; if the swap fails, the
 * old folder is put back. When `signal` aborts (Ctrl-C, SIGTERM) before the folder is in place,
 * the temp folder is removed and the AbortError thrown; temp folders of earlier captures of `dir`
 * whose process is gone are removed first.
 */
export async function writeFolderAtomic(dir: string, files: Record<string, string>, force: boolean, opts: { signal?: AbortSignal } = {}): Promise<void> {
  const { signal } = opts;
  await collectStaleTemps(dir);
  const present = await exists(dir);
  if (present) {
    const info = await stat(dir);
    if (!info.isDirectory()) throw new FolderError(dir, 'not-a-folder', `${dir} exists and is not a folder`);
    const entries = await readdir(dir);
    if (entries.length > 0 && !force) throw new FolderError(dir, 'not-empty', `${dir} is not empty`);
  }
  const parent = dirname(dir);
  if (!(await exists(parent))) throw new FolderError(dir, 'no-parent', `cannot create ${dir}: ${parent} does not exist`);
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

/** Writes `path` whole or not at all: a sibling temp file, fsynced, renamed over it (--output-file). */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  const parent = dirname(path);
  if (!(await exists(parent))) throw new FolderError(path, 'no-parent', `cannot write ${path}: ${parent} does not exist`);
  const temp = join(parent, `.${basename(path)}.tmp-${process.getBuiltinModule('node:crypto').randomBytes(6).toString('hex')}`);
  try {
    await writeDurably(temp, text, path);
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

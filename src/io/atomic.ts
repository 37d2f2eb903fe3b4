// A capture folder appears whole or not at all: written under a temporary name, then renamed.
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { RuntimeError, UsageError } from '../errors.ts';

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** Writes and fsyncs one file, so the folder rename never publishes a file still in the page cache only. */
async function writeDurably(path: string, text: string): Promise<void> {
  const handle = await open(path, 'w');
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Creates `dir` holding exactly `files`, atomically: they are written into a sibling temp folder
 * that is renamed into place, so a reader never sees half a capture. A non-empty `dir` is refused
 * unless `force`, and then replaced only after the new folder is complete; if the swap fails, the
 * old folder is put back.
 */
export async function writeFolderAtomic(dir: string, files: Record<string, string>, force: boolean): Promise<void> {
  const present = await exists(dir);
  if (present) {
    const info = await stat(dir);
    if (!info.isDirectory()) throw new UsageError(`${dir} exists and is not a folder`);
    const entries = await readdir(dir);
    if (entries.length > 0 && !force) throw new UsageError(`${dir} is not empty: pass --force to replace it`);
  }
  const parent = dirname(dir);
  if (!(await exists(parent))) throw new RuntimeError(`cannot create ${dir}: ${parent} does not exist`);
  // mkdir, not mkdtemp: mkdtemp makes the folder 0700, and a capture is an ordinary folder.
  const temp = join(parent, `.${basename(dir)}.tmp-${process.getBuiltinModule('node:crypto').randomBytes(6).toString('hex')}`);
  await mkdir(temp);
  const old = `${temp}.old`;
  let moved = false;
  try {
    for (const [name, text] of Object.entries(files)) await writeDurably(join(temp, name), text);
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
  if (!(await exists(parent))) throw new RuntimeError(`cannot write ${path}: ${parent} does not exist`);
  const temp = join(parent, `.${basename(path)}.tmp-${process.getBuiltinModule('node:crypto').randomBytes(6).toString('hex')}`);
  try {
    await writeDurably(temp, text);
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

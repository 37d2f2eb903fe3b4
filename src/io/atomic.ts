// Files and folders appear whole or not at all: written under a temporary name, then renamed.
import { mkdtemp, open, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { RuntimeError, UsageError } from '../errors.ts';

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** Writes a file atomically: a temp file in the same folder, fsynced, renamed over the target. */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  const handle = await open(temp, 'w');
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, path);
}

/**
 * Creates `dir` holding exactly `files`, atomically: they are written into a sibling temp folder
 * that is renamed into place, so a reader never sees half a capture. A non-empty `dir` is refused
 * unless `force`, and then replaced only after the new folder is complete.
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
  const temp = await mkdtemp(join(parent, `.${basename(dir)}.tmp-`));
  try {
    for (const [name, text] of Object.entries(files)) await writeFile(join(temp, name), text);
    if (present) {
      const old = `${temp}.old`;
      await rename(dir, old);
      await rename(temp, dir);
      await rm(old, { recursive: true, force: true });
    } else {
      await rename(temp, dir);
    }
  } catch (error) {
    await rm(temp, { recursive: true, force: true });
    throw error;
  }
}

// A capture folder appears whole or not at all: written under a temporary name, then renamed.
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

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
    if (!info.isDirectory()) throw new FolderError(dir, 'not-a-folder', `${dir} exists and is not a folder`);
    const entries = await readdir(dir);
    if (entries.length > 0 && !force) throw new FolderError(dir, 'not-empty', `${dir} is not empty`);
  }
  const parent = dirname(dir);
  if (!(await exists(parent))) throw new FolderError(dir, 'no-parent', `cannot create ${dir}: ${parent} does not exist`);
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

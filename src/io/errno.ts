// A file system error in words (`is a directory`, `no space left on device`), as Go and kubectl print
// them, not Node's errno names (EISDIR, ENOSPC) that only a programmer reads.
import { getSystemErrorMessage } from 'node:util';

export function errnoText(error: unknown): string {
  const errno = (error as NodeJS.ErrnoException | null)?.errno;
  if (typeof errno === 'number') return getSystemErrorMessage(errno);
  return error instanceof Error ? error.message : String(error);
}

/**
 * A write through a file handle fails without a path (`write: no space left on device`): names the
 * file it was for, as Go's *PathError does, so main can say `write /out/events.json: ...`.
 */
export function namingPath<T>(path: string, work: () => Promise<T>): Promise<T> {
  return work().catch((error: unknown) => {
    const errno = error as NodeJS.ErrnoException;
    if (error instanceof Error && typeof errno.syscall === 'string' && errno.path === undefined) errno.path = path;
    throw error;
  });
}

/** A system error as Go's *PathError says it when it has a path (`open /x/ca.crt: no such file or directory`), else errnoText. */
export function pathErrorText(error: unknown): string {
  const { path, syscall } = (error as NodeJS.ErrnoException | null) ?? {};
  return typeof path === 'string' && typeof syscall === 'string' ? `${syscall} ${path}: ${errnoText(error)}` : errnoText(error);
}

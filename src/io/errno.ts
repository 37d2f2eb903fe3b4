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
  return typeof path === 'string' && typeof syscall === 'string' ? systemErrorText(error as NodeJS.ErrnoException) : errnoText(error);
}

/** A file or socket error the code did not name itself (EACCES on a folder, ECONNRESET mid-body). */
export function isSystemError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string' && 'syscall' in error;
}

/**
 * Go's *PathError wording, as kubectl prints file errors: `open /x: no such file or directory`,
 * `rename a b: directory not empty`, not Node's `ENOENT: no such file or directory, open '/x'`.
 */
export function systemErrorText(error: NodeJS.ErrnoException): string {
  const why = typeof error.errno === 'number' ? getSystemErrorMessage(error.errno) : error.message;
  const paths = [error.path, (error as { dest?: string }).dest].filter((p): p is string => typeof p === 'string');
  return paths.length === 0 ? `${error.syscall ?? 'system call'}: ${why}` : `${error.syscall} ${paths.join(' ')}: ${why}`;
}

/** A failed write to this process's stdout or stderr, as kubectl says it: `write /dev/stdout: no space left on device`. */
export function writeFailureText(stream: 'stdout' | 'stderr', error: NodeJS.ErrnoException): string {
  const why = typeof error.errno === 'number' ? getSystemErrorMessage(error.errno) : (error.code ?? error.message);
  return `write /dev/${stream}: ${why}`;
}

// A file system error in words (`is a directory`, `no space left on device`), as Go and kubectl print
// them, not Node's errno names (EISDIR, ENOSPC) that only a programmer reads.
import { getSystemErrorMessage } from 'node:util';

export function errnoText(error: unknown): string {
  const errno = (error as NodeJS.ErrnoException | null)?.errno;
  if (typeof errno === 'number') return getSystemErrorMessage(errno);
  return error instanceof Error ? error.message : String(error);
}

// The small error vocabulary. Only src/main.ts turns these into exit codes.

export const EXIT = {
  ok: 0,
  error: 1,
  usage: 2,
  findings: 3,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Bad flags, arguments or input a user can fix by calling again differently. Exit 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The cluster or a file said no (not found, forbidden, unreachable, conflict). Exit 1. */
export class RuntimeError extends Error {
  override name = 'RuntimeError';
}

/** Returned (not thrown) by verbs that finish normally with a non-zero status, e.g. type-audit findings. */
export interface CommandResult {
  exitCode: ExitCode;
}

export const SUCCESS: CommandResult = { exitCode: EXIT.ok };

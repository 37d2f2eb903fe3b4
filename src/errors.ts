// The small error vocabulary. Only src/main.ts turns these into exit codes.

export const EXIT = {
  ok: 0,
  error: 1,
  usage: 2,
  findings: 3,
  /** several contexts read together, and some of them did not answer: what the others said was printed */
  partial: 4,
} as const;

type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Bad flags, arguments or input a user can fix by calling again differently. Exit 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The cluster or a file said no (not found, forbidden, unreachable, conflict). Exit 1. */
export class RuntimeError extends Error {
  override name = 'RuntimeError';
}

/** The user stopped a verb (Ctrl-C, SIGTERM) before it was done; what it had begun is undone. Exit 128 + the signal's number, as a shell reports a process killed by it. */
export class Interrupted extends Error {
  override name = 'Interrupted';
  constructor(
    readonly signal: 'SIGINT' | 'SIGTERM',
    message: string,
  ) {
    super(message);
  }
}

/** Returned (not thrown) by verbs that finish normally with a non-zero status, e.g. type-audit findings. */
export interface CommandResult {
  exitCode: ExitCode;
}

export const SUCCESS: CommandResult = { exitCode: EXIT.ok };

/** A read verb's result: success, or EXIT.partial when some of several contexts did not answer. */
export function readResult(unanswered: readonly unknown[]): CommandResult {
  return unanswered.length > 0 ? { exitCode: EXIT.partial } : SUCCESS;
}

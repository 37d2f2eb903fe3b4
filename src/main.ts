// Entry point and the only place that exits. Everything below returns values or throws
// the small error vocabulary of src/errors.ts.
import { runCli } from './cli.ts';
import { EXIT, RuntimeError, UsageError } from './errors.ts';
import { systemDeps } from './deps.ts';
import { escapeTerminal } from './render/escape.ts';

/** A file or socket error the code did not name itself (EACCES on a folder, ECONNRESET mid-body). */
function isSystemError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string' && 'syscall' in error;
}

function describeError(error: unknown): { message: string; code: number } {
  if (error instanceof UsageError) return { message: error.message, code: EXIT.usage };
  if (error instanceof RuntimeError) return { message: error.message, code: EXIT.error };
  if (isSystemError(error)) return { message: error.message, code: EXIT.error };
  const message = error instanceof Error ? error.message : String(error);
  return { message: `internal error: ${message}`, code: EXIT.error };
}

async function main(): Promise<number> {
  const deps = systemDeps();
  try {
    return await runCli(process.argv.slice(2), deps);
  } catch (error) {
    const { message, code } = describeError(error);
    // One line, no stack trace unless asked for.
    // Messages can carry a server's or a file's words: escaped like any other untrusted text.
    process.stderr.write(`error: ${escapeTerminal(message.split('\n')[0] ?? '')}\n`);
    if (process.env.EVTIMELINE_DEBUG && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
    return code;
  }
}

main().then((code) => {
  // Exit only after stdout has drained, so a pipe reader gets every byte.
  process.stdout.write('', () => process.exit(code));
});

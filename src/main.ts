// Entry point and the only place that exits. Everything below returns values or throws
// the small error vocabulary of src/errors.ts.
import { runCli } from './cli.ts';
import { EXIT, Interrupted, RuntimeError, UsageError } from './errors.ts';
import { constants } from 'node:os';
import { systemDeps } from './process-deps.ts';
import { escapeTerminal } from './render/escape.ts';
import { isSystemError, systemErrorText, writeFailureText } from './io/errno.ts';

function describeError(error: unknown): { message: string; code: number } {
  if (error instanceof UsageError) return { message: error.message, code: EXIT.usage };
  if (error instanceof Interrupted) return { message: error.message, code: 128 + (constants.signals[error.signal] ?? 0) };
  if (error instanceof RuntimeError) return { message: error.message, code: EXIT.error };
  if (isSystemError(error)) return { message: systemErrorText(error), code: EXIT.error };
  const message = error instanceof Error ? error.message : String(error);
  return { message: `internal error: ${message}`, code: EXIT.error };
}

async function run(deps: ReturnType<typeof systemDeps>): Promise<number> {
  try {
    return await runCli(process.argv.slice(2), deps);
  } catch (error) {
    const { message, code } = describeError(error);
    // One line, no stack trace unless asked for.
    // Messages can carry a server's or a file's words: escaped like any other untrusted text.
    deps.stderr.write(`error: ${escapeTerminal(message.split('\n')[0] ?? '')}\n`);
    if (process.env.EVTIMELINE_DEBUG && error instanceof Error && error.stack) deps.stderr.write(`${error.stack}\n`);
    return code;
  }
}

/**
 * The verb's exit code once stdout and stderr have drained (so a pipe reader gets every byte),
 * unless writing failed: EPIPE (the reader left, `| head`) ends quietly as the verb ended; any other
 * error (ENOSPC, EIO) is exit 1 with kubectl's one line, since the output is incomplete.
 */
async function settle(deps: ReturnType<typeof systemDeps>, code: number): Promise<number> {
  const stdout = await deps.stdout.flush();
  if (stdout !== undefined && stdout.code !== 'EPIPE') {
    deps.stderr.write(`error: ${writeFailureText('stdout', stdout)}\n`);
    await deps.stderr.flush();
    return EXIT.error;
  }
  const stderr = await deps.stderr.flush();
  return stderr !== undefined && stderr.code !== 'EPIPE' ? EXIT.error : code;
}

const deps = systemDeps();
run(deps)
  .then((code) => settle(deps, code))
  .then((code) => process.exit(code));

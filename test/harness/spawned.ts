// A long-running child (a follow, a recorder, an export) whose output a test reads while it runs.
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { ChildProcess, ChildProcessWithoutNullStreams, SpawnOptionsWithoutStdio } from 'node:child_process';

export interface Spawned {
  child: ChildProcessWithoutNullStreams;
  /** Everything written to stdout and stderr so far. */
  out(): string;
  err(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function spawnCollecting(command: string, args: string[], options: SpawnOptionsWithoutStdio): Spawned {
  const child = spawn(command, args, options);
  // stdin stays open but unused, as a terminal's would be.
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, out: () => out, err: () => err, exited };
}

/** Stops a child a harness started (SIGTERM: a graceful shutdown; SIGKILL: a crash) and waits for it; nothing if it is gone. */
export async function stopChild(proc: ChildProcess | undefined, signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> {
  if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    proc.once('exit', () => resolve());
    proc.kill(signal);
  });
}

/**
 * Starts a server a harness runs (its stdout and stderr appended to `logPath`) and resolves with it
 * once `ready()` says so; throws with the log's last lines when it exits first, or after `timeoutMs`.
 */
export async function spawnUntilReady(o: {
  binary: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  logPath: string;
  /** how the error names it: "the collector", "victoria-logs node-1" */
  what: string;
  ready(): Promise<boolean>;
  timeoutMs: number;
}): Promise<ChildProcess> {
  const log = createWriteStream(o.logPath, { flags: 'a' });
  const proc = spawn(o.binary, o.args, { stdio: ['ignore', 'pipe', 'pipe'], env: o.env ?? process.env });
  proc.stdout?.pipe(log);
  proc.stderr?.pipe(log);
  let exited = false;
  proc.once('exit', () => (exited = true));
  for (const deadline = Date.now() + o.timeoutMs; Date.now() < deadline; ) {
    if (exited) {
      const text = await readFile(o.logPath, 'utf8').catch(() => '');
      throw new Error(`${o.what} exited before it was ready:\n${text.trimEnd().split('\n').slice(-20).join('\n')}`);
    }
    if (await o.ready()) return proc;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  proc.kill('SIGKILL');
  throw new Error(`${o.what} was not ready within ${o.timeoutMs / 1000} s (log: ${o.logPath})`);
}

// A long-running child (a follow, a recorder, an export) whose output a test reads while it runs.
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams, SpawnOptionsWithoutStdio } from 'node:child_process';

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

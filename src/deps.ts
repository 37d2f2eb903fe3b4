// What a verb needs from the outside world, passed in so tests can call verbs directly.
import type { Readable } from 'node:stream';

export interface Output {
  write(text: string): void;
  readonly isTTY: boolean;
}

export interface Deps {
  stdout: Output;
  stderr: Output;
  stdin: Readable;
  env: Record<string, string | undefined>;
  /** The clock. Read once per run by the read verbs (one "now" for a whole table); record reads it per observation. */
  now(): number;
  /**
   * Resolves when the user asks to stop (Ctrl-C, SIGTERM). Only long-running verbs call it:
   * installing the handlers is what stops the default kill, so short verbs leave them alone.
   */
  interrupted(): Promise<string>;
}

function output(stream: NodeJS.WriteStream): Output {
  return {
    write: (text: string) => {
      stream.write(text);
    },
    isTTY: stream.isTTY === true,
  };
}

export function systemDeps(): Deps {
  let interrupted: Promise<string> | undefined;
  return {
    stdout: output(process.stdout),
    stderr: output(process.stderr),
    stdin: process.stdin,
    env: process.env,
    now: () => Date.now(),
    interrupted: () =>
      (interrupted ??= new Promise<string>((resolve) => {
        process.once('SIGINT', () => resolve('SIGINT'));
        process.once('SIGTERM', () => resolve('SIGTERM'));
      })),
  };
}

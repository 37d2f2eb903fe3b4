// Deps for calling verbs in-process: collected stdout/stderr, a fixed clock, no terminal.
import { Readable } from 'node:stream';
import type { Deps } from '../../src/deps.ts';
import { NOW } from './builders.ts';

export interface FakeDeps {
  deps: Deps;
  stdout(): string;
  stderr(): string;
  /** resolve deps.interrupted(), as Ctrl-C would */
  interrupt(): void;
}

export function fakeDeps(o: { now?: number; env?: Record<string, string | undefined>; stdin?: string; tty?: boolean } = {}): FakeDeps {
  let out = '';
  let err = '';
  let interrupt: (signal: string) => void = () => {};
  const interrupted = new Promise<string>((resolve) => (interrupt = resolve));
  const deps: Deps = {
    stdout: { write: (text) => void (out += text), isTTY: o.tty ?? false },
    stderr: { write: (text) => void (err += text), isTTY: o.tty ?? false },
    stdin: Readable.from([o.stdin ?? '']),
    env: o.env ?? { HOME: '/nonexistent-home' },
    now: () => o.now ?? NOW,
    interrupted: () => interrupted,
  };
  return { deps, stdout: () => out, stderr: () => err, interrupt: () => interrupt('SIGINT') };
}

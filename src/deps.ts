// What a verb needs from the outside world, passed in so tests can call verbs directly.
import type { Readable } from 'node:stream';
import type { ScopeOptions } from './commands/options.ts';
import type { EventSource } from './core/source.ts';
import { systemSources } from './sources.ts';

export interface Output {
  write(text: string): void;
  readonly isTTY: boolean;
}

/** What a verb asks events from: a saved file (-n narrows it to one namespace), or the live cluster. */
export type SourceRequest = { kind: 'file'; path: string; namespace: string | null } | { kind: 'cluster'; scope: ScopeOptions };

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
  /** Opens where events come from (src/core/source.ts). Verbs never build a source themselves. */
  openSource(request: SourceRequest): Promise<EventSource>;
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
    openSource: systemSources({ env: process.env, stdin: process.stdin }),
  };
}

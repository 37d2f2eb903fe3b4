// What a verb needs from the outside world, passed in so tests can call verbs directly.
import { fstatSync, writeSync } from 'node:fs';
import type { Readable } from 'node:stream';
import type { ScopeOptions } from './commands/options.ts';
import type { EventStore } from './core/event-store.ts';
import type { NameLookups } from './core/names.ts';
import { clusterNameLookups } from './kube/completion-names.ts';
import type { NameLookupTarget } from './kube/completion-names.ts';
import type { EventSource } from './core/source.ts';
import { systemEventStores, systemSources } from './sources.ts';
import type { Keep } from './core/keep.ts';
import type { StoreAddress } from './commands/store-options.ts';
import type { TimeWindow } from './io/victorialogs.ts';

export interface Output {
  write(text: string): void;
  readonly isTTY: boolean;
}

/** What a verb asks events from: a saved file (-n narrows it to one namespace), or the live cluster. */
/** `keep`: what the output reads of each event (core/keep.ts); a big record keeps no more. */
export type SourceRequest =
  | { kind: 'file'; path: string; namespace: string | null; keep?: Keep }
  | { kind: 'cluster'; scope: ScopeOptions }
  /** a log store read now: the window and -n go into its query */
  | { kind: 'store'; store: StoreAddress; namespace: string | null; window: TimeWindow; keep?: Keep; timeoutMs: number; verbosity: number };

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
  /** Opens the events aggregate-patch reads and writes: the live cluster's, in the scope's namespace. */
  openEventStore(scope: ScopeOptions): Promise<EventStore>;
  /** Names shell completion offers (namespaces, events, kubeconfig entries); lookups that fail answer nothing. */
  nameLookups(where: NameLookupTarget): NameLookups;
  /** Resolves when stdout can take no more (its reader left: `| head`; a full disk); long-running verbs stop then. */
  stdoutClosed?(): Promise<void>;
}

/** stdout or stderr of this process, keeping its first write error for main to turn into an exit status. */
interface ProcessOutput extends Output {
  /** Resolves once everything written has gone out, with the first write error if there was one. */
  flush(): Promise<NodeJS.ErrnoException | undefined>;
  /** Resolves at the first write error (a reader that left, a full disk): nothing more can go out. */
  readonly failed: Promise<void>;
}

// A write error (ENOSPC on a full disk, EIO, EPIPE when the reader left) arrives after write() has
// returned, as a callback error and an 'error' event; unheard, the process would exit 0 with half
// its output lost (`-o json > file` on a full disk) or die on an unhandled 'error' event.
// Redirected to a file, Node's stdout is a SyncWriteStream whose single writeSync ignores a short
// write: on a disk with 64 KiB left, a 2 MiB -o json loses all but the first 64 KiB and no error
// ever comes. Files are therefore written here, looping until every byte is out or the OS says why not.
function isFile(fd: number): boolean {
  try {
    const stat = fstatSync(fd);
    return stat.isFile() || stat.isCharacterDevice();
  } catch {
    return false;
  }
}

function writeAll(fd: number, text: string): void {
  const buffer = Buffer.from(text, 'utf8');
  for (let at = 0; at < buffer.length; ) at += writeSync(fd, buffer, at);
}

function processOutput(stream: NodeJS.WriteStream, fd: number): ProcessOutput {
  let failure: NodeJS.ErrnoException | undefined;
  let fail = (): void => {};
  const failed = new Promise<void>((resolve) => (fail = resolve));
  const remember = (error: NodeJS.ErrnoException): void => {
    failure ??= error;
    fail();
  };
  stream.on('error', remember);
  const file = !stream.isTTY && isFile(fd);
  return {
    write: (text: string) => {
      // After the first failure nothing more is written: the output is already incomplete.
      if (failure !== undefined) return;
      if (!file) return void stream.write(text);
      try {
        writeAll(fd, text);
      } catch (error) {
        remember(error as NodeJS.ErrnoException);
      }
    },
    isTTY: stream.isTTY === true,
    failed,
    flush: () =>
      new Promise((resolve) => {
        // A file or device was written synchronously: nothing is pending. Writing '' to learn of an
        // error would itself fail on /dev/full, making a verb that wrote nothing there exit 1.
        if (file || failure !== undefined || stream.destroyed) return resolve(failure);
        stream.write('', (error) => resolve(failure ?? (error as NodeJS.ErrnoException | null | undefined) ?? undefined));
      }),
  };
}

export function systemDeps(): Deps & { stdout: ProcessOutput; stderr: ProcessOutput } {
  let interrupted: Promise<string> | undefined;
  const stderr = processOutput(process.stderr, 2);
  const stdout = processOutput(process.stdout, 1);
  // process.stdin is a getter that opens the stream (a socket or a file reader) when first read:
  // only --from - and exec credentials need it, so it is read then, not at start-up.
  const io = { env: process.env, get stdin() { return process.stdin; }, stderr };
  return {
    stdout,
    stderr,
    get stdin() {
      return process.stdin;
    },
    env: process.env,
    now: () => Date.now(),
    interrupted: () =>
      (interrupted ??= new Promise<string>((resolve) => {
        process.once('SIGINT', () => resolve('SIGINT'));
        process.once('SIGTERM', () => resolve('SIGTERM'));
      })),
    openSource: systemSources(io),
    openEventStore: systemEventStores(io),
    nameLookups: (where) => clusterNameLookups(process.env, where),
    // -w > /dev/full kept watching (kubectl's does too) with nothing able to reach the file.
    stdoutClosed: () => stdout.failed,
  };
}

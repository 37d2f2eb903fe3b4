// What a verb needs from the outside world, passed in so tests can call verbs directly.
import type { Readable } from 'node:stream';
import type { ScopeOptions } from './options/common.ts';
import type { EventStore } from './core/event-store.ts';
import type { NameLookups } from './core/names.ts';
import type { NameLookupTarget } from './core/connection.ts';
import type { EventSource } from './core/source.ts';
import type { Keep } from './core/keep.ts';
import type { StoreAddress } from './options/store.ts';
import type { TimeWindow } from './core/source.ts';

export interface Output {
  write(text: string): void;
  readonly isTTY: boolean;
  /**
   * A promise while the reader has not yet taken what was written (a pipe to a slow reader: Node
   * queues a pipe's writes in memory on POSIX), undefined when the next write can go at once.
   */
  drain?(): Promise<void> | undefined;
}

/**
 * Writes a long output's pieces as they are made, waiting for the reader between them: memory then
 * holds about one piece, not the whole output queued behind `| less`.
 */
export async function writePieces(out: Output, pieces: Iterable<string>): Promise<void> {
  for (const piece of pieces) {
    out.write(piece);
    const taken = out.drain?.();
    if (taken !== undefined) await taken;
  }
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

// Deps for calling verbs in-process: collected stdout/stderr, a fixed clock, no terminal.
import { Readable } from 'node:stream';
import type { Deps } from '../../src/deps.ts';
import { systemEventStores, systemSources } from '../../src/system.ts';
import { clusterNameLookups } from '../../src/kube/completion-names.ts';
import { NOW } from './builders.ts';

export interface FakeDeps {
  deps: Deps;
  stdout(): string;
  stderr(): string;
  /** resolve deps.interrupted(), as Ctrl-C would */
  interrupt(): void;
}

export interface FakeDepsOptions {
  now?: number;
  env?: Record<string, string | undefined>;
  /** what --from - reads: text, or a stream of it */
  stdin?: string | Readable;
  tty?: boolean;
  /** the port: what openSource hands the verb; by default the real adapters (files, the cluster in env's kubeconfig) */
  openSource?: Deps['openSource'];
  /** what openEventStore hands aggregate-patch; by default the live cluster in env's kubeconfig */
  openEventStore?: Deps['openEventStore'];
  /** what completion asks names of; by default the kubeconfig in env and its cluster */
  nameLookups?: Deps['nameLookups'];
}

export function fakeDeps(o: FakeDepsOptions = {}): FakeDeps {
  let out = '';
  let err = '';
  let interrupt: (signal: string) => void = () => {};
  const interrupted = new Promise<string>((resolve) => (interrupt = resolve));
  const env = o.env ?? { HOME: '/nonexistent-home' };
  const stdin = typeof o.stdin === 'object' ? o.stdin : Readable.from([o.stdin ?? '']);
  const deps: Deps = {
    stdout: { write: (text) => void (out += text), isTTY: o.tty ?? false },
    stderr: { write: (text) => void (err += text), isTTY: o.tty ?? false },
    stdin,
    env,
    now: () => o.now ?? NOW,
    interrupted: () => interrupted,
    openSource: o.openSource ?? systemSources({ env, stdin, stderr: { write: (text) => void (err += text) } }),
    openEventStore: o.openEventStore ?? systemEventStores({ env, stdin, stderr: { write: (text) => void (err += text) } }),
    nameLookups: o.nameLookups ?? ((where) => clusterNameLookups(env, where)),
  };
  return { deps, stdout: () => out, stderr: () => err, interrupt: () => interrupt('SIGINT') };
}

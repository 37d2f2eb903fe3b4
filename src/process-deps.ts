// The process as a verb sees it (the Deps src/main.ts hands runCli): its streams, environment,
// clock and signals, and the real adapters of src/system.ts. The adapters are part of the verbs
// chunk (src/chunk.ts verbsModule), so they are reached on first use: --version and --help never do.
import type { Deps } from './deps.ts';
import type { NameLookups } from './core/names.ts';
import { processOutput } from './io/process-output.ts';
import type { ProcessOutput } from './io/process-output.ts';
import { verbsModule } from './verbs-chunk.ts';

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
    openSource: async (request) => (await verbsModule()).systemSources(io)(request),
    openEventStore: async (scope) => (await verbsModule()).systemEventStores(io)(scope),
    nameLookups: (where) => {
      const ask = (question: (lookups: NameLookups) => Promise<string[]>) => async () => question((await verbsModule()).clusterNameLookups(process.env, where));
      return {
        namespaces: ask((l) => l.namespaces()),
        events: (namespace) => ask((l) => l.events(namespace))(),
        contexts: ask((l) => l.contexts()),
        clusters: ask((l) => l.clusters()),
        users: ask((l) => l.users()),
      };
    },
    // -w > /dev/full kept watching (kubectl's does too) with nothing able to reach the file.
    stdoutClosed: () => stdout.failed,
  };
}

// `npm test` builds this machine's executable first and packages the release archives (every
// platform's executable, the krew manifest) beside the integration tests: about 100 s of CPU
// that no test needs but the ones that install or inspect an archive. Those files say so in a line
// of their own, `// Needs the release archives: <why>.`; the runner (integration-run.ts --package)
// starts them once packaging has ended, and each checks here that it passed (run by hand, or picked
// by another runner, a file waits here until it has).
import { existsSync, readFileSync } from 'node:fs';
import { waitFor } from './wait.ts';

/** The environment variable naming the file the runner writes when packaging ends: `ok`, or why not. */
export const ARCHIVES_STATUS = 'EVTIMELINE_TEST_ARCHIVES';

/** The line that marks a file as needing the archives. */
export const NEEDS_ARCHIVES = /^\/\/ Needs the release archives: /m;

/**
 * Resolves once the release archives are in dist/: at once when the run did not package them
 * (`npm run package` made them before), else when the runner says packaging ended; rejects with
 * its words when packaging failed.
 */
export async function releaseArchives(): Promise<void> {
  const status = process.env[ARCHIVES_STATUS];
  if (status === undefined) return;
  const said = await waitFor('npm run package, beside the tests, to end', async () => (existsSync(status) ? readFileSync(status, 'utf8') : undefined), {
    timeoutMs: 15 * 60_000,
    everyMs: 500,
  });
  if (said !== 'ok') throw new Error(`the release archives were not made: ${said}`);
}

// The release archives (`npm run package`) that the krew and platforms files install and run. Under
// `npm test` they are made beside the integration run (scripts/test.mjs), which names in
// EVTIMELINE_TEST_ARCHIVES a file it creates once they are all written: wait for it. Run on its own,
// a file finds them made by an earlier `npm run package`, or says to run it.
import { existsSync } from 'node:fs';
import { waitFor } from './wait.ts';

export async function archivesMade(files: string[]): Promise<void> {
  const marker = process.env.EVTIMELINE_TEST_ARCHIVES;
  if (marker) await waitFor('npm test to make the release archives (npm run package:archives)', async () => existsSync(marker), { timeoutMs: 900_000, everyMs: 1000 });
  for (const file of files) if (!existsSync(file)) throw new Error(`${file} is missing: run npm run package first`);
}

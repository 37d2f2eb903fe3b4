// The lab's capture as a user would have it: `kubectl evtimeline capture` of the lab's five events,
// made by the given executable. Its events.json is what the release tests replay with --from.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { labEvents } from './builders.ts';

/** Writes the lab's events under `dir`, captures them with `executable`, and returns the capture's events.json. */
export function labCapture(dir: string, executable: string): string {
  const list = join(dir, 'lab-events.json');
  writeFileSync(list, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: labEvents() }));
  execFileSync(executable, ['capture', '--from', list, join(dir, 'lab-capture')], { stdio: 'ignore', env: { PATH: '/usr/bin:/bin', HOME: dir } });
  return join(dir, 'lab-capture', 'events.json');
}

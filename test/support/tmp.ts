// A scratch folder for one test file, removed when the file's tests are done.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';

/** Call at a file's top level or in a top-level hook, so the cleanup is the file's, not a test's. */
export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `evtimeline-${prefix}-`));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

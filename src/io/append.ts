// Appending to a file others write too ($GITHUB_STEP_SUMMARY: each step of a job appends its part).
// One write of the whole text with O_APPEND, so a part is never interleaved with another writer's.
import { appendFile } from 'node:fs/promises';

export async function appendText(path: string, text: string): Promise<void> {
  await appendFile(path, text, { encoding: 'utf8', flag: 'a' });
}

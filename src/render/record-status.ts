// What the record verb says on stderr: the live count, the resume notice and the closing summary.
// Plain text; the status writer in src/commands/record.ts escapes it.
import type { RecordCounts } from '../core/record.ts';
import type { ResumeStep } from '../core/source.ts';
import { plural } from './words.ts';

function countsText(counts: RecordCounts): string {
  const lines = counts.added + counts.modified + counts.deleted;
  return `${plural(lines, 'line')} (${counts.added} added, ${counts.modified} modified, ${counts.deleted} deleted)`;
}

/** The live count on a terminal. */
export function progressLine(file: string, counts: RecordCounts): string {
  return `recording to ${file}: ${countsText(counts)}`;
}

/** What a record about to be continued says, once the server has told its current resourceVersion. */
export function resumeNotice(file: string, observations: number, step: ResumeStep): string {
  const { from, current } = step;
  if (step.verdict === 'resume') return `continuing ${file} (${plural(observations, 'observation')}) from resourceVersion ${from}`;
  if (step.verdict === 'ahead') {
    return `${file}: its last resourceVersion ${from} is ahead of the server's ${current} (a different or re-created cluster?): listing again`;
  }
  return `${file}: cannot tell whether the server (at resourceVersion ${current === '' ? 'unknown' : current}) has reached its last resourceVersion ${from}: listing again`;
}

/** The one line printed at the end, when recording stopped as asked (--duration, Ctrl-C, SIGTERM). */
export function summaryLine(file: string, counts: RecordCounts, totalLines: number): string {
  return `recorded ${countsText(counts)} to ${file}; it holds ${plural(totalLines, 'observation')}`;
}

// --from - (and a pipe, a FIFO, `<(...)`) holding a record or a collector's file: copied as it
// arrives into a private temporary file, which is then read as that file would be (line by line,
// src/io/record-stream.ts and src/otlp/collector-stream.ts), so memory follows the events kept,
// not the input (read whole, a 200,000-event record on stdin was 250 MB of text in one string).
// A file, not one pass: who wants the raw objects (capture) or every version (export) reads it
// again, as it reads a record file again. The folder is 0700 (mkdtemp), the file 0600, both
// removed when the process exits. Anything else on stdin is read whole, as before.
import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { couldBeOurs } from './record-line.ts';

/** How much of the input is looked at before choosing: a record's or a collector's first line starts within it. */
const LOOK_BYTES = 64;

/** Whether the input's first bytes start as a record or a collector's file does. */
function startsLikeALineFile(head: Buffer): boolean {
  const text = head.toString('utf8').trimStart();
  if (text === '') return false;
  return couldBeOurs(text.slice(0, 64)) || /^\{\s*"resource(Logs|Spans|Metrics)"\s*:/.test(text);
}

export type Input = { kind: 'chunks'; chunks: AsyncIterable<Buffer> } | { kind: 'spooled'; path: string };

/**
 * The input as it arrives; when it starts like a file read line by line, copied whole into a
 * temporary file first (`check` sees every chunk: the caller's NUL check and byte count).
 */
export async function spoolIfLines(chunks: AsyncIterable<Buffer>, check: (chunk: Buffer, before: number) => void): Promise<Input> {
  const iterator = chunks[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let bytes = 0;
  let done = false;
  while (bytes < LOOK_BYTES) {
    const next = await iterator.next();
    if (next.done === true) {
      done = true;
      break;
    }
    check(next.value, bytes);
    head.push(next.value);
    bytes += next.value.length;
  }
  const rest = async function* (): AsyncGenerator<Buffer> {
    if (done) return;
    for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) {
      check(next.value, bytes);
      bytes += next.value.length;
      yield next.value;
    }
  };
  if (!startsLikeALineFile(Buffer.concat(head))) {
    return { kind: 'chunks', chunks: (async function* () { yield* head; yield* rest(); })() };
  }
  const dir = mkdtempSync(join(tmpdir(), 'kubectl-evtimeline-stdin-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'input');
  const fd = openSync(path, 'wx', 0o600);
  try {
    const write = (chunk: Buffer) => {
      for (let offset = 0; offset < chunk.length; ) offset += writeSync(fd, chunk, offset);
    };
    head.forEach(write);
    for await (const chunk of rest()) write(chunk);
  } finally {
    closeSync(fd);
  }
  return { kind: 'spooled', path };
}

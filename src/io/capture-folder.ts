// --from a capture: its folder, or the events.json in it; objects.json beside events.json says who
// owned what (src/io/objects-file.ts). A capture without one (taken before objects.json existed, or
// from an input that could not tell), or with one of another capture, reads as before: no ownership.
import { dirname, join } from 'node:path';
import { MAX_FROM_BYTES } from './event-file.ts';
import { SavedFileError } from './saved-events.ts';
import type { SavedEvents } from './saved-events.ts';
import { errnoText } from './errno.ts';
import { OBJECTS_FILE, readObjectsFile } from './objects-file.ts';
import { STATUS_FILE, parseStatusFile } from './facts-file.ts';
import { NotAFileError, TooBigError, kindOf, kindWords, readRegularFile } from './path-kind.ts';

const EVENTS_FILE = 'events.json';

/**
 * A capture folder's events.json; any other path as given (a folder without one is refused by the
 * reader). Inside a capture only a regular file is read: a FIFO there would wait for ever, a link to
 * /dev/zero would read without end.
 */
export async function captureEventsPath(path: string): Promise<string> {
  if (path === '-' || (await kindOf(path).catch(() => 'missing')) !== 'folder') return path;
  const inside = join(path, EVENTS_FILE);
  const kind = await kindOf(inside).catch(() => 'missing' as const);
  if (kind === 'missing') return path;
  if (kind !== 'file') throw new SavedFileError(inside, 'not-a-file', kind);
  return inside;
}

/** Why a capture's objects.json is not read, in the words after `objects.json `. */
function unreadableWhy(error: unknown): string {
  if (error instanceof NotAFileError) return `is ${kindWords(error.kind)}, not a file`;
  if (error instanceof TooBigError) return `is more than --from reads (${MAX_FROM_BYTES / 1024 / 1024} MiB)`;
  return `cannot be read (${errnoText(error)})`;
}

/**
 * A capture read from `path`, with the objects of the objects.json beside it when that belongs to it.
 * One that is there but not taken (torn, not JSON, of another capture, unreadable) is told to
 * `refused` (its path and why): the capture then reads as one without ownership, but not silently.
 */
export async function withCaptureObjects(saved: SavedEvents, path: string, refused: (file: string, why: string) => void = () => {}): Promise<SavedEvents> {
  if (path === '-' || !('raw' in saved) || saved.provenance.kind !== 'capture') return saved;
  return withCaptureStatus(await withOwners(saved, path, refused), path, refused);
}

/**
 * A file beside events.json, capped and a regular file only, as events.json: a shared capture is
 * someone else's folder. Null when it is not there (a capture taken before the file existed, as
 * before) or cannot be read (told to `refused`).
 */
async function readBeside(path: string, name: string, refused: (file: string, why: string) => void): Promise<{ file: string; text: string | null }> {
  const file = join(dirname(path), name);
  const text = await readRegularFile(file, MAX_FROM_BYTES).then(
    (bytes) => bytes.toString('utf8'),
    (error: unknown) => {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') refused(file, unreadableWhy(error));
      return null;
    },
  );
  return { file, text };
}

/** The status.json beside events.json (src/io/facts-file.ts); none: a capture taken before status was kept. */
async function withCaptureStatus(saved: SavedEvents, path: string, refused: (file: string, why: string) => void): Promise<SavedEvents> {
  if (!('raw' in saved) || saved.provenance.kind !== 'capture') return saved;
  const { file, text } = await readBeside(path, STATUS_FILE, refused);
  if (text === null) return saved;
  const status = parseStatusFile(text, saved.provenance.capturedAt);
  if (status === null) {
    refused(file, 'is not a status.json of this capture');
    return saved;
  }
  return { ...saved, status };
}

async function withOwners(saved: SavedEvents, path: string, refused: (file: string, why: string) => void): Promise<SavedEvents> {
  if (!('raw' in saved) || saved.provenance.kind !== 'capture') return saved;
  const { file, text } = await readBeside(path, OBJECTS_FILE, refused);
  if (text === null) return saved;
  const read = readObjectsFile(text, saved.provenance.capturedAt);
  if ('refused' in read) {
    refused(file, read.refused);
    return saved;
  }
  return { ...saved, objects: read.objects };
}

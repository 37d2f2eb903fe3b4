// --from a capture: its folder, or the events.json in it; objects.json beside events.json says who
// owned what (src/io/objects-file.ts). A capture without one (taken before objects.json existed, or
// from an input that could not tell), or with one of another capture, reads as before: no ownership.
import { readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { SavedEvents } from './saved-events.ts';
import { errnoText } from './errno.ts';
import { OBJECTS_FILE, readObjectsFile } from './objects-file.ts';
import { STATUS_FILE, parseStatusFile } from './facts-file.ts';

const EVENTS_FILE = 'events.json';

/** A capture folder's events.json; any other path as given (a folder without one is refused by the reader, as before). */
export async function captureEventsPath(path: string): Promise<string> {
  if (path === '-') return path;
  const inside = join(path, EVENTS_FILE);
  const isFolder = await stat(path).then((s) => s.isDirectory(), () => false);
  return isFolder && (await stat(inside).then((s) => s.isFile(), () => false)) ? inside : path;
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

/** The status.json beside events.json (src/io/facts-file.ts); none: a capture taken before status was kept. */
async function withCaptureStatus(saved: SavedEvents, path: string, refused: (file: string, why: string) => void): Promise<SavedEvents> {
  if (!('raw' in saved) || saved.provenance.kind !== 'capture') return saved;
  const file = join(dirname(path), STATUS_FILE);
  const text = await readFile(file, 'utf8').catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') refused(file, `cannot be read (${errnoText(error)})`);
    return null;
  });
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
  const file = join(dirname(path), OBJECTS_FILE);
  const text = await readFile(file, 'utf8').catch((error: unknown) => {
    // None at all: a capture taken before objects.json existed, as before.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') refused(file, `cannot be read (${errnoText(error)})`);
    return null;
  });
  if (text === null) return saved;
  const read = readObjectsFile(text, saved.provenance.capturedAt);
  if ('refused' in read) {
    refused(file, read.refused);
    return saved;
  }
  return { ...saved, objects: read.objects };
}

// --from a capture: its folder, or the events.json in it; objects.json beside events.json says who
// owned what (src/io/objects-file.ts). A capture without one (taken before objects.json existed, or
// from an input that could not tell), or with one of another capture, reads as before: no ownership.
import { readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { SavedEvents } from './event-file.ts';
import { OBJECTS_FILE, parseObjectsFile } from './objects-file.ts';

const EVENTS_FILE = 'events.json';

/** A capture folder's events.json; any other path as given (a folder without one is refused by the reader, as before). */
export async function captureEventsPath(path: string): Promise<string> {
  if (path === '-') return path;
  const inside = join(path, EVENTS_FILE);
  const isFolder = await stat(path).then((s) => s.isDirectory(), () => false);
  return isFolder && (await stat(inside).then((s) => s.isFile(), () => false)) ? inside : path;
}

/** A capture read from `path`, with the objects of the objects.json beside it when that belongs to it. */
export async function withCaptureObjects(saved: SavedEvents, path: string): Promise<SavedEvents> {
  if (path === '-' || !('raw' in saved) || saved.provenance.kind !== 'capture') return saved;
  const text = await readFile(join(dirname(path), OBJECTS_FILE), 'utf8').catch(() => null);
  const objects = text === null ? null : parseObjectsFile(text, saved.provenance.capturedAt);
  return objects === null ? saved : { ...saved, objects };
}

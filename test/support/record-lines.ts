// Records as the record tests build them: versions of an event, observations at one time, a header.
import { RECORD_KIND } from '../../src/core/record.ts';
import type { Observation, RecordHeader } from '../../src/core/record.ts';
import { ev } from './builders.ts';

export type Json = Record<string, unknown>;

/** A version of an event: same uid, the given resourceVersion and count. */
export function version(base: Json, resourceVersion: string, count = 1): Json {
  return { ...base, count, metadata: { ...(base.metadata as Json), resourceVersion } };
}

export const at = '2026-11-30T12:00:00.000Z';
export const atMs = Date.parse(at);
export const obs = (type: string, event: Json): Observation => ({ observedAt: atMs, type, event });

export function header(o: Partial<RecordHeader> = {}): RecordHeader {
  return { kind: RECORD_KIND, version: 1, context: 'lab', server: 'https://127.0.0.1:6443', namespace: 'op-events', filter: {}, startedAt: atMs, ...o };
}

export const started = ev({ name: 'build-1-started', uid: 'uid-started' });
export const weird = ev({ name: 'build-1-weird', uid: 'uid-weird', type: 'Critical' });

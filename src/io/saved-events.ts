// A saved file as the readers of each format hand it back (src/io/event-file.ts, record-replay.ts,
// src/otlp/collector-file.ts), and the error a file that cannot be read as events raises. A module
// of its own so the format readers and the file source that picks among them import no one back.
import type { Event } from '../core/event.ts';
import type { CaptureProvenance, EventVersion, ListProvenance, OtlpProvenance, RawEvents, RecordProvenance, StableTableProvenance, StoreProvenance } from '../core/source.ts';
import type { SavedObject } from '../core/object-meta.ts';
import type { SavedStatus } from '../core/facts.ts';

/**
 * A saved file that cannot be read as events; src/options/user-errors.ts words it. The file is not
 * one the reader knows: empty; unrecognised (neither JSON, a record, nor a stable table);
 * not-saved-events (JSON, but not a capture, an event list or a record; `detail`: what it is, where
 * a reader knows); not-an-event (`item`:
 * which item, and what it is instead); binary (a NUL byte, `detail`: at which byte, from 1). The
 * file system said no: no-such-file; unreadable (`detail`: its error's text); too-big (`detail`:
 * its size in bytes); not-a-file: a folder that is not a capture, or a FIFO or device where a
 * capture's file should be (`detail`: its PathKind).
 */
export class SavedFileError extends Error {
  constructor(
    readonly path: string,
    readonly problem: 'empty' | 'unrecognised' | 'not-saved-events' | 'not-an-event' | 'binary' | 'no-such-file' | 'unreadable' | 'too-big' | 'not-a-file',
    readonly detail = '',
    /** not-an-event: the first item that is not one (from 1), and what it is */
    readonly item: { position: number; what: string } | null = null,
  ) {
    super(`${path}: ${problem}`);
  }
}

/** A saved file as read: what it is, and its events (raw objects, or a stable table's minimal events). */
export type SavedEvents =
  | {
      provenance: CaptureProvenance | ListProvenance | RecordProvenance | OtlpProvenance | StoreProvenance;
      raw: RawEvents;
      /** every version the file holds, where it holds more than one each (a record, a collector's file); absent: raw.core, unobserved */
      versions?: EventVersion[];
      /** who owned what, where the file says (a capture's objects.json, a record's object lines); absent: it cannot tell */
      objects?: SavedObject[];
      /** what the objects' status said (a record's status lines, a capture's status.json); undefined in a record or capture: written before status was kept */
      status?: SavedStatus[] | undefined;
    }
  | { provenance: StableTableProvenance; events: Event[] };

/** A saved file refused for holding something that is not an Event, naming the first such item. */
export function notAnEventError(path: string, bad: { position: number; what: string }): SavedFileError {
  return new SavedFileError(path, 'not-an-event', '', bad);
}

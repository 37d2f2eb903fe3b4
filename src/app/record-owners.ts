// record: the owner chain of each object the first time the recorder sees it, written as object lines
// (src/io/record-line.ts) beside the observations. The lookups run behind the recording: events are
// written as they come, objects queue up and are looked up in batches (one lookup of a batch can
// LIST a collection instead of a GET each), and whatever a lookup cannot read is written as not
// known, once: never retried, never fatal. What is still queued when the recorder stops is left to
// the next session, which looks an object up again when it sees an event about it.
import type { ObjectRef } from '../core/event.ts';
import { normaliseEvent } from '../core/event.ts';
import type { Json } from '../core/json.ts';
import type { LookUp } from '../core/object-meta.ts';
import type { SavedObject } from '../core/object-meta.ts';
import { savedObjectsOf } from './owner-lookups.ts';
import { SaidKeys } from '../core/said-keys.ts';
import { rawIdentity } from '../core/versions.ts';

/** Objects waiting to be looked up; past this, new ones wait for a later event about them. */
const MAX_QUEUED = 5_000;
/** Objects looked up together: a burst of new pods becomes a LIST of their namespace. */
const BATCH = 500;
/**
 * Objects remembered as written (uids: about 100 bytes each) besides those the server still holds
 * events about: past this the oldest are forgotten, and one seen again is looked up and written again
 * (readers keep one object per uid: io/objects-file.ts knownObjects).
 */
const MAX_SEEN = 50_000;

interface OwnerRecorderOptions {
  lookUp: LookUp;
  /** appends object lines (serialised with the observations by the caller) */
  write(objects: SavedObject[]): Promise<void>;
  /** what the record already holds: those objects are not written again */
  held: SavedObject[];
  notice(text: string): void;
}

function uidOf(saved: SavedObject): string {
  return 'meta' in saved ? saved.meta.uid : saved.unknown.ref.uid;
}

export class OwnerRecorder {
  /** uids written, oldest first: an object an event the server holds is about, or one let go later */
  private readonly seen = new Set<string>();
  /** per event the server holds (identity) the uid of its object: never forgotten while held */
  private readonly held = new SaidKeys();
  private readonly queued = new Map<string, ObjectRef>();
  /** the batch being looked up: not queued again meanwhile */
  private readonly inFlight = new Set<string>();
  private running: Promise<void> | undefined;
  /** no more objects are taken (the recorder is stopping) */
  private accepting = true;
  /** nothing more is written (stopped, or the grace is over: the file is being closed) */
  private closed = false;

  constructor(private readonly opts: OwnerRecorderOptions) {
    for (const saved of opts.held) this.seen.add(uidOf(saved));
    this.trim();
  }

  /** How many objects are remembered as written. */
  get remembered(): number {
    return this.seen.size;
  }

  /** Events just written: their objects not seen before are queued for a lookup. */
  saw(events: Json[]): void {
    if (!this.accepting) return;
    for (const raw of events) {
      const ref = normaliseEvent(raw).object;
      // Only an object with a uid can be told apart from a later one of its name, and looked up.
      if (ref.uid === '' || ref.kind === '' || ref.name === '' || ref.apiVersion === '') continue;
      this.held.say(rawIdentity(raw), ref.uid);
      if (this.seen.has(ref.uid) || this.queued.has(ref.uid) || this.inFlight.has(ref.uid) || this.queued.size >= MAX_QUEUED) continue;
      this.queued.set(ref.uid, ref);
    }
    this.kick();
  }

  /** Events the server deleted: an object no event it holds is about is forgotten once past MAX_SEEN. */
  forget(events: Json[]): void {
    for (const raw of events) this.held.forget(rawIdentity(raw));
  }

  /** Back within MAX_SEEN besides the held objects: the oldest objects no held event is about are forgotten. */
  private trim(): void {
    // A tenth below the bound: each pass forgets thousands, not one per batch.
    if (this.seen.size <= this.held.size + MAX_SEEN) return;
    for (const uid of this.seen) {
      if (this.seen.size <= this.held.size + MAX_SEEN * 0.9) break;
      if (!this.held.has(uid)) this.seen.delete(uid);
    }
  }

  /** Takes no more objects; the queued ones are looked up and written for up to `graceMs`, the rest left to the next session. */
  async finish(graceMs: number): Promise<void> {
    this.accepting = false;
    let timer: NodeJS.Timeout | undefined;
    let late = false;
    const deadline = new Promise<void>((resolve) => (timer = setTimeout(() => ((late = true), resolve()), graceMs)));
    while (this.running !== undefined && !late) await Promise.race([this.running, deadline]);
    clearTimeout(timer);
    this.closed = true;
  }

  private kick(): void {
    if (this.running !== undefined || this.queued.size === 0 || this.closed) return;
    this.running = this.drain()
      .catch((error: unknown) => {
        // A failed write (a full disk) stops the object lines, not the recording: its own writes will say.
        this.stop(`stopped recording owners: ${error instanceof Error ? error.message : String(error)}`);
      })
      .finally(() => {
        this.running = undefined;
        this.kick();
      });
  }

  private stop(why: string): void {
    this.accepting = false;
    this.closed = true;
    this.queued.clear();
    this.opts.notice(why);
  }

  private async drain(): Promise<void> {
    const batch = [...this.queued.values()].slice(0, BATCH);
    for (const ref of batch) {
      this.queued.delete(ref.uid);
      this.inFlight.add(ref.uid);
    }
    let saved: SavedObject[];
    try {
      const lookups = await this.opts.lookUp(batch);
      ({ saved } = await savedObjectsOf(batch, lookups, this.opts.lookUp, (uid) => this.seen.has(uid)));
    } finally {
      this.inFlight.clear();
    }
    // The grace is over: the file is being closed; the next session looks these up again.
    if (this.closed) return;
    for (const ref of batch) this.seen.add(ref.uid);
    for (const s of saved) this.seen.add(uidOf(s));
    if (saved.length > 0) await this.opts.write(saved);
    this.trim();
  }
}

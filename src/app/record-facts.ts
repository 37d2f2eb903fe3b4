// record: status lines (src/io/facts-file.ts) beside the observations, so a record tells the causes
// after the objects are gone. The facts of the objects the events are about are read again after
// new events (at most every `everyMs`, one LIST per Kind and namespace), and once more when the
// recorder stops; a line is written the first time an object is read and each time one of its facts
// changes. A status update that changes no fact (a Node's heartbeat, a resourceVersion) writes
// nothing: facts hold no heartbeat time. Failures are said once and never stop the recording.
// A recorder runs for days: an object is read while the server holds an event about it, and let
// go once the server has deleted them all (the TTL), so what is kept and listed follows what the
// server holds, not every object the record ever named.
import type { Event } from '../core/event.ts';
import { normaliseEvent } from '../core/event.ts';
import type { Json } from '../core/json.ts';
import type { FactGap, FactSet, ObjectFacts } from '../core/facts.ts';
import { factsKey } from '../core/facts.ts';
import { rawIdentity } from '../core/versions.ts';
import { SaidKeys } from '../core/said-keys.ts';
import type { SavedStatus } from '../core/facts.ts';

/** Distinct (object, reason) pairs of the events the server holds; past this, new ones are not added. */
const MAX_KEPT = 20_000;

interface FactsRecorderOptions {
  read(events: Event[], now: number): Promise<FactSet>;
  write(now: number, statuses: ({ facts: ObjectFacts } | { missing: FactGap })[]): Promise<void>;
  now(): number;
  /** what the record already holds: unchanged facts are not written again */
  held: SavedStatus[] | undefined;
  notice(text: string): void;
  /** the least time between two reads */
  everyMs: number;
}

const gapKey = (g: FactGap): string => `${g.what}/${g.resource}/${g.namespace}/${g.reason}`;

export class FactsRecorder {
  /** one event per object and reason: what readFacts needs to choose its lists and nodes */
  private readonly events = new Map<string, Event>();
  /** per event the server holds (identity) its key in `events`: a key no such event says is let go */
  private readonly said = new SaidKeys();
  /** per key in `events` its object (factsKey) and its namespace: which are still about, kept as `events` changes, not counted per read */
  private readonly objects = new SaidKeys();
  private readonly namespaces = new SaidKeys();
  private readonly written = new Map<string, string>();
  /** gaps said (gapKey), each with its namespace: one of a namespace no held event is in is let go */
  private readonly gaps = new Map<string, string>();
  private running: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private lastRead = Number.NEGATIVE_INFINITY;
  private dirty = false;
  private closed = false;
  private failed = false;

  constructor(private readonly opts: FactsRecorderOptions) {
    for (const s of opts.held ?? []) {
      if ('facts' in s) this.written.set(factsKey(s.facts), JSON.stringify(s.facts));
      else this.gaps.set(gapKey(s.missing), s.missing.namespace);
    }
  }

  /** Events just written (not DELETED): their objects' facts are read soon. */
  saw(raws: Json[]): void {
    if (this.closed) return;
    for (const raw of raws) {
      const ev = normaliseEvent(raw);
      const key = `${ev.object.namespace}/${ev.object.kind}/${ev.object.name}/${ev.reason}`;
      const fresh = !this.events.has(key);
      if (fresh && this.events.size >= MAX_KEPT) continue;
      this.said.say(rawIdentity(raw), key, this.letGo);
      this.events.set(key, ev);
      if (!fresh) continue;
      this.objects.say(key, factsKey(ev.object));
      this.namespaces.say(key, ev.object.namespace);
    }
    this.dirty = true;
    this.schedule();
  }

  /** Events the server deleted: an object no event it holds is about any more is no longer read. */
  forget(raws: Json[]): void {
    for (const raw of raws) this.said.forget(rawIdentity(raw), this.letGo);
  }

  private readonly letGo = (key: string): void => {
    this.events.delete(key);
    this.objects.forget(key);
    this.namespaces.forget(key);
  };

  /**
   * The written status of an object no held event is about, and that this read did not return (a
   * Node its Pods run on), is let go: read again later, it is written again (once). Likewise a gap
   * in a namespace no held event is in, that this read did not meet again: namespaces come and go.
   */
  private forgetNotHeld(returned: Set<string>, met: Set<string>): void {
    for (const key of this.written.keys()) if (!returned.has(key) && !this.objects.has(key)) this.written.delete(key);
    for (const [key, namespace] of this.gaps) if (namespace !== '' && !met.has(key) && !this.namespaces.has(namespace)) this.gaps.delete(key);
  }

  /** How many objects' written status is remembered. */
  get remembered(): number {
    return this.written.size;
  }

  /** How many gaps are remembered as said. */
  get gapsRemembered(): number {
    return this.gaps.size;
  }

  /** One last read (the state the recorder leaves the story in), within `graceMs`. */
  async finish(graceMs: number): Promise<void> {
    clearTimeout(this.timer);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    const last = (async () => {
      await this.running;
      if (this.events.size > 0) await this.readOnce();
    })();
    await Promise.race([last, deadline]);
    clearTimeout(timer);
    this.closed = true;
  }

  private schedule(): void {
    if (this.running !== undefined || this.timer !== undefined || this.closed || !this.dirty) return;
    const wait = Math.max(0, this.lastRead + this.opts.everyMs - this.opts.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.running = this.readOnce().finally(() => {
        this.running = undefined;
        this.schedule();
      });
    }, wait);
    this.timer.unref?.();
  }

  private async readOnce(): Promise<void> {
    this.dirty = false;
    const now = this.opts.now();
    this.lastRead = now;
    try {
      const facts = await this.opts.read([...this.events.values()], now);
      if (this.closed) return;
      const lines: ({ facts: ObjectFacts } | { missing: FactGap })[] = [];
      const returned = new Set<string>();
      for (const f of facts.objects) {
        const text = JSON.stringify(f);
        const key = factsKey(f);
        returned.add(key);
        if (this.written.get(key) === text) continue;
        this.written.set(key, text);
        lines.push({ facts: f });
      }
      const met = new Set<string>();
      for (const g of facts.gaps) {
        const key = gapKey(g);
        met.add(key);
        if (this.gaps.has(key)) continue;
        this.gaps.set(key, g.namespace);
        lines.push({ missing: g });
      }
      this.forgetNotHeld(returned, met);
      if (lines.length > 0) await this.opts.write(now, lines);
    } catch (error) {
      // Said once: a recorder whose status reads fail keeps recording events.
      if (!this.failed) this.opts.notice(`could not read object status (the events are still recorded): ${error instanceof Error ? error.message : String(error)}`);
      this.failed = true;
    }
  }
}

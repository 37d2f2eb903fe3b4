// The newest version of each event, folded as versions stream in (a store's rows, a collector's
// lines), kept as `keep` needs them (core/keep.ts): memory follows the events kept, not the
// versions read. Of two versions the newer wins (core/versions.ts), else the one of the writer
// that keeps more, else the one that sorts last by what it says (never the order they came in:
// a store's rows come in no set order); keyed by uid, else by eventIdentity.
import { normaliseEvent } from '../core/event.ts';
import type { Event, EventCluster } from '../core/event.ts';
import type { Json } from '../core/json.ts';
import { keptVersions } from '../core/keep.ts';
import type { Keep } from '../core/keep.ts';
import { eventIdentity } from '../core/identity.ts';
import { SlotIndex } from './slot-index.ts';
import { ChunkedList } from '../core/chunked-list.ts';

export class LatestFold {
  private readonly kept;
  // The uids are the kept versions' own (keep.ts uidIs): the index keeps no second copy.
  private readonly byUid = new SlotIndex((slot, uid) => this.kept.uidIs(slot, uid));
  private readonly byOther = new SlotIndex();
  private slots = 0;
  /** with `raw`: the raw object of each kept version, by slot */
  private readonly raws: Json[] | null;
  /**
   * the rank of each kept version's writer, by slot: on a tie the higher rank stays. In chunks
   * (core/chunked-list.ts): an array of 200,000 grew by copies that only a full collection frees.
   */
  private readonly ranks = new ChunkedList<number>();
  /** with `raw`: the context of each kept version, by slot, where one was named (in chunks, as the ranks) */
  private readonly contexts = new ChunkedList<string | undefined>();

  /**
   * Where the output keeps less than whole events: the versions of a named cluster (a collector's
   * file of several contexts, which a reader learns only as it reads it), kept whole, for the
   * table's and -o stable's kept forms (core/keep.ts) hold no context. Made when the first is named.
   */
  private whole: LatestFold | null = null;
  /** the events kept here when the first cluster was named */
  private slotsBefore = 0;
  /** from then: how many events first appeared here and in `whole` in turn, `whole`'s first */
  private readonly runs: number[] = [];

  constructor(
    private readonly keepFor: Keep,
    raw = false,
  ) {
    this.kept = keptVersions(keepFor);
    this.raws = raw ? [] : null;
  }

  /**
   * `rank`: how much the writer keeps. Two writers of one version tie (same count and time, one of
   * them without a resourceVersion: the k8s_events receiver); the copy with more fields then stays.
   * `cluster`: where the version came from (a collector's file of several contexts): a uid in two
   * clusters is two events, each kept whole.
   */
  add(raw: Json, rank = 0, cluster?: EventCluster): void {
    this.addEvent(normaliseEvent(raw), rank, raw, cluster);
  }

  /** `event` normalised already (a store's row read straight into one); `raw` kept only with `raw`. */
  addEvent(event: Event, rank = 0, raw: Json = {}, cluster?: EventCluster): void {
    if (cluster !== undefined && this.keepFor !== 'all') {
      this.addWhole(event, rank, raw, cluster);
      return;
    }
    const own = event.uid !== '' ? event.uid : eventIdentity(event);
    if (cluster !== undefined) event.cluster = cluster;
    const key = cluster === undefined || own === '' ? own : `${cluster.context}\u0000${own}`;
    // An event with nothing to tell it apart by (no uid, no name) is kept as it is.
    const map = event.uid !== '' ? this.byUid : this.byOther;
    const at = key === '' ? undefined : map.get(key);
    if (at === undefined) {
      // The kept version holds the uid, not a cluster's prefixed key: that one the index keeps itself.
      if (key !== '') map.set(key, this.slots, map === this.byUid && key === own);
      this.keep(this.slots, event, raw, rank);
      this.slots += 1;
      if (this.whole !== null) this.appeared(1);
      return;
    }
    const newer = this.kept.compare(event, at);
    if (newer < 0) return;
    // A tie: the writer that keeps more stays; between copies of one writer, the one that sorts
    // last by what it says, whichever came first (a store answers in no set order: keep.ts tie).
    const ranked = newer > 0 ? 1 : rank - this.ranks.get(at) || this.kept.tie(event, at);
    if (ranked > 0) this.keep(at, event, raw, rank);
  }

  private addWhole(event: Event, rank: number, raw: Json, cluster: EventCluster): void {
    if (this.whole === null) {
      this.whole = new LatestFold('all');
      this.slotsBefore = this.slots;
    }
    const before = this.whole.slots;
    this.whole.addEvent(event, rank, raw, cluster);
    if (this.whole.slots > before) this.appeared(0);
  }

  /** A new event in `whole` (0) or here (1), after the first cluster was named. */
  private appeared(side: 0 | 1): void {
    const last = this.runs.length - 1;
    if (last >= 0 && last % 2 === side) this.runs[last] = (this.runs[last] as number) + 1;
    else this.runs.push(1);
  }

  private keep(slot: number, event: Event, raw: Json, rank: number): void {
    this.kept.keep(slot, event);
    this.ranks.set(slot, rank);
    if (this.raws !== null) {
      this.raws[slot] = raw;
      this.contexts.set(slot, event.cluster?.context);
    }
  }

  /** the events kept, in the order each first appeared */
  events(): Event[] {
    const kept = this.kept.events();
    if (this.whole === null) return kept;
    const whole = this.whole.events();
    // -o stable's form is one event per line, not per slot: its lines are sorted and its span has no order.
    if (this.keepFor === 'stable') return kept.concat(whole);
    // In the order each first appeared, as one fold of them all would (sortTimeline's last tie-breaker).
    const all = new Array<Event>(kept.length + whole.length);
    let at = 0;
    const take = (from: Event[], start: number, n: number): void => {
      for (let i = start; i < start + n; i += 1) all[at++] = from[i] as Event;
    };
    take(kept, 0, this.slotsBefore);
    const next = [0, this.slotsBefore];
    this.runs.forEach((n, i) => {
      const side = i % 2;
      take(side === 0 ? whole : kept, next[side] as number, n);
      next[side] = (next[side] as number) + n;
    });
    return all;
  }

  /** the ranks of the writers whose versions were kept */
  keptRanks(): Set<number> {
    const ranks = this.whole?.keptRanks() ?? new Set<number>();
    for (let slot = 0; slot < this.ranks.length; slot += 1) ranks.add(this.ranks.get(slot));
    return ranks;
  }

  /** with `raw`: the kept versions' raw objects, in the same order */
  rawEvents(): Json[] {
    return this.raws ?? [];
  }

  /** with `raw`: the context of each raw object ('' where none was named) */
  rawContexts(): string[] {
    return (this.raws ?? []).map((_, slot) => this.contexts.get(slot) ?? '');
  }
}

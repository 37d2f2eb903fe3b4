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
  /** with `raw`: the context of each kept version, by slot, where one was named */
  private readonly contexts: (string | undefined)[] = [];

  constructor(keep: Keep, raw = false) {
    this.kept = keptVersions(keep);
    this.raws = raw ? [] : null;
  }

  /**
   * `rank`: how much the writer keeps. Two writers of one version tie (same count and time, one of
   * them without a resourceVersion: the k8s_events receiver); the copy with more fields then stays.
   * `cluster`: where the version came from (a collector's file of several contexts): a uid in two
   * clusters is two events.
   */
  add(raw: Json, rank = 0, cluster?: EventCluster): void {
    this.addEvent(normaliseEvent(raw), rank, raw, cluster);
  }

  /** `event` normalised already (a store's row read straight into one); `raw` kept only with `raw`. */
  addEvent(event: Event, rank = 0, raw: Json = {}, cluster?: EventCluster): void {
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
      return;
    }
    const newer = this.kept.compare(event, at);
    if (newer < 0) return;
    // A tie: the writer that keeps more stays; between copies of one writer, the one that sorts
    // last by what it says, whichever came first (a store answers in no set order: keep.ts tie).
    const ranked = newer > 0 ? 1 : rank - this.ranks.get(at) || this.kept.tie(event, at);
    if (ranked > 0) this.keep(at, event, raw, rank);
  }

  private keep(slot: number, event: Event, raw: Json, rank: number): void {
    this.kept.keep(slot, event);
    this.ranks.set(slot, rank);
    if (this.raws !== null) {
      this.raws[slot] = raw;
      this.contexts[slot] = event.cluster?.context;
    }
  }

  /** the events kept, in the order each first appeared */
  events(): Event[] {
    return this.kept.events();
  }

  /** the ranks of the writers whose versions were kept */
  keptRanks(): Set<number> {
    const ranks = new Set<number>();
    for (let slot = 0; slot < this.ranks.length; slot += 1) ranks.add(this.ranks.get(slot));
    return ranks;
  }

  /** with `raw`: the kept versions' raw objects, in the same order */
  rawEvents(): Json[] {
    return this.raws ?? [];
  }

  /** with `raw`: the context of each raw object ('' where none was named) */
  rawContexts(): string[] {
    return (this.raws ?? []).map((_, slot) => this.contexts[slot] ?? '');
  }
}

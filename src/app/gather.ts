// What the read verbs (timeline, incident, capture) show, gathered once: the events read through
// the EventSource port (--for resolved, the --tree built), what the live cluster says beside them
// (incarnations, and with --compare which events it still holds), and the moment ages count from.
// Verbs parse their options, call gather, and render the value it returns; a new source of facts
// joins here rather than in each verb.
import type { Deps } from '../deps.ts';
import type { Event } from '../core/event.ts';
import type { Keep } from '../core/keep.ts';
import { agesFrom } from '../core/ages.ts';
import type { AgesFrom } from '../core/ages.ts';
import { compareWithLive, standingsOf } from '../core/incarnation.ts';
import type { Comparison, EventStanding, LiveFacts } from '../core/incarnation.ts';
import type { Tree } from '../core/ownership.ts';
import type { Hidden } from '../core/filter.ts';
import type { RecorderNotes } from '../core/recorder-notes.ts';
import type { EventSource, Provenance, RawEvents, Unanswered } from '../core/source.ts';
import type { CommonOptions } from '../options/common.ts';
import { readEvents, readLiveFacts } from './read-events.ts';
import { readObjectFacts } from './object-facts.ts';
import type { FactSet } from '../core/facts.ts';

interface GatherRequest {
  common: CommonOptions;
  /** --compare: also read the live cluster's events and say which of the saved ones it no longer holds */
  compare: boolean;
  /** look up each event's object (which incarnation it is about); -o stable prints nothing that could change */
  lookups: boolean;
  /** what the output reads of each event (core/keep.ts); a big record keeps no more */
  keep?: Keep;
  /** the objects as read, both API views (capture's events.json) */
  raw?: boolean;
  /** false: the output tells no recorder notes, so none are worked out */
  notes?: boolean;
  /** what the objects' status and spec say (src/core/facts.ts): read live, or what a saved file holds */
  facts?: boolean;
}

interface Gathered {
  /** the one clock reading of the run */
  now: number;
  source: EventSource;
  provenance: Provenance;
  /** de-duplicated by uid, filtered and in timeline order */
  events: Event[];
  /** with `raw`: the objects as read; null for a source that holds none (a stable table) */
  raw?: RawEvents | null;
  /** with --for X --tree: the object's tree; `events` are then those of its members */
  tree?: Tree;
  /** what the live cluster said; undefined for a saved file without --compare */
  live?: LiveFacts;
  /** --compare: the saved events against the live ones */
  comparison: Comparison | null;
  /** where ages count from (core/ages.ts, the one rule) */
  ages: AgesFrom;
  /** which incarnation each event is about, where the live cluster was asked */
  standing?: (ev: Event) => EventStanding;
  /** how many events each selection criterion hid */
  hidden: Hidden[];
  /** where client-go's recorders may have dropped, merged or not yet sent what is shown */
  notes: RecorderNotes;
  /** several contexts read together: those that did not answer (said on stderr; the verb exits EXIT.partial) */
  unanswered: Unanswered[];
  /** --compare of a record of several contexts: those that did not answer the live read (said on stderr; EXIT.partial too) */
  uncompared: Unanswered[];
  /** with `facts`: the objects' facts; undefined when the source holds none */
  facts?: FactSet;
}

export async function gather(request: GatherRequest, deps: Deps): Promise<Gathered> {
  const now = deps.now();
  const { common, compare } = request;
  const read = await readEvents(common, deps, now, {
    ...(request.keep === undefined ? {} : { keep: request.keep }),
    ...(request.notes === false ? { notes: false } : {}),
    ...(request.raw ? { raw: true, eventsK8sIo: true } : {}),
    ...(request.facts ? { facts: true } : {}),
  });
  const { source, events } = read;
  const { provenance } = source;
  // The facts' lists and the lookups' are independent reads: side by side, the facts cost the account
  // what they add, not the lookups' time again (issue 22's bar: at most 20% more wall time).
  const reading = read.facts === undefined ? Promise.resolve(undefined) : readObjectFacts(read.facts, events, deps, now);
  reading.catch(() => {}); // awaited below; a lookup that throws first must not leave it unhandled
  const live = await readLiveFacts(read, common, deps, now, { compare, lookups: request.lookups });
  const facts = await reading;
  return {
    now,
    source,
    provenance,
    events,
    ...(request.raw ? { raw: read.raw ?? null } : {}),
    ...(read.tree === undefined ? {} : { tree: read.tree }),
    ...(live === undefined ? {} : { live, standing: standingsOf(live) }),
    comparison: live === undefined ? null : compareWithLive(events, live),
    ages: agesFrom(provenance, events, now),
    hidden: read.hidden,
    notes: read.notes,
    unanswered: read.unanswered,
    uncompared: live?.unanswered ?? [],
    ...(facts === undefined ? {} : { facts }),
  };
}

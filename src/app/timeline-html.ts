// -o html and capture's timeline.html: the page made from what a read verb has read.
import type { Event } from '../core/event.ts';
import { buildIncident } from '../core/incident.ts';
import { standingsOf } from '../core/incarnation.ts';
import type { LiveFacts } from '../core/incarnation.ts';
import { observedWindow } from '../core/source.ts';
import type { Provenance } from '../core/source.ts';
import type { Tree } from '../core/ownership.ts';
import { renderTimelinePage } from '../render/timeline-page.ts';
import type { FactSet } from '../core/facts.ts';

interface PageInput {
  provenance: Provenance;
  events: Event[];
  now: number;
  eventTTLms: number;
  live?: LiveFacts;
  /** --for X --tree: the headline tells the tree, lanes come owner first */
  tree?: Tree;
  /** the objects' status: the causes above the lanes */
  facts?: FactSet;
}

/** The page, with the incident account's headline; a saved file is shown as of when it was taken. */
export function timelineHtml(input: PageInput): string {
  const { provenance, events, now, eventTTLms, live, tree, facts } = input;
  const incident = buildIncident(events, { now, provenance, eventTTLms, ...(live === undefined ? {} : { live }), ...(tree === undefined ? {} : { tree }), ...(facts === undefined ? {} : { facts }) });
  const { first, last } = observedWindow(provenance);
  return renderTimelinePage(events, incident, {
    capturedAt: last ?? now,
    eventTTLms,
    ...(live === undefined ? {} : { standing: standingsOf(live) }),
    ...(tree === undefined ? {} : { tree }),
    // A record and a collector's file were observed over a while; a capture at one moment.
    ...((provenance.kind === 'record' || provenance.kind === 'otlp') && first !== null && last !== null ? { observed: [first, last] as [number, number] } : {}),
  });
}

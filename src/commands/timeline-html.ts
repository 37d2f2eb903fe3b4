// -o html and capture's timeline.html: the page made from what a read verb has read.
import type { Event } from '../core/event.ts';
import { buildIncident } from '../core/incident.ts';
import type { SavedFile } from '../core/incident.ts';
import { standingOf } from '../core/incarnation.ts';
import type { LiveFacts } from '../core/incarnation.ts';
import type { EventSource } from '../core/source.ts';
import { renderTimelinePage } from '../render/timeline-page.ts';
import { incidentSourceKind } from './source.ts';

export interface PageInput {
  source: EventSource;
  events: Event[];
  now: number;
  eventTTLms: number;
  saved?: SavedFile;
  live?: LiveFacts;
}

/** The page, with the incident account's headline; a saved file is shown as of when it was taken. */
export function timelinePage(input: PageInput): string {
  const { source, events, now, eventTTLms, saved, live } = input;
  const incident = buildIncident(events, {
    now,
    namespace: source.info.namespace,
    eventTTLms,
    source: incidentSourceKind(source),
    ...(live === undefined ? {} : { live }),
    ...(saved === undefined ? {} : { saved }),
  });
  const first = saved?.firstObserved ?? null;
  const last = saved?.lastObserved ?? null;
  return renderTimelinePage(events, incident, {
    capturedAt: last ?? now,
    eventTTLms,
    ...(live === undefined ? {} : { standing: (ev: Event) => standingOf(ev, live) }),
    ...(saved?.format === 'record' && first !== null && last !== null ? { observed: [first, last] as [number, number] } : {}),
  });
}

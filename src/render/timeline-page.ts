// The timeline page as a whole: the incident's headline above the lanes, the events below.

import type { Event } from '../core/event.ts';
import type { EventStanding } from '../core/incarnation.ts';
import type { Incident } from '../core/incident.ts';
import type { Tree } from '../core/ownership.ts';
import { plainPalette } from './color.ts';
import { buildPageData } from './html-data.ts';
import { renderTimelineHtml } from './html.ts';
import { renderIncidentHeadline } from './incident-text.ts';
import { causeLineWith, evidenceTextWith } from './causes-text.ts';

interface TimelinePageOptions {
  /** epoch ms the events were read at: now for a live read, the capture time of a saved file */
  capturedAt: number;
  eventTTLms: number;
  /** a record's first and last observation, epoch ms */
  observed?: [number, number];
  /** what the live cluster says about each event (absent: nothing was looked up) */
  standing?: (ev: Event) => EventStanding;
  /** --for X --tree: lanes owner first */
  tree?: Tree;
}

/** Expects the events each once, in timeline order, and the incident account made of them. */
export function renderTimelinePage(events: Event[], incident: Incident, opts: TimelinePageOptions): string {
  const headline = renderIncidentHeadline(incident, plainPalette).split('\n');
  const { namespace } = incident.provenance;
  const scope = namespace === null ? 'all namespaces' : `namespace ${namespace}`;
  const asIs = (text: string): string => text;
  // Every cause, as -o json carries them: the page shows text nodes only, so nothing is escaped here.
  const causes = (incident.why?.causes ?? []).map((c) => ({ line: causeLineWith(c, asIs), evidence: c.evidence.map((ev) => evidenceTextWith(ev, asIs)), events: c.events }));
  return renderTimelineHtml(buildPageData(events, { scope, headline, causes, ...opts }));
}

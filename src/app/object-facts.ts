// The object facts beside the events (src/core/facts.ts), as a verb asks them of its source: the
// live cluster reads them now; a record or capture hands back what it saved; other inputs hold none.
import type { Deps } from '../deps.ts';
import type { Event } from '../core/event.ts';
import type { FactSet } from '../core/facts.ts';
import type { FactsReading } from '../core/source.ts';
import { statusLine } from './status-line.ts';

/** Undefined when there are no events to tell facts of. */
export async function readObjectFacts(source: FactsReading, events: Event[], deps: Deps, now: number): Promise<FactSet | undefined> {
  if (events.length === 0) return undefined;
  const status = statusLine(deps);
  try {
    status.show('reading object status...');
    return await source.facts(events, now);
  } finally {
    status.clear();
  }
}

// Swimlanes: one lane per object an event is about, grouped by namespace, each lane split into tracks
// (one per reason and type) so that a repeated event's span never hides another event's mark.
// An object is its uid when the event names one: a Pipeline deleted and created again under the same
// name is another object, with a lane of its own. An event naming no uid joins the lane of the
// incarnation of its name the other events name (src/core/identity.ts).

import type { Event, ObjectRef } from './event.ts';
import { compareBytes } from './timeline.ts';
import { objectIdentities } from './identity.ts';

interface Track {
  reason: string;
  type: string;
  /** in timeline order */
  events: Event[];
}

interface Lane {
  object: ObjectRef;
  /**
   * The lane of the object that owns this one, as an index into the lanes of the same namespace
   * group; null when the owner is not known (always, until ownership is read with --tree).
   */
  owner: number | null;
  /** in order of each track's first event */
  tracks: Track[];
  /** number of events in the lane */
  size: number;
}

interface LaneGroup {
  namespace: string;
  /** in order of each lane's first event */
  lanes: Lane[];
}

/** Where an event's lane lives: the object's namespace, else the event's (cluster-scoped objects). */
function laneNamespace(ev: Event): string {
  return ev.object.namespace !== '' ? ev.object.namespace : ev.namespace;
}

function buildTracks(events: Event[]): Track[] {
  const tracks = new Map<string, Track>();
  for (const ev of events) {
    const key = `${ev.reason}\u0000${ev.type}`;
    const track = tracks.get(key);
    if (track === undefined) tracks.set(key, { reason: ev.reason, type: ev.type, events: [ev] });
    else track.events.push(ev);
  }
  return [...tracks.values()];
}

/**
 * Expects the events in timeline order (sortTimeline), each once. Groups come in byte order of
 * namespace; lanes and tracks in the order of their first event, so the object that went wrong
 * first is on top.
 */
export function buildLanes(events: Event[]): LaneGroup[] {
  const identityOf = objectIdentities(events);
  const byNamespace = new Map<string, Map<string, Event[]>>();
  for (const ev of events) {
    const namespace = laneNamespace(ev);
    let lanes = byNamespace.get(namespace);
    if (lanes === undefined) byNamespace.set(namespace, (lanes = new Map()));
    const id = identityOf(ev);
    const lane = lanes.get(id);
    if (lane === undefined) lanes.set(id, [ev]);
    else lane.push(ev);
  }
  return [...byNamespace.entries()]
    .sort(([a], [b]) => compareBytes(a, b))
    .map(([namespace, lanes]) => ({
      namespace,
      lanes: [...lanes.values()].map((laneEvents) => ({
        // The lane names its object by an event that carries the uid, when one does.
        object: (laneEvents.find((e) => e.object.uid !== '') ?? (laneEvents[0] as Event)).object,
        owner: null,
        tracks: buildTracks(laneEvents),
        size: laneEvents.length,
      })),
    }));
}

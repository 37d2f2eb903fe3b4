// Swimlanes: one lane per object an event is about, grouped by namespace, each lane split into tracks
// (one per reason and type) so that a repeated event's span never hides another event's mark.
// An object is its uid when the event names one: a Pipeline deleted and created again under the same
// name is another object, with a lane of its own. An event naming no uid joins the lane of the
// incarnation of its name the other events name (src/core/identity.ts).
// With a tree (--for X --tree), lanes come owner first: each member's lane right after its owner's,
// naming its owner's lane; an owner no event is about still gets a lane (with no tracks), so that
// what it owns hangs under it.

import type { Event, ObjectRef } from './event.ts';
import { compareBytes } from './timeline.ts';
import { objectIdentities } from './identity.ts';
import type { Tree, TreeNode } from './ownership.ts';
import { memberKey } from './tree-story.ts';

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
   * group; null when the owner is not known (without --tree, or outside the tree) or for the root.
   */
  owner: number | null;
  /** the tree marks the object gone (named by its owner's events, no longer there); false without a tree */
  gone: boolean;
  /** in order of each track's first event */
  tracks: Track[];
  /** number of events in the lane */
  size: number;
}

interface LaneGroup {
  /** several contexts read together: the context the group's objects are in */
  context?: string;
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
 * namespace (several contexts read together: of context, then namespace, a group per cluster and
 * namespace, an object's identity within its cluster); lanes and tracks in the order of their first
 * event, so the object that went wrong first is on top.
 */
export function buildLanes(events: Event[], tree?: Tree): LaneGroup[] {
  const identityOf = objectIdentities(events);
  const byNamespace = new Map<string, Map<string, Event[]>>();
  const groupOf = new Map<string, { context?: string; namespace: string }>();
  for (const ev of events) {
    const namespace = laneNamespace(ev);
    const context = ev.cluster?.context;
    const key = context === undefined ? namespace : `${context}\u0000${namespace}`;
    let lanes = byNamespace.get(key);
    if (lanes === undefined) {
      byNamespace.set(key, (lanes = new Map()));
      groupOf.set(key, context === undefined ? { namespace } : { context, namespace });
    }
    const id = identityOf(ev);
    const lane = lanes.get(id);
    if (lane === undefined) lanes.set(id, [ev]);
    else lane.push(ev);
  }
  return [...byNamespace.entries()]
    .sort(([a], [b]) => compareBytes(a, b))
    .map(([key, lanes]) => {
      const group = groupOf.get(key) as { context?: string; namespace: string };
      const built = [...lanes.values()].map((laneEvents) => ({
        // The lane names its object by an event that carries the uid, when one does.
        lane: { object: (laneEvents.find((e) => e.object.uid !== '') ?? (laneEvents[0] as Event)).object, owner: null, gone: false, tracks: buildTracks(laneEvents), size: laneEvents.length },
        chain: tree === undefined ? undefined : chainOfLane(tree, laneEvents),
      }));
      return { ...group, lanes: tree === undefined ? built.map((b) => b.lane) : ownerFirst(tree, built) };
    });
}

function chainOfLane(tree: Tree, events: Event[]): TreeNode[] | undefined {
  for (const ev of events) {
    const chain = tree.chainOf(ev);
    if (chain !== undefined && chain.length > 0) return chain;
  }
  return undefined;
}

/** An owner no event is about: a lane with no tracks, so that its members hang under it. */
function emptyLane(n: TreeNode): Lane {
  return { object: { apiVersion: n.apiVersion, kind: n.kind, name: n.name, namespace: n.namespace, uid: n.uid, fieldPath: '' }, owner: null, gone: n.gone, tracks: [], size: 0 };
}

interface Member {
  lane: Lane;
  node: TreeNode;
  /** member keys of what it owns, in the order met */
  owned: string[];
  /** order of the lane among the group's lanes (first event), for members the tree's own order does not place */
  met: number;
}

/**
 * The group's lanes depth first from the root: owned members in the tree's order (by creation, then
 * name), each after its owner; lanes outside the tree after them, in the order of their first event.
 */
function ownerFirst(tree: Tree, built: { lane: Lane; chain: TreeNode[] | undefined }[]): Lane[] {
  const position = new Map(tree.nodes.map((n, i) => [memberKey(n), i]));
  const members = new Map<string, Member>();
  const outside: Lane[] = [];
  const roots: string[] = [];
  built.forEach(({ lane, chain }, met) => {
    if (chain === undefined) {
      outside.push(lane);
      return;
    }
    let parent: string | null = null;
    for (const node of chain) {
      const key = memberKey(node);
      let m = members.get(key);
      if (m === undefined) {
        members.set(key, (m = { lane: emptyLane(node), node, owned: [], met: Infinity }));
        if (parent === null) roots.push(key);
        else members.get(parent)?.owned.push(key);
      }
      parent = key;
    }
    const own = members.get(parent as string) as Member;
    own.lane = { ...lane, gone: own.node.gone };
    own.met = met;
  });
  const ordered: Lane[] = [];
  const place = (key: string, owner: number | null): void => {
    const m = members.get(key) as Member;
    const index = ordered.push({ ...m.lane, owner }) - 1;
    const owned = [...m.owned].sort((a, b) => (position.get(a) ?? Infinity) - (position.get(b) ?? Infinity) || (members.get(a)?.met ?? 0) - (members.get(b)?.met ?? 0));
    for (const child of owned) place(child, index);
  };
  for (const root of roots) place(root, null);
  return [...ordered, ...outside];
}

// The tree of one object (`--for KIND/NAME --tree`): the object and everything it owns, transitively.
// Members are found as kubectl-tree finds them (ahmetb/kubectl-tree cmd/kubectl-tree/rendering.go):
// metadata.ownerReferences matched by uid, never by name (a name is reused, a uid never). Children
// that no longer exist are still members when the story names them: an owner's event naming a child
// (core/tree-owner-messages.ts: "Created pod: X", "Scaled up replica set X ...") or a saved file that saw
// the object owned by a member. A member's own events then name its children in turn (a gone
// ReplicaSet's "Created pod: X"). Pure: the objects and events are handed in.

import type { Event } from './event.ts';
import { isSelected } from './filter.ts';
import type { ObjectSelector } from './filter.ts';
import { objectUids } from './identity.ts';
import { childNamedBy } from './tree-owner-messages.ts';
import type { NamedChild } from './tree-owner-messages.ts';
import type { ObjectMeta, Tree, TreeNode } from './ownership.ts';
import { groupOf } from './resources.ts';

/** The object of `--for`, in the namespace it lives in. */
export interface TreeRoot extends ObjectSelector {
  namespace: string;
}

interface Member {
  node: TreeNode;
  parent: Member | null;
  /** 0 for the root */
  depth: number;
  /** creation time (epoch ms), else when the events first tell of it; null: unknown */
  created: number | null;
  children: Member[];
}

/** What else tells who exists, beyond the objects. */
interface TreeEvidence {
  /** objects a saved file saw (capture, record) that are absent from the objects: members when a member owned them */
  seen?: readonly ObjectMeta[];
  /** Kinds the objects leave out (the reader may not list them): a child of one, absent, is not known to be gone */
  untold?: readonly { group: string; kind: string }[];
}

/** A known object: live now, or seen in a saved file and absent now. */
interface Known {
  meta: ObjectMeta;
  gone: boolean;
}

/** One object by name whatever its uid; NUL cannot appear in a Kubernetes name. */
function nameKey(o: { apiVersion: string; kind: string; name: string }): string {
  return [groupOf(o.apiVersion), o.kind, o.name].join('\u0000');
}

/**
 * How deep the tree goes. Real ownership is a few levels (Pod < ReplicaSet < Deployment < an operator's
 * resource or two); a chain far longer is a hostile cluster or file, and every output carries the whole
 * chain (the table's OBJECT cell, json's `tree`, the incident's indentation): members below this are
 * left out, counted, and said so, rather than writing megabytes of chain per row.
 */
export const MAX_TREE_DEPTH = 64;

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

const timeOf = (ev: Event): number | null => ev.firstSeen ?? ev.lastSeen;

function earliest(events: readonly Event[]): number | null {
  let at: number | null = null;
  for (const ev of events) {
    const t = timeOf(ev);
    if (t !== null && (at === null || t < at)) at = t;
  }
  return at;
}

function byCreation(a: Member, b: Member): number {
  const ta = a.created ?? Infinity;
  const tb = b.created ?? Infinity;
  if (ta !== tb) return ta < tb ? -1 : 1;
  if (a.node.kind !== b.node.kind) return a.node.kind < b.node.kind ? -1 : 1;
  return a.node.name < b.node.name ? -1 : a.node.name > b.node.name ? 1 : 0;
}

/**
 * Builds the tree of `root`.
 * - `objects`: the namespace's objects now (a live metadata-only list, or what a saved file holds);
 *   null when the input cannot tell who owns what: the tree is then only what owners' events name, and
 *   nothing is marked gone (absence from nothing proves nothing).
 * - `events`: every event of the namespace (not only the root's: its children's events name theirs).
 * - `evidence.seen`: objects a saved file saw (capture, record) that are absent from `objects`: members
 *   when a member owned them, marked gone; `evidence.untold`: Kinds `objects` cannot speak for.
 * An event belongs to a member by uid when both have one (the incarnation: core/identity.ts settles
 * the uid of an event that names none), else by group, Kind and name.
 */
export function buildTree(root: TreeRoot, objects: readonly ObjectMeta[] | null, events: readonly Event[], evidence: TreeEvidence = {}): Tree {
  const ns = root.namespace;
  const seen = evidence.seen ?? [];
  const untold = new Set((evidence.untold ?? []).map((u) => `${u.group}\u0000${u.kind}`));
  /** absent from the objects, and the objects would hold it: gone */
  const absentIsGone = (o: { apiVersion: string; kind: string }) => objects !== null && !untold.has(`${groupOf(o.apiVersion)}\u0000${o.kind}`);
  const inNs = (o: { namespace: string }) => o.namespace === ns;
  const live = (objects ?? []).filter(inNs);
  const liveUids = new Set(live.map((o) => o.uid));
  const known: Known[] = [...live.map((meta) => ({ meta, gone: false })), ...seen.filter((o) => inNs(o) && !liveUids.has(o.uid)).map((meta) => ({ meta, gone: absentIsGone(meta) }))];
  const knownByUid = new Map(known.map((k) => [k.meta.uid, k]));
  const byOwnerUid = new Map<string, Known[]>();
  const byOwnerName = new Map<string, Known[]>();
  for (const k of known) {
    for (const o of k.meta.owners) {
      push(byOwnerUid, o.uid, k);
      push(byOwnerName, nameKey(o), k);
    }
  }
  const liveByName = new Map<string, ObjectMeta[]>();
  for (const o of live) push(liveByName, nameKey(o), o);

  const nsEvents = events.filter((ev) => (ev.object.namespace || ev.namespace) === ns);
  const uidOf = objectUids(nsEvents);
  const eventsByName = new Map<string, Event[]>();
  for (const ev of nsEvents) push(eventsByName, nameKey(ev.object), ev);

  const members: Member[] = [];
  const memberByUid = new Map<string, Member>();
  const membersByName = new Map<string, Member[]>();

  function add(node: TreeNode, parent: Member | null, created: number | null): Member {
    const m: Member = { node, parent, depth: parent === null ? 0 : parent.depth + 1, created, children: [] };
    members.push(m);
    parent?.children.push(m);
    if (node.uid !== '') memberByUid.set(node.uid, m);
    push(membersByName, nameKey(node), m);
    return m;
  }

  function fromMeta(k: Known): TreeNode {
    const { apiVersion, kind, name, namespace, uid } = k.meta;
    return { apiVersion, kind, name, namespace, uid, gone: k.gone };
  }

  /** The member an event is about, among the members so far. */
  function memberOf(ev: Event): Member | undefined {
    if ((ev.object.namespace || ev.namespace) !== ns) return undefined;
    const uid = uidOf(ev);
    if (uid !== '') {
      const m = memberByUid.get(uid);
      if (m !== undefined) return m;
    }
    const named = membersByName.get(nameKey(ev.object)) ?? [];
    // An event of a known incarnation only joins a member known by name alone; one naming no uid joins any.
    return uid !== '' ? named.find((m) => m.node.uid === '') : named[0];
  }

  const eventsOf = (m: Member): Event[] => (eventsByName.get(nameKey(m.node)) ?? []).filter((ev) => memberOf(ev) === m);

  /** Known objects owned by `m`: by uid, or by Kind and name when `m` is known by name alone. */
  function ownedBy(m: Member): Known[] {
    if (m.node.uid !== '') return byOwnerUid.get(m.node.uid) ?? [];
    return byOwnerName.get(nameKey(m.node)) ?? [];
  }

  /** A child `m`'s event names: each incarnation the events know of that is no live object's, else the name alone. */
  function addNamed(m: Member, child: NamedChild, naming: Event): void {
    const key = nameKey(child);
    const childEvents = eventsByName.get(key) ?? [];
    const uids = new Set(childEvents.map(uidOf).filter((u) => u !== ''));
    for (const uid of uids) {
      if (memberByUid.has(uid)) continue;
      const k = knownByUid.get(uid);
      // A known object is this member's only when its owners say so (then it is already in by uid).
      if (k !== undefined) continue;
      const own = childEvents.filter((ev) => uidOf(ev) === uid);
      add({ ...child, namespace: ns, uid, gone: absentIsGone(child) }, m, earliest(own) ?? timeOf(naming));
    }
    if ((membersByName.get(key) ?? []).length > 0) return;
    // A live object of that name that is not a member is another owner's (or nobody's): not ours.
    if ((liveByName.get(key) ?? []).length > 0) return;
    add({ ...child, namespace: ns, uid: '', gone: absentIsGone(child) }, m, earliest(childEvents) ?? timeOf(naming));
  }

  // The root: the live object, else the one a saved file saw, else what its events tell.
  const rootKnown = known.find((k) => isSelected(root, k.meta));
  if (rootKnown !== undefined) add(fromMeta(rootKnown), null, rootKnown.meta.created);
  else {
    const told = nsEvents.filter((ev) => isSelected(root, ev.object));
    const newest = told.reduce<Event | undefined>((a, ev) => (a === undefined || (timeOf(ev) ?? -Infinity) >= (timeOf(a) ?? -Infinity) ? ev : a), undefined);
    const node: TreeNode =
      newest === undefined
        ? { apiVersion: '', kind: root.kind, name: root.name, namespace: ns, uid: '', gone: objects !== null && !untold.has(`${root.group ?? ''}\u0000${root.kind}`) }
        : { apiVersion: newest.object.apiVersion, kind: newest.object.kind, name: root.name, namespace: ns, uid: uidOf(newest), gone: absentIsGone(newest.object) };
    add(node, null, earliest(told));
  }

  let tooDeep = false;
  for (let i = 0; i < members.length; i += 1) {
    const m = members[i] as Member;
    if (m.depth >= MAX_TREE_DEPTH) {
      // Owned objects, or children its events name (a chain of "Created pod: X" events is as long as its writer wants).
      tooDeep ||= ownedBy(m).some((k) => !memberByUid.has(k.meta.uid)) || eventsOf(m).some((ev) => childNamedBy(ev.reason, ev.message, m.node) !== null);
      continue;
    }
    for (const k of ownedBy(m)) if (!memberByUid.has(k.meta.uid)) add(fromMeta(k), m, k.meta.created);
    for (const ev of eventsOf(m)) {
      const child = childNamedBy(ev.reason, ev.message, m.node);
      if (child !== null) addNamed(m, child, ev);
    }
  }

  const top = members[0] as Member;
  const nodes: TreeNode[] = [];
  // Depth first without recursion (the depth is bounded, but a stack of frames is not needed for it).
  const stack: Member[] = [top];
  for (let m = stack.pop(); m !== undefined; m = stack.pop()) {
    nodes.push(m.node);
    const children = [...m.children].sort(byCreation);
    // One by one: a spread of 200,000 siblings would pass the engine's argument limit.
    for (let i = children.length - 1; i >= 0; i -= 1) stack.push(children[i] as Member);
  }

  const chains = new Map<Member, TreeNode[]>();
  const chainOfMember = (m: Member): TreeNode[] => {
    let chain = chains.get(m);
    if (chain === undefined) {
      chain = m.parent === null ? [m.node] : [...chainOfMember(m.parent), m.node];
      chains.set(m, chain);
    }
    return chain;
  };
  return {
    root: top.node,
    nodes,
    tooDeep,
    chainOf(ev) {
      const m = memberOf(ev);
      return m === undefined ? undefined : chainOfMember(m);
    },
  };
}

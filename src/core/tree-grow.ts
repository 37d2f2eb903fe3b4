// The tree's second step (src/core/tree.ts): from the root, members added level by level: the
// objects a member owns (by uid, or by name when the member is known by name alone) and the
// children its events name (core/tree-owner-messages.ts), to MAX_TREE_DEPTH.
import type { Event } from './event.ts';
import { isSelected } from './filter.ts';
import { childNamedBy } from './tree-owner-messages.ts';
import type { NamedChild } from './tree-owner-messages.ts';
import type { TreeNode } from './ownership.ts';
import { push } from './tree-index.ts';
import { nameKeyInNamespace } from './identity.ts';
import type { Known, TreeIndex, TreeRoot } from './tree-index.ts';

export interface Member {
  node: TreeNode;
  parent: Member | null;
  /** 0 for the root */
  depth: number;
  /** creation time (epoch ms), else when the events first tell of it; null: unknown */
  created: number | null;
  children: Member[];
}

/**
 * How deep the tree goes. Real ownership is a few levels (Pod < ReplicaSet < Deployment < an operator's
 * resource or two); a chain far longer is a hostile cluster or file, and every output carries the whole
 * chain (the table's OBJECT cell, json's `tree`, the incident's indentation): members below this are
 * left out, counted, and said so, rather than writing megabytes of chain per row.
 */
export const MAX_TREE_DEPTH = 64;

const timeOf = (ev: Event): number | null => ev.firstSeen ?? ev.lastSeen;

function earliest(events: readonly Event[]): number | null {
  let at: number | null = null;
  for (const ev of events) {
    const t = timeOf(ev);
    if (t !== null && (at === null || t < at)) at = t;
  }
  return at;
}

/** The members, the root first, and whether some were left out below MAX_TREE_DEPTH. */
export interface Grown {
  members: Member[];
  tooDeep: boolean;
  /** The member an event is about. */
  memberOf(ev: Event): Member | undefined;
}

export function growTree(root: TreeRoot, index: TreeIndex): Grown {
  const { ns, objects, untold, absentIsGone, known, knownByUid, byOwnerUid, byOwnerName, liveByName, nsEvents, uidOf, eventsByName } = index;
  const members: Member[] = [];
  const memberByUid = new Map<string, Member>();
  const membersByName = new Map<string, Member[]>();

  function add(node: TreeNode, parent: Member | null, created: number | null): Member {
    const m: Member = { node, parent, depth: parent === null ? 0 : parent.depth + 1, created, children: [] };
    members.push(m);
    parent?.children.push(m);
    if (node.uid !== '') memberByUid.set(node.uid, m);
    push(membersByName, nameKeyInNamespace(node), m);
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
    const named = membersByName.get(nameKeyInNamespace(ev.object)) ?? [];
    // An event of a known incarnation only joins a member known by name alone; one naming no uid joins any.
    return uid !== '' ? named.find((m) => m.node.uid === '') : named[0];
  }

  const eventsOf = (m: Member): Event[] => (eventsByName.get(nameKeyInNamespace(m.node)) ?? []).filter((ev) => memberOf(ev) === m);

  /** Known objects owned by `m`: by uid, or by Kind and name when `m` is known by name alone. */
  function ownedBy(m: Member): Known[] {
    if (m.node.uid !== '') return byOwnerUid.get(m.node.uid) ?? [];
    return byOwnerName.get(nameKeyInNamespace(m.node)) ?? [];
  }

  /** A child `m`'s event names: each incarnation the events know of that is no live object's, else the name alone. */
  function addNamed(m: Member, child: NamedChild, naming: Event): void {
    const key = nameKeyInNamespace(child);
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

  return { members, tooDeep, memberOf };
}

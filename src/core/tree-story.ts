// The incident told owner first (`incident --for X --tree`): the object stories placed in the tree
// of the object asked for, each under its owner. Built from the chains the Tree gives each event
// (src/core/ownership.ts), so a member is in the story when events are about it or about something
// it owns; members no event reaches are counted, not told. Pure data; no English.

import type { Event } from './event.ts';
import { groupOf } from './identity.ts';
import type { ObjectStory } from './story.ts';
import type { Tree, TreeNode } from './ownership.ts';
import { groupStories } from './families.ts';
import type { ObjectFamily } from './families.ts';

/** The API group of an apiVersion: versions of one group are one object. */
/** One member of a tree: its uid, else (a child known only by its owner's message) group/Kind/namespace/name. */
export function memberKey(n: TreeNode): string {
  return n.uid !== '' ? `uid:${n.uid}` : `name:${[groupOf(n.apiVersion), n.kind, n.namespace, n.name].join('\u0000')}`;
}

/** `ReplicaSet/web-5d4`: how an owner is named in a group's key and in words. */
export function ownerLabel(n: TreeNode): string {
  return `${n.kind}/${n.name}`;
}

/** The owner of the object an event is about: the one before it in its chain; null for the root or outside the tree. */
export function ownerInTree(tree: Tree): (ev: Event) => string | null {
  return (ev) => {
    const chain = tree.chainOf(ev);
    const owner = chain === undefined || chain.length < 2 ? undefined : chain[chain.length - 2];
    return owner === undefined ? null : ownerLabel(owner);
  };
}

/** What a member owns that the story tells: a member with owned members of its own, or siblings with the same story told once. */
type StoryChild = { kind: 'branch'; branch: StoryBranch } | { kind: 'family'; family: ObjectFamily; members: TreeNode[] };

export interface StoryBranch {
  member: TreeNode;
  /** 0 for the root */
  depth: number;
  /** the stories about the member itself, in time order (more than one when the events name several of its incarnations) */
  stories: ObjectStory[];
  /** in the tree's order (children by creation, then name); members that own nothing told are folded into families */
  children: StoryChild[];
}

export interface IncidentTree {
  root: StoryBranch;
  /** every member of the tree, the root included, with or without events */
  members: number;
  /** members that no longer exist */
  gone: number;
  /** members by kind, the root left out, in order of first member */
  owned: { kind: string; members: number; gone: number }[];
  /** stories about objects outside the tree, in time order */
  outside: ObjectStory[];
}

interface Building {
  member: TreeNode;
  stories: ObjectStory[];
  children: Map<string, Building>;
}

/** Each story's chain (root first, the object last), as the incident found it; undefined: outside the tree. */
type ChainOfStory = (story: ObjectStory) => TreeNode[] | undefined;

export function buildStoryTree(tree: Tree, stories: ObjectStory[], chainOfStory: ChainOfStory): IncidentTree {
  const position = new Map(tree.nodes.map((n, i) => [memberKey(n), i]));
  const root: Building = { member: tree.root, stories: [], children: new Map() };
  const outside: ObjectStory[] = [];
  for (const story of stories) {
    const chain = chainOfStory(story);
    if (chain === undefined || chain.length === 0) {
      outside.push(story);
      continue;
    }
    let at = root;
    // The chain starts at the root; every member after it hangs under the one before.
    for (const member of chain.slice(1)) {
      const key = memberKey(member);
      let next = at.children.get(key);
      if (next === undefined) at.children.set(key, (next = { member, stories: [], children: new Map() }));
      at = next;
    }
    at.stories.push(story);
  }
  const gone = tree.nodes.filter((n) => n.gone).length;
  return { root: toBranch(root, 0, position), members: tree.nodes.length, gone, owned: ownedKinds(tree), outside };
}

/** Time of a member's first report, for members the tree's own order does not place. */
function firstReport(b: Building): number {
  let first = Infinity;
  for (const s of b.stories) for (const r of s.reports) if (r.firstSeen !== null && r.firstSeen < first) first = r.firstSeen;
  return first;
}

function toBranch(b: Building, depth: number, position: ReadonlyMap<string, number>): StoryBranch {
  const first = new Map([...b.children.values()].map((c) => [c, firstReport(c)]));
  const at = (c: Building): number => position.get(memberKey(c.member)) ?? Infinity;
  // By the tree's order; members it does not place (never, from src/core/tree.ts) by their first report.
  const ordered = [...b.children.values()].sort((x, y) => at(x) - at(y) || (first.get(x) as number) - (first.get(y) as number));
  // Members that own nothing told are the many (the Pods of a ReplicaSet): siblings with the same
  // story are told once, at the place of the first of them. Owners are told each on their own.
  const leaves = ordered.filter((c) => c.children.size === 0);
  const memberOf = new Map<ObjectStory, TreeNode>(leaves.flatMap((c) => c.stories.map((s) => [s, c.member] as const)));
  const families = groupStories(leaves.flatMap((c) => c.stories));
  const familyOf = new Map<ObjectStory, ObjectFamily>();
  for (const f of families) for (const s of f.members) familyOf.set(s, f);
  const children: StoryChild[] = [];
  const told = new Set<ObjectFamily>();
  for (const c of ordered) {
    if (c.children.size > 0) {
      children.push({ kind: 'branch', branch: toBranch(c, depth + 1, position) });
      continue;
    }
    for (const s of c.stories) {
      const family = familyOf.get(s) as ObjectFamily;
      if (told.has(family)) continue;
      told.add(family);
      children.push({ kind: 'family', family, members: [...new Set(family.members.map((m) => memberOf.get(m) as TreeNode))] });
    }
  }
  return { member: b.member, depth, stories: b.stories, children };
}

function ownedKinds(tree: Tree): IncidentTree['owned'] {
  const byKind = new Map<string, { kind: string; members: number; gone: number }>();
  for (const n of tree.nodes.slice(1)) {
    const entry = byKind.get(n.kind) ?? { kind: n.kind, members: 0, gone: 0 };
    entry.members += 1;
    if (n.gone) entry.gone += 1;
    byKind.set(n.kind, entry);
  }
  return [...byKind.values()];
}

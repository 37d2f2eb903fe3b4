// The tree of one object (`--for KIND/NAME --tree`): the object and everything it owns, transitively.
// Members are found as kubectl-tree finds them (ahmetb/kubectl-tree cmd/kubectl-tree/rendering.go):
// metadata.ownerReferences matched by uid, never by name (a name is reused, a uid never). Children
// that no longer exist are still members when the story names them: an owner's event naming a child
// (core/tree-owner-messages.ts: "Created pod: X", "Scaled up replica set X ...") or a saved file that saw
// the object owned by a member. A member's own events then name its children in turn (a gone
// ReplicaSet's "Created pod: X"). Pure: the objects and events are handed in.
//
// Built in three steps, as kubectl-tree builds its tree (relationship.go): index what is known
// (core/tree-index.ts), grow the members from the root (core/tree-grow.ts), flatten them into the
// nodes and chains the outputs read (core/tree-flatten.ts).

import type { Event } from './event.ts';
import type { ObjectMeta, Tree } from './ownership.ts';
import { indexTree } from './tree-index.ts';
import type { TreeEvidence, TreeRoot } from './tree-index.ts';
import { growTree } from './tree-grow.ts';
import { flattenTree } from './tree-flatten.ts';

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
  return flattenTree(growTree(root, indexTree(root, objects, events, evidence)));
}

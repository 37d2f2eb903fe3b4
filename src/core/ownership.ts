// Who owns what: the metadata of objects and their ownerReferences, as metadata-only lists of the
// live cluster, a capture's objects.json or a record's object lines tell it. The shared shape for
// `--tree` (src/core/tree.ts builds the tree from it), the incident's owner-first story and the
// HTML view's lane order. Pure data; epoch ms.

import type { Event } from './event.ts';

/** One metadata.ownerReferences entry. Matching is by uid (kubectl-tree, the garbage collector). */
export interface OwnerRef {
  /** `apps/v1`, `v1` */
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  /** the managing controller (at most one per object) */
  controller: boolean;
}

/** An object's identity and owners. */
export interface ObjectMeta {
  /** `apps/v1`, `v1`, `ev.labhub.io/v1` */
  apiVersion: string;
  kind: string;
  /** '' for a cluster-scoped object */
  namespace: string;
  name: string;
  uid: string;
  owners: OwnerRef[];
  /** epoch ms of metadata.creationTimestamp; null when not known */
  created: number | null;
  /** epoch ms of metadata.deletionTimestamp (being deleted); null when not set or not known */
  deleting: number | null;
  /** metadata.labels, when it has any (-l); absent: none, or a file saved before labels were kept */
  labels?: Record<string, string>;
}

/** Where an object sits in a tree: its ancestors from the root down, itself last. */
export interface TreeNode {
  apiVersion: string;
  kind: string;
  name: string;
  namespace: string;
  /** '' when only a name is known (a child named by its owner's message) */
  uid: string;
  /** no longer exists: named by an owner's event or seen owned in a saved file, absent from the objects now */
  gone: boolean;
}

/**
 * The tree of one object (`--for KIND/NAME --tree`), built by src/core/tree.ts from the objects, their
 * owners and the owners' events. Verbs and renderers ask it where an event sits.
 */
export interface Tree {
  root: TreeNode;
  /** every member, the root first, then depth first (children by creation, then name) */
  nodes: TreeNode[];
  /** true: a member at core/tree.ts MAX_TREE_DEPTH owns or names objects, left out (a hostile chain) */
  tooDeep?: boolean;
  /** the chain of the object an event is about, root first and the object itself last; undefined: not in the tree */
  chainOf(ev: Event): TreeNode[] | undefined;
}

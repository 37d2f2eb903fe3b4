// `-l SELECTOR --tree` (without --for): the trees of every object whose labels match, each built as
// `--for` builds one (core/tree.ts), and told as one forest. Labels are copied down an ownership chain
// (a Deployment's pod template labels are its ReplicaSets' and Pods' too), so a matching object that is
// a member of another match's tree is not a tree of its own: its events are told once, in the tree
// of the topmost match.
import type { Event } from './event.ts';
import { groupOf } from './identity.ts';
import type { ObjectMeta, Tree, TreeNode } from './ownership.ts';
import { matchesLabels } from './selectors.ts';
import type { LabelRequirement } from './selectors.ts';
import type { TreeRoot } from './tree-index.ts';

/** The namespaced objects of `namespace` whose labels match, as tree roots (one per object). */
export function labelledRoots(objects: readonly ObjectMeta[], labels: readonly LabelRequirement[], namespace: string): TreeRoot[] {
  const roots: TreeRoot[] = [];
  const seen = new Set<string>();
  for (const o of objects) {
    if (o.namespace !== namespace || o.labels === undefined || !matchesLabels(labels, o.labels)) continue;
    const root = { kind: o.kind, name: o.name, group: groupOf(o.apiVersion), namespace };
    const key = `${root.group}\u0000${root.kind}\u0000${root.name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    roots.push(root);
  }
  return roots;
}

const nodeKey = (n: TreeNode): string => (n.uid !== '' ? n.uid : [groupOf(n.apiVersion), n.kind, n.namespace, n.name].join('\u0000'));

/**
 * One Tree of several: the trees whose root is no member of another tree, in the order given; each
 * event's chain is the one of the tree holding its object. Null when there is no tree.
 */
export function plantForest(trees: readonly Tree[]): Tree | null {
  // Largest first: a tree holding another's root holds its whole subtree, so it is at least as large
  // (and of a hostile file's two objects owning each other, one stays).
  const bySize = [...trees].sort((a, b) => b.nodes.length - a.nodes.length);
  const held = new Set<string>();
  const keep = new Set<Tree>();
  for (const t of bySize) {
    if (held.has(nodeKey(t.root))) continue;
    keep.add(t);
    for (const n of t.nodes) held.add(nodeKey(n));
  }
  const kept = trees.filter((t) => keep.has(t));
  const [first] = kept;
  if (first === undefined) return null;
  return {
    root: first.root,
    nodes: kept.flatMap((t) => t.nodes),
    tooDeep: kept.some((t) => t.tooDeep === true),
    chainOf(ev: Event) {
      for (const t of kept) {
        const chain = t.chainOf(ev);
        if (chain !== undefined) return chain;
      }
      return undefined;
    },
  };
}

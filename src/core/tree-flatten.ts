// The tree's last step (src/core/tree.ts): the members depth first, siblings by creation, and
// each event's chain from the root to its member.
import type { Tree, TreeNode } from './ownership.ts';
import type { Grown, Member } from './tree-grow.ts';

function byCreation(a: Member, b: Member): number {
  const ta = a.created ?? Infinity;
  const tb = b.created ?? Infinity;
  if (ta !== tb) return ta < tb ? -1 : 1;
  if (a.node.kind !== b.node.kind) return a.node.kind < b.node.kind ? -1 : 1;
  return a.node.name < b.node.name ? -1 : a.node.name > b.node.name ? 1 : 0;
}

export function flattenTree({ members, tooDeep, memberOf }: Grown): Tree {
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

// `-w --tree`: the tree grows while following. An event about an object the tree does not hold yet
// (the new ReplicaSet of a rollout, its new Pods) has its object looked up, metadata only, and its
// owners upward (core/object-meta.ts findOwners, one lookup per level) until an owner is a member or
// the chain ends: the object joins when an owner is a member. An owner's message naming a child
// ("Created pod: X") has the child looked up too, so a child made a moment ago is not taken for gone.
// Each object is asked once: a stranger's events cost one lookup, not one per event.
import type { Deps } from '../deps.ts';
import type { Event, ObjectRef } from '../core/event.ts';
import type { ObjectSelector } from '../core/filter.ts';
import { objectKey } from '../core/identity.ts';
import { findOwners } from '../core/object-meta.ts';
import { childNamedBy } from '../core/tree-owner-messages.ts';
import type { ObjectMeta, Tree, TreeNode } from '../core/ownership.ts';
import type { EventSource } from '../core/source.ts';
import { buildTree } from '../core/tree.ts';
import type { TreeRoot } from '../core/tree-index.ts';
import { renderTooDeepNotice } from '../render/tree.ts';
import { readTreeInputs } from './tree.ts';

export interface FollowedTree {
  /** the (re)list: every event listed; the first one reads the ownership */
  listed(events: readonly Event[]): Promise<void>;
  /** an event that arrived: the tree grown to hold it when its object belongs; its chain, or undefined */
  place(ev: Event): Promise<readonly TreeNode[] | undefined>;
  chainOf(ev: Event): readonly TreeNode[] | undefined;
}

export function followTree(source: EventSource, object: ObjectSelector, deps: Pick<Deps, 'stderr'>): FollowedTree {
  let root: TreeRoot | undefined;
  /** null: the source cannot tell ownership (then nothing is looked up either) */
  let objects: Map<string, ObjectMeta> | null = null;
  let untold: { group: string; kind: string }[] = [];
  // Each event's latest version by uid (a relist hands them all back); one naming no uid is kept as is.
  const events = new Map<string, Event>();
  let serial = 0;
  const keep = (ev: Event) => events.set(ev.uid === '' ? `\u0000${(serial += 1)}` : ev.uid, ev);
  const asked = new Set<string>();
  let tree: Tree | undefined;

  let saidTooDeep = false;
  const rebuild = () => {
    if (root !== undefined) tree = buildTree(root, objects === null ? null : [...objects.values()], [...events.values()], { untold });
    // Said once, when the tree first reaches the limit (it is rebuilt as it grows).
    if (tree?.tooDeep === true && !saidTooDeep) {
      saidTooDeep = true;
      deps.stderr.write(renderTooDeepNotice());
    }
  };
  const members = () => new Set((tree?.nodes ?? []).flatMap((n) => (n.uid === '' ? [] : [n.uid])));

  /** Looks up the objects not asked yet, and their owners upward; true when anything new was learnt. */
  async function learn(refs: ObjectRef[]): Promise<boolean> {
    const lookUp = source.objects?.lookUp.bind(source.objects);
    if (lookUp === undefined || objects === null) return false;
    const fresh = refs.filter((ref) => !asked.has(objectKey(ref)));
    if (fresh.length === 0) return false;
    for (const ref of fresh) asked.add(objectKey(ref));
    const answers = await lookUp(fresh);
    const found = [...answers.values()].flatMap((a) => (a.state === 'exists' && a.meta !== undefined ? [a.meta] : []));
    const known = objects;
    const inTree = members();
    const { owners } = await findOwners(found, lookUp, (uid) => inTree.has(uid) || known.has(uid));
    let learnt = false;
    for (const meta of [...found, ...owners]) {
      if (known.has(meta.uid)) continue;
      known.set(meta.uid, meta);
      learnt = true;
    }
    return learnt;
  }

  const refOf = (ev: Event, child: { apiVersion: string; kind: string; name: string }): ObjectRef => ({
    ...child,
    namespace: ev.object.namespace || ev.namespace,
    uid: '',
    fieldPath: '',
  });

  return {
    async listed(list) {
      for (const ev of list) keep(ev);
      if (root === undefined) {
        const inputs = await readTreeInputs(source, object, list, deps);
        root = inputs.root;
        untold = inputs.untold;
        objects = inputs.objects === null ? null : new Map(inputs.objects.map((o) => [o.uid, o]));
      }
      rebuild();
    },
    async place(ev) {
      keep(ev);
      const chain = tree?.chainOf(ev);
      const owner = chain?.at(-1);
      const child = owner === undefined ? null : childNamedBy(ev.reason, ev.message, owner);
      // A member taken for gone may have been made since (`-w --for pod/x --tree` before x exists): asked once.
      const refs = [...(chain === undefined || owner?.gone === true ? [ev.object] : []), ...(child === null ? [] : [refOf(ev, child)])];
      // A member's event naming no child changes no member; a stranger already asked about stays one.
      if (chain !== undefined && refs.length === 0) return chain;
      const learnt = await learn(refs.filter((r) => r.name !== '' && r.kind !== ''));
      if (!learnt && child === null) return chain;
      rebuild();
      return tree?.chainOf(ev);
    },
    chainOf: (ev) => tree?.chainOf(ev),
  };
}

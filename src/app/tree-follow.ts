// `-w --tree`: the tree grows while following. An event about an object the tree does not hold yet
// (the new ReplicaSet of a rollout, its new Pods) has its object looked up, metadata only, and its
// owners upward (core/object-meta.ts findOwners, one lookup per level) until an owner is a member or
// the chain ends: the object joins when an owner is a member. An owner's message naming a child
// ("Created pod: X") has the child looked up too, so a child made a moment ago is not taken for gone.
// Each object is asked once: a stranger's events cost one lookup, not one per event.
import type { Deps } from '../deps.ts';
import type { Event, ObjectRef } from '../core/event.ts';
import type { ObjectSelector } from '../core/filter.ts';
import { groupOf, nameKeyInNamespace as nameKey, objectKey } from '../core/identity.ts';
import { findOwners } from '../core/object-meta.ts';
import { childNamedBy } from '../core/tree-owner-messages.ts';
import type { ObjectMeta, Tree, TreeNode } from '../core/ownership.ts';
import type { EventSource } from '../core/source.ts';
import { buildTree } from '../core/tree.ts';
import { MAX_TREE_DEPTH } from '../core/tree-grow.ts';
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
  /** what was asked, by objectKey: settled once its batch has been answered and its members joined */
  const asked = new Map<string, Promise<void>>();
  let tree: Tree | undefined;
  // The tree is built whole on a (re)list; members found while following join it one by one (M5 of
  // issue 28: a rebuild per "Created pod: X" was quadratic, 3,000 events cost 17.6 s of CPU): each
  // member's chain by uid, and the members known by name alone that joined since.
  let chainByUid = new Map<string, readonly TreeNode[]>();
  let joinedByName = new Map<string, readonly TreeNode[]>();

  let saidTooDeep = false;
  const tooDeep = () => {
    // Said once, when the tree first reaches the limit.
    if (!saidTooDeep) deps.stderr.write(renderTooDeepNotice());
    saidTooDeep = true;
  };
  const rebuild = () => {
    if (root === undefined) return;
    const built = buildTree(root, objects === null ? null : [...objects.values()], [...events.values()], { untold });
    tree = built;
    chainByUid = new Map();
    joinedByName = new Map();
    // Every member an event is about, and its owners up the chain (each a prefix of it).
    for (const ev of events.values()) {
      const chain = built.chainOf(ev);
      chain?.forEach((node, i) => {
        if (node.uid !== '' && !chainByUid.has(node.uid)) chainByUid.set(node.uid, chain.slice(0, i + 1));
      });
    }
    if (built.tooDeep === true) tooDeep();
  };
  /** Members known by uid, built or joined; a built member no event's chain passes through is not indexed: the caller rebuilds. */
  const isMember = (uid: string) => chainByUid.has(uid) || (tree?.nodes.some((n) => n.uid === uid) ?? false);

  const chainOf = (ev: Event): readonly TreeNode[] | undefined => {
    const built = tree?.chainOf(ev);
    if (built !== undefined) return built;
    if ((ev.object.namespace || ev.namespace) !== root?.namespace) return undefined;
    return (ev.object.uid === '' ? undefined : chainByUid.get(ev.object.uid)) ?? joinedByName.get(nameKey(ev.object));
  };

  /** `node` joins under the member whose chain is `owner`, unless that is as deep as a tree goes. */
  function join(node: TreeNode, owner: readonly TreeNode[]): void {
    if (owner.length >= MAX_TREE_DEPTH) return tooDeep();
    const chain = [...owner, node];
    if (node.uid !== '') chainByUid.set(node.uid, chain);
    else if (!joinedByName.has(nameKey(node))) joinedByName.set(nameKey(node), chain);
  }

  /** Learnt objects join when an owner is a member, as owners join before what they own. */
  function joinOwned(metas: ObjectMeta[]): boolean {
    let pending = metas.filter((m) => !chainByUid.has(m.uid));
    let rebuildNeeded = false;
    for (let progress = true; progress && pending.length > 0; ) {
      progress = false;
      pending = pending.filter((meta) => {
        const owner = meta.owners.find((o) => chainByUid.has(o.uid));
        if (owner === undefined) {
          rebuildNeeded ||= meta.owners.some((o) => isMember(o.uid));
          return true;
        }
        const { apiVersion, kind, name, namespace, uid } = meta;
        join({ apiVersion, kind, name, namespace, uid, gone: false }, chainByUid.get(owner.uid) as readonly TreeNode[]);
        progress = true;
        return false;
      });
    }
    return rebuildNeeded;
  }

  // Lookups go in batches: while one is answered, what is asked meanwhile waits for the next (one
  // metadata-only LIST of a collection instead of a GET per named child: core/objects.ts lookUpObjects).
  interface Batch {
    refs: Map<string, ObjectRef>;
    named: { child: ObjectRef; owner: readonly TreeNode[] }[];
    settled: Promise<void>;
  }
  let batch: Batch | null = null;
  let previous: Promise<void> = Promise.resolve();

  async function answer(current: Batch): Promise<void> {
    const lookUp = source.objects?.lookUp.bind(source.objects);
    const known = objects;
    if (lookUp === undefined || known === null) return;
    const answers = await lookUp([...current.refs.values()]);
    const found = [...answers.values()].flatMap((a) => (a.state === 'exists' && a.meta !== undefined ? [a.meta] : []));
    const { owners } = await findOwners(found, lookUp, (uid) => isMember(uid) || known.has(uid));
    for (const meta of [...found, ...owners]) if (!known.has(meta.uid)) known.set(meta.uid, meta);
    let rebuildNeeded = joinOwned([...owners, ...found]);
    // A child an owner's message names, not found as an object of that owner: gone, named alone (as
    // core/tree.ts addNamed adds it), unless a live object of that name is another owner's.
    const absentIsGone = (o: { apiVersion: string; kind: string }) => !untold.some((u) => u.group === groupOf(o.apiVersion) && u.kind === o.kind);
    for (const { child, owner } of current.named) {
      const now = answers.get(objectKey(child));
      if (now?.state === 'exists') continue;
      const { apiVersion, kind, name, namespace } = child;
      join({ apiVersion, kind, name, namespace, uid: '', gone: now?.state === 'gone' && absentIsGone(child) }, owner);
    }
    // A member taken for gone that exists after all (`-w --for pod/x --tree` before x was made).
    rebuildNeeded ||= found.some((meta) => tree?.nodes.some((n) => n.gone && nameKey(n) === nameKey(meta) && n.namespace === meta.namespace));
    if (rebuildNeeded) rebuild();
  }

  /** Asks about `refs` (each once); settles when their batch has been answered. */
  function ask(refs: ObjectRef[], named?: { child: ObjectRef; owner: readonly TreeNode[] }): Promise<void> {
    const waits: Promise<void>[] = [];
    for (const ref of refs) {
      const key = objectKey(ref);
      const earlier = asked.get(key);
      if (earlier !== undefined) {
        waits.push(earlier);
        continue;
      }
      let current = batch;
      if (current === null) {
        const fresh: Batch = { refs: new Map(), named: [], settled: Promise.resolve() };
        fresh.settled = previous.then(() => {
          // From here on, what is asked goes to the next batch.
          if (batch === fresh) batch = null;
          return answer(fresh);
        });
        previous = fresh.settled.catch(() => {});
        batch = current = fresh;
      }
      current.refs.set(key, ref);
      if (named !== undefined && objectKey(named.child) === key) current.named.push(named);
      asked.set(key, current.settled);
      waits.push(current.settled);
    }
    return Promise.all(waits).then(() => {});
  }

  const refOf = (ev: Event, child: { apiVersion: string; kind: string; name: string }): ObjectRef => ({
    ...child,
    namespace: ev.object.namespace || ev.namespace,
    uid: '',
    fieldPath: '',
  });
  const askable = (r: ObjectRef) => r.name !== '' && r.kind !== '' && objects !== null && source.objects !== undefined;

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
      const chain = chainOf(ev);
      const owner = chain?.at(-1);
      const child = owner === undefined ? null : childNamedBy(ev.reason, ev.message, owner);
      const named = child === null || chain === undefined ? undefined : { child: refOf(ev, child), owner: chain };
      if (chain !== undefined && owner?.gone !== true) {
        // A member's event: in the tree now. The child it names joins once its batch is answered;
        // an event about that child waits for it (ask below).
        if (named !== undefined && askable(named.child)) {
          if (!asked.has(objectKey(named.child))) {
            void ask([named.child], named).catch(() => {});
          }
        } else if (named !== undefined) {
          // Nothing to ask (a saved input, or a source that cannot look objects up): named alone, as a rebuild would.
          join({ ...named.child, uid: '', gone: false }, chain);
        }
        return chain;
      }
      // A stranger (or a member taken for gone, asked once): its object, and any child it names.
      const refs = [ev.object, ...(named === undefined ? [] : [named.child])].filter(askable);
      if (refs.length > 0) await ask(refs, named);
      return chainOf(ev);
    },
    chainOf,
  };
}

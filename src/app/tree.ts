// `--tree`: the tree of the --for object, from what the source can tell of ownership (a live
// cluster's metadata-only lists, a saved file's objects) and the namespace's events. Verbs get it
// through readEvents (read.tree); `treeFor` is the one place that reads ownership and builds it.
import type { Deps } from '../deps.ts';
import { RuntimeError, UsageError } from '../errors.ts';
import type { Event } from '../core/event.ts';
import type { ObjectSelector } from '../core/filter.ts';
import { isSelected } from '../core/filter.ts';
import type { ObjectMeta, Tree } from '../core/ownership.ts';
import type { EventSource } from '../core/source.ts';
import { buildTree } from '../core/tree.ts';
import { labelledRoots, plantForest } from '../core/tree-forest.ts';
import type { LabelRequirement } from '../core/selectors.ts';
import { namespacesOf, noLabelsWarning } from './labels.ts';
import type { TreeRoot } from '../core/tree-index.ts';
import { escapeTerminal } from '../render/escape.ts';
import { savedNoun } from '../render/notices.ts';
import { renderNoOwnershipNotice, renderTooDeepNotice } from '../render/tree.ts';

/**
 * The namespace the tree lives in: the one read, else (-A, or a file of several namespaces) the one
 * the object's events are in. Owners and their children share a namespace (ownerReferences cannot
 * cross one), so one namespace holds the whole tree.
 */
function treeNamespace(source: EventSource, object: ObjectSelector, events: readonly Event[]): string {
  if (source.provenance.namespace !== null) return source.provenance.namespace;
  const namespaces = [...new Set(events.filter((ev) => isSelected(object, ev.object)).map((ev) => ev.object.namespace || ev.namespace))];
  const [only] = namespaces;
  if (namespaces.length === 1 && only !== undefined) return only;
  const which = namespaces.length === 0 ? 'no namespace holds events about it' : `it is in ${namespaces.length} namespaces`;
  throw new UsageError(`--tree needs one namespace for ${escapeTerminal(object.kind)}/${escapeTerminal(object.name)}: ${which}; pass -n NAMESPACE`);
}

/**
 * The tree is one namespace's ownership. A namespaced owner's dependents are all in its namespace (an
 * ownerReference names no namespace), but a cluster-scoped owner's may be in any (a Node's mirror
 * pods in kube-system): refused rather than told from one namespace, where it would also look gone.
 */
async function refuseClusterScoped(source: EventSource, object: ObjectSelector): Promise<void> {
  if (source.discovery === undefined || object.group === undefined) return;
  const served = await source.discovery.served();
  const resource = served.find((r) => r.kind === object.kind && r.group === object.group);
  if (resource === undefined || resource.namespaced) return;
  throw new UsageError(`--tree reads the ownership of one namespace: ${escapeTerminal(object.kind)} is cluster-scoped, so its dependents may be in any namespace`);
}

/** What a tree is built from: the root in its namespace, and the objects the source tells of (null: it cannot). */
interface TreeInputs {
  root: TreeRoot;
  objects: ObjectMeta[] | null;
  /** the Kinds the objects leave out (src/core/source.ts ownershipGaps) */
  untold: { group: string; kind: string }[];
}

/**
 * Reads what the tree of `object` (resolved --for) is built from: its namespace and the source's
 * ownership. A source that cannot tell ownership says so on stderr: the tree is then the owners'
 * messages alone.
 */
export async function readTreeInputs(source: EventSource, object: ObjectSelector, events: readonly Event[], deps: Pick<Deps, 'stderr'>): Promise<TreeInputs> {
  await refuseClusterScoped(source, object);
  const namespace = treeNamespace(source, object, events);
  const objects = (await source.ownership?.(namespace)) ?? null;
  const noun = source.provenance.kind === 'cluster' ? 'the cluster' : source.provenance.kind === 'stable-table' ? 'a stable table' : savedNoun(source.provenance.kind);
  if (objects === null) deps.stderr.write(renderNoOwnershipNotice(noun, source.provenance.tells.messages));
  return { root: { ...object, namespace }, objects, untold: source.ownershipGaps?.() ?? [] };
}

/**
 * The tree of `object` (resolved --for) from `source`, over `events` (every event read, before any
 * --for/--types filter: the children's events and the owners' messages make the tree).
 */
export async function treeFor(source: EventSource, object: ObjectSelector, events: readonly Event[], deps: Pick<Deps, 'stderr'>): Promise<Tree> {
  const { root, objects, untold } = await readTreeInputs(source, object, events, deps);
  const tree = buildTree(root, objects, events, { untold });
  if (tree.tooDeep === true) deps.stderr.write(renderTooDeepNotice());
  return tree;
}

/**
 * `-l SELECTOR --tree` without --for: the trees of every object whose labels match (core/tree-forest.ts),
 * each built as treeFor builds one, from the ownership of each namespace read (or the events are in).
 * Null when no object matches.
 */
export async function treesOfLabelled(
  source: EventSource,
  labels: readonly LabelRequirement[],
  events: readonly Event[],
  deps: Pick<Deps, 'stderr'>,
  from: string | null,
): Promise<Tree | null> {
  const namespaces = source.provenance.namespace !== null ? [source.provenance.namespace] : namespacesOf(events);
  const untold = source.ownershipGaps?.() ?? [];
  const trees: Tree[] = [];
  let anyLabels = false;
  for (const namespace of namespaces) {
    const objects = (await source.ownership?.(namespace)) ?? null;
    if (objects === null) continue;
    anyLabels ||= objects.some((o) => o.labels !== undefined);
    for (const root of labelledRoots(objects, labels, namespace)) trees.push(buildTree(root, objects, events, { untold }));
  }
  if (from !== null && !anyLabels && events.length > 0) deps.stderr.write(noLabelsWarning(from));
  const forest = plantForest(trees);
  if (forest?.tooDeep === true) deps.stderr.write(renderTooDeepNotice());
  return forest;
}

/**
 * Several contexts read together: the tree of `object` in each cluster that answered, from that
 * cluster's own discovery and ownership (a Deployment/web in two clusters is two trees); an event's
 * chain is asked of its own cluster's tree, so the events of one are never placed in another's.
 */
export async function treeInEachCluster(
  members: readonly { context: string; source: EventSource }[],
  object: ObjectSelector,
  events: readonly Event[],
  deps: Pick<Deps, 'stderr'>,
): Promise<Tree> {
  const trees = new Map<string, Tree>();
  for (const { context, source } of members) {
    trees.set(context, await treeFor(source, object, events.filter((ev) => ev.cluster?.context === context), deps));
  }
  const all = [...trees.values()];
  const first = all[0];
  if (first === undefined) throw new RuntimeError('no cluster answered: there is no tree to build');
  return {
    root: first.root,
    nodes: all.flatMap((t) => t.nodes),
    ...(all.some((t) => t.tooDeep === true) ? { tooDeep: true } : {}),
    chainOf: (ev) => trees.get(ev.cluster?.context ?? '')?.chainOf(ev),
  };
}

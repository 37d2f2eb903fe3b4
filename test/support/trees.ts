// Hand-built object trees for unit tests of the story told owner first: the Tree of the ownership
// contract (src/core/ownership.ts), written as a nested spec. chainOf places an event by its object's
// uid, else (a child known only by name) by group, Kind, namespace and name, as the contract says.
import type { Event } from '../../src/core/event.ts';
import type { Tree, TreeNode } from '../../src/core/ownership.ts';

export interface TreeSpec {
  kind: string;
  name: string;
  /** '' for a child known only by its owner's message; defaults to `uid-<name>` */
  uid?: string;
  apiVersion?: string;
  namespace?: string;
  gone?: boolean;
  children?: TreeSpec[];
}

const API_VERSIONS: Record<string, string> = { Deployment: 'apps/v1', ReplicaSet: 'apps/v1', StatefulSet: 'apps/v1', DaemonSet: 'apps/v1', Job: 'batch/v1', CronJob: 'batch/v1' };

const groupOf = (apiVersion: string): string => (apiVersion.includes('/') ? (apiVersion.split('/')[0] as string) : '');

export function handTree(spec: TreeSpec): Tree {
  const nodes: TreeNode[] = [];
  const chains = new Map<TreeNode, TreeNode[]>();
  const walk = (s: TreeSpec, above: TreeNode[]): void => {
    const node: TreeNode = {
      apiVersion: s.apiVersion ?? API_VERSIONS[s.kind] ?? 'v1',
      kind: s.kind,
      name: s.name,
      namespace: s.namespace ?? 'op-events',
      uid: s.uid ?? `uid-${s.name}`,
      gone: s.gone ?? false,
    };
    nodes.push(node);
    chains.set(node, [...above, node]);
    for (const child of s.children ?? []) walk(child, [...above, node]);
  };
  walk(spec, []);
  return {
    root: nodes[0] as TreeNode,
    nodes,
    chainOf(ev: Event) {
      const o = ev.object;
      const byUid = o.uid === '' ? undefined : nodes.find((n) => n.uid === o.uid);
      const found = byUid ?? nodes.find((n) => (n.uid === '' || o.uid === '') && n.kind === o.kind && n.name === o.name && n.namespace === o.namespace && groupOf(n.apiVersion) === groupOf(o.apiVersion));
      return found === undefined ? undefined : chains.get(found);
    },
  };
}

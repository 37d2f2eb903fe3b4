// Hand-built object trees for unit tests of the story told owner first: the Tree of the ownership
// contract (src/core/ownership.ts), written as a nested spec. chainOf places an event by its object's
// uid, else (a child known only by name) by group, Kind, namespace and name, as the contract says.
import type { Event } from '../../src/core/event.ts';
import { ev } from './builders.ts';
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

/**
 * Deployment/web with two ReplicaSets: two Pods under the first (the second gone, known only by
 * name), one under the second.
 */
export const SMALL_ROLLOUT: TreeSpec = {
  kind: 'Deployment',
  name: 'web',
  children: [
    { kind: 'ReplicaSet', name: 'web-5d4f7c9b8', children: [{ kind: 'Pod', name: 'web-5d4f7c9b8-x2k4q' }, { kind: 'Pod', name: 'web-5d4f7c9b8-b7fzw', uid: '', gone: true }] },
    { kind: 'ReplicaSet', name: 'web-7c9d8f6b5', children: [{ kind: 'Pod', name: 'web-7c9d8f6b5-m4x7q' }] },
  ],
};

/** A raw event about a member of such a tree: its uid `uid-<name>`, apps/v1 unless a Pod. */
export function about(kind: string, name: string, first: number, o: Parameters<typeof ev>[0] = {}): Record<string, unknown> {
  return ev({ kind, apiVersion: kind === 'Pod' ? 'v1' : 'apps/v1', objectName: name, objectUid: `uid-${name}`, first, ...o });
}

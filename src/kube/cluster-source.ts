// The live cluster as an EventSource.
import type { EventSource } from '../core/source.ts';
import { listEvents } from './events-api.ts';
import type { KubeTarget } from './kubeconfig.ts';

export interface ClusterScope {
  /** null = all namespaces */
  namespace: string | null;
  timeoutMs: number;
  /** called after each page with the running total (progress on a terminal) */
  onPage?: (total: number) => void;
}

export function clusterSource(target: KubeTarget, scope: ClusterScope): EventSource {
  const opts = { timeoutMs: scope.timeoutMs, onPage: scope.onPage };
  return {
    info: {
      kind: 'cluster',
      format: '',
      context: target.context,
      server: target.server,
      namespace: scope.namespace,
    },
    // core/v1 already returns events written through events.k8s.io/v1: one store, so one read.
    listEvents: async () => (await listEvents(target, 'core', scope.namespace, opts)).items,
    listNewApiEvents: async () => (await listEvents(target, 'events.k8s.io', scope.namespace, opts)).items,
  };
}

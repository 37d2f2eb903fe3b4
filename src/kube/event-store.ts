// The live cluster as an EventStore (src/core/event-store.ts): 404 on read is "none", 409 on patch is a conflict.
import type { EventStore } from '../core/event-store.ts';
import { getEvent, mergePatchEvent } from './events-api.ts';
import { ApiError } from './http.ts';
import type { KubeTarget } from './kubeconfig.ts';

export function clusterEventStore(target: KubeTarget, namespace: string | null, timeoutMs: number): EventStore {
  return {
    namespace,
    get: async (name) => {
      if (namespace === null) return null;
      try {
        return await getEvent(target, namespace, name, timeoutMs);
      } catch (error) {
        if (error instanceof ApiError && error.code === 404) return null;
        throw error;
      }
    },
    mergePatch: async (api, name, patch, { dryRun }) => {
      if (namespace === null) throw new Error('an event store of all namespaces patches nothing');
      try {
        return { kind: 'patched', event: await mergePatchEvent(target, api, namespace, name, patch, { dryRun, timeoutMs }) };
      } catch (error) {
        if (error instanceof ApiError && error.code === 409) return { kind: 'conflict' };
        throw error;
      }
    },
  };
}

// Names for shell completion from the kubeconfig and the live cluster (src/core/names.ts).
import type { NameLookups } from '../core/names.ts';
import { loadKubeTarget } from './kubeconfig.ts';
import { eventNames, namespaceNames } from './names.ts';
import type { NameLookupTarget } from '../core/connection.ts';

/** A lookup must answer while the user waits at TAB. */
const LOOKUP_TIMEOUT_MS = 5000;

/** Cluster lookups that never fail: completion offers nothing rather than an error. */
export function clusterNameLookups(env: Record<string, string | undefined>, where: NameLookupTarget): NameLookups {
  const target = () => loadKubeTarget({ env, kubeconfig: where.kubeconfig, context: where.context, overrides: where.overrides });
  const quietly = async (fn: () => Promise<string[]>) => fn().catch(() => []);
  return {
    namespaces: () => quietly(async () => namespaceNames(await target(), LOOKUP_TIMEOUT_MS)),
    events: (namespace) =>
      quietly(async () => {
        const t = await target();
        return eventNames(t, namespace ?? t.namespace, LOOKUP_TIMEOUT_MS);
      }),
    contexts: () => quietly(async () => (await target()).config.getContexts().map((c) => c.name)),
    clusters: () => quietly(async () => (await target()).config.getClusters().map((c) => c.name)),
    users: () => quietly(async () => (await target()).config.getUsers().map((u) => u.name)),
  };
}

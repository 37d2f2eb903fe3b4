// Object names for shell completion: one request, names only.
import { apiRequest, PAGE_SIZE } from './http.ts';
import type { KubeTarget } from './kubeconfig.ts';
import { eventsPath } from './events-api.ts';

async function names(target: KubeTarget, path: string, timeoutMs: number): Promise<string[]> {
  const list = (await apiRequest(target, { method: 'GET', path, query: { limit: PAGE_SIZE }, timeoutMs })) as {
    items?: { metadata?: { name?: unknown } }[];
  };
  return (list.items ?? []).map((item) => item.metadata?.name).filter((name): name is string => typeof name === 'string');
}

export function namespaceNames(target: KubeTarget, timeoutMs: number): Promise<string[]> {
  return names(target, '/api/v1/namespaces', timeoutMs);
}

export function eventNames(target: KubeTarget, namespace: string, timeoutMs: number): Promise<string[]> {
  return names(target, eventsPath('core', namespace), timeoutMs);
}

// The Event endpoints of both APIs. The only module that knows their paths.
import { apiRequest, PAGE_SIZE } from './http.ts';
import type { KubeTarget } from './kubeconfig.ts';

export type EventsApi = 'core' | 'events.k8s.io';

export function eventsPath(api: EventsApi, namespace: string | null, name?: string): string {
  const root = api === 'core' ? '/api/v1' : '/apis/events.k8s.io/v1';
  const scoped = namespace === null ? `${root}/events` : `${root}/namespaces/${encodeURIComponent(namespace)}/events`;
  return name === undefined ? scoped : `${scoped}/${encodeURIComponent(name)}`;
}

export interface EventList {
  items: unknown[];
  /** the list's resourceVersion, where a watch can start */
  resourceVersion: string;
}

interface ListPage {
  items?: unknown[];
  metadata?: { continue?: string; resourceVersion?: string };
}

export async function listEvents(
  target: KubeTarget,
  api: EventsApi,
  namespace: string | null,
  opts: { timeoutMs?: number; onPage?: (total: number) => void } = {},
): Promise<EventList> {
  const items: unknown[] = [];
  let next: string | undefined;
  let resourceVersion = '';
  do {
    const page = (await apiRequest(target, {
      method: 'GET',
      path: eventsPath(api, namespace),
      query: { limit: PAGE_SIZE, continue: next },
      timeoutMs: opts.timeoutMs,
    })) as ListPage;
    items.push(...(page.items ?? []));
    // Every page of one list shares the snapshot of the first; the last page's is the one to watch from.
    resourceVersion = page.metadata?.resourceVersion ?? resourceVersion;
    next = page.metadata?.continue || undefined;
    opts.onPage?.(items.length);
  } while (next);
  return { items, resourceVersion };
}

export async function getEvent(target: KubeTarget, namespace: string, name: string, timeoutMs?: number): Promise<unknown> {
  return apiRequest(target, { method: 'GET', path: eventsPath('core', namespace, name), timeoutMs });
}

/**
 * A JSON merge patch of an Event through the given API; with dryRun the server validates and answers
 * but stores nothing. events.k8s.io/v1 lets an update change only series, which is what its recorder does.
 */
export async function mergePatchEvent(
  target: KubeTarget,
  api: EventsApi,
  namespace: string,
  name: string,
  patch: unknown,
  opts: { dryRun: boolean; timeoutMs?: number },
): Promise<unknown> {
  return apiRequest(target, {
    method: 'PATCH',
    path: eventsPath(api, namespace, name),
    query: { dryRun: opts.dryRun ? 'All' : undefined },
    body: patch,
    contentType: 'application/merge-patch+json',
    timeoutMs: opts.timeoutMs,
  });
}

// The Event endpoints of both APIs. The only module that knows their paths.
import { ClusterError } from './cluster-error.ts';
import { isObject } from '../core/json.ts';
import { pathSegment } from './api-names.ts';
import { apiRequest, PAGE_SIZE } from './http.ts';
import { continueTokens } from './paging.ts';
import type { KubeTarget } from './kubeconfig.ts';

import type { EventsApi } from '../core/event-store.ts';

export function eventsPath(api: EventsApi, namespace: string | null, name?: string): string {
  const root = api === 'core' ? '/api/v1' : '/apis/events.k8s.io/v1';
  const scoped = namespace === null ? `${root}/events` : `${root}/namespaces/${pathSegment('namespace', namespace)}/events`;
  return name === undefined ? scoped : `${scoped}/${pathSegment('resource name', name)}`;
}

export interface EventList<T = unknown> {
  items: T[];
  /** the list's resourceVersion, where a watch can start */
  resourceVersion: string;
}

interface ListPage {
  items?: unknown[];
  metadata?: { continue?: string; resourceVersion?: string };
}

interface ListOptions<T> {
  timeoutMs?: number;
  /** sent as is: the server selects (kubectl get events --field-selector) */
  fieldSelector?: string;
  onPage?: (total: number) => void;
  /**
   * What to keep of each item, applied as each page arrives (normaliseEvent, say): the page's raw
   * objects are then let go before the next page comes, and their managedFields, which it must not
   * read, are never parsed. Default: the item, whole.
   */
  keep?: (item: unknown) => T;
  /** the Accept header (a metadata-only list); JSON when absent */
  accept?: string;
}

/** Every event in scope, page after page (continue tokens make pages sequential), never throttled. */
export function listEvents<T = unknown>(target: KubeTarget, api: EventsApi, namespace: string | null, opts: ListOptions<T> = {}): Promise<EventList<T>> {
  const what = namespace === null ? 'events in all namespaces' : `events in namespace ${namespace}`;
  return listCollection(target, eventsPath(api, namespace), what, 'events', opts);
}

/** Every item of a collection path (`noun`: what its items are, for errors), page after page. */
export async function listCollection<T = unknown>(target: KubeTarget, path: string, what: string, noun: string, opts: ListOptions<T> = {}): Promise<EventList<T>> {
  const keep = opts.keep ?? ((item: unknown) => item as T);
  const items: T[] = [];
  let next: string | undefined;
  let resourceVersion = '';
  const tokens = continueTokens(what);
  do {
    const answer = await apiRequest(target, {
      method: 'GET',
      path,
      query: { limit: PAGE_SIZE, continue: next, fieldSelector: opts.fieldSelector },
      timeoutMs: opts.timeoutMs,
      dropManagedFields: opts.keep !== undefined,
      // Each item kept as it is parsed: the page's text and objects are let go at once.
      eachItem: (item) => items.push(keep(item)),
      ...(opts.accept === undefined ? {} : { accept: opts.accept }),
    });
    if (!isObject(answer) || !Array.isArray(answer.items)) {
      throw new ClusterError({ kind: 'not-a-list', path, noun });
    }
    const page = answer as unknown as ListPage & { items: unknown[] };
    // Items not yet kept (an answer read whole), one at a time: push(...items) of a long page overflows the call stack.
    for (const item of page.items) items.push(keep(item));
    // Every page of one list shares the snapshot of the first; the last page's is the one to watch from.
    resourceVersion = page.metadata?.resourceVersion ?? resourceVersion;
    next = tokens.next(page.metadata?.continue);
    opts.onPage?.(items.length);
  } while (next);
  return { items, resourceVersion };
}

/**
 * The answer is the Event asked for, or an error: whatever a path resolved to on the way (a proxy
 * that rewrites paths, a server that answers with another object), a caller never plans a write
 * from another object's fields.
 */
function expectEvent(answer: unknown, namespace: string, name: string): unknown {
  const meta = isObject(answer) && isObject(answer.metadata) ? answer.metadata : {};
  const kind = isObject(answer) ? answer.kind : undefined;
  // A GET answers with kind set; a list item would not have it, but this is never a list item.
  if (kind !== 'Event' || meta.name !== name || meta.namespace !== namespace) {
    const what = `${typeof kind === 'string' ? kind : 'an object without a kind'} ${JSON.stringify(meta.namespace ?? '')}/${JSON.stringify(meta.name ?? '')}`;
    throw new ClusterError({ kind: 'another-event', namespace, name, what });
  }
  return answer;
}

export async function getEvent(target: KubeTarget, namespace: string, name: string, timeoutMs?: number): Promise<unknown> {
  return expectEvent(await apiRequest(target, { method: 'GET', path: eventsPath('core', namespace, name), timeoutMs }), namespace, name);
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
  const answer = await apiRequest(target, {
    method: 'PATCH',
    path: eventsPath(api, namespace, name),
    query: { dryRun: opts.dryRun ? 'All' : undefined },
    body: patch,
    contentType: 'application/merge-patch+json',
    timeoutMs: opts.timeoutMs,
  });
  return expectEvent(answer, namespace, name);
}

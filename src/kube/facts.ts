// Reads the facts beside the events (src/core/facts.ts): one LIST per Kind and namespace the events
// reach (never a GET per object), the Nodes the Pods run on with what the Pods on each request (as
// `kubectl describe node` sums them: pods with spec.nodeName=X not Succeeded or Failed,
// k8s.io/kubectl pkg/describe/describe.go describeNode), and the last words of exiting containers
// (pods/log with previous and tailLines, bounded in count and bytes). Bounded concurrency; a list
// or log the reader may not read is a gap, said, never guessed.
import type { Event } from '../core/event.ts';
import { asObject, isObject } from '../core/json.ts';
import type { Json } from '../core/json.ts';
import { factsOf, lastExit, nodeFacts, nodeWithPods, podFacts } from '../core/facts.ts';
import type { FactGap, FactSet, NodeFacts, ObjectFacts, PodFacts } from '../core/facts.ts';
import { parseQuotaRefusal } from '../core/causes-workloads.ts';
import { ApiError, apiRequest, openStream, PAGE_SIZE } from './http.ts';
import type { KubeTarget } from './kubeconfig.ts';
import { continueTokens } from './paging.ts';
import { podListFromProtobuf } from './pod-proto.ts';
import { sharedBound } from '../core/bounded.ts';
import { pathSegment } from './api-names.ts';
import { compareBytes } from '../core/timeline.ts';

/** The collections facts are read from, by Kind. */
const COLLECTIONS: Record<string, { root: string; resource: string }> = {
  Pod: { root: '/api/v1', resource: 'pods' },
  PersistentVolumeClaim: { root: '/api/v1', resource: 'persistentvolumeclaims' },
  ResourceQuota: { root: '/api/v1', resource: 'resourcequotas' },
  Deployment: { root: '/apis/apps/v1', resource: 'deployments' },
  ReplicaSet: { root: '/apis/apps/v1', resource: 'replicasets' },
  StatefulSet: { root: '/apis/apps/v1', resource: 'statefulsets' },
  DaemonSet: { root: '/apis/apps/v1', resource: 'daemonsets' },
  Job: { root: '/apis/batch/v1', resource: 'jobs' },
};

/** Requests at once to the API server (a few, as the ownership lists do). */
const CONCURRENCY = 4;
/** Last words: lines of each exited instance, containers read, bytes a log answer may bring. */
const LOG_LINES = 5;
const LOG_CONTAINERS = 10;
const LOG_BYTES = 4096;
/** Nodes whose Pods are listed one node at a time; past this, one list of every Pod. */
const PER_NODE_LISTS = 8;

interface Options {
  timeoutMs: number;
}

function gapOf(error: unknown, what: FactGap['what'], resource: string, namespace: string): FactGap {
  if (error instanceof ApiError && error.code === 403) return { what, resource, namespace, reason: 'forbidden' };
  return { what, resource, namespace, reason: 'failed', detail: error instanceof Error ? error.message : String(error) };
}

/**
 * Every item of a list, page by page, each handed to `keep` as it arrives (the raw page is let go).
 * Pods (the largest lists by far) are asked for in Protobuf, read field by field (pod-proto.ts).
 */
async function listItems(target: KubeTarget, path: string, query: string, opts: Options, keep: (item: Json) => void): Promise<void> {
  const tokens = continueTokens(path);
  const protobuf = /\/pods$/.test(path) ? podListFromProtobuf : undefined;
  let token: string | undefined = '';
  do {
    const page = asObject(
      // Facts never read managedFields (a third of a Pod's JSON): cut before parsing a JSON answer (managed-fields.ts).
      await apiRequest(target, { method: 'GET', path: `${path}?limit=${PAGE_SIZE}${query}${token ? `&continue=${encodeURIComponent(token)}` : ''}`, timeoutMs: opts.timeoutMs, dropManagedFields: true, ...(protobuf ? { protobuf } : {}) }),
    );
    if (Array.isArray(page.items)) for (const item of page.items) if (isObject(item)) keep(item);
    token = tokens.next(asObject(page.metadata).continue);
  } while (token !== undefined);
}

/** Which Kinds to list in which namespace, from what the events are about. */
function collectionsFor(events: Event[]): Map<string, Set<string>> {
  const byNamespace = new Map<string, Set<string>>();
  const want = (namespace: string, kind: string) => {
    if (namespace === '' || COLLECTIONS[kind] === undefined) return;
    const kinds = byNamespace.get(namespace) ?? new Set<string>();
    kinds.add(kind);
    byNamespace.set(namespace, kinds);
  };
  for (const ev of events) {
    const ns = ev.object.namespace || ev.namespace;
    want(ns, ev.object.kind);
    // A workload's story is its Pods'; a refused creation names a quota; a Pod may wait on a claim.
    if (COLLECTIONS[ev.object.kind] !== undefined) want(ns, 'Pod');
    if (ev.reason === 'FailedCreate' && parseQuotaRefusal(ev.message) !== null) want(ns, 'ResourceQuota');
    if (ev.reason === 'FailedScheduling' && /PersistentVolumeClaim|persistent volume/.test(ev.message)) want(ns, 'PersistentVolumeClaim');
  }
  return byNamespace;
}

/** The Pods the story needs: those the events name, and those a Job or ReplicaSet of the events owns. */
function podWanted(events: Event[]): (pod: PodFacts) => boolean {
  const named = new Set<string>();
  for (const ev of events) named.add(`${ev.object.namespace || ev.namespace}/${ev.object.kind}/${ev.object.name}`);
  return (pod) => named.has(`${pod.namespace}/Pod/${pod.name}`) || (pod.owner !== '' && named.has(`${pod.namespace}/${pod.owner}`));
}

/** The nodes the story touches: where its Pods run, what the events name; every node when a Pod could not be placed. */
function nodesWanted(events: Event[], pods: PodFacts[]): { all: boolean; names: Set<string> } {
  const names = new Set<string>();
  for (const p of pods) if (p.nodeName !== '') names.add(p.nodeName);
  let all = false;
  for (const ev of events) {
    if (ev.object.kind === 'Node') names.add(ev.object.name);
    if (ev.reason === 'Scheduled') {
      const to = / to (\S+)$/.exec(ev.message)?.[1];
      if (to !== undefined) names.add(to);
    }
    if (ev.reason === 'FailedScheduling') all = true;
  }
  return { all, names };
}

type Bound = <R>(work: () => Promise<R>) => Promise<R>;

/**
 * The Nodes the story touches, each with what the Pods bound to it request. The Pods of the
 * namespaces whose Pods are listed in full (`podNamespaces`) are not asked for again: the lists by
 * node leave those namespaces out (metadata.namespace!=NS, a field every namespaced resource can be
 * selected by), and their Pods join theirs in the order one list would give (etcd key order:
 * namespace/name). A list by node needs only the node's name, so the nodes the events name (Node
 * events, Scheduled "to NODE", every node after a FailedScheduling) are listed at once, beside the
 * namespaces' own Pod lists; `finish` adds the nodes only the Pods name (a Pod whose Scheduled event
 * has expired) and joins them. The same lists as one read after the Pods would make, each once.
 */
function nodeReading(target: KubeTarget, events: Event[], early: Promise<Early<NodeFacts>> | undefined, podNamespaces: string[], run: Bound, opts: Options) {
  let nodeList: Promise<Early<NodeFacts>> | undefined;
  const readNodeList = () => (nodeList ??= early ?? listEarly(target, () => '/api/v1/nodes', opts, (item) => nodeFacts(item)));
  let excluded = podNamespaces;
  let byNode = new Map<string, Promise<PodFacts[]>>();
  let everyNode: Promise<PodFacts[]> | undefined;
  const listPods = (selector: string[]): Promise<PodFacts[]> => {
    const running = [...selector, 'status.phase!=Succeeded', 'status.phase!=Failed', ...excluded.map((ns) => `metadata.namespace!=${ns}`)].join(',');
    const listing = run(async () => {
      const pods: PodFacts[] = [];
      await listItems(target, '/api/v1/pods', `&fieldSelector=${encodeURIComponent(running)}`, opts, (item) => pods.push(podFacts(item)));
      return pods;
    });
    listing.catch(() => {}); // awaited in finish, or let go when a list of every node replaces it
    return listing;
  };
  /** Lists the Pods of these nodes (one by one up to PER_NODE_LISTS nodes in all, past it one list of every node's), each node once. */
  const begin = (names: string[]) => {
    if (everyNode !== undefined) return;
    const fresh = names.filter((name) => !byNode.has(name));
    if (byNode.size + fresh.length > PER_NODE_LISTS) everyNode = listPods([]);
    else for (const name of fresh) byNode.set(name, listPods([`spec.nodeName=${name}`]));
  };
  const told = nodesWanted(events, []);
  if (told.all || told.names.size > 0) {
    void readNodeList().then((read) => {
      if (!('error' in read)) begin(read.items.filter((n) => told.all || told.names.has(n.name)).map((n) => n.name));
    });
  }
  return {
    async finish(pods: PodFacts[], listed: Map<string, PodFacts[]>, gaps: FactGap[]): Promise<ObjectFacts[]> {
      const want = nodesWanted(events, pods);
      if (!want.all && want.names.size === 0) return [];
      const read = await readNodeList();
      if ('error' in read) {
        gaps.push(gapOf(read.error, 'list', 'nodes', ''));
        return [];
      }
      const nodes = read.items.filter((n) => want.all || want.names.has(n.name));
      const names = nodes.map((n) => n.name);
      if (excluded.some((ns) => !listed.has(ns))) {
        // A namespace whose own Pod list failed holds Pods the nodes' lists left out: they are read again, with them.
        excluded = excluded.filter((ns) => listed.has(ns));
        byNode = new Map();
        everyNode = undefined;
      }
      begin(names);
      const bound = new Map<string, PodFacts[]>(names.map((n) => [n, []]));
      try {
        if (everyNode !== undefined) for (const pod of await everyNode) bound.get(pod.nodeName)?.push(pod);
        else for (const name of names) bound.get(name)?.push(...((await byNode.get(name)) ?? []));
      } catch (error) {
        // Without every namespace's Pods the nodes' requests are unknown: their free share is not told.
        gaps.push(gapOf(error, 'list', 'pods', ''));
        return nodes.map((n) => ({ ...n, requested: {}, pods: [] }));
      }
      if (listed.size > 0) {
        const holdsShare = (pod: PodFacts) => pod.phase !== 'Succeeded' && pod.phase !== 'Failed';
        for (const ns of excluded) for (const pod of listed.get(ns) ?? []) if (holdsShare(pod)) bound.get(pod.nodeName)?.push(pod);
        const key = (pod: PodFacts) => `${pod.namespace}/${pod.name}`;
        for (const onNode of bound.values()) onNode.sort((a, b) => compareBytes(key(a), key(b)));
      }
      return nodes.map((n) => nodeWithPods(n, bound.get(n.name) ?? []));
    },
  };
}

/** The container instance whose words tell why it exits: the one whose exit the Why tells (core/facts.ts lastExit). */
function exitsToRead(pods: PodFacts[]): { pod: PodFacts; container: string; previous: boolean }[] {
  const out: { pod: PodFacts; container: string; previous: boolean }[] = [];
  for (const pod of pods) {
    for (const c of pod.containers) {
      const exit = lastExit(c);
      if (exit === null || exit.state.exitCode === 0 || exit.state.exitCode === null || exit.state.reason === 'OOMKilled') continue;
      out.push({ pod, container: c.name, previous: exit.which === 'lastState' });
    }
  }
  return out.slice(0, LOG_CONTAINERS);
}

async function readLog(target: KubeTarget, pod: PodFacts, container: string, previous: boolean, opts: Options): Promise<string[]> {
  const path = `/api/v1/namespaces/${pathSegment('namespace', pod.namespace)}/pods/${pathSegment('pod name', pod.name)}/log`;
  const response = await openStream(target, { method: 'GET', path, query: { container, previous, tailLines: LOG_LINES, limitBytes: LOG_BYTES }, accept: 'application/json, */*', timeoutMs: opts.timeoutMs });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response) {
    chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
    if (size > LOG_BYTES) {
      response.destroy();
      break;
    }
  }
  const text = Buffer.concat(chunks).subarray(0, LOG_BYTES).toString('utf8');
  // The kubelet answers 200 with its own error as the body when the runtime no longer has the
  // container (pkg/kubelet/kuberuntime/kuberuntime_container.go GetContainerLogs): not its words.
  if (/^unable to retrieve container logs for \S+\s*$/.test(text)) throw new Error(text.trim());
  return text.split('\n').filter((line, i, all) => line !== '' || i < all.length - 1).slice(-LOG_LINES);
}

async function readLastWords(target: KubeTarget, pods: PodFacts[], run: Bound, opts: Options, gaps: FactGap[]): Promise<void> {
  const failedIn = new Set<string>();
  const read = async ({ pod, container, previous }: { pod: PodFacts; container: string; previous: boolean }) => {
    if (failedIn.has(pod.namespace)) return;
    try {
      const words = await readLog(target, pod, container, previous, opts);
      const c = pod.containers.find((x) => x.name === container);
      if (c !== undefined) c.lastWords = words;
    } catch (error) {
      if (failedIn.has(pod.namespace)) return;
      failedIn.add(pod.namespace);
      gaps.push(gapOf(error, 'log', 'pods/log', pod.namespace));
    }
  };
  await Promise.all(exitsToRead(pods).map((exit) => run(() => read(exit))));
}

/** A list read before the events were known: its items, or why it could not be read. */
type Early<T> = { items: T[] } | { error: unknown };

function listEarly<T>(target: KubeTarget, path: () => string, opts: Options, read: (item: Json) => T): Promise<Early<T>> {
  const items: T[] = [];
  // The path is made inside the promise: a namespace it refuses is a failed list, said where the list is needed.
  return Promise.resolve()
    .then(() => listItems(target, path(), '', opts, (item) => items.push(read(item))))
    .then(
      () => ({ items }),
      (error: unknown) => ({ error }),
    );
}

/**
 * The facts of the objects the events are about. startFacts begins, while the events are still being
 * read, the lists that do not depend on them (the Pods of the namespace read, every Node); `facts`
 * then reads what the events name (their workloads, quotas, claims, the Pods' nodes, last words),
 * at most CONCURRENCY requests at a time, each begun as soon as what it needs is known (the nodes'
 * Pod lists with the events, not after the namespace's Pods: issue 22's wall-time bar). An early list the events turn out not to need is dropped,
 * its failure with it: the gaps are those of the lists the story needs, as when they are read after.
 */
export interface StartedFacts {
  facts(events: Event[], now: number): Promise<FactSet>;
  /**
   * The namespace's Pods as the early list read them, their metadata by name under the list's path
   * (the lookups' own list of them would read the same metadata again); null when it could not be read.
   */
  listedPods(): Promise<{ path: string; metadata: Map<string, Json> } | null>;
}

export function startFacts(target: KubeTarget, namespace: string | null, opts: Options): StartedFacts {
  const podsPath = () => `/api/v1/namespaces/${pathSegment('namespace', namespace ?? '')}/pods`;
  const metadata = new Map<string, Json>();
  const podOf = (item: Json): PodFacts => {
    const pod = podFacts(item);
    metadata.set(pod.name, asObject(item.metadata));
    return pod;
  };
  const earlyPods = namespace === null ? undefined : listEarly(target, podsPath, opts, podOf);
  const earlyNodes = listEarly(target, () => '/api/v1/nodes', opts, (item) => nodeFacts(item));
  return {
    facts: (events, now) => readFacts(target, events, now, opts, { namespace, pods: earlyPods, nodes: earlyNodes }),
    listedPods: async () => (earlyPods === undefined || 'error' in (await earlyPods) ? null : { path: podsPath(), metadata }),
  };
}

/** The facts of the objects the events are about, read now; gaps say what could not be read. */
export async function readFacts(
  target: KubeTarget,
  events: Event[],
  now: number,
  opts: Options,
  early: { namespace: string | null; pods?: Promise<Early<PodFacts>>; nodes?: Promise<Early<NodeFacts>> } = { namespace: null },
): Promise<FactSet> {
  const gaps: FactGap[] = [];
  /** every Pod of the namespaces whose Pods were listed in full, by namespace: the nodes' lists count them without listing them again */
  const listedPods = new Map<string, PodFacts[]>();
  const wantPod = podWanted(events);
  const lists = [...collectionsFor(events)].flatMap(([namespace, kinds]) => [...kinds].map((kind) => ({ namespace, kind })));
  const run = sharedBound(CONCURRENCY);
  // Begun now, beside the lists below: nothing but the node names and which namespaces are listed in full is needed.
  const nodes = nodeReading(target, events, early.nodes, [...new Set(lists.filter((l) => l.kind === 'Pod').map((l) => l.namespace))], run, opts);
  /** each list's objects, or why it could not be read */
  const read = lists.map(async ({ namespace, kind }): Promise<{ objects: ObjectFacts[] } | { gap: FactGap }> => {
    const { root, resource } = COLLECTIONS[kind] as { root: string; resource: string };
    const gap = (error: unknown) => ({ gap: gapOf(error, 'list', root === '/api/v1' ? resource : `${resource}.${root.split('/')[2]}`, namespace) });
    if (kind === 'Pod' && namespace === early.namespace && early.pods !== undefined) {
      const listed = await early.pods;
      if ('error' in listed) return gap(listed.error);
      listedPods.set(namespace, listed.items);
      return { objects: listed.items.filter(wantPod) };
    }
    const objects: ObjectFacts[] = [];
    const pods: PodFacts[] = [];
    try {
      await run(() =>
        listItems(target, `${root}/namespaces/${pathSegment('namespace', namespace)}/${resource}`, '', opts, (item) => {
          const facts = factsOf(kind, item);
          if (facts?.kind === 'Pod') pods.push(facts as PodFacts);
          if (facts !== null && (facts.kind !== 'Pod' || wantPod(facts as PodFacts))) objects.push(facts);
        }),
      );
    } catch (error) {
      return gap(error);
    }
    if (kind === 'Pod') listedPods.set(namespace, pods);
    return { objects };
  });
  // The nodes and the last words wait for the Pods only, not for the workloads', quotas' and claims' lists.
  const podsRead = Promise.all(read.filter((_, i) => lists[i]?.kind === 'Pod'));
  const fromPods = podsRead.then(async (podLists) => {
    const pods = podLists.flatMap((r) => ('objects' in r ? (r.objects as PodFacts[]) : []));
    const [nodeObjects] = await Promise.all([nodes.finish(pods, listedPods, gaps), readLastWords(target, pods, run, opts, gaps)]);
    return nodeObjects;
  });
  const [answers, nodeObjects] = await Promise.all([Promise.all(read), fromPods]);
  const objects: ObjectFacts[] = [];
  /** `namespace/Kind` of each list read in full: what is not in it was gone before it was read */
  const listedKinds: string[] = [];
  answers.forEach((answer, i) => {
    const list = lists[i] as { namespace: string; kind: string };
    if ('gap' in answer) gaps.push(answer.gap);
    else {
      objects.push(...answer.objects);
      listedKinds.push(`${list.namespace}/${list.kind}`);
    }
  });
  objects.push(...nodeObjects);
  return { objects, gaps: gaps.sort((a, b) => `${a.namespace}/${a.resource}`.localeCompare(`${b.namespace}/${b.resource}`)), readAt: now, listed: listedKinds };
}

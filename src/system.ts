// Production adapters: what src/process-deps.ts hands a verb as its sources (a saved file through
// src/io, the live cluster through src/kube), stores and streams. The one place that chooses an
// adapter; verbs only say what they want.
import type { EventSource } from './core/source.ts';
import type { Deps, Output, SourceRequest } from './deps.ts';
import { fileSource, parseEventsText, readEventsFile, readEventsInput } from './io/event-file.ts';
import { parseOtlpEventLines } from './otlp/collector-file.ts';
import { parseStoreDocument, parseStoreLines } from './stores/files.ts';
import { collectorFileSource } from './otlp/collector-stream.ts';
import { captureEventsPath, withCaptureObjects } from './io/capture-folder.ts';
import { recordFileSource } from './io/record-stream.ts';
import { clusterSource } from './kube/cluster-source.ts';
import { clusterEventStore } from './kube/event-store.ts';
import type { EventStore } from './core/event-store.ts';
import { chooseTarget, KubeconfigError, kubeconfigContexts, loadKubeconfig } from './kube/kubeconfig.ts';
import { inUserWords } from './options/user-errors.ts';
import { fleetSource } from './core/fleet.ts';
import type { FleetEntry } from './core/fleet.ts';
import { canonical } from './core/server.ts';
import { UsageError } from './errors.ts';
import { renderSameClusterNotice } from './render/fleet.ts';
import type { Kubeconfig, KubeTarget } from './kube/kubeconfig.ts';
import type { FleetChoice, ScopeOptions } from './options/common.ts';
import { renderRefusedObjectsNotice, renderUnlistedNotice } from './render/tree.ts';
import { openEndpoint } from './otlp/http.ts';
import type { StoreEndpoint } from './stores/victorialogs.ts';
import { victoriaLogsSource } from './stores/victorialogs-source.ts';

/** What the adapters need of the process: the environment, stdin (--from -) and stderr (-v=6 request lines). */
type SourceIo = Pick<Deps, 'env' | 'stdin'> & { stderr: Pick<Output, 'write'> };

/** The kubeconfig files the scope names, read once. */
function kubeconfigOf(scope: ScopeOptions, io: SourceIo): Promise<Kubeconfig> {
  return loadKubeconfig({ kubeconfig: scope.kubeconfig, env: io.env });
}

/** The kubeconfig's target and the namespace to read: -A, else -n, else the context's namespace. */
function resolveTarget(kubeconfig: Kubeconfig, scope: ScopeOptions, io: SourceIo): { target: KubeTarget; namespace: string | null } {
  const target = chooseTarget(kubeconfig, {
    kubeconfig: scope.kubeconfig,
    context: scope.context,
    env: io.env,
    overrides: scope.overrides,
    verbosity: scope.verbosity,
    log: (line) => io.stderr.write(line),
    stdinIsTTY: (io.stdin as { isTTY?: boolean }).isTTY === true,
  });
  const namespace = scope.allNamespaces ? null : (scope.namespace ?? target.namespace);
  return { target, namespace };
}

export function systemSources(io: SourceIo): (request: SourceRequest) => Promise<EventSource> {
  return async (request) => {
    if (request.kind === 'file') {
      // A record is read line by line (it can be hundreds of MB), and so is one on stdin or a pipe
      // (copied to a file first); anything else but a collector's file, whole.
      const record = request.path === '-' ? null : await recordFileSource(request.path, request.namespace, request.keep ?? 'all');
      if (record !== null) return record;
      // So is a collector's file (22,000 versions took 187 MiB read whole).
      const collector = request.path === '-' ? null : await collectorFileSource(request.path, request.namespace, request.keep ?? 'all');
      if (collector !== null) return collector;
      const path = await captureEventsPath(request.path);
      const input = await readEventsInput(path, io.stdin);
      let text: string;
      if ('spooled' in input) {
        // Stdin or a pipe holding a record or a collector's file: read line by line from its copy.
        const spooled = (await recordFileSource(input.spooled, request.namespace, request.keep ?? 'all', path)) ?? (await collectorFileSource(input.spooled, request.namespace, request.keep ?? 'all'));
        if (spooled !== null) return spooled;
        text = await readEventsFile(input.spooled, io.stdin);
      } else text = input.text;
      const refused = (file: string, why: string) => io.stderr.write(renderRefusedObjectsNotice(file, why));
      return fileSource(await withCaptureObjects(parseEventsText(text, path, parseOtlpEventLines, { document: parseStoreDocument, lines: parseStoreLines }), path, refused), request.namespace);
    }
    if (request.kind === 'store') return openStore(request, io);
    const { scope } = request;
    if (scope.fleet !== undefined) return openFleet(scope, scope.fleet, io);
    const { target, namespace } = resolveTarget(await kubeconfigOf(scope, io), scope, io);
    return clusterSource(target, {
      namespace,
      timeoutMs: scope.requestTimeoutMs,
      onUnlisted: (unlisted) => io.stderr.write(renderUnlistedNotice(unlisted)),
    });
  };
}

/** The contexts a fleet choice names, in the kubeconfig's order (a list: as typed); none matching is a usage error. */
function fleetContexts(kubeconfig: Kubeconfig, fleet: FleetChoice): string[] {
  if ('names' in fleet) return fleet.names;
  const all = kubeconfigContexts(kubeconfig);
  const chosen = 'all' in fleet ? all : all.filter((name) => fleet.pattern.test(name));
  if (chosen.length === 0) throw new UsageError('all' in fleet ? 'the kubeconfig has no contexts' : `--contexts ${JSON.stringify(fleet.text)} matches no context of the kubeconfig`);
  return chosen;
}

/**
 * Several contexts as one source (core/fleet.ts). Two contexts that read the same API server and
 * namespace would list the same events twice: the second is read once, under the first's name, and
 * said (another user on the same server sees the same events; RBAC aside, one read tells both).
 * A context whose kubeconfig entry or credentials cannot be used is a context that did not answer.
 */
async function openFleet(scope: ScopeOptions, fleet: FleetChoice, io: SourceIo): Promise<EventSource> {
  // The files read once for every context (a parse each cost ten contexts 16 ms apiece).
  const kubeconfig = await kubeconfigOf(scope, io);
  const names = fleetContexts(kubeconfig, fleet);
  const entries: FleetEntry[] = [];
  const read = new Map<string, string>();
  for (const context of names) {
    try {
      const { target, namespace } = resolveTarget(kubeconfig, { ...scope, context }, io);
      const key = `${canonical(target.server)}\u0000${namespace ?? ''}`;
      const first = read.get(key);
      if (first !== undefined) {
        io.stderr.write(renderSameClusterNotice(context, first, target.server, namespace));
        continue;
      }
      read.set(key, context);
      const source = clusterSource(target, { namespace, timeoutMs: scope.requestTimeoutMs, onUnlisted: (unlisted) => io.stderr.write(renderUnlistedNotice(unlisted)) });
      entries.push({ context, server: target.server, namespace, source });
    } catch (unopened) {
      if (unopened instanceof KubeconfigError && unopened.problem !== 'not-loadable') throw unopened;
      // Said as any other error of a context is, by its message: a domain error (an impersonation
      // without --as, a kubeconfig that does not load) worded here, as main words it.
      const worded = inUserWords(unopened);
      entries.push({ context, server: '', namespace: scope.allNamespaces ? null : scope.namespace, unopened: worded });
    }
  }
  return fleetSource(entries);
}

/** A log store's source: its TLS files read, -v=6 request lines on stderr. */
async function openStore(request: Extract<SourceRequest, { kind: 'store' }>, io: SourceIo): Promise<EventSource> {
  const { store } = request;
  const tls = await openEndpoint({
    url: store.base,
    headers: store.headers,
    timeoutMs: request.timeoutMs,
    endpoint: 'store',
    ...(store.caFile !== undefined ? { caFile: store.caFile } : {}),
    ...(store.clientCert !== undefined ? { clientCert: store.clientCert } : {}),
  });
  const endpoint: StoreEndpoint = {
    base: store.base,
    query: store.query,
    headers: tls.headers,
    timeoutMs: request.timeoutMs,
    ...(tls.ca !== undefined ? { ca: tls.ca } : {}),
    ...(tls.clientCert !== undefined ? { clientCert: tls.clientCert } : {}),
    ...(request.verbosity >= 6 ? { log: (line: string) => io.stderr.write(line) } : {}),
  };
  return victoriaLogsSource(endpoint, {
    namespace: request.namespace,
    window: request.window,
    ...(request.keep !== undefined ? { keep: request.keep } : {}),
    ...(store.pageRows !== undefined ? { pageRows: store.pageRows } : {}),
  });
}

/** The production EventStore factory (Deps.openEventStore): the live cluster's events in the scope's namespace. */
export function systemEventStores(io: SourceIo): (scope: ScopeOptions) => Promise<EventStore> {
  return async (scope) => {
    if (scope.fleet !== undefined) throw new UsageError('aggregate-patch writes to one cluster: pass one --context');
    const { target, namespace } = resolveTarget(await kubeconfigOf(scope, io), scope, io);
    return clusterEventStore(target, namespace, scope.requestTimeoutMs);
  };
}

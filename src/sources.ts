// The production EventSource factory (Deps.openSource): a saved file through src/io, the live
// cluster through src/kube. The one place that chooses an adapter; verbs only say what they want.
import type { EventSource } from './core/source.ts';
import type { Deps, Output, SourceRequest } from './deps.ts';
import { fileSource, parseEventsText, readEventsFile } from './io/event-file.ts';
import { captureEventsPath, withCaptureObjects } from './io/capture-folder.ts';
import { recordFileSource } from './io/record-stream.ts';
import { clusterSource } from './kube/cluster-source.ts';
import { clusterEventStore } from './kube/event-store.ts';
import type { EventStore } from './core/event-store.ts';
import { loadKubeTarget } from './kube/kubeconfig.ts';
import type { KubeTarget } from './kube/kubeconfig.ts';
import type { ScopeOptions } from './commands/options.ts';
import { renderRefusedObjectsNotice, renderUnlistedNotice } from './render/tree.ts';
import { openEndpoint } from './otlp/http.ts';
import type { StoreEndpoint } from './io/victorialogs.ts';
import { victoriaLogsSource } from './io/victorialogs-source.ts';

/** What the adapters need of the process: the environment, stdin (--from -) and stderr (-v=6 request lines). */
type SourceIo = Pick<Deps, 'env' | 'stdin'> & { stderr: Pick<Output, 'write'> };

/** The kubeconfig's target and the namespace to read: -A, else -n, else the context's namespace. */
async function resolveTarget(scope: ScopeOptions, io: SourceIo): Promise<{ target: KubeTarget; namespace: string | null }> {
  const target = await loadKubeTarget({
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
      // A record is read line by line (it can be hundreds of MB); anything else, and stdin, whole.
      const record = request.path === '-' ? null : await recordFileSource(request.path, request.namespace, request.keep ?? 'all');
      if (record !== null) return record;
      const path = await captureEventsPath(request.path);
      const text = await readEventsFile(path, io.stdin);
      const refused = (file: string, why: string) => io.stderr.write(renderRefusedObjectsNotice(file, why));
      return fileSource(await withCaptureObjects(parseEventsText(text, path), path, refused), request.namespace);
    }
    if (request.kind === 'store') return openStore(request, io);
    const { target, namespace } = await resolveTarget(request.scope, io);
    return clusterSource(target, {
      namespace,
      timeoutMs: request.scope.requestTimeoutMs,
      onUnlisted: (unlisted) => io.stderr.write(renderUnlistedNotice(unlisted)),
    });
  };
}

/** A log store's source: its TLS files read, -v=6 request lines on stderr. */
async function openStore(request: Extract<SourceRequest, { kind: 'store' }>, io: SourceIo): Promise<EventSource> {
  const { store } = request;
  const tls = await openEndpoint({
    url: store.base,
    headers: store.headers,
    timeoutMs: request.timeoutMs,
    prefix: '--from',
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
  return victoriaLogsSource(endpoint, { namespace: request.namespace, window: request.window, ...(request.keep !== undefined ? { keep: request.keep } : {}) });
}

/** The production EventStore factory (Deps.openEventStore): the live cluster's events in the scope's namespace. */
export function systemEventStores(io: SourceIo): (scope: ScopeOptions) => Promise<EventStore> {
  return async (scope) => {
    const { target, namespace } = await resolveTarget(scope, io);
    return clusterEventStore(target, namespace, scope.requestTimeoutMs);
  };
}

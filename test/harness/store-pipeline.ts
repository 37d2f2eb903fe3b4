// Where a team keeps its events, on loopback: a VictoriaLogs (test/harness/victorialogs.ts) fed by
// an OpenTelemetry Collector whose contrib k8s_events receiver watches the cluster and ships
// through the core otlphttp exporter (test/harness/otelcol.ts, the otelcol-k8s build). For
// `npm run cluster -- --store` and the demo: the events outlive the cluster's TTL and deletion,
// and `kubectl evtimeline --from victorialogs+http://...` reads them back.
import { startCollector } from './otelcol.ts';
import type { Collector } from './otelcol.ts';
import { startVictoriaLogs } from './victorialogs.ts';
import type { VictoriaLogs } from './victorialogs.ts';

export interface StorePipeline {
  store: VictoriaLogs;
  collector: Collector;
  close(): Promise<void>;
}

/** Starts the store, then the collector feeding it from `kubeconfig`'s cluster (every namespace unless one is named). */
export async function startStorePipeline(kubeconfig: string, namespace?: string): Promise<StorePipeline> {
  const store = await startVictoriaLogs();
  let collector: Collector;
  try {
    collector = await startCollector({ k8s: { kubeconfig, store: store.otlpUrl, ...(namespace !== undefined ? { namespace } : {}) } });
  } catch (error) {
    await store.close();
    throw error;
  }
  return {
    store,
    collector,
    close: async () => {
      await collector.close();
      await store.close();
    },
  };
}

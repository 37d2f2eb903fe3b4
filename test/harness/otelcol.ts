// Test harness for a real OpenTelemetry Collector (test/otelcol: the OTLP receiver and the contrib
// file exporter, at the release its go.mod pins), built by build-otelcol.mjs. The test chooses
// nothing but options: the harness writes the collector's config into a fresh folder, starts it
// on a free loopback port, waits until its OTLP/HTTP receiver accepts connections, and can stop
// it (SIGTERM: a graceful shutdown that flushes the file exporter; SIGKILL: a crash) and start it
// again on the same port and output file.
//
// The file exporter appends OTLP JSON, one ExportLogsServiceRequest a line, to `output`: what
// `kubectl evtimeline --from` reads back.

import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ensureOtelcol } from './build-otelcol.mjs';
import { freePort } from './ports.ts';
import { spawnUntilReady, stopChild } from './spawned.ts';

export interface CollectorOptions {
  /** serve OTLP/HTTP over TLS with this certificate and key (PEM files); with clientCaFile, ask for a client certificate signed by it */
  tls?: { certFile: string; keyFile: string; clientCaFile?: string };
  /**
   * Also run the contrib k8s_events and k8sobjects receivers (the otelcol-k8s build, v0.111.0)
   * against this cluster and namespace, each into its own file (`receiverOutputs`); with `store`
   * (an OTLP/HTTP logs URL, e.g. VictoriaLogs' /insert/opentelemetry/v1/logs), k8s_events also
   * through the core otlphttp exporter (protobuf) to it.
   */
  /** `namespace` absent: every namespace */
  k8s?: { kubeconfig: string; namespace?: string; store?: string };
}

export interface Collector {
  /** http(s)://127.0.0.1:PORT/v1/logs: what --otlp takes */
  readonly url: string;
  /** the file exporter's output: OTLP JSON lines */
  readonly output: string;
  /** with `k8s`: what the k8s_events and the k8sobjects receivers wrote, one file each */
  readonly receiverOutputs: { k8sEvents: string; k8sObjects: string };
  readonly dir: string;
  /** the running process's id, 0 while stopped */
  readonly pid: number;
  /** stops it: SIGTERM waits for a graceful shutdown (in-flight requests answered, file flushed); SIGKILL does not */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
  /** starts it again on the same port, appending to the same output */
  restart(): Promise<void>;
  /** the file exporter's lines so far (run after a stop, or wait for its 100 ms flush) */
  readOutput(): Promise<string>;
  /** stops it and removes its folder */
  close(): Promise<void>;
}

const READY_TIMEOUT_MS = 60_000;

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}


/**
 * The collector's config as JSON (YAML is a superset): a logs pipeline from OTLP/HTTP to a file;
 * with `k8s`, one more pipeline per Kubernetes receiver, each to a file of its own.
 */
export function collectorConfig(port: number, output: string, opts: CollectorOptions = {}, outputs = receiverFiles(output)): object {
  const http: Record<string, unknown> = { endpoint: `127.0.0.1:${port}` };
  if (opts.tls) {
    http.tls = { cert_file: opts.tls.certFile, key_file: opts.tls.keyFile, ...(opts.tls.clientCaFile ? { client_ca_file: opts.tls.clientCaFile } : {}) };
  }
  // append: a restarted collector keeps what it wrote before; a short flush interval so a test
  // that reads while it runs waits little (a SIGTERM flushes everything anyway).
  const file = (path: string) => ({ path, append: true, flush_interval: '100ms' });
  const receivers: Record<string, unknown> = { otlp: { protocols: { http } } };
  const exporters: Record<string, unknown> = { file: file(output) };
  const pipelines: Record<string, unknown> = { logs: { receivers: ['otlp'], exporters: ['file'] } };
  if (opts.k8s) {
    const namespaces = opts.k8s.namespace === undefined ? [] : [opts.k8s.namespace];
    // auth_type kubeConfig: client-go's loading rules, so KUBECONFIG (set in the environment) is used.
    receivers.k8s_events = { auth_type: 'kubeConfig', namespaces };
    receivers.k8sobjects = { auth_type: 'kubeConfig', objects: [{ name: 'events', group: '', mode: 'watch', namespaces }] };
    exporters['file/k8s_events'] = file(outputs.k8sEvents);
    exporters['file/k8sobjects'] = file(outputs.k8sObjects);
    pipelines['logs/k8s_events'] = { receivers: ['k8s_events'], exporters: ['file/k8s_events', ...(opts.k8s.store ? ['otlphttp/store'] : [])] };
    // Protobuf (the exporter's default encoding), no retry wait beyond a second: a test reads the store soon after.
    if (opts.k8s.store) exporters['otlphttp/store'] = { logs_endpoint: opts.k8s.store, encoding: 'proto', retry_on_failure: { initial_interval: '100ms', max_interval: '1s' } };
    pipelines['logs/k8sobjects'] = { receivers: ['k8sobjects'], exporters: ['file/k8sobjects'] };
  }
  return {
    receivers,
    exporters,
    service: {
      // No metrics endpoint: its default port (8888) would clash between collectors on one machine.
      telemetry: { metrics: { level: 'none' }, logs: { level: 'info', encoding: 'console' } },
      pipelines,
    },
  };
}

function receiverFiles(output: string): { k8sEvents: string; k8sObjects: string } {
  return { k8sEvents: join(dirname(output), 'k8s_events.jsonl'), k8sObjects: join(dirname(output), 'k8sobjects.jsonl') };
}

/** Starts a collector in a fresh temporary folder; resolves once its receiver accepts connections. */
export async function startCollector(opts: CollectorOptions = {}): Promise<Collector> {
  const binary = opts.k8s ? await ensureOtelcol('otelcol-k8s') : process.env.EVTIMELINE_TEST_OTELCOL_BINARY || (await ensureOtelcol());
  const dir = await mkdtemp(join(tmpdir(), 'evtimeline-otelcol-'));
  const output = join(dir, 'logs.jsonl');
  const configPath = join(dir, 'config.yaml');
  const logPath = join(dir, 'collector.log');
  let child: ChildProcess | undefined;
  let port = 0;

  const launch = async (): Promise<void> => {
    const env = opts.k8s ? { ...process.env, KUBECONFIG: opts.k8s.kubeconfig } : process.env;
    const what = `the collector on 127.0.0.1:${port}`;
    child = await spawnUntilReady({ binary, args: [`--config=${configPath}`], env, logPath, what, ready: () => canConnect(port), timeoutMs: READY_TIMEOUT_MS });
  };

  const stop = async (signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> => {
    const proc = child;
    child = undefined;
    await stopChild(proc, signal);
  };

  // A port picked free can be taken before the collector binds it: try another.
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    await writeFile(configPath, JSON.stringify(collectorConfig(port, output, opts), null, 2));
    try {
      await launch();
      break;
    } catch (error) {
      if (attempt >= 3 || !/address already in use/.test(String(error))) {
        await rm(dir, { recursive: true, force: true });
        throw error;
      }
    }
  }

  const scheme = opts.tls ? 'https' : 'http';
  return {
    url: `${scheme}://127.0.0.1:${port}/v1/logs`,
    output,
    receiverOutputs: receiverFiles(output),
    dir,
    get pid() {
      return child?.pid ?? 0;
    },
    stop,
    restart: launch,
    readOutput: () => readFile(output, 'utf8').catch(() => ''),
    close: async () => {
      await stop('SIGTERM');
      await rm(dir, { recursive: true, force: true });
    },
  };
}

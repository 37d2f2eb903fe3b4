// Test harness for a real VictoriaLogs (built from the Go module proxy by build-victorialogs.mjs):
// a single node, or a cluster of storage nodes behind one insert/select front. The cluster is the
// same binary three times, as its docs say (docs/victorialogs/cluster.md, "Architecture"): a node
// without -storageNode stores and answers /internal/insert and /internal/select; a node with
// -storageNode=ADDR,ADDR shards what it is sent across them and merges what they answer.
//
// Each node gets a fresh data folder and a free loopback port; a node can be stopped and started
// again on the same port and data (a storage node lost mid-read).

import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import https from 'node:https';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureVictoriaLogs } from './build-victorialogs.mjs';
import { freePort } from './ports.ts';
import { spawnUntilReady, stopChild } from './spawned.ts';

export interface VictoriaLogsNode {
  /** http://127.0.0.1:PORT */
  readonly url: string;
  readonly port: number;
  /** its stdout and stderr (the server's own log lines) */
  readonly logPath: string;
  readonly pid: number;
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
  start(): Promise<void>;
  log(): Promise<string>;
}

export interface VictoriaLogs {
  /** the node clients talk to: the single node, or the cluster's front */
  readonly front: VictoriaLogsNode;
  /** the storage nodes of a cluster; [] for a single node */
  readonly storage: VictoriaLogsNode[];
  /** OTLP/HTTP logs endpoint: what --otlp takes */
  readonly otlpUrl: string;
  /** what --from takes: victorialogs+http://127.0.0.1:PORT */
  readonly fromUrl: string;
  /**
   * Makes what was sent searchable (/internal/force_flush on every storing node); with `rows`, waits
   * until the front counts that many (a cluster's front passes on what it is sent in its own time).
   */
  flush(rows?: number): Promise<void>;
  close(): Promise<void>;
}

const READY_TIMEOUT_MS = 60_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A node's certificate and key (-tls), and the CA that signed them, which the harness trusts. */
export interface NodeTls {
  cert: string;
  key: string;
  /** PEM text of the CA */
  ca: string;
}

/** GET a node's URL (https trusting `ca`): status and body. fetch() cannot be told a CA. */
function getText(url: string, ca?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = (url.startsWith('https:') ? https : http).get(url, ca === undefined ? {} : { ca }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

async function healthy(url: string, ca?: string): Promise<boolean> {
  try {
    return (await getText(`${url}/health`, ca)).status === 200;
  } catch {
    return false;
  }
}

async function startNode(binary: string, dir: string, name: string, extra: string[], tls?: NodeTls): Promise<VictoriaLogsNode> {
  const dataPath = join(dir, name);
  const logPath = join(dir, `${name}.log`);
  let port = await freePort();
  let child: ChildProcess | undefined;
  const scheme = tls === undefined ? 'http' : 'https';

  const start = async (): Promise<void> => {
    const args = [
      `-httpListenAddr=127.0.0.1:${port}`,
      `-storageDataPath=${dataPath}`,
      // Test events carry times from fixtures years back: keep them all.
      '-retentionPeriod=100y',
      '-futureRetention=100y',
      // On disk within a second (default 5 s): a node killed in a test loses nothing flushed before.
      '-inmemoryDataFlushInterval=1s',
      // https only (docs/victorialogs/README.md, "Security": -tls, -tlsCertFile, -tlsKeyFile).
      ...(tls === undefined ? [] : ['-tls', `-tlsCertFile=${tls.cert}`, `-tlsKeyFile=${tls.key}`]),
      ...extra,
    ];
    const ready = () => healthy(`${scheme}://127.0.0.1:${port}`, tls?.ca);
    child = await spawnUntilReady({ binary, args, logPath, what: `victoria-logs ${name} on 127.0.0.1:${port}`, ready, timeoutMs: READY_TIMEOUT_MS });
  };

  const stop = async (signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> => {
    const proc = child;
    child = undefined;
    await stopChild(proc, signal);
  };

  // A port picked free can be taken before the node binds it: try another.
  for (let attempt = 1; ; attempt++) {
    try {
      await start();
      break;
    } catch (error) {
      if (attempt >= 3 || !/address already in use/.test(String(error))) throw error;
      port = await freePort();
    }
  }
  return {
    get url() {
      return `${scheme}://127.0.0.1:${port}`;
    },
    get port() {
      return port;
    },
    logPath,
    get pid() {
      return child?.pid ?? 0;
    },
    stop,
    start,
    log: () => readFile(logPath, 'utf8').catch(() => ''),
  };
}

/** Starts a single VictoriaLogs node, or (storageNodes > 0) that many storage nodes and one front. */
export async function startVictoriaLogs(opts: { storageNodes?: number; extraArgs?: string[]; tls?: NodeTls } = {}): Promise<VictoriaLogs> {
  const binary = process.env.EVTIMELINE_TEST_VICTORIALOGS_BINARY || (await ensureVictoriaLogs());
  const dir = await mkdtemp(join(tmpdir(), 'evtimeline-victorialogs-'));
  const storage: VictoriaLogsNode[] = [];
  const nodes: VictoriaLogsNode[] = [];
  try {
    for (let i = 0; i < (opts.storageNodes ?? 0); i++) {
      const node = await startNode(binary, dir, `storage-${i + 1}`, []);
      storage.push(node);
      nodes.push(node);
    }
    const front =
      storage.length === 0
        ? await startNode(binary, dir, 'single', opts.extraArgs ?? [], opts.tls)
        : await startNode(binary, dir, 'front', [`-storageNode=${storage.map((n) => `127.0.0.1:${n.port}`).join(',')}`, ...(opts.extraArgs ?? [])]);
    nodes.push(front);
    const storing = storage.length === 0 ? [front] : storage;
    return {
      front,
      storage,
      otlpUrl: `${front.url}/insert/opentelemetry/v1/logs`,
      fromUrl: `victorialogs+${front.url}`,
      flush: async (want?: number) => {
        // A cluster's front buffers what it is sent before passing it on: flush the storage nodes
        // until the front counts what was sent (or, not told, until its count holds for a second).
        let last = -1;
        for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
          for (const node of storing) {
            const res = await getText(`${node.url}/internal/force_flush`, opts.tls?.ca);
            if (res.status !== 200) throw new Error(`${node.url}/internal/force_flush: HTTP ${res.status}`);
          }
          const res = await getText(`${front.url}/select/logsql/query?query=${encodeURIComponent('* | count() rows')}`, opts.tls?.ca);
          const rows = Number((JSON.parse(res.text.trim() || '{}') as { rows?: string }).rows ?? -1);
          if (want !== undefined ? rows >= want : rows === last) return;
          last = rows;
          await sleep(storage.length === 0 ? 0 : 1000);
        }
        throw new Error('victoria-logs: what was sent did not settle within 60 s');
      },
      close: async () => {
        for (const node of nodes.reverse()) await node.stop('SIGTERM');
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    for (const node of nodes) await node.stop('SIGKILL');
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

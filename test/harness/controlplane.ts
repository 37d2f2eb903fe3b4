// Test harness for a real Kubernetes control plane (etcd + kube-apiserver + kube-scheduler +
// kube-controller-manager at the version pinned in test/controlplane/go.mod), with Node `node-1`
// (cpu 2, memory 8Gi, pods 110; more with `nodes`) whose kubelet is a stand-in for its heartbeat
// and its pods' status only (test/controlplane/nodeagent.go): no container runs. The heartbeat can
// be stopped and restarted (test/harness/nodes.ts) to stage a node failure.
//
// Two ways to get one:
//
//   startControlPlane(opts)  - a private control plane, stopped by its stop(). Use it only for
//                               special flags (a short --event-ttl, short node failure timings,
//                               two nodes).
//
//   sharedControlPlane()     - for ordinary tests. node:test runs every test FILE in its own
//                               process, so "shared" means:
//                                 * when EVTIMELINE_TEST_KUBECONFIG is set, every file uses that
//                                   control plane and never stops it. `npm run test:integration`
//                                   sets it: its global setup (test/harness/global-setup.ts) starts
//                                   ONE control plane for the whole run. `npm run cluster` prints
//                                   the exports to reuse one from another terminal.
//                                 * otherwise (a test file run on its own) the first call in a
//                                   test-file process starts one, later calls in the same process
//                                   get the same one, and an `after` hook stops it.
//                               Files must isolate themselves with freshNamespace()
//                               (test/harness/namespace.ts) and must not stop a shared node's
//                               heartbeat.
//
// Two identities: the admin (system:masters) and `viewer`, authenticated but in no group, so RBAC
// grants it nothing until a test binds it a role in its namespace (`kubectl create rolebinding
// NAME --clusterrole=view --user=viewer -n NS`). Each has its own kubeconfig (same cluster and CA).
//
// Env-var contract (what `npm run cluster` prints and sharedControlPlane() reads):
//   EVTIMELINE_TEST_KUBECONFIG   path of the admin kubeconfig (required to reuse a control plane)
//   EVTIMELINE_TEST_VIEWER_KUBECONFIG  path of the viewer's kubeconfig (optional: the one the
//                                supervisor writes next to the admin one, <name>-viewer[.ext])
//   EVTIMELINE_TEST_SERVER       https://127.0.0.1:PORT (optional: read from the kubeconfig)
//   EVTIMELINE_TEST_TOKEN        admin bearer token      (optional: read from the kubeconfig)
//   EVTIMELINE_TEST_CONTROLPLANE_BINARY  the controlplane binary (optional: ensureControlPlane())
//   EVTIMELINE_TEST_DIR          the state folder (optional: tests that read files the supervisor
//                                writes there, such as client certificates, need it)
//   EVTIMELINE_TEST_CONTROL_SOCKET  the supervisor's control socket (optional: <dir>/control.sock
//                                when EVTIMELINE_TEST_DIR is set; without either the node helpers
//                                of test/harness/nodes.ts refuse)
//
// A test process that crashes or is killed cannot leave a control plane running: the supervisor
// is started with --exit-on-stdin-eof and its stdin is a pipe held by this process, which the
// kernel closes when the process dies; the supervisor also polls its parent pid, and its
// children die with it (Pdeathsig) and poll their own parent.

import { spawn, execFile, type ChildProcessByStdio } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { after } from 'node:test';
import type { Readable, Writable } from 'node:stream';
import { ensureControlPlane } from './build-controlplane.mjs';

export interface ControlPlaneOptions {
  /** kube-apiserver --event-ttl, a Go duration ("1h" by default). */
  eventTTL?: string;
  /** kube-apiserver --etcd-compaction-interval, a Go duration ("5m" by default). */
  compactionInterval?: string;
  /** Where to write the kubeconfig (default: <state dir>/kubeconfig, removed on stop). */
  kubeconfigOut?: string;
  /** How many nodes to register, node-1 ... node-N (default 1). */
  nodes?: number;
  /** How often each node renews its Lease, a Go duration (default "10s", the kubelet's). */
  heartbeatInterval?: string;
  /** Report bound pods Running and Ready and finish their deletion, as a kubelet would (default true). */
  podStatus?: boolean;
  /** kube-controller-manager --node-monitor-grace-period (default "50s"). */
  nodeMonitorGracePeriod?: string;
  /** kube-controller-manager --node-monitor-period (default "5s"). */
  nodeMonitorPeriod?: string;
  /** kube-apiserver --default-not-ready-toleration-seconds (default 300). */
  notReadyTolerationSeconds?: number;
  /** kube-apiserver --default-unreachable-toleration-seconds (default 300). */
  unreachableTolerationSeconds?: number;
}

/** Node failure timings short enough for a test: Unknown about 10-15 s after the heartbeat stops, evictions 5 s later. */
export const FAST_NODE_FAILURE: ControlPlaneOptions = {
  heartbeatInterval: '1s',
  nodeMonitorGracePeriod: '10s',
  nodeMonitorPeriod: '1s',
  notReadyTolerationSeconds: 5,
  unreachableTolerationSeconds: 5,
};

export interface ControlPlane {
  /** Admin kubeconfig: context `evtimeline`, namespace default, CA data + bearer token. */
  kubeconfig: string;
  /** The same cluster as user `viewer` (group system:authenticated only): RBAC allows it nothing until a test binds it a role. */
  viewerKubeconfig: string;
  /** https://127.0.0.1:PORT */
  server: string;
  /** Admin bearer token (group system:masters). */
  token: string;
  /** PEM of the CA that signed the serving certificate. */
  ca: string;
  /** The multi-call controlplane binary (`<binary> kubectl ...` is kubectl of the server's version). */
  binary: string;
  /** State folder (logs, certs, etcd data); removed on stop when the supervisor created it. */
  dir: string;
  /** Seconds from `controlplane up` start to ready (as measured by the supervisor). */
  startupSeconds: number;
  kubernetesVersion: string;
  etcdVersion: string;
  /** Process ids: the supervisor (which also runs etcd in-process), kube-apiserver, kube-scheduler, kube-controller-manager. 0 when reused from env. */
  pids: { supervisor: number; apiserver: number; scheduler: number; controllerManager: number };
  /** The supervisor's control socket (HTTP over a unix socket; test/harness/nodes.ts). '' when unknown. */
  controlSocket: string;
  /** The nodes registered at start-up (empty when reused from env). */
  nodes: string[];
  /** true when this process started it (false: reused from EVTIMELINE_TEST_KUBECONFIG). */
  owned: boolean;
  /** Stops everything and resolves when the supervisor has exited (idempotent; no-op when not owned). */
  stop(): Promise<void>;
}

interface ReadyLine {
  ready: boolean;
  error?: string;
  kubeconfig?: string;
  viewerKubeconfig?: string;
  server?: string;
  token?: string;
  caFile?: string;
  startupSeconds: number;
  dir?: string;
  pid: number;
  apiserverPid?: number;
  schedulerPid?: number;
  controllerManagerPid?: number;
  controlSocket?: string;
  nodes?: string[];
  kubernetesVersion: string;
  etcdVersion: string;
}

/** The supervisor gives up after 120 s itself and prints why; this is the outer bound. */
const READY_TIMEOUT_MS = 150_000;
const STOP_TIMEOUT_MS = 30_000;

function tail(text: string, lines = 60): string {
  const all = text.trimEnd().split('\n');
  return all.slice(-lines).join('\n');
}

function exitPromise(child: ChildProcessByStdio<Writable, Readable, Readable>): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

/**
 * Starts a private control plane; resolves once it is ready (see the file comment). The free
 * loopback ports are picked by the supervisor just before use, so another process can take one
 * in between; that case is retried (twice).
 */
export async function startControlPlane(opts: ControlPlaneOptions = {}): Promise<ControlPlane> {
  const binary = await ensureControlPlane();
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(binary, opts);
    } catch (err) {
      const msg = err instanceof Error ? err.message : String(err);
      if (attempt >= 3 || !/address already in use/i.test(msg)) throw err;
      process.stderr.write(`controlplane: a port was taken meanwhile; retrying (attempt ${attempt + 1})\n`);
    }
  }
}

async function startOnce(binary: string, opts: ControlPlaneOptions): Promise<ControlPlane> {
  const args = ['up', '--exit-on-stdin-eof'];
  if (opts.eventTTL !== undefined) args.push(`--event-ttl=${opts.eventTTL}`);
  if (opts.compactionInterval !== undefined) args.push(`--etcd-compaction-interval=${opts.compactionInterval}`);
  if (opts.kubeconfigOut !== undefined) args.push(`--kubeconfig-out=${opts.kubeconfigOut}`);
  if (opts.nodes !== undefined) args.push(`--nodes=${opts.nodes}`);
  if (opts.heartbeatInterval !== undefined) args.push(`--heartbeat-interval=${opts.heartbeatInterval}`);
  if (opts.podStatus !== undefined) args.push(`--pod-status=${opts.podStatus}`);
  if (opts.nodeMonitorGracePeriod !== undefined) args.push(`--node-monitor-grace-period=${opts.nodeMonitorGracePeriod}`);
  if (opts.nodeMonitorPeriod !== undefined) args.push(`--node-monitor-period=${opts.nodeMonitorPeriod}`);
  if (opts.notReadyTolerationSeconds !== undefined) args.push(`--default-not-ready-toleration-seconds=${opts.notReadyTolerationSeconds}`);
  if (opts.unreachableTolerationSeconds !== undefined) args.push(`--default-unreachable-toleration-seconds=${opts.unreachableTolerationSeconds}`);

  // detached: own session and process group, so a terminal's Ctrl-C reaches only us and we stop
  // the control plane in order (a second signal would make the supervisor SIGKILL its children).
  const child = spawn(binary, args, { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  const exited = exitPromise(child);
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-64 * 1024);
  });
  child.stdin.on('error', () => {}); // EPIPE when the supervisor is already gone
  child.stdout.setEncoding('utf8');

  const line = await new Promise<ReadyLine>((resolve, reject) => {
    let buf = '';
    let settled = false;
    const finish = (err: Error | null, value?: ReadyLine): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      child.off('exit', onExit);
      child.off('error', onError);
      if (err) reject(err);
      else resolve(value as ReadyLine);
    };
    const onData = (chunk: string): void => {
      buf += chunk;
      const nl = buf.indexOf('\n');
      if (nl < 0) return;
      const first = buf.slice(0, nl);
      try {
        finish(null, JSON.parse(first) as ReadyLine);
      } catch {
        finish(new Error(`controlplane up printed something that is not the ready JSON line: ${first}`));
      }
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null): void => {
      // Let the last stderr chunk arrive before reporting.
      setImmediate(() =>
        finish(
          new Error(
            `controlplane up exited (${signal ?? `code ${code}`}) before it was ready.\n` +
              `--- stderr (tail) ---\n${tail(stderr)}`,
          ),
        ),
      );
    };
    const onError = (err: Error): void => finish(new Error(`cannot run ${binary}: ${err.message}`));
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      finish(
        new Error(
          `controlplane up was not ready within ${READY_TIMEOUT_MS / 1000} s.\n--- stderr (tail) ---\n${tail(stderr)}`,
        ),
      );
    }, READY_TIMEOUT_MS);
    child.stdout.on('data', onData);
    child.once('exit', onExit);
    child.once('error', onError);
  });

  if (!line.ready || !line.kubeconfig || !line.viewerKubeconfig || !line.server || !line.token || !line.caFile || !line.dir) {
    child.kill('SIGTERM');
    await exited;
    throw new Error(
      `controlplane up failed: ${line.error ?? 'incomplete ready line'}\n--- stderr (tail) ---\n${tail(stderr)}`,
    );
  }

  // Nothing more is expected on stdout; keep draining it. A forgotten stop() must not keep the
  // test process alive: unref everything, and when this process exits the stdin pipe closes and
  // the supervisor shuts down by itself.
  child.stdout.resume();
  child.unref();
  for (const s of [child.stdin, child.stdout, child.stderr]) {
    (s as unknown as { unref?: () => void }).unref?.();
  }

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.stdin.end();
        child.kill('SIGTERM');
        const timer = setTimeout(() => {
          // Last resort: the whole group (the supervisor and, through Pdeathsig, its children).
          try {
            process.kill(-line.pid, 'SIGKILL');
          } catch {
            /* already gone */
          }
        }, STOP_TIMEOUT_MS);
        // The process handle is unref'ed; keep the loop alive while we wait.
        const keepAlive = setInterval(() => {}, 1000);
        await exited;
        clearTimeout(timer);
        clearInterval(keepAlive);
      }
      if (child.exitCode !== 0 && child.exitCode !== null) {
        process.stderr.write(`controlplane up exited with code ${child.exitCode}\n${tail(stderr, 40)}\n`);
      }
    })();
    return stopping;
  };

  return {
    kubeconfig: line.kubeconfig,
    viewerKubeconfig: line.viewerKubeconfig,
    server: line.server,
    token: line.token,
    ca: readFileSync(line.caFile, 'utf8'),
    binary,
    dir: line.dir,
    startupSeconds: line.startupSeconds,
    kubernetesVersion: line.kubernetesVersion,
    etcdVersion: line.etcdVersion,
    pids: {
      supervisor: line.pid,
      apiserver: line.apiserverPid ?? 0,
      scheduler: line.schedulerPid ?? 0,
      controllerManager: line.controllerManagerPid ?? 0,
    },
    controlSocket: line.controlSocket ?? '',
    nodes: line.nodes ?? [],
    owned: true,
    stop,
  };
}

/** Runs `<binary> kubectl ARGS` and parses its JSON output. */
function kubectlJSON(binary: string, args: string[]): Promise<unknown> {
  return new Promise((resolve, reject) => {
    execFile(binary, ['kubectl', ...args], { maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${binary} kubectl ${args.join(' ')}: ${stderr || err.message}`));
      else {
        try {
          resolve(JSON.parse(stdout));
        } catch (e) {
          reject(e instanceof Error ? e : new Error(String(e)));
        }
      }
    });
  });
}

/** A ControlPlane for the one named by EVTIMELINE_TEST_KUBECONFIG; stop() is a no-op. */
export async function controlPlaneFromEnv(env: NodeJS.ProcessEnv = process.env): Promise<ControlPlane | undefined> {
  const kubeconfig = env.EVTIMELINE_TEST_KUBECONFIG;
  if (!kubeconfig) return undefined;
  const binary = env.EVTIMELINE_TEST_CONTROLPLANE_BINARY || (await ensureControlPlane());
  const view = (await kubectlJSON(binary, [
    'config',
    'view',
    '--raw',
    '--minify',
    '-o',
    'json',
    `--kubeconfig=${kubeconfig}`,
  ])) as {
    clusters?: { cluster?: { server?: string; 'certificate-authority-data'?: string } }[];
    users?: { user?: { token?: string } }[];
  };
  const cluster = view.clusters?.[0]?.cluster;
  const server = env.EVTIMELINE_TEST_SERVER || cluster?.server;
  const token = env.EVTIMELINE_TEST_TOKEN || view.users?.[0]?.user?.token;
  if (!server || !token) {
    throw new Error(`EVTIMELINE_TEST_KUBECONFIG=${kubeconfig}: no server or token in its current context`);
  }
  const viewerKubeconfig = env.EVTIMELINE_TEST_VIEWER_KUBECONFIG || viewerKubeconfigPath(kubeconfig);
  if (!existsSync(viewerKubeconfig)) {
    throw new Error(
      `EVTIMELINE_TEST_KUBECONFIG=${kubeconfig}: no viewer kubeconfig at ${viewerKubeconfig} ` +
        '(set EVTIMELINE_TEST_VIEWER_KUBECONFIG, or restart `npm run cluster` and export what it prints)',
    );
  }
  const caData = cluster?.['certificate-authority-data'];
  return {
    kubeconfig,
    viewerKubeconfig,
    server,
    token,
    ca: caData ? Buffer.from(caData, 'base64').toString('utf8') : '',
    binary,
    dir: env.EVTIMELINE_TEST_DIR ?? '',
    startupSeconds: 0,
    kubernetesVersion: '',
    etcdVersion: '',
    pids: { supervisor: 0, apiserver: 0, scheduler: 0, controllerManager: 0 },
    controlSocket: env.EVTIMELINE_TEST_CONTROL_SOCKET || (env.EVTIMELINE_TEST_DIR ? join(env.EVTIMELINE_TEST_DIR, 'control.sock') : ''),
    nodes: [], // unknown here: listNodes() (test/harness/nodes.ts) asks the supervisor
    owned: false,
    stop: () => Promise.resolve(),
  };
}

/** The env-var contract above, for a control plane this process started (global setup, `npm run cluster`). */
export function controlPlaneEnv(cp: ControlPlane): Record<string, string> {
  return {
    EVTIMELINE_TEST_KUBECONFIG: cp.kubeconfig,
    EVTIMELINE_TEST_VIEWER_KUBECONFIG: cp.viewerKubeconfig,
    EVTIMELINE_TEST_CONTROLPLANE_BINARY: cp.binary,
    EVTIMELINE_TEST_DIR: cp.dir,
    EVTIMELINE_TEST_CONTROL_SOCKET: cp.controlSocket,
  };
}

/** Where the supervisor writes the viewer's kubeconfig (viewerKubeconfigPath in test/controlplane/up.go). */
export function viewerKubeconfigPath(adminKubeconfig: string): string {
  const ext = extname(adminKubeconfig);
  return `${adminKubeconfig.slice(0, adminKubeconfig.length - ext.length)}-viewer${ext}`;
}

let shared: Promise<ControlPlane> | undefined;

/**
 * One control plane per test-file process (or the one named by EVTIMELINE_TEST_KUBECONFIG).
 * Call it at the top level of a test file or in a top-level `before` hook (not inside a test:
 * node:test would attach the `after` hook that stops it to that test).
 */
export function sharedControlPlane(): Promise<ControlPlane> {
  if (!shared) {
    shared = (async () => {
      const fromEnv = await controlPlaneFromEnv();
      if (fromEnv) return fromEnv;
      return startControlPlane();
    })();
    const p = shared;
    after(async () => {
      const cp = await p.catch(() => undefined);
      await cp?.stop();
    });
  }
  return shared;
}

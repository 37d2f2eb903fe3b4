// A real node beside the control plane's heartbeat-only nodes: a kubelet (a subcommand of the
// control plane binary), containerd, runc and the CNI bridge, run by `controlplane kubelet-node`
// (test/controlplane/kubeletnode.go) in its own private mount namespace, slot, cgroup root, bridge
// and pod subnet, so several test runs on one machine never collide.
//
// The node is registered tainted (REAL_NODE_TAINT, NoSchedule) so the scheduler keeps every other
// test's pods on the heartbeat nodes (whose stand-in marks them Running): a pod meant for the real
// node names it (spec.nodeName) or tolerates the taint (realNodePod builds one either way).
//
// Lifetime, as for the control plane (controlplane.ts): the supervisor is started with
// --exit-on-stdin-eof on a pipe this process holds, and polls its parent pid; when this process
// dies (even by SIGKILL) it tears the node down by itself. stop() asks it (SIGTERM) and resolves
// once the kubelet, containerd, every container, the cgroups and the bridge are gone.
//
// Env-var contract (the global setup and `npm run cluster` set it; sharedRealNode() reads it):
//   EVTIMELINE_TEST_REAL_NODE   the supervisor's ready line (JSON, see RealNodeInfo)

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { after } from 'node:test';
import { ensureNodeBinaries } from './build-node.mjs';
import { sharedControlPlane, type ControlPlane } from './controlplane.ts';
import { missingForRealNode } from './node-prerequisites.mjs';

/** What the supervisor prints once the Node is Ready. */
export interface RealNodeInfo {
  name: string;
  dir: string;
  pid: number;
  kubeletPid: number;
  containerdPid: number;
  slot: number;
  bridge: string;
  podCIDR: string;
  cgroupRoot: string;
  nodeIP: string;
  kubeletPort: number;
  /** key=value:Effect */
  taint: string;
  images: string[];
  podLogsDir: string;
  maxRestartPeriod: string;
  startupSeconds: number;
  kubeletVersion: string;
  containerdVersion: string;
}

export interface RealNode extends RealNodeInfo {
  /** true when this process started it. */
  owned: boolean;
  /** Tears the node down; resolves when the supervisor has exited (no-op when not owned). */
  stop(): Promise<void>;
}

/** The busybox image the node makes from Debian's busybox-static (with /bin/hog); never pulled. */
export const BUSYBOX_IMAGE = 'docker.io/library/busybox:1.35.0-local';
/** An image nothing can pull: a registry on a closed loopback port, so no traffic leaves the machine. */
export const UNPULLABLE_IMAGE = '127.0.0.1:1/nothing:v1';
export const REAL_NODE_TAINT = { key: 'evtimeline.dev/real-node', value: 'true', effect: 'NoSchedule' } as const;

const READY_TIMEOUT_MS = 180_000;
const STOP_TIMEOUT_MS = 60_000;

export interface RealNodeOptions {
  name?: string;
  /** KubeletConfiguration crashLoopBackOff.maxContainerRestartPeriod (a Go duration; default 5s). */
  maxRestartPeriod?: string;
}

/** Throws the one line naming what this machine lacks for a real node, before anything is built. */
export function assertRealNodePossible(): void {
  const missing = missingForRealNode();
  if (missing) throw new Error(missing);
}

/** Starts a real node on a control plane this process can reach (its dir holds client-ca.crt). */
export async function startRealNode(cp: ControlPlane, opts: RealNodeOptions = {}): Promise<RealNode> {
  assertRealNodePossible();
  if (!cp.dir) throw new Error('a real node needs the control plane state folder (EVTIMELINE_TEST_DIR): its client CA');
  const { containerdDir, cniDir, podTools } = await ensureNodeBinaries();
  const name = opts.name ?? 'node-k';
  const dir = join(cp.dir, `kubelet-node-${name}`);
  const args = [
    'kubelet-node', '--exit-on-stdin-eof', `--name=${name}`, `--dir=${dir}`, `--kubeconfig=${cp.kubeconfig}`,
    `--client-ca=${join(cp.dir, 'client-ca.crt')}`, `--containerd-dir=${containerdDir}`, `--cni-dir=${cniDir}`,
    `--pod-tools=${podTools}`, `--max-restart-period=${opts.maxRestartPeriod ?? '5s'}`,
  ];
  // detached: its own process group, so a terminal's Ctrl-C reaches only this process, which then stops it in order.
  const child = spawn(cp.binary, args, { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-32 * 1024);
  });
  child.stdin.on('error', () => {});
  child.stdout.setEncoding('utf8');
  const line = await new Promise<{ ready: boolean; error?: string } & RealNodeInfo>((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error(`kubelet-node was not ready within ${READY_TIMEOUT_MS / 1000} s\n${stderr}`));
    }, READY_TIMEOUT_MS);
    child.stdout.on('data', (chunk: string) => {
      buf += chunk;
      const nl = buf.indexOf('\n');
      if (nl < 0) return;
      clearTimeout(timer);
      try {
        resolve(JSON.parse(buf.slice(0, nl)));
      } catch {
        reject(new Error(`kubelet-node printed something that is not its ready line: ${buf.slice(0, nl)}`));
      }
    });
    child.once('exit', (code, signal) =>
      setImmediate(() => {
        clearTimeout(timer);
        reject(new Error(`kubelet-node exited (${signal ?? `code ${code}`}) before it was ready\n${stderr}`));
      }),
    );
  });
  if (!line.ready) {
    await exited;
    throw new Error(`kubelet-node failed: ${line.error}\n${stderr}`);
  }
  child.stdout.resume();
  child.unref();
  for (const s of [child.stdin, child.stdout, child.stderr]) (s as unknown as { unref?: () => void }).unref?.();
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const keepAlive = setInterval(() => {}, 1000);
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      child.kill('SIGTERM');
      await exited;
      clearTimeout(timer);
      clearInterval(keepAlive);
    })();
    return stopping;
  };
  const { ready: _ready, error: _error, ...info } = line;
  return { ...info, owned: true, stop };
}

export function realNodeEnv(node: RealNodeInfo): Record<string, string> {
  const { owned: _o, stop: _s, ...info } = node as RealNode;
  return { EVTIMELINE_TEST_REAL_NODE: JSON.stringify(info) };
}

export function realNodeFromEnv(env: NodeJS.ProcessEnv = process.env): RealNode | undefined {
  const raw = env.EVTIMELINE_TEST_REAL_NODE;
  if (!raw) return undefined;
  return { ...(JSON.parse(raw) as RealNodeInfo), owned: false, stop: () => Promise.resolve() };
}

let shared: Promise<{ cp: ControlPlane; node: RealNode }> | undefined;

/**
 * The run's real node (EVTIMELINE_TEST_REAL_NODE) on the shared control plane; a test file run on
 * its own starts one on its own control plane, stopped by an `after` hook. Call it at the top level.
 */
export function sharedRealNode(): Promise<{ cp: ControlPlane; node: RealNode }> {
  if (!shared) {
    shared = (async () => {
      const cp = await sharedControlPlane();
      const fromEnv = realNodeFromEnv();
      if (fromEnv && !cp.owned) return { cp, node: fromEnv };
      return { cp, node: await startRealNode(cp) };
    })();
    const p = shared;
    after(async () => {
      const got = await p.catch(() => undefined);
      await got?.node.stop();
    });
  }
  return shared;
}

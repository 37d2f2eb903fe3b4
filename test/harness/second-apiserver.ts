// A second kube-apiserver of a cluster, for an apiserver restart on cue: the same binary, flags,
// certificates and etcd, on a port of its own, that a test stops (SIGTERM: kube-apiserver's graceful
// shutdown ends its watches) and starts again. The control plane cannot restart its own
// kube-apiserver: its supervisor takes that process's exit as fatal and stops the cluster
// (test/controlplane/up.go startChild). Two kube-apiservers over one etcd is what an HA control
// plane runs.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs';
import https from 'node:https';
import type { ControlPlane } from './controlplane.ts';
import { freePort } from './ports.ts';
import { waitFor } from './wait.ts';

export interface Apiserver {
  server: string;
  /** SIGTERM (default): a graceful stop, which drains its watches first; SIGKILL: a crash, the connections gone at once */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
  start(): Promise<void>;
}

const cmdline = (pid: number | string): string[] => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter((a) => a !== '');
  } catch {
    return [];
  }
};

/**
 * The command line of `on`'s kube-apiserver: its pid when this process started the control plane,
 * else (one shared through the env, pids 0) the process serving its port with certificates in its folder.
 */
function apiserverArgv(on: ControlPlane): string[] {
  if (on.pids.apiserver > 0) return cmdline(on.pids.apiserver);
  const port = new URL(on.server).port;
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    const argv = cmdline(pid);
    if (argv.includes(`--secure-port=${port}`) && on.dir !== '' && argv.some((a) => a.includes(on.dir))) return argv;
  }
  throw new Error(`no kube-apiserver serving ${on.server} with its files in ${on.dir || '(no folder)'}`);
}

/**
 * Started and ready; stop() then start() is the restart. `drain`, when given, is its --request-timeout:
 * a graceful stop waits that long (60 s by default) for open requests, a watch over HTTP/1.1 among them,
 * before it exits (ShutdownTimeout is RequestTimeout: k8s.io/apiserver v0.36.3 pkg/server/config.go:844,
 * lifecycle_signals.go:49-50), and a test that only needs the stop to happen need not sit through it.
 */
export async function secondApiserver(on: ControlPlane, logFile: string, drain?: string): Promise<Apiserver> {
  const argv = apiserverArgv(on);
  const port = await freePort();
  const args = argv
    .slice(1)
    .filter((a) => drain === undefined || !a.startsWith('--request-timeout='))
    .map((a) => (a.startsWith('--secure-port=') ? `--secure-port=${port}` : a))
    .concat(drain === undefined ? [] : [`--request-timeout=${drain}`]);
  const server = `https://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  const ready = () =>
    new Promise<boolean>((resolve) => {
      const req = https.request(new URL('/readyz', server), { ca: on.ca, headers: { Authorization: `Bearer ${on.token}` } }, (res) => {
        res.resume();
        resolve(res.statusCode === 200);
      });
      req.on('error', () => resolve(false));
      req.end();
    });
  const api: Apiserver = {
    server,
    async start() {
      const log = openSync(logFile, 'a');
      const env = { ...process.env };
      delete env.CONTROLPLANE_SUPERVISED;
      child = spawn(argv[0]!, args, { stdio: ['ignore', log, log], env });
      closeSync(log);
      await waitFor(`the second kube-apiserver on ${server} to be ready`, ready, { everyMs: 500 });
    },
    async stop(signal = 'SIGTERM') {
      const running = child;
      if (running === undefined || running.exitCode !== null || running.signalCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill(signal);
      await exited;
    },
  };
  await api.start();
  return api;
}

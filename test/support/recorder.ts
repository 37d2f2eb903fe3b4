// The built executable's `record`, run as a user would (its own HOME, only KUBECONFIG and PATH),
// and a kubeconfig that reaches a control plane through a TCP proxy: shared by the record and -w tests.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import type { ControlPlane } from '../harness/controlplane.ts';
import { PLUGIN_BINARY } from '../harness/plugin.ts';
import type { TcpProxy } from '../harness/tcp-proxy.ts';

export interface Ended {
  code: number | null;
  stderr: string;
}

export interface Recorder {
  child: ChildProcess;
  ended: Promise<Ended>;
  /** stderr so far */
  stderr(): string;
}

/** Starts `record ARGS`; the child is added to `children` so the test's after() can kill what is left. */
export function startRecord(args: string[], kubeconfig: string, home: string, children: Set<ChildProcess>): Recorder {
  const child = spawn(PLUGIN_BINARY, ['record', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH, HOME: home, KUBECONFIG: kubeconfig } });
  children.add(child);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const ended = new Promise<Ended>((resolve) => child.on('close', (code) => resolve({ code, stderr })));
  return { child, ended, stderr: () => stderr };
}

/** Writes (to `path`) an admin kubeconfig for `on` that reaches it at `server`, context namespace `ns`. */
export function adminKubeconfigAt(on: ControlPlane, server: string, ns: string, path: string): string {
  writeFileSync(
    path,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      'current-context': 'proxied',
      clusters: [{ name: 'proxied', cluster: { server, 'certificate-authority-data': Buffer.from(on.ca).toString('base64') } }],
      users: [{ name: 'admin', user: { token: on.token } }],
      contexts: [{ name: 'proxied', context: { cluster: 'proxied', user: 'admin', namespace: ns } }],
    }),
  );
  return path;
}

/** Writes (to `path`) an admin kubeconfig for `on` whose server is the proxy, context namespace `ns`. */
export function proxiedKubeconfig(on: ControlPlane, proxy: TcpProxy, ns: string, path: string): string {
  return adminKubeconfigAt(on, proxy.url, ns, path);
}

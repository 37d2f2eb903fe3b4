// Writing many events fast: test/controlplane/etcdevents puts them into the control plane's etcd in
// the bytes kube-apiserver itself stores (the first of each shape POSTed for real, a sample
// checked against the API server's dry-run create; see the top of its main.go). 200,000 POSTs
// cost the API server minutes of CPU on this 2-core machine; this takes seconds.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { controlPlaneSourceDir, ensureGoBinary } from '../test/harness/build-controlplane.mjs';
import type { ControlPlane } from '../test/harness/controlplane.ts';
import type { Planned } from './bench-events.ts';

/** What etcdevents printed: how many went through the API server, how many straight to etcd. */
export interface EtcdWritten {
  events: number;
  posted: number;
  direct: number;
  checked: number;
  shapes: number;
  seconds: number;
}

/** kube-apiserver's own flags, from its command line (the truth about which etcd it reads). */
async function apiserverFlags(pid: number): Promise<Map<string, string>> {
  const args = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0');
  const flags = new Map<string, string>();
  for (const arg of args) {
    const m = /^--([^=]+)=(.*)$/.exec(arg);
    if (m) flags.set(m[1] as string, m[2] as string);
  }
  return flags;
}

/** A writer of planned events into `cp` (which this process started: its apiserver's pid is known). */
export async function etcdWriter(cp: ControlPlane): Promise<(planned: Planned[]) => Promise<EtcdWritten>> {
  // Its key covers only its own folder: the module's pins (the codec must be the API server's
  // version) join it through a stamp in the link flags.
  const pins = createHash('sha256');
  for (const name of ['go.mod', 'go.sum']) pins.update(await readFile(join(controlPlaneSourceDir, name)));
  const binary = await ensureGoBinary({
    name: 'etcdevents',
    sourceDir: join(controlPlaneSourceDir, 'etcdevents'),
    ldflags: `-s -w -X main.pins=${pins.digest('hex').slice(0, 16)}`,
    log: (m: string) => process.stderr.write(`etcdevents: ${m}\n`),
  });
  if (!cp.pids.apiserver) throw new Error('writing to etcd needs a control plane this process started (its apiserver pid)');
  const flags = await apiserverFlags(cp.pids.apiserver);
  const etcd = flags.get('etcd-servers')?.split(',')[0];
  if (!etcd) throw new Error(`kube-apiserver (pid ${cp.pids.apiserver}) has no --etcd-servers`);
  const ttl = flags.get('event-ttl') ?? '1h';
  return (planned) =>
    new Promise((resolvePromise, reject) => {
      const child = spawn(binary, [`--kubeconfig=${cp.kubeconfig}`, `--etcd=${etcd}`, `--ttl=${ttl}`], { stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
      child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
      child.on('error', reject);
      child.on('close', (code) => {
        if (code !== 0) return reject(new Error(`etcdevents failed (exit ${code}): ${stderr.trim().slice(-2000)}`));
        try {
          resolvePromise(JSON.parse(stdout) as EtcdWritten);
        } catch {
          reject(new Error(`etcdevents printed ${JSON.stringify(stdout.slice(0, 200))}`));
        }
      });
      child.stdin.on('error', () => {}); // its exit says why
      // One write per 1,000 lines keeps the pipe busy without a string of the whole plan.
      void (async () => {
        for (let i = 0; i < planned.length; i += 1000) {
          const chunk = planned.slice(i, i + 1000).map((p) => `${JSON.stringify(p)}\n`).join('');
          if (!child.stdin.write(chunk)) await new Promise((r) => child.stdin.once('drain', r));
        }
        child.stdin.end();
      })();
    });
}

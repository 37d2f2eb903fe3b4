// `npm run bench:tree-follow`: what `-w --for rs/X --tree` costs while an owner's events name new
// children fast (issue 28 M5). A private control plane, a ReplicaSet `web` (0 replicas: the
// controller makes no pods), then the built plugin follows it (`-w -n NS --for rs/web --tree
// -v=6`, the table) while --events core/v1 events `SuccessfulCreate` "Created pod: ghost-N" about web are
// written (8 at a time, straight to the API server). Printed: how long the writes took, how far the
// follow was behind when the last was written (until it had printed them all), the plugin's CPU
// (user+sys from /proc while it still runs) and its GETs and LISTs (from -v=6). A benchmark, not a
// test: it judges nothing, except that it fails loudly when not every event is printed.
//
//   node --import tsx scripts/bench-tree-follow.ts [--events 3000] [--plugin dist/kubectl-evtimeline]
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Api } from './bench-api.ts';
import { startControlPlane } from '../test/harness/controlplane.ts';
import { freshNamespace } from '../test/harness/namespace.ts';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
}

/** user+sys CPU seconds of a running process (/proc/PID/stat fields 14 and 15, in clock ticks of 1/100 s). */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function main(): Promise<void> {
  const total = Number(arg('--events', '3000'));
  const plugin = arg('--plugin', 'dist/kubectl-evtimeline');
  const cp = await startControlPlane();
  const api = new Api(cp);
  try {
    const ns = await freshNamespace(cp.kubeconfig, 'bench-tree-follow');
    const rs = await api.call('POST', `/apis/apps/v1/namespaces/${ns}/replicasets`, {
      metadata: { name: 'web' },
      spec: { replicas: 0, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'busybox:1.36' }] } } },
    });
    const child = spawn(plugin, ['-w', '-n', ns, '--for', 'rs/web', '--tree', '-v=6'], {
      env: { PATH: process.env.PATH, HOME: cp.dir, KUBECONFIG: cp.kubeconfig },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let rows = 0;
    let stderr = '';
    let lastRowAt = 0;
    let carry = '';
    child.stdout.on('data', (chunk: Buffer) => {
      const text = carry + chunk.toString();
      const lines = text.split('\n');
      carry = lines.pop() ?? '';
      rows += lines.filter((l) => l.includes('Created pod: ghost-')).length;
      lastRowAt = performance.now();
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // Following once its list is done (No events found).
    while (!stderr.includes('No events found')) await new Promise((r) => setTimeout(r, 100));
    const cpuBefore = cpuSeconds(child.pid as number);
    const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < total) {
          const n = next++;
          await api.call('POST', `/api/v1/namespaces/${ns}/events`, {
            metadata: { name: `web.ghost-${n}` },
            involvedObject: { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', namespace: ns, uid: rs.metadata.uid },
            reason: 'SuccessfulCreate',
            message: `Created pod: ghost-${n}`,
            type: 'Normal',
            source: { component: 'replicaset-controller' },
            firstTimestamp: now,
            lastTimestamp: now,
            count: 1,
          });
        }
      }),
    );
    const written = performance.now();
    const deadline = written + 600_000;
    while (rows < total && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const cpu = cpuSeconds(child.pid as number) - cpuBefore;
    child.kill('SIGINT');
    await new Promise((r) => child.on('close', r));
    // -v=6: one `"Response" verb="GET" url="..."` line per request (src/kube/http.ts, as client-go's round_trippers.go).
    const requests = stderr.split('\n').filter((l) => l.includes('"Response" verb="GET"') && !l.includes('/events?'));
    const gets = requests.filter((l) => !/url="[^"]*\?[^"]*"/.test(l));
    if (rows < total) throw new Error(`the follow printed ${rows} of ${total} events in 10 minutes`);
    console.log(`-w --for rs/web --tree, ${total} "Created pod: ghost-N" events about web (${plugin}):`);
    console.log(`  written in ${((written - started) / 1000).toFixed(1)} s; last printed ${(Math.max(0, lastRowAt - written) / 1000).toFixed(1)} s after the last write`);
    console.log(`  plugin CPU (user+sys) while following: ${cpu.toFixed(2)} s; GETs of objects while following: ${requests.length} (single-object GETs: ${gets.length}, LISTs: ${requests.length - gets.length})`);
  } finally {
    api.close();
    await cp.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

// `npm run bench:wait`: how soon `kubectl evtimeline wait` says a good rollout is done, beside
// `kubectl rollout status` on the same rollout. A private control plane with the real node
// (test/harness/kubelet-node.ts); a Deployment of --replicas Pods on it, rolled out --rollouts times
// (each a new template: an annotation changes). For each, both commands start right after the
// change is applied; each one's finish is taken when its process exits, from the moment of the
// change. The goal: wait finishes within 1 s of kubectl rollout status, every time.
//
//   node --import tsx scripts/bench-wait.ts [--rollouts 5] [--replicas 2]
import { execFile } from 'node:child_process';
import { loadavg } from 'node:os';
import { startControlPlane } from '../test/harness/controlplane.ts';
import { BUSYBOX_IMAGE, startRealNode } from '../test/harness/kubelet-node.ts';
import { applyObjects, kubectlOk } from '../test/harness/kubectl.ts';
import { freshNamespace } from '../test/harness/namespace.ts';
import { pluginEnv } from '../test/harness/plugin.ts';
import { onRealNode } from '../test/harness/real-node-pods.ts';

function flag(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  const value = at < 0 ? fallback : Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} takes a whole number`);
  return value;
}

/** Seconds from `since` until `kubectl ARGS` exits, and its exit code. */
function finish(args: string[], env: NodeJS.ProcessEnv, since: number): Promise<{ seconds: number; code: number }> {
  return new Promise((resolve) => {
    execFile('kubectl', args, { env }, (error) => resolve({ seconds: (Date.now() - since) / 1000, code: error ? Number(error.code ?? 1) : 0 }));
  });
}

const rollouts = flag('--rollouts', 5);
const replicas = flag('--replicas', 2);
const cp = await startControlPlane();
const node = await startRealNode(cp);
try {
  const kc = cp.kubeconfig;
  const env = pluginEnv(kc);
  const ns = await freshNamespace(kc, 'bench-wait');
  const deployment = (round: number) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: ns },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' }, annotations: { round: String(round) } },
        spec: { ...onRealNode(node), terminationGracePeriodSeconds: 1, containers: [{ name: 'main', image: BUSYBOX_IMAGE, command: ['sleep', '3600'], readinessProbe: { exec: { command: ['true'] }, periodSeconds: 1 } }] },
      },
    },
  });
  await applyObjects(kc, [deployment(0)]);
  await kubectlOk(kc, ['rollout', 'status', 'deploy/web', '-n', ns, '--timeout', '5m']);
  const rows: string[] = [];
  for (let round = 1; round <= rollouts; round++) {
    await applyObjects(kc, [deployment(round)]);
    const since = Date.now();
    const [kubectl, wait] = await Promise.all([
      finish(['rollout', 'status', 'deploy/web', '-n', ns, '--timeout', '5m'], env, since),
      finish(['evtimeline', 'wait', 'deploy/web', '-n', ns, '--timeout', '5m', '-q'], env, since),
    ]);
    if (kubectl.code !== 0 || wait.code !== 0) throw new Error(`round ${round}: kubectl rollout status exited ${kubectl.code}, wait ${wait.code}`);
    rows.push(`| ${round} | ${kubectl.seconds.toFixed(2)} | ${wait.seconds.toFixed(2)} | ${(wait.seconds - kubectl.seconds).toFixed(2)} |`);
  }
  process.stdout.write(`Rollouts of ${replicas} Pods on the real node, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}:\n\n`);
  process.stdout.write(`| rollout | kubectl rollout status (s) | evtimeline wait (s) | wait - kubectl (s) |\n| --- | --- | --- | --- |\n${rows.join('\n')}\n`);
} finally {
  await node.stop();
  await cp.stop();
}

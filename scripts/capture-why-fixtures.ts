// Captures the fixtures of test/unit/core/causes-real.test.ts from the real node: a private control
// plane with a real kubelet (test/harness/kubelet-node.ts), the incidents of
// test/integration/why-real-node.test.ts staged on it, then each Pod, Job and Node and their events
// saved as `kubectl get -o json` returns them (test/fixtures/why/<name>.json: {"objects": [...],
// "events": [...]}). Run it again to refresh them:
//
//   node --import tsx scripts/capture-why-fixtures.ts
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startControlPlane } from '../test/harness/controlplane.ts';
import { startRealNode } from '../test/harness/kubelet-node.ts';
import { applyObjects, kubectlJSON } from '../test/harness/kubectl.ts';
import { freshNamespace } from '../test/harness/namespace.ts';
import { ROOT } from '../test/harness/plugin.ts';
import { describeWhen, stageOomKill, whyScenarios } from '../test/harness/real-node-pods.ts';
import { waitFor } from '../test/harness/wait.ts';
import { listEvents } from '../test/harness/workloads.ts';

const OUT = join(ROOT, 'test', 'fixtures', 'why');

/** What identifies a run (uids, times, resourceVersions) is kept: the fixtures are the objects as read. */
async function save(kubeconfig: string, name: string, ns: string, resources: string[]): Promise<void> {
  const objects: unknown[] = [];
  for (const r of resources) objects.push(...(await kubectlJSON<{ items: unknown[] }>(kubeconfig, ['-n', ns, 'get', r])).items);
  const events = await listEvents(kubeconfig, ns);
  writeFileSync(join(OUT, `${name}.json`), `${JSON.stringify({ command: `kubectl -n NS get ${resources.join(',')} -o json; kubectl -n NS get events -o json`, objects, events }, null, 1)}\n`);
  process.stderr.write(`saved ${name}.json: ${objects.length} objects, ${events.length} events\n`);
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const cp = await startControlPlane();
  try {
    const node = await startRealNode(cp);
    try {
      const kc = cp.kubeconfig;
      const ns: Record<string, string> = {};
      for (const n of ['oom', 'crash', 'pull', 'config', 'probe', 'job']) ns[n] = await freshNamespace(kc, `fixture-${n}`);
      await applyObjects(kc, whyScenarios(node, ns));
      await stageOomKill(kc, node, ns.oom!, 'thumbnailer', (l) => process.stderr.write(`${l}\n`));
      await save(kc, 'oom-killed', ns.oom!, ['pods', 'deployments', 'replicasets']);
      await describeWhen(kc, ns.crash!, 'crasher', 'main', (d) => d.restartCount >= 2);
      await save(kc, 'exits', ns.crash!, ['pods']);
      await describeWhen(kc, ns.pull!, 'puller', 'main', (d) => d.reason === 'ImagePullBackOff');
      await save(kc, 'image-pull', ns.pull!, ['pods']);
      await describeWhen(kc, ns.config!, 'configured', 'main', (d) => d.reason === 'CreateContainerConfigError');
      await save(kc, 'missing-key', ns.config!, ['pods']);
      await describeWhen(kc, ns.probe!, 'prober', 'main', (d) => d.restartCount >= 1);
      await waitFor('Killing', async () => ((await listEvents(kc, ns.probe!)).some((e) => e.reason === 'Killing') ? true : undefined));
      await save(kc, 'liveness', ns.probe!, ['pods']);
      await waitFor('the Job Failed', async () => {
        const job = await kubectlJSON<{ status?: { conditions?: { type: string; reason: string }[] } }>(kc, ['-n', ns.job!, 'get', 'job', 'migrate']);
        return job.status?.conditions?.some((c) => c.type === 'Failed' && c.reason === 'BackoffLimitExceeded') ? true : undefined;
      });
      await save(kc, 'backoff-limit', ns.job!, ['jobs', 'pods']);
    } finally {
      await node.stop();
    }
  } finally {
    await cp.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`capture-why-fixtures: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});

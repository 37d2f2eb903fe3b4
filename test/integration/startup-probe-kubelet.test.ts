// A start-up probe failing for minutes on the real kubelet (node-k): the kubelet's Unhealthy
// events, its spam filter, and --exclude-startup-probes, each as the kubelet's code says:
//   - pkg/kubelet/prober/prober.go:123 records "Startup probe failed: ..." (Unhealthy, Warning) at
//     every failure, below the threshold too;
//   - pkg/kubelet/kuberuntime/kuberuntime_manager.go:1349 kills the container once the threshold is
//     reached, with the Killing message "Container NAME failed startup probe, will be restarted";
//   - the kubelet records through client-go's legacy recorder: tools/record/events_cache.go:47-48
//     lets 25 writes through per source, object and type, then one every 300 s, so the server's
//     count of a probe failing every second stops at 25 while the kubelet goes on counting.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedRealNode, BUSYBOX_IMAGE, type RealNode } from '../harness/kubelet-node.ts';
import type { ControlPlane } from '../harness/controlplane.ts';
import { kubectlOk } from '../harness/kubectl.ts';
import { freshNamespace } from '../harness/namespace.ts';
import { evtimeline } from '../harness/plugin.ts';
import { waitFor } from '../harness/wait.ts';
import { listEvents, type CoreEvent } from '../harness/workloads.ts';

const shared = sharedRealNode();
let cp: ControlPlane;
let node: RealNode;
let ns: string;

/** A Pod on the real node whose start-up probe (HTTP to a port nothing listens on) fails every second. */
function slowStarter(name: string, failureThreshold: number) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: ns, labels: { app: name } },
    spec: {
      nodeName: node.name,
      terminationGracePeriodSeconds: 1,
      containers: [
        {
          name: 'app',
          image: BUSYBOX_IMAGE,
          command: ['sleep', '3600'],
          startupProbe: { httpGet: { path: '/', port: 8080 }, periodSeconds: 1, timeoutSeconds: 5, failureThreshold },
        },
      ],
    },
  };
}

const about = (events: CoreEvent[], pod: string, reason: string) => events.filter((e) => e.involvedObject.name === pod && e.reason === reason);

before(async () => {
  ({ cp, node } = await shared);
  ns = await freshNamespace(cp.kubeconfig, 'probe');
  await kubectlOk(cp.kubeconfig, ['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [slowStarter('slow', 10_000), slowStarter('killed', 3)] }));
  // slow: its Unhealthy reaches 25 on the server (the spam filter's burst); killed: its container is killed for the probe.
  await waitFor('slow has 25 Unhealthy and killed a Killing', async () => {
    const events = await listEvents(cp.kubeconfig, ns);
    return (about(events, 'slow', 'Unhealthy')[0]?.count ?? 0) >= 25 && about(events, 'killed', 'Killing').length > 0;
  }, { timeoutMs: 300_000 });
});

test("the kubelet's spam filter stops the server's count at 25 while the probe goes on failing, and the account says so", async () => {
  // 15 more failures at one a second: the kubelet counts them, the bucket lets none through.
  await new Promise((resolve) => setTimeout(resolve, 15_000));
  const [unhealthy] = about(await listEvents(cp.kubeconfig, ns), 'slow', 'Unhealthy');
  assert.equal(unhealthy?.count, 25);
  assert.match(unhealthy?.message ?? '', /^Startup probe failed: /);
  const r = await evtimeline(['incident', '-n', ns, '--for', 'pod/slow', '-o', 'json'], cp.kubeconfig);
  assert.equal(r.code, 0, r.stderr);
  const doc = JSON.parse(r.stdout) as { recorderNotes: { spam: { reporter: string; instance: string; type: string; object: { name: string }; occurrences: number }[] } };
  assert.deepEqual(
    doc.recorderNotes.spam.map((n) => [n.reporter, n.instance, n.type, n.object.name]),
    [['kubelet', node.name, 'Warning', 'slow']],
  );
  assert.ok((doc.recorderNotes.spam[0]?.occurrences ?? 0) >= 25);
  const text = await evtimeline(['incident', '-n', ns, '--for', 'pod/slow'], cp.kubeconfig);
  assert.match(text.stdout, new RegExp(`kubelet \\(${node.name}\\) wrote \\d+ occurrences of Warning events \\(\\d+ events?\\) about Pod/slow .* reports after .* may be missing`));
});

test('--exclude-startup-probes hides the Unhealthy of the container still below its threshold, and keeps the one killed for it', async () => {
  const r = await evtimeline(['-n', ns, '-o', 'stable', '--types', 'Warning', '--exclude-startup-probes'], cp.kubeconfig);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trimEnd().split('\n');
  assert.ok(lines.includes('Warning Unhealthy Pod/killed'), r.stdout);
  assert.ok(!lines.includes('Warning Unhealthy Pod/slow'), r.stdout);
  assert.match(r.stderr, /^Hidden: \d+ events? by --types, 1 by --exclude-startup-probes \(start-up probes below their failure threshold\)\.$/m);
  const killing = about(await listEvents(cp.kubeconfig, ns), 'killed', 'Killing')[0];
  assert.match(killing?.message ?? '', /^Container app failed startup probe, will be restarted$/);
});

// A real node leaves the host as it found it: after stop (and after its parent is SIGKILLed) no
// process, mount, cgroup, bridge, veth, fixed path or sysctl change is left. While it runs, the
// kubelet's sysctl writes land in the node's own files and the host keeps its values. Each node
// here is a second one on the run's control plane, in its own slot: it also shows two nodes on one
// machine do not collide (another bridge, subnet and cgroup root than the run's node-k).
// Runs alone: it adds nodes to the run's cluster, which every other file's scheduling would see.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { getObject } from '../harness/api-direct.ts';
import { sharedControlPlane } from '../harness/controlplane.ts';
import { hostState, nodeCgroups, nodeInterfaces, nodeProcesses } from '../harness/host-state.ts';
import { BUSYBOX_IMAGE, realNodeFromEnv, startRealNode, type RealNodeInfo } from '../harness/kubelet-node.ts';
import { kubectlOk } from '../harness/kubectl.ts';
import { freshNamespace, uniqueNamespaceName } from '../harness/namespace.ts';
import { waitFor } from '../harness/wait.ts';

const cp = await sharedControlPlane();

/** Two pods on the node: one running (a veth, a cgroup, a mount of its rootfs), one crash-looping. */
async function busyNode(node: RealNodeInfo, ns: string): Promise<void> {
  const pod = (name: string, script: string) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: ns },
    spec: { nodeName: node.name, terminationGracePeriodSeconds: 1, containers: [{ name: 'main', image: BUSYBOX_IMAGE, command: ['sh', '-c', script] }] },
  });
  await kubectlOk(cp.kubeconfig, ['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [pod('runs', 'sleep 3600'), pod('crashes', 'exit 1')] }));
  await waitFor('runs Running and crashes restarted', async () => {
    const pods = JSON.parse(await kubectlOk(cp.kubeconfig, ['-n', ns, 'get', 'pods', '-o', 'json'])) as {
      items: { metadata: { name: string }; status: { phase?: string; containerStatuses?: { restartCount: number }[] } }[];
    };
    const by = new Map(pods.items.map((p) => [p.metadata.name, p.status]));
    return by.get('runs')?.phase === 'Running' && (by.get('crashes')?.containerStatuses?.[0]?.restartCount ?? 0) >= 1;
  });
}

function assertRunsInside(node: RealNodeInfo, before: ReturnType<typeof hostState>): void {
  assert.notEqual(node.bridge, realNodeFromEnv()?.bridge, 'a second node gets its own bridge');
  assert.notEqual(node.cgroupRoot, realNodeFromEnv()?.cgroupRoot, 'and its own cgroup root');
  assert.ok(nodeCgroups(node).length > 0, 'its cgroups exist while it runs');
  assert.ok(nodeInterfaces(node).length >= 2, `its bridge and a pod veth exist while it runs: ${nodeInterfaces(node)}`);
  // The kubelet wrote vm.overcommit_memory=1 into the node's own file; the host's value is untouched.
  assert.equal(readFileSync(join(node.dir, 'sysctl', 'vm.overcommit_memory'), 'utf8').trim(), '1');
  assert.deepEqual(hostState(), before);
}

async function assertHostClean(node: RealNodeInfo, before: ReturnType<typeof hostState>): Promise<void> {
  // A veth goes when its network namespace is freed, which the kernel does a moment after the last process.
  await waitFor(`node ${node.name} gone from the host`, async () =>
    nodeProcesses(node).length === 0 && nodeCgroups(node).length === 0 && nodeInterfaces(node).length === 0,
  { timeoutMs: 60_000 });
  assert.deepEqual(nodeProcesses(node), []);
  assert.deepEqual(nodeCgroups(node), []);
  assert.deepEqual(nodeInterfaces(node), []);
  assert.deepEqual(hostState(), before);
  await waitFor(`Node ${node.name} deleted`, async () => (await getObject(cp.kubeconfig, 'nodes', node.name)) === null);
}

test('after stop, a real node leaves no process, mount, cgroup, bridge, veth, path or sysctl change', async () => {
  const before = hostState();
  const node = await startRealNode(cp, { name: uniqueNamespaceName('node-h').slice(0, 30) });
  try {
    await busyNode(node, await freshNamespace(cp.kubeconfig, 'hygiene'));
    assertRunsInside(node, before);
  } finally {
    await node.stop();
  }
  await assertHostClean(node, before);
});

test('when the process that started a real node is SIGKILLed, the node tears itself down', async () => {
  const before = hostState();
  const name = uniqueNamespaceName('node-kill').slice(0, 30);
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, '..', 'harness', 'real-node-child.ts'), name],
    { stdio: ['ignore', 'pipe', 'inherit'], env: process.env },
  );
  const line = await new Promise<string>((resolve, reject) => {
    let buf = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (c: string) => {
      buf += c;
      if (buf.includes('\n')) resolve(buf.slice(0, buf.indexOf('\n')));
    });
    child.once('exit', (code) => reject(new Error(`real-node-child exited ${code} before its node was ready`)));
  });
  const node = JSON.parse(line) as RealNodeInfo;
  try {
    await busyNode(node, await freshNamespace(cp.kubeconfig, 'hygiene-kill'));
    assertRunsInside(node, before);
  } finally {
    child.kill('SIGKILL');
  }
  await assertHostClean(node, before);
});

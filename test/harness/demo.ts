// `npm run demo`: the main job on the embedded control plane. Starts it, plays the lab into a fresh
// folder, runs kubectl evtimeline on the lab's namespace through kubectl's plugin mechanism,
// prints the timeline and the incident account, says where the reports are; then stages a real
// incident that only real controllers write (test/harness/node-failure.ts: a Deployment that
// does not fit, then a node failure), runs kubectl evtimeline incident on it beside kubectl
// events; then the node recovers (the evicted pods are deleted) and it tells the Deployment's story
// as one tree (--for deploy/checkout --tree: its ReplicaSet, its Pods, the gone ones marked) as a
// timeline and as an incident, and stops. The control plane uses short node failure timings (FAST_NODE_FAILURE) so the
// failure plays out in well under a minute; the lab runs with one node, as its outputs in the
// README show ("0/1 nodes are available"), and node-2 joins only for the incident. Then a real node
// (test/harness/kubelet-node.ts) joins and a Deployment on it is killed for memory and restarts: its
// story, which only a kubelet writes, told with incident --for deploy/thumbnailer --tree.
// Throughout, an OpenTelemetry Collector's k8s_events receiver ships every event to a VictoriaLogs
// (test/harness/store-pipeline.ts); at the end the node failure namespace's events are deleted from
// the cluster and its incident is read back from the store.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FAST_NODE_FAILURE, startControlPlane } from './controlplane.ts';
import { createNamespace } from './namespace.ts';
import { healNodeFailure, stageNodeFailure } from './node-failure.ts';
import { addNode } from './nodes.ts';
import { playLab } from './lab.ts';
import { evtimeline, kubectl, ROOT } from './plugin.ts';
import { startRealNode, type RealNode } from './kubelet-node.ts';
import { missingForRealNode } from './node-prerequisites.mjs';
import { stageOomKill } from './real-node-pods.ts';
import { startStorePipeline } from './store-pipeline.ts';
import { waitFor } from './wait.ts';

const NAMESPACE = 'op-events';

function stamp(): string {
  return new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '-');
}

async function main(): Promise<void> {
  const missing = missingForRealNode();
  if (missing) throw new Error(missing);
  const outDir = join(ROOT, 'out', `demo-${stamp()}`);
  mkdirSync(outDir, { recursive: true });
  console.log('starting the control plane (etcd, kube-apiserver, kube-scheduler, kube-controller-manager)...');
  const cp = await startControlPlane(FAST_NODE_FAILURE);
  let pipeline: Awaited<ReturnType<typeof startStorePipeline>> | undefined;
  let realNode: RealNode | undefined;
  try {
    console.log(`ready in ${cp.startupSeconds.toFixed(1)} s: Kubernetes ${cp.kubernetesVersion}, etcd ${cp.etcdVersion}`);
    console.log('starting VictoriaLogs and the OpenTelemetry Collector (k8s_events receiver -> otlphttp -> VictoriaLogs)...');
    pipeline = await startStorePipeline(cp.kubeconfig);
    console.log(`  VictoriaLogs ${pipeline.store.front.url}, read with --from ${pipeline.store.fromUrl}`);
    console.log(`playing the lab into namespace ${NAMESPACE}...`);
    await playLab({
      kubeconfig: cp.kubeconfig,
      namespace: NAMESPACE,
      outDir,
      log: (line) => console.log(`  ${line}`),
      // Step 8: the plugin replaces timeline.sh; the incident is written from the table alone, as the lab asks.
      step8: async (ctx) => {
        const table = await evtimeline(['-n', NAMESPACE, '-o', 'stable'], cp.kubeconfig);
        await ctx.writeReport('timeline.txt', table.stdout);
        const incident = await evtimeline(['incident', '--from', join(outDir, 'timeline.txt')], cp.kubeconfig);
        await ctx.writeReport('incident.txt', incident.stdout);
        return ['timeline.txt', 'incident.txt'];
      },
    });
    const shows: [string, string[]][] = [
      ['kubectl evtimeline -n op-events', ['-n', NAMESPACE]],
      ['kubectl evtimeline -n op-events -o stable', ['-n', NAMESPACE, '-o', 'stable']],
      ['kubectl evtimeline incident -n op-events', ['incident', '-n', NAMESPACE]],
      ['kubectl evtimeline type-audit -n op-events', ['type-audit', '-n', NAMESPACE]],
      [`kubectl evtimeline capture -n op-events ${join(outDir, 'capture')}`, ['capture', '-n', NAMESPACE, join(outDir, 'capture')]],
    ];
    for (const [title, args] of shows) {
      const result = await evtimeline(args, cp.kubeconfig);
      console.log(`\n$ ${title}   (exit ${result.code})\n${result.stdout}${result.stderr}`);
    }
    const page = join(outDir, 'timeline.html');
    const html = await evtimeline(['-n', NAMESPACE, '-o', 'html', '--output-file', page], cp.kubeconfig);
    console.log(`\n$ kubectl evtimeline -n op-events -o html --output-file ${page}   (exit ${html.code})\n${html.stderr}open it in a browser: file://${page}`);
    console.log('\nstaging a real incident: node-2 joins, then a Deployment that does not fit and a node failure...');
    await addNode(cp, 'node-2');
    // A private control plane: the namespace can have a plain name, as in the README.
    const shop = await createNamespace(cp.kubeconfig, 'shop');
    const incident = await stageNodeFailure(cp, shop, (line) => console.log(`  ${line}`));
    const show = async (shows: [string, () => ReturnType<typeof evtimeline>, string?][]): Promise<void> => {
      for (const [title, run, report] of shows) {
        const result = await run();
        console.log(`\n$ ${title}   (exit ${result.code})\n${result.stdout}${result.stderr}`);
        if (report) writeFileSync(join(outDir, report), result.stdout);
      }
    };
    await show([
      [`kubectl events -n ${shop}`, () => kubectl(['events', '-n', shop], cp.kubeconfig)],
      [`kubectl evtimeline -n ${shop}`, () => evtimeline(['-n', shop], cp.kubeconfig)],
      [`kubectl evtimeline incident -n ${shop}`, () => evtimeline(['incident', '-n', shop], cp.kubeconfig), 'node-failure-incident.txt'],
    ]);
    // The node comes back and the evicted pods go: the Deployment's story, told as one tree (--tree),
    // still holds them, marked gone, from the ReplicaSet's "Created pod: X" and their own events.
    console.log('\nthe node recovers...');
    await healNodeFailure(cp, incident, (line) => console.log(`  ${line}`));
    const tree = ['--for', `deploy/${incident.deployment}`, '--tree'];
    await show([
      [`kubectl evtimeline -n ${shop} ${tree.join(' ')}`, () => evtimeline(['-n', shop, ...tree], cp.kubeconfig), 'node-failure-tree.txt'],
      [`kubectl evtimeline incident -n ${shop} ${tree.join(' ')}`, () => evtimeline(['incident', '-n', shop, ...tree], cp.kubeconfig), 'node-failure-tree-incident.txt'],
    ]);
    const treePage = join(outDir, 'node-failure-tree.html');
    const treeHtml = await evtimeline(['-n', shop, ...tree, '-o', 'html', '--output-file', treePage], cp.kubeconfig);
    console.log(`\n$ kubectl evtimeline -n ${shop} ${tree.join(' ')} -o html --output-file ${treePage}   (exit ${treeHtml.code})\n${treeHtml.stderr}open it in a browser (lanes owner first): file://${treePage}`);
    // The last incident happens on a real node: a kubelet, containerd and runc run the container,
    // the kernel kills it for memory, the kubelet restarts it and backs off.
    console.log('\nstaging a real incident on a real node: node-k (kubelet, containerd, runc) joins, then a Deployment whose container is killed for memory...');
    realNode = await startRealNode(cp);
    console.log(`  node-k ready in ${realNode.startupSeconds.toFixed(1)} s: kubelet ${realNode.kubeletVersion}, containerd ${realNode.containerdVersion}`);
    const media = await createNamespace(cp.kubeconfig, 'media');
    const oom = await stageOomKill(cp.kubeconfig, realNode, media, 'thumbnailer', (line) => console.log(`  ${line}`));
    const oomTree = ['--for', `deploy/${oom.deployment}`, '--tree'];
    await show([
      [`kubectl get nodes -o wide`, () => kubectl(['get', 'nodes', '-o', 'wide'], cp.kubeconfig)],
      [`kubectl describe pod -n ${media} ${oom.pod} | grep -A12 '^    State:'`, async () => {
        const r = await kubectl(['describe', 'pod', '-n', media, oom.pod], cp.kubeconfig);
        const lines = r.stdout.split('\n');
        const at = lines.findIndex((l) => l.startsWith('    State:'));
        return { ...r, stdout: `${lines.slice(at, at + 13).join('\n')}\n` };
      }],
      [`kubectl events -n ${media}`, () => kubectl(['events', '-n', media], cp.kubeconfig)],
      [`kubectl evtimeline incident -n ${media} ${oomTree.join(' ')}`, () => evtimeline(['incident', '-n', media, ...oomTree], cp.kubeconfig), 'oom-tree-incident.txt'],
    ]);
    // The cluster forgets (the TTL, or here a deletion); the store does not.
    const store = pipeline;
    const live = await evtimeline(['-n', shop, '-o', 'name'], cp.kubeconfig);
    const want = live.stdout.trim().split('\n').filter((l) => l !== '').length;
    await waitFor('the receiver to ship the namespace\'s events to the store', async () => {
      await store.store.flush();
      const stored = await evtimeline(['-n', shop, '-o', 'name', '--from', store.store.fromUrl], cp.kubeconfig);
      return stored.code === 0 && stored.stdout.trim().split('\n').filter((l) => l !== '').length >= want ? true : undefined;
    }, { timeoutMs: 60_000, everyMs: 1000 });
    await show([
      [`kubectl delete events --all -n ${shop}`, () => kubectl(['delete', 'events', '--all', '-n', shop], cp.kubeconfig)],
      [`kubectl evtimeline incident -n ${shop}`, () => evtimeline(['incident', '-n', shop], cp.kubeconfig)],
      [`kubectl evtimeline incident -n ${shop} --from ${store.store.fromUrl}`, () => evtimeline(['incident', '-n', shop, '--from', store.store.fromUrl], cp.kubeconfig), 'node-failure-incident-from-store.txt'],
    ]);
    writeFileSync(join(outDir, 'README.txt'), `Reports of the lab played on ${new Date().toISOString()} against Kubernetes ${cp.kubernetesVersion}.\n`);
    console.log(`\nthe lab's reports are in ${outDir}\nthe plugin's capture is in ${join(outDir, 'capture')}`);
  } finally {
    await pipeline?.close();
    await realNode?.stop();
    await cp.stop();
    console.log('control plane stopped');
  }
}

main().catch((error: unknown) => {
  console.error(`demo failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});

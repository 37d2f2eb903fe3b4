// What a real kubelet writes (test/harness/kubelet-node.ts: kubelet v1.36.3, containerd, runc), read
// by the plugin as kubectl reads it. Each case stages one incident on the real node in a namespace
// of its own, waits for the kubelet to tell it (never a fixed sleep), checks `kubectl describe pod`
// (State, Last State, Reason, Exit Code, Restart Count) against the Pod's status, stops the churn
// (a crash loop keeps bumping counts: the pod is deleted, which adds the kubelet's Killing) and
// compares the plugin's timeline with `kubectl events` row for row. The crash namespace is also
// followed (-w) and recorded from before its pod exists, captured, and told by incident; the
// OOM-killed Deployment is told with --tree.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { sharedRealNode } from '../harness/kubelet-node.ts';
import { UNPULLABLE_IMAGE } from '../harness/kubelet-node.ts';
import { applyObjects, kubectlJSON, kubectlOk } from '../harness/kubectl.ts';
import { comparableRows, readBoth } from '../harness/kubectl-events.ts';
import { freshNamespace } from '../harness/namespace.ts';
import { evtimeline, PLUGIN_BINARY, pluginEnv } from '../harness/plugin.ts';
import { deleteAndWait, describeWhen, oomDeployment, realNodePod, type Described } from '../harness/real-node-pods.ts';
import { spawnCollecting, type Spawned } from '../harness/spawned.ts';
import { waitFor } from '../harness/wait.ts';
import { listEvents, listObjects, type KubeObject } from '../harness/workloads.ts';

const { cp, node } = await sharedRealNode();
const kc = cp.kubeconfig;
const ns: Record<string, string> = {};
const dir = mkdtempSync(join(tmpdir(), 'evtimeline-real-node-'));
let follow: Spawned;
let record: Spawned;

before(async () => {
  for (const name of ['crash', 'exit', 'oom', 'probes', 'pull', 'config', 'deleted', 'deploy']) ns[name] = await freshNamespace(kc, `real-${name}`);
  // Followed and recorded before the crash begins: every occurrence must arrive through the watch.
  const opts = { env: pluginEnv(kc) };
  follow = spawnCollecting(PLUGIN_BINARY, ['-n', ns.crash!, '-w'], opts);
  record = spawnCollecting(PLUGIN_BINARY, ['record', '-n', ns.crash!, join(dir, 'crash.jsonl')], opts);
  await waitFor('the follower and the recorder to list', async () => follow.out().length + follow.err().length > 0 || follow.child.exitCode !== null);
  const pod = realNodePod.bind(null, node);
  await applyObjects(kc, [
    pod(ns.crash!, 'crasher', { command: ['sh', '-c', 'echo crashing; exit 1'] }),
    pod(ns.exit!, 'exiter', { command: ['sh', '-c', 'exit 42'] }, { restartPolicy: 'Never' }),
    pod(ns.oom!, 'oomer', { command: ['hog', '100'], resources: { limits: { memory: '20Mi' } } }, { restartPolicy: 'Never' }),
    pod(ns.probes!, 'prober', {
      command: ['sleep', '3600'],
      readinessProbe: { exec: { command: ['cat', '/tmp/ready'] }, periodSeconds: 1, failureThreshold: 1 },
      livenessProbe: { exec: { command: ['sh', '-c', 'exit 3'] }, initialDelaySeconds: 2, periodSeconds: 1, failureThreshold: 2 },
    }),
    pod(ns.pull!, 'puller', { image: UNPULLABLE_IMAGE }),
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: ns.config }, data: { present: 'yes' } },
    pod(ns.config!, 'configured', { command: ['sleep', '3600'], env: [{ name: 'MISSING', valueFrom: { configMapKeyRef: { name: 'settings', key: 'missing' } } }] }),
    pod(ns.deleted!, 'sleeper', { command: ['sh', '-c', 'echo started; exec sleep 3600'] }),
    oomDeployment(node, ns.deploy!, 'hog'),
  ]);
});

after(async () => {
  for (const s of [follow, record]) if (s.child.exitCode === null) s.child.kill('SIGINT');
  rmSync(dir, { recursive: true, force: true });
});

const events = (n: string) => listEvents(kc, n);
const hasEvent = async (n: string, reason: string, message: RegExp) => (await events(n)).some((e) => e.reason === reason && message.test(e.message ?? ''));

/** describe and the Pod's status agree once the wanted state shows; returns describe's. */
async function described(n: string, pod: string, wanted: (d: Described) => boolean, container = 'main'): Promise<Described> {
  const both = await describeWhen(kc, n, pod, container, wanted);
  assert.deepEqual(both.described, both.status, `kubectl describe pod ${pod} vs its status`);
  return both.described;
}

/** The plugin's table of the namespace is kubectl events', row for row (ages within the reads' time). */
async function sameAsKubectl(n: string): Promise<string[]> {
  const both = await readBoth(kc, ['-n', n]);
  assert.deepEqual(both.plugin, both.kubectl);
  assert.deepEqual(both.ages, []);
  return both.kubectl;
}

test('a container that exits 1 over and over: Back-off restarting, CrashLoopBackOff with last state Error and exit code 1, as kubectl shows it', async () => {
  // Between two restarts the kubelet reports the container Waiting (CrashLoopBackOff) or, until its
  // next sync, still Terminated: describe shows either, with the previous run as Last State.
  const d = await described(ns.crash!, 'crasher', (x) => x.restartCount >= 2 && x.state !== 'Running');
  const { state, reason, exitCode, ...last } = d;
  assert.ok(
    (state === 'Waiting' && reason === 'CrashLoopBackOff' && exitCode === undefined) || (state === 'Terminated' && reason === 'Error' && exitCode === 1),
    JSON.stringify(d),
  );
  assert.deepEqual({ ...last, restartCount: 0 }, { lastState: 'Terminated', lastReason: 'Error', lastExitCode: 1, restartCount: 0 });
  await waitFor('BackOff', () => hasEvent(ns.crash!, 'BackOff', /^Back-off restarting failed container main in pod crasher_/));
  // The apiserver reaches the kubelet by its InternalIP (--kubelet-preferred-address-types) for logs:
  // those of the latest run. (--previous names the run before, which the kubelet's container GC may
  // already have removed, keeping one dead container per container: "unable to retrieve container logs".)
  await waitFor('kubectl logs crasher', async () => (await kubectlOk(kc, ['-n', ns.crash!, 'logs', 'crasher'])) === 'crashing\n');
  await deleteAndWait(kc, ns.crash!, ['pod', 'crasher']);
  const rows = await sameAsKubectl(ns.crash!);
  // No Killing: a container in back-off is not running when its pod is deleted, so there is nothing to stop.
  for (const reason of ['Scheduled', 'Pulled', 'Created', 'Started', 'BackOff']) assert.ok(rows.some((r) => r.includes(` | ${reason} | Pod/crasher | `)), `${reason} in\n${rows.join('\n')}`);
  assert.ok(rows.some((r) => / \| Normal \| Started \| Pod\/crasher \| /.test(r) && /\(x\d+ over AGE\)/.test(r)), 'Started counted');
});

test('the crash read live (-w), recorded, captured and told by incident: each as kubectl events shows it', async () => {
  const rows = await sameAsKubectl(ns.crash!);
  // -w printed every occurrence as it came, the last one of each row with kubectl's final count.
  for (const row of rows) {
    const [lastSeen, type, reason] = row.split(' | ');
    const count = /\(x(\d+) over/.exec(lastSeen ?? '')?.[1];
    const printed = new RegExp(`${count ? `\\(x${count} over \\S+\\)` : ''}\\s+${type}\\s+${reason}\\s+Pod/crasher\\s`);
    await waitFor(`-w to print ${reason}${count ? ` x${count}` : ''}`, async () => printed.test(follow.out()), { timeoutMs: 60_000 });
  }
  assert.match(follow.out(), /Warning\s+BackOff\s+Pod\/crasher\s+.*Back-off restarting failed container main in pod crasher_/);
  for (const s of [follow, record]) s.child.kill('SIGINT');
  assert.deepEqual(await follow.exited, { code: 0, signal: null });
  assert.equal((await record.exited).code, 0, record.err());
  const replay = await evtimeline(['--from', join(dir, 'crash.jsonl')], kc);
  assert.equal(replay.code, 0, replay.stderr);
  assert.deepEqual(comparableRows(replay.stdout), rows, 'the record, replayed');
  const captured = await evtimeline(['capture', '-n', ns.crash!, join(dir, 'capture')], kc);
  assert.equal(captured.code, 0, captured.stderr);
  const fromCapture = await evtimeline(['--from', join(dir, 'capture')], kc);
  assert.deepEqual(comparableRows(fromCapture.stdout), rows, 'the capture, replayed');
  const incident = await evtimeline(['incident', '-n', ns.crash!], kc);
  assert.equal(incident.code, 0, incident.stderr);
  assert.match(incident.stdout, /^ {2}\d+ Warnings?: BackOff on Pod\/crasher\b/m);
  assert.match(incident.stdout, /kubelet reported BackOff \(Warning\)/);
});

test('a container that exits 42 once (restartPolicy Never): Terminated, Error, exit code 42', async () => {
  const d = await described(ns.exit!, 'exiter', (x) => x.state === 'Terminated');
  assert.deepEqual(d, { state: 'Terminated', reason: 'Error', exitCode: 42, restartCount: 0 });
  const rows = await sameAsKubectl(ns.exit!);
  assert.deepEqual(rows.map((r) => r.split(' | ')[2]).sort(), ['Created', 'Pulled', 'Scheduled', 'Started']);
});

test('a container killed for memory: OOMKilled, exit code 137, and no event says so (kubernetes#69676)', async () => {
  const d = await described(ns.oom!, 'oomer', (x) => x.state === 'Terminated');
  assert.deepEqual(d, { state: 'Terminated', reason: 'OOMKilled', exitCode: 137, restartCount: 0 });
  const rows = await sameAsKubectl(ns.oom!);
  assert.ok(!rows.some((r) => /OOM|out of memory/.test(r)), rows.join('\n'));
});

test('a failing readiness probe and a failing liveness probe: Unhealthy for each, Killing, a restart with exit code 137', async () => {
  await waitFor('Killing for liveness', () => hasEvent(ns.probes!, 'Killing', /^Container main failed liveness probe, will be restarted$/));
  const d = await described(ns.probes!, 'prober', (x) => x.restartCount >= 1 && x.lastState === 'Terminated');
  assert.deepEqual([d.lastReason, d.lastExitCode], ['Error', 137]);
  assert.ok(await hasEvent(ns.probes!, 'Unhealthy', /^Readiness probe failed: cat: can't open '\/tmp\/ready': No such file or directory/));
  assert.ok(await hasEvent(ns.probes!, 'Unhealthy', /^Liveness probe failed: /));
  await deleteAndWait(kc, ns.probes!, ['pod', 'prober']);
  const rows = await sameAsKubectl(ns.probes!);
  assert.ok(rows.filter((r) => r.includes(' | Warning | Unhealthy | Pod/prober | ')).length >= 2, rows.join('\n'));
});

test('an image that cannot be pulled (a registry on a closed loopback port): ErrImagePull, then ImagePullBackOff', async () => {
  await waitFor('ImagePullBackOff', () => hasEvent(ns.pull!, 'Failed', /^Error: ImagePullBackOff$/));
  const d = await described(ns.pull!, 'puller', (x) => x.state === 'Waiting');
  assert.ok(['ErrImagePull', 'ImagePullBackOff'].includes(d.reason ?? ''), JSON.stringify(d));
  assert.equal(d.restartCount, 0);
  assert.ok(await hasEvent(ns.pull!, 'Failed', /^Failed to pull image "127\.0\.0\.1:1\/nothing:v1": .*connect: connection refused/));
  await deleteAndWait(kc, ns.pull!, ['pod', 'puller']);
  const rows = await sameAsKubectl(ns.pull!);
  assert.ok(rows.some((r) => r.includes(' | Normal | BackOff | Pod/puller | Back-off pulling image "127.0.0.1:1/nothing:v1"')), rows.join('\n'));
});

test('a missing ConfigMap key: CreateContainerConfigError', async () => {
  await waitFor('Failed', () => hasEvent(ns.config!, 'Failed', /^Error: couldn't find key missing in ConfigMap .*\/settings$/));
  const d = await described(ns.config!, 'configured', (x) => x.state === 'Waiting');
  assert.deepEqual(d, { state: 'Waiting', reason: 'CreateContainerConfigError', restartCount: 0 });
  await deleteAndWait(kc, ns.config!, ['pod', 'configured']);
  await sameAsKubectl(ns.config!);
});

test('a running pod: kubectl logs and exec reach it; deleted, the kubelet stops its container (Killing)', async () => {
  const d = await described(ns.deleted!, 'sleeper', (x) => x.state === 'Running');
  assert.deepEqual(d, { state: 'Running', restartCount: 0 });
  // kubectl logs and exec go through the apiserver to this kubelet (by InternalIP, with a client certificate).
  assert.equal(await kubectlOk(kc, ['-n', ns.deleted!, 'logs', 'sleeper']), 'started\n');
  assert.equal(await kubectlOk(kc, ['-n', ns.deleted!, 'exec', 'sleeper', '--', 'cat', '/etc/hostname']), 'sleeper\n');
  await deleteAndWait(kc, ns.deleted!, ['pod', 'sleeper']);
  const rows = await sameAsKubectl(ns.deleted!);
  assert.deepEqual(rows.map((r) => r.split(' | ').slice(1, 3).join(' ')).sort(), ['Normal Created', 'Normal Killing', 'Normal Pulled', 'Normal Scheduled', 'Normal Started']);
  assert.ok(rows.some((r) => r.endsWith(' | Normal | Killing | Pod/sleeper | Stopping container main')), rows.join('\n'));
});

test('a Deployment killed for memory and restarting, told with --for deploy/hog --tree: its ReplicaSet, its Pod, the BackOff under them', async () => {
  const [pod] = await waitFor('the pod of deploy/hog', async () => {
    const pods = await listObjects(kc, ns.deploy!, 'pods', 'app=hog');
    return pods.length === 1 ? pods : undefined;
  });
  const name = pod!.metadata.name;
  const d = await described(ns.deploy!, name, (x) => x.restartCount >= 2 && x.lastReason === 'OOMKilled', 'worker');
  assert.equal(d.lastExitCode, 137);
  await waitFor('BackOff', () => hasEvent(ns.deploy!, 'BackOff', /^Back-off restarting failed container worker/));
  const [rs] = await listObjects(kc, ns.deploy!, 'replicasets', 'app=hog');
  const path = `Deployment/hog > ReplicaSet/${rs!.metadata.name} > Pod/${name}`;
  const tree = await evtimeline(['-n', ns.deploy!, '--for', 'deploy/hog', '--tree', '-o', 'json'], kc);
  assert.equal(tree.code, 0, tree.stderr);
  const told = JSON.parse(tree.stdout) as { uid: string; reason: string; tree: { kind: string; name: string }[] }[];
  const where = (e: (typeof told)[number]) => e.tree.map((m) => `${m.kind}/${m.name}`).join(' > ');
  for (const e of (await events(ns.deploy!)).filter((x) => x.involvedObject.kind === 'Pod' && x.metadata.uid && told.length)) {
    const ours = told.find((o) => o.uid === e.metadata.uid);
    if (ours) assert.equal(where(ours), path, e.reason);
  }
  for (const reason of ['Scheduled', 'Pulled', 'Created', 'Started', 'BackOff']) assert.ok(told.some((e) => e.reason === reason && where(e) === path), reason);
  const text = await evtimeline(['incident', '-n', ns.deploy!, '--for', 'deploy/hog', '--tree'], kc);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /The tree of Deployment\/hog: 1 ReplicaSet, 1 Pod\./);
  assert.match(text.stdout, new RegExp(`Warnings?: BackOff on Pod/${name}`));
  // Scaled to nothing, the story stops changing: the plugin's table is then kubectl's.
  await kubectlOk(kc, ['-n', ns.deploy!, 'scale', 'deploy/hog', '--replicas=0']);
  await waitFor('no pod of deploy/hog', async () => (await listObjects(kc, ns.deploy!, 'pods', 'app=hog')).length === 0);
  await sameAsKubectl(ns.deploy!);
});

test('the real node as kubectl shows it: kubelet v1.36.3 on containerd 2.x, tainted so only pods meant for it land there', async () => {
  const n = await kubectlJSON<KubeObject & { spec: { taints?: { key: string; effect: string }[] }; status: { nodeInfo: { kubeletVersion: string; containerRuntimeVersion: string } } }>(kc, ['get', 'node', node.name]);
  assert.equal(n.status.nodeInfo.kubeletVersion, 'v1.36.3');
  assert.match(n.status.nodeInfo.containerRuntimeVersion, /^containerd:\/\/2\.\d+\.\d+$/);
  assert.deepEqual(n.spec.taints?.map((t) => `${t.key}:${t.effect}`), ['evtimeline.dev/real-node:NoSchedule']);
});

// `npm run cluster` as a person uses it: it starts the control plane, prints how to stop and
// restart node-1's heartbeat, and those very command lines work; without flags its node failure
// timings are a real cluster's (kube-controller-manager's and kube-apiserver's command lines say
// so), with --fast-node-failure a stopped heartbeat turns node-1 Unknown in seconds; a grace period
// shorter than two heartbeats is refused. Each case starts its own control plane through the
// script (test/harness/cluster-cli.ts, what `npm run cluster` runs) and stops it with Ctrl-C.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { kubectlJSON } from '../harness/kubectl.ts';
import { getObject } from '../harness/api-direct.ts';
import { evtimeline, ROOT } from '../harness/plugin.ts';
import { waitFor } from '../harness/wait.ts';
import { condition, type KubeObject } from '../harness/workloads.ts';

interface Cluster {
  child: ChildProcessWithoutNullStreams;
  stdout: string;
  kubeconfig: string;
  dir: string;
  /** The command lines printed under "Stop node-1's heartbeat". */
  stop: string;
  start: string;
  list: string;
  exited: Promise<{ code: number | null; stderr: string }>;
}

const running = new Set<ChildProcessWithoutNullStreams>();
after(async () => {
  for (const child of running) child.kill('SIGINT');
});

function script(args: string[]): ChildProcessWithoutNullStreams {
  // `npm run cluster -- ARGS` runs exactly this, with the Node npm pins.
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'test/harness/cluster-cli.ts'), ...args], { cwd: ROOT });
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

function exitOf(child: ChildProcessWithoutNullStreams): Promise<{ code: number | null; stderr: string }> {
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d: string) => (stderr += d));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr })));
}

async function startCluster(args: string[]): Promise<Cluster> {
  const child = script(args);
  const exited = exitOf(child);
  let stdout = '';
  child.stdout.setEncoding('utf8');
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: string) => {
      stdout += d;
      if (stdout.includes('Press Ctrl-C to stop.')) resolve();
    });
    void exited.then(({ code, stderr }) => reject(new Error(`npm run cluster exited ${code} before it was ready: ${stderr}`)));
  });
  const line = (re: RegExp) => {
    const m = re.exec(stdout);
    assert.ok(m?.[1], `${re} in:\n${stdout}`);
    return m[1].trim();
  };
  return {
    child,
    stdout,
    exited,
    kubeconfig: line(/^export KUBECONFIG=(.*\/kubeconfig)$/m),
    dir: line(/^logs: (.*)$/m),
    stop: line(/^ {2}(\S+ node --dir \S+ stop node-1)$/m),
    start: line(/^ {2}(\S+ node --dir \S+ start node-1)$/m),
    list: line(/^ {2}(\S+ node --dir \S+ list)\b/m),
  };
}

/** A printed command line, run as a person pastes it into a shell. */
function shell(command: string): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile('sh', ['-c', command], (err, stdout, stderr) => (err ? reject(new Error(`${command}: ${stderr || err.message}`)) : resolve(stdout))),
  );
}

async function stopCluster(c: Cluster): Promise<void> {
  c.child.kill('SIGINT');
  const { code, stderr } = await c.exited;
  assert.equal(code, 0, stderr);
  assert.match(stderr, /stopped in \d+\.\d s/);
}

/** The arguments the supervisor started a component with (its up.log names each child's command line). */
function componentArgs(dir: string, component: string): string[] {
  const log = readFileSync(join(dir, 'up.log'), 'utf8');
  const m = new RegExp(`started ${component} pid \\d+: (.*)$`, 'm').exec(log);
  assert.ok(m?.[1], `no ${component} in up.log:\n${log}`);
  return m[1].split(' ');
}

const readyOf = async (kubeconfig: string, node: string) => {
  const object = await getObject(kubeconfig, 'nodes', node);
  if (object === null) throw new Error(`node ${node} not found`);
  return condition(object as KubeObject, 'Ready');
};

test("without flags: a real cluster's node failure timings, leader election off, ServiceAccount admission on, and the printed heartbeat commands work", async () => {
  const c = await startCluster(['--nodes', '2']);
  try {
    assert.match(c.stdout, /Stop node-1's heartbeat/);
    assert.match(c.stdout, /heartbeat every 10s, checked every 5s, Unknown after 50s without one, pods evicted 300 s later \(a real cluster's/);
    const manager = componentArgs(c.dir, 'kube-controller-manager');
    // kube-controller-manager's own defaults (pkg/controller/nodelifecycle/config/v1alpha1/defaults.go: 50 s).
    for (const flag of ['--node-monitor-grace-period=50s', '--node-monitor-period=5s', '--leader-elect=false']) assert.ok(manager.includes(flag), flag);
    assert.ok(componentArgs(c.dir, 'kube-scheduler').includes('--leader-elect=false'));
    const apiserver = componentArgs(c.dir, 'kube-apiserver');
    for (const flag of ['--default-not-ready-toleration-seconds=300', '--default-unreachable-toleration-seconds=300']) assert.ok(apiserver.includes(flag), flag);
    assert.ok(!apiserver.some((a) => a.startsWith('--disable-admission-plugins') || a.startsWith('--admission-control')), apiserver.join(' '));
    const manifest = readFileSync(join(c.dir, 'kube-apiserver.log'), 'utf8');
    assert.match(manifest, /Loaded \d+ mutating admission controller\(s\) successfully in the following order: [^.]*\bServiceAccount\b/);

    assert.deepEqual(JSON.parse(await shell(c.stop)), { name: 'node-1', heartbeat: false, podStatus: true });
    assert.deepEqual(
      (JSON.parse(await shell(c.list)) as { name: string; heartbeat: boolean }[]).map((n) => [n.name, n.heartbeat]),
      [['node-1', false], ['node-2', true]],
    );
    assert.deepEqual(JSON.parse(await shell(c.start)), { name: 'node-1', heartbeat: true, podStatus: true });
    assert.equal(await readyOf(c.kubeconfig, 'node-1'), 'True');

    // The real node beside them: the kubelet of the pinned version on containerd 2.x, as kubectl shows it.
    assert.match(c.stdout, /^Real node node-k: kubelet v1\.36\.3, containerd v2\.\d+\.\d+, runc; ready in/m);
    const wide = await shell(`kubectl --kubeconfig=${c.kubeconfig} get nodes -o wide`);
    assert.match(wide, /^node-k\s+Ready\s+<none>\s+\S+\s+v1\.36\.3\s+\d+\.\d+\.\d+\.\d+\s+.*containerd:\/\/2\.\d+\.\d+\s*$/m);
    assert.equal(await readyOf(c.kubeconfig, 'node-k'), 'True');
  } finally {
    await stopCluster(c);
  }
});

test('a machine without what a real node needs: npm run cluster stops at once with one line naming it and how to get it (exit 1)', async () => {
  // No runc on PATH (an empty PATH: the script itself runs on an absolute node).
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'test/harness/cluster-cli.ts')], { cwd: ROOT, env: { ...process.env, PATH: '' } });
  let stdout = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d: string) => (stdout += d));
  const { code, stderr } = await exitOf(child);
  assert.equal(code, 1);
  assert.equal(stderr, 'a real node needs runc on PATH: apt-get install -y runc (Debian), as .ci/run does (or start without it: npm run cluster -- --no-real-node)\n');
  assert.equal(stdout, '');
});

test('--fast-node-failure: the printed stop command turns node-1 Unknown and tainted within seconds, the printed start command heals it', async () => {
  const c = await startCluster(['--nodes', '2', '--fast-node-failure']);
  try {
    assert.match(c.stdout, /heartbeat every 1s, checked every 1s, Unknown after 10s without one, pods evicted 5 s later \(--fast-node-failure\)/);
    await shell(c.stop);
    await waitFor('node-1 Unknown', async () => (await readyOf(c.kubeconfig, 'node-1')) === 'Unknown');
    const node = await kubectlJSON<KubeObject & { spec?: { taints?: { key: string }[] } }>(c.kubeconfig, ['get', 'node', 'node-1']);
    assert.ok(node.spec?.taints?.some((t) => t.key === 'node.kubernetes.io/unreachable'), JSON.stringify(node.spec));
    assert.equal(await readyOf(c.kubeconfig, 'node-2'), 'True');
    await shell(c.start);
    await waitFor('node-1 Ready again', async () => (await readyOf(c.kubeconfig, 'node-1')) === 'True');
  } finally {
    await stopCluster(c);
  }
});

test('a grace period shorter than two heartbeats is refused before anything starts (exit 2): the node would flap', async () => {
  const child = script(['--node-monitor-grace-period', '10s']);
  let stdout = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d: string) => (stdout += d));
  const { code, stderr } = await exitOf(child);
  assert.equal(code, 2);
  assert.match(stderr, /--node-monitor-grace-period 10s is less than twice the heartbeat interval 10s/);
  assert.equal(stdout, '');
});

test('--store: a VictoriaLogs fed by the collector\'s k8s_events receiver, its URLs printed; an event deleted from the cluster is still read back from it', { timeout: 900_000 }, async () => {
  const c = await startCluster(['--no-real-node', '--store']);
  try {
    const from = /--from (victorialogs\+http:\/\/127\.0\.0\.1:\d+)$/m.exec(c.stdout)?.[1];
    assert.ok(from, c.stdout);
    assert.match(c.stdout, /^its OTLP\/HTTP endpoint for export and record --otlp: http:\/\/127\.0\.0\.1:\d+\/insert\/opentelemetry\/v1\/logs$/m);
    // The receiver drops events stamped before its own start (to the second): stamp this one later.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const event = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'stored.1', namespace: 'default' },
      involvedObject: { kind: 'Pod', name: 'gone-pod', namespace: 'default', apiVersion: 'v1' },
      reason: 'StoredForLater',
      message: 'kept by the store after the cluster forgets',
      type: 'Warning',
      source: { component: 'cluster-cli-test' },
      firstTimestamp: now,
      lastTimestamp: now,
      count: 1,
    };
    await new Promise<void>((resolve, reject) => {
      const child = execFile('kubectl', ['--kubeconfig', c.kubeconfig, 'create', '-f', '-'], (err, _o, stderr) => (err ? reject(new Error(stderr)) : resolve()));
      child.stdin?.end(JSON.stringify(event));
    });
    const stored = await waitFor('the event in the store', async () => {
      const r = await evtimeline(['--from', from, '-n', 'default', '-o', 'json'], c.kubeconfig);
      const list = r.code === 0 ? (JSON.parse(r.stdout) as { reason: string }[]) : [];
      return list.some((e) => e.reason === 'StoredForLater') ? list : undefined;
    }, { timeoutMs: 60_000, everyMs: 1000 });
    assert.ok(stored.length > 0);
    await shell(`kubectl --kubeconfig=${c.kubeconfig} delete events --all -n default`);
    const incident = await evtimeline(['incident', '--from', from, '-n', 'default'], c.kubeconfig);
    assert.equal(incident.code, 0, incident.stderr);
    assert.match(incident.stdout, /StoredForLater on Pod\/gone-pod/);
    assert.match(incident.stderr, /written by the k8s_events receiver, which did not keep/);
  } finally {
    await stopCluster(c);
  }
});

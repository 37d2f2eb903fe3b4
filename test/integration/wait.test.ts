// `kubectl evtimeline wait` on the real node (kubelet v1.36.3) and the real controllers, each case
// beside the reference on the same object: `kubectl rollout status` for Deployments, StatefulSets
// and DaemonSets, `kubectl wait` for a Job, a Pod and a custom resource. Both run at once; the
// reference's exit code says what the outcome must be, ours says it with the codes of the README.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { getObject } from '../harness/api-direct.ts';
import { BUSYBOX_IMAGE, sharedRealNode, UNPULLABLE_IMAGE } from '../harness/kubelet-node.ts';
import { applyObjects, kubectlOk } from '../harness/kubectl.ts';
import { crdObject } from '../harness/crds.ts';
import { freshNamespace } from '../harness/namespace.ts';
import { evtimeline, kubectl, PLUGIN_BINARY, pluginEnv } from '../harness/plugin.ts';
import { onRealNode } from '../harness/real-node-pods.ts';
import { spawnCollecting } from '../harness/spawned.ts';
import { startTcpProxy } from '../harness/tcp-proxy.ts';
import type { TcpProxy } from '../harness/tcp-proxy.ts';
import { adminKubeconfigAt, proxiedKubeconfig } from '../support/recorder.ts';
import { secondApiserver } from '../harness/second-apiserver.ts';
import { waitFor } from '../harness/wait.ts';

const { cp, node } = await sharedRealNode();
const kc = cp.kubeconfig;
const dir = mkdtempSync(join(tmpdir(), 'evtimeline-wait-'));
const GROUP = 'gate.evtimeline.test';

before(async () => {
  await applyObjects(kc, [crdObject(GROUP, 'widgets', 'Widget')]);
  await waitFor('the Widget CRD to be served', async () => (await kubectl(['get', `widgets.${GROUP}`, '-A'], kc)).code === 0);
});
const proxies: TcpProxy[] = [];
after(async () => {
  for (const proxy of proxies) await proxy.close();
  await kubectl(['delete', 'crd', `widgets.${GROUP}`, '--wait=false'], kc);
  rmSync(dir, { recursive: true, force: true });
});

function template(name: string, container: Record<string, unknown>, spec: Record<string, unknown> = {}) {
  return {
    metadata: { labels: { app: name } },
    spec: { ...onRealNode(node), terminationGracePeriodSeconds: 1, containers: [{ name: 'main', image: BUSYBOX_IMAGE, command: ['sleep', '3600'], ...container }], ...spec },
  };
}

/**
 * A probe's time to answer: the kubelet's default of 1 s is too short for an exec through runc on a
 * loaded machine (at load 30-40 `true` and `cat` timed out, and a probe meant to pass fired an Unhealthy
 * Warning the case did not expect).
 */
const PATIENT = { periodSeconds: 1, timeoutSeconds: 10 };

/** A readiness probe that would pass, were the container to live long enough to be probed. */
const NOT_YET = { exec: { command: ['true'] }, initialDelaySeconds: 60 };

function deployment(ns: string, name: string, container: Record<string, unknown>, spec: Record<string, unknown> = {}) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: ns },
    spec: { replicas: 1, progressDeadlineSeconds: 20, selector: { matchLabels: { app: name } }, template: template(name, container), ...spec },
  };
}

/** Ours, running while the test changes the object: resolves once its watch of the object is open (-v=6 logs each response). */
async function ours(ns: string, args: string[], resource: string) {
  const run = spawnCollecting(PLUGIN_BINARY, ['wait', '-n', ns, '-v=6', ...args], { env: pluginEnv(kc) });
  await waitFor(`wait to watch ${resource}`, async () => new RegExp(`/${resource}\\?[^"]*watch=1`).test(run.err()) || run.child.exitCode !== null);
  return run;
}

/** Ours and the reference, started together on the same object. */
async function beside(ns: string, ours: string[], reference: string[]) {
  const [mine, theirs] = await Promise.all([evtimeline(['wait', '-n', ns, ...ours], kc), kubectl([...reference, '-n', ns], kc)]);
  return { mine, theirs };
}

/** What an event of `kubectl events -o json` looks like as a line of wait, the time left out: its latest occurrence. */
function asLine(e: { type: string; reason: string; involvedObject: { kind: string; name: string }; message: string; count?: number; series?: { count: number } }): string {
  const count = e.count ?? e.series?.count ?? 1;
  return `${e.type}  ${e.reason}  ${e.involvedObject.kind}/${e.involvedObject.name}  ${e.message}${count > 1 ? ` (x${count})` : ''}`;
}

/**
 * A Deployment whose main container starts, and which becomes Available, only after `down` (an init
 * container sleeps first, longer than `down` takes), waited for through `config`; then `up`. Each event of the rollout must be
 * printed once (none lost, none repeated, against kubectl events for the namespace), and exit 0.
 */
async function outage(ns: string, config: string, initSeconds: number, down: () => Promise<void>, up: () => Promise<void>): Promise<string> {
  const web = deployment(ns, 'web', {}, { progressDeadlineSeconds: 600 });
  web.spec.template = template('web', { readinessProbe: { exec: { command: ['true'] }, ...PATIENT } }, { initContainers: [{ name: 'init', image: BUSYBOX_IMAGE, command: ['sleep', String(initSeconds)] }] });
  await applyObjects(kc, [web]);
  const run = spawnCollecting(PLUGIN_BINARY, ['wait', '-n', ns, 'deploy/web', '--timeout', '3m'], { env: pluginEnv(config) });
  try {
    const started = () => run.out().split('\n').filter((l) => /^\+\d+s  Normal  Started  Pod\/web-/.test(l));
    await waitFor('the init container\'s Started line', async () => started().length > 0 || run.child.exitCode !== null);
    assert.equal(started().length, 1, `only the init container has started when the watch drops: ${run.out()}`);
    await down();
    await waitFor('the Deployment to be Available (read past the outage)', async () => (await getObject(kc, 'deployments', 'web', ns))?.status?.availableReplicas === 1);
    assert.equal(run.child.exitCode, null, 'no verdict while it cannot see the object');
    await up();
    const { code } = await run.exited;
    assert.equal(code, 0, run.err());
  } finally {
    run.child.kill('SIGINT');
  }
  const printed = run.out().split('\n').filter((l) => l.startsWith('+')).map((l) => l.replace(/^\+\S+  /, ''));
  assert.match(run.out(), /^deployment "web" successfully rolled out in \d+s, 1 of 1 ready$/m);
  const listed = JSON.parse(await kubectlOk(kc, ['events', '-n', ns, '-o', 'json'])) as { items: Parameters<typeof asLine>[0][] };
  const expected = listed.items.map(asLine);
  assert.equal(expected.filter((l) => /^Normal  Started  Pod\/web-/.test(l)).length, 2, `the init and main containers' Started: ${expected.join('\n')}`);
  // Each event once: the lines printed are those of kubectl events, as many of each (the kubelet's
  // "Container started" reads the same for the init and the main container), none more. An event that
  // repeated while wait watched (on a loaded machine the readiness probe's `true` can time out) was
  // printed as it grew: those earlier counts are allowed, each once per event that reached past it.
  const { last, earlier } = lastCounts(printed, expected);
  assert.deepEqual(last.sort(), [...expected].sort(), `printed:\n${printed.join('\n')}`);
  for (const [line, times] of earlier) assert.ok(times <= 0, `printed more often than the events that grew past it: ${line}\nprinted:\n${printed.join('\n')}`);
  return run.err();
}

/** A line's text without its ` (xN)` and N (1 without it). */
function counted(line: string): { text: string; count: number } {
  const m = / \(x(\d+)\)$/.exec(line);
  return m === null ? { text: line, count: 1 } : { text: line.slice(0, m.index), count: Number(m[1]) };
}

/**
 * Splits the printed lines into those that match kubectl events' final lines and the earlier counts of
 * events that grew; `earlier` maps each earlier line to how many more times it was printed than there
 * are listed events of that text with a higher count (above 0: printed once too often).
 */
function lastCounts(printed: string[], expected: string[]): { last: string[]; earlier: Map<string, number> } {
  const left = new Map<string, number>();
  for (const line of expected) left.set(line, (left.get(line) ?? 0) + 1);
  const last: string[] = [];
  const earlier = new Map<string, number>();
  for (const line of printed) {
    if ((left.get(line) ?? 0) > 0) {
      left.set(line, (left.get(line) ?? 0) - 1);
      last.push(line);
      continue;
    }
    const { text, count } = counted(line);
    if (!earlier.has(line)) earlier.set(line, -expected.filter((e) => counted(e).text === text && counted(e).count > count).length);
    earlier.set(line, (earlier.get(line) ?? 0) + 1);
    if ((earlier.get(line) ?? 0) > 0) last.push(line); // not an earlier count of any listed event: it fails the comparison
  }
  return { last, earlier };
}

// The cases wait on the cluster's clocks, not the CPU: four of them sit out a 20 s progress deadline,
// others a probe's or an outage's seconds. Each keeps to a namespace (and a proxy or apiserver) of its
// own, so they run a few at a time, the outages first (the longest).
describe('wait beside kubectl', { concurrency: 5 }, () => {
  test('a watch that drops while waiting (cut by a TCP proxy, no reconnecting until Available): it resumes, each event printed once against kubectl events, exit 0', { timeout: 240_000 }, async (t) => {
    const ns = await freshNamespace(kc, 'wait-drop', t);
    const proxy = await startTcpProxy(cp.server);
    proxies.push(proxy);
    const err = await outage(
      ns,
      proxiedKubeconfig(cp, proxy, ns, join(dir, 'drop.kubeconfig')),
      12,
      async () => {
        proxy.refuse(true);
        assert.ok(proxy.cutAll() > 0, 'wait had connections to cut');
      },
      async () => proxy.refuse(false),
    );
    assert.match(err, /^(watch|list) failed \(.+\): retrying in /m, 'the drop was told');
  });

  test('an apiserver restart while waiting (a second kube-apiserver of the cluster, killed and started again: a graceful stop drains watches for longer than a rollout takes): it resumes, each event printed once, exit 0', { timeout: 300_000 }, async (t) => {
    const ns = await freshNamespace(kc, 'wait-restart', t);
    const second = await secondApiserver(cp, join(dir, 'second-apiserver.log'));
    try {
      const err = await outage(ns, adminKubeconfigAt(cp, second.server, ns, join(dir, 'restart.kubeconfig')), 15, () => second.stop('SIGKILL'), () => second.start());
      // The notices a restart may cause, and no error.
      for (const line of err.split('\n').filter((l) => l !== '')) assert.match(line, /^(watch|list) (failed \(.*\): retrying in [\d.]+ m?s|expired \(410 Gone\): listing again)$/);
    } finally {
      await second.stop();
    }
  });

  test('a good rollout: exit 0 as kubectl rollout status, one line saying what became ready and how long it took', async (t) => {
    const ns = await freshNamespace(kc, 'wait-good', t);
    await applyObjects(kc, [deployment(ns, 'web', { readinessProbe: { exec: { command: ['true'] }, ...PATIENT } }, { replicas: 2 })]);
    const { mine, theirs } = await beside(ns, ['deployment/web', '--timeout', '3m'], ['rollout', 'status', 'deployment/web', '--timeout', '3m']);
    assert.equal(theirs.code, 0, theirs.stderr);
    assert.match(theirs.stdout, /deployment "web" successfully rolled out/);
    assert.equal(mine.code, 0, mine.stderr);
    const lines = mine.stdout.trim().split('\n');
    assert.match(lines.at(-1) ?? '', /^deployment "web" successfully rolled out in \d+s, 2 of 2 ready$/);
    assert.ok(lines.some((l) => /^\+\d+s  Normal  ScalingReplicaSet  Deployment\/web  Scaled up replica set web-/.test(l)), mine.stdout);
    assert.ok(lines.some((l) => /Normal  Started  Pod\/web-/.test(l)), mine.stdout);
    assert.equal(mine.stderr, '', 'no status line when stderr is not a terminal');
  });

  test('an object that does not exist: exit 1 at once in the API server\'s words, as kubectl rollout status', async (t) => {
    const ns = await freshNamespace(kc, 'wait-none', t);
    const { mine, theirs } = await beside(ns, ['deployment/nope'], ['rollout', 'status', 'deployment/nope']);
    assert.equal(theirs.code, 1);
    assert.match(theirs.stderr, /deployments\.apps "nope" not found/);
    assert.equal(mine.code, 1);
    assert.equal(mine.stderr, 'error: deployments.apps "nope" not found\n');
  });

  test('a container that crash-loops: exit 1 and the progress deadline from kubectl rollout status; exit 5, the events as they came and the account with its Why from wait', async (t) => {
    const ns = await freshNamespace(kc, 'wait-crash', t);
    // A readiness probe, as real Deployments have: without one, a container that lives a moment is
    // Ready and Available, and each restart's readiness counts as progress to the controller.
    await applyObjects(kc, [deployment(ns, 'api', { command: ['sh', '-c', 'echo "fatal: cannot reach db:5432"; exit 3'], readinessProbe: NOT_YET })]);
    const { mine, theirs } = await beside(ns, ['deploy/api', '--timeout', '3m'], ['rollout', 'status', 'deploy/api', '--timeout', '3m']);
    assert.equal(theirs.code, 1);
    assert.match(theirs.stderr, /deployment "api" exceeded its progress deadline/);
    assert.equal(mine.code, 5, mine.stderr);
    assert.match(mine.stdout, /^\+\d+s  Normal  ScalingReplicaSet  Deployment\/api  Scaled up replica set api-/m);
    assert.match(mine.stdout, /^\+\d+s  Warning  BackOff  Pod\/api-\S+  Back-off restarting failed container main/m);
    assert.match(mine.stdout, /^wait failed after \d+s \(exit 5\): deployment "api" exceeded its progress deadline$/m);
    const account = mine.stdout.slice(mine.stdout.indexOf('wait failed'));
    assert.match(account, /\nWhy\n/);
    // Its last words when the kubelet still has the container's log (a restart can remove it first).
    assert.match(account, /container main keeps exiting with code 3 \(Error\), restarted \d+ times?/);
    assert.match(account, /Deployment\/api: is past its progress deadline \(20s\)/);
    assert.ok(account.indexOf('Deployment/api') < account.indexOf('Pod/api-'), 'owner first');
  });

  test('quiet (-q): nothing until the end, then the same verdict', async (t) => {
    const ns = await freshNamespace(kc, 'wait-quiet', t);
    await applyObjects(kc, [deployment(ns, 'api', { image: UNPULLABLE_IMAGE })]);
    const { mine, theirs } = await beside(ns, ['deploy/api', '-q'], ['rollout', 'status', 'deploy/api', '--timeout', '3m']);
    assert.equal(theirs.code, 1);
    assert.match(theirs.stderr, /exceeded its progress deadline/);
    assert.equal(mine.code, 5);
    assert.match(mine.stdout, /^wait failed after/, 'no event line before the verdict');
    assert.match(mine.stdout, /127\.0\.0\.1:1\/nothing:v1/);
    assert.match(mine.stdout, /ErrImagePull|ImagePullBackOff/);
  });

  test('a Deployment that does not fit: FailedScheduling with the numbers in the events and the account, exit 5', async (t) => {
    const ns = await freshNamespace(kc, 'wait-fit', t);
    await applyObjects(kc, [deployment(ns, 'big', { resources: { requests: { cpu: '500' } } })]);
    const { mine, theirs } = await beside(ns, ['deploy/big'], ['rollout', 'status', 'deploy/big', '--timeout', '3m']);
    assert.equal(theirs.code, 1);
    assert.equal(mine.code, 5, mine.stderr);
    assert.match(mine.stdout, /Warning  FailedScheduling  Pod\/big-\S+  0\/\d+ nodes are available/);
    assert.match(mine.stdout.slice(mine.stdout.indexOf('wait failed')), /0\/\d+ nodes are available/);
  });

  test('a container killed for memory: exit 5, and the Why says OOMKilled though no event does', async (t) => {
    const ns = await freshNamespace(kc, 'wait-oom', t);
    await applyObjects(kc, [deployment(ns, 'hog', { command: ['hog', '100'], resources: { limits: { memory: '20Mi' } }, readinessProbe: NOT_YET })]);
    const { mine, theirs } = await beside(ns, ['deploy/hog'], ['rollout', 'status', 'deploy/hog', '--timeout', '3m']);
    assert.equal(theirs.code, 1);
    assert.equal(mine.code, 5, mine.stderr);
    assert.match(mine.stdout, /killed for using more memory than its limit \(OOMKilled, exit code 137, limits\.memory 20Mi\)/);
  });

  test('a readiness probe that never passes: kubectl times out (exit 1), wait times out with exit 6 and the probe in the account', async (t) => {
    const ns = await freshNamespace(kc, 'wait-probe', t);
    await applyObjects(kc, [deployment(ns, 'shy', { readinessProbe: { exec: { command: ['cat', '/tmp/ready'] }, ...PATIENT } }, { progressDeadlineSeconds: 600 })]);
    const { mine, theirs } = await beside(ns, ['deploy/shy', '--timeout', '15s'], ['rollout', 'status', 'deploy/shy', '--timeout', '15s']);
    assert.equal(theirs.code, 1);
    assert.match(theirs.stderr, /timed out waiting for the condition/);
    assert.equal(mine.code, 6, mine.stderr);
    assert.match(mine.stdout, /^wait timed out after \d+s \(exit 6\): timed out waiting for the condition: Waiting for deployment "shy" rollout to finish: 0 of 1 updated replicas are available\.\.\.$/m);
    assert.match(mine.stdout, /Readiness probe failed/);
  });

  test('a StatefulSet and a DaemonSet roll out: exit 0 with kubectl\'s own lines', async (t) => {
    const ns = await freshNamespace(kc, 'wait-sets', t);
    await applyObjects(kc, [
      { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'db', namespace: ns }, spec: { replicas: 2, serviceName: 'db', selector: { matchLabels: { app: 'db' } }, template: template('db', {}) } },
      { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent', namespace: ns }, spec: { selector: { matchLabels: { app: 'agent' } }, template: template('agent', {}) } },
    ]);
    const sts = await beside(ns, ['statefulset/db'], ['rollout', 'status', 'statefulset/db', '--timeout', '3m']);
    assert.equal(sts.theirs.code, 0, sts.theirs.stderr);
    assert.match(sts.theirs.stdout, /partitioned roll out complete: 2 new pods have been updated\.\.\./);
    assert.equal(sts.mine.code, 0, sts.mine.stderr);
    assert.match(sts.mine.stdout, /^partitioned roll out complete: 2 new pods have been updated\.\.\. in \d+s, 2 of 2 ready$/m);
    assert.match(sts.mine.stdout, /SuccessfulCreate  StatefulSet\/db  [Cc]reate Pod db-1 in StatefulSet db successful/);
    const ds = await beside(ns, ['ds/agent'], ['rollout', 'status', 'ds/agent', '--timeout', '3m']);
    assert.equal(ds.theirs.code, 0, ds.theirs.stderr);
    assert.equal(ds.mine.code, 0, ds.mine.stderr);
    assert.match(ds.mine.stdout, /^daemon set "agent" successfully rolled out in \d+s, 1 of 1 ready$/m);
  });

  test('a Job past its back-off limit: kubectl wait --for=condition=Failed is met; wait fails with exit 5 and the reason', async (t) => {
    const ns = await freshNamespace(kc, 'wait-job', t);
    await applyObjects(kc, [{ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'migrate', namespace: ns }, spec: { backoffLimit: 1, template: template('migrate', { command: ['sh', '-c', 'echo "no such table"; exit 7'] }, { restartPolicy: 'Never' }) } }]);
    const { mine, theirs } = await beside(ns, ['job/migrate'], ['wait', '--for=condition=Failed', 'job/migrate', '--timeout', '3m']);
    assert.equal(theirs.code, 0, theirs.stderr);
    assert.equal(mine.code, 5, mine.stderr);
    assert.match(mine.stdout, /^wait failed after \d+s \(exit 5\): job "migrate" failed: BackoffLimitExceeded: Job has reached the specified backoff limit$/m);
    assert.match(mine.stdout, /Job\/migrate: gave up: Job has reached the specified backoff limit \(backoffLimit 1, 2 failed Pods\); exit codes: migrate-\S+ main exit 7 \(Error\)/);
  });

  test('a Pod that runs to completion: exit 0 as kubectl wait for its phase Succeeded', async (t) => {
    const ns = await freshNamespace(kc, 'wait-pod', t);
    await applyObjects(kc, [{ apiVersion: 'v1', kind: 'Pod', ...template('once', { command: ['sh', '-c', 'echo done'] }, { restartPolicy: 'Never' }), metadata: { name: 'once', namespace: ns } }]);
    const { mine, theirs } = await beside(ns, ['pod/once'], ['wait', '--for=jsonpath={.status.phase}=Succeeded', 'pod/once', '--timeout', '3m']);
    assert.equal(theirs.code, 0, theirs.stderr);
    assert.equal(mine.code, 0, mine.stderr);
    assert.match(mine.stdout, /^pod "once" succeeded in \d+s, 0 of 1 ready$/m);
  });

  test('a custom resource whose Ready condition the test sets: exit 0 with kubectl wait --for=condition=Ready; -o json, --output-file and the step summary', async (t) => {
    const ns = await freshNamespace(kc, 'wait-cr', t);
    const ref = `widgets.${GROUP}/w1`;
    await applyObjects(kc, [{ apiVersion: `${GROUP}/v1`, kind: 'Widget', metadata: { name: 'w1', namespace: ns }, spec: { size: 1 } }]);
    const summary = join(dir, 'summary.md');
    writeFileSync(summary, '# earlier step\n');
    const file = join(dir, 'w1.json');
    const run = spawnCollecting(PLUGIN_BINARY, ['wait', '-n', ns, '-v=6', ref, '--for-condition', 'Ready', '-o', 'json', '--output-file', file], { env: pluginEnv(kc, { GITHUB_STEP_SUMMARY: summary }) });
    const reference = kubectl(['wait', '--for=condition=Ready', ref, '-n', ns, '--timeout', '3m'], kc);
    await waitFor('wait to watch the widget', async () => /\/widgets\?[^"]*watch=1/.test(run.err()) || run.child.exitCode !== null);
    await kubectlOk(kc, ['patch', ref, '-n', ns, '--type', 'merge', '-p', JSON.stringify({ status: { conditions: [{ type: 'Ready', status: 'True', reason: 'Built' }] } })]);
    const [{ code }, theirs] = await Promise.all([run.exited, reference]);
    assert.equal(theirs.code, 0, theirs.stderr);
    assert.equal(code, 0, run.err());
    const result = JSON.parse(run.out());
    assert.equal(result.outcome, 'succeeded');
    assert.equal(result.exitCode, 0);
    assert.equal(result.message, 'condition Ready=True met');
    assert.deepEqual(result.object, { group: GROUP, kind: 'Widget', name: 'w1', namespace: ns, uid: result.object.uid });
    assert.match(result.object.uid, /^[0-9a-f-]{36}$/);
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), result);
    const md = readFileSync(summary, 'utf8');
    assert.match(md, /^# earlier step\n### ✅ Widget\/w1 in wait-cr-\S+: succeeded\n\ncondition Ready=True met \(after \d+s, exit 0\)\n/);
  });

  test('--settle: a container that crashes after the rollout was Available fails it (exit 5; kubectl rollout status says 0); one whose Warnings stopped before success passes', async (t) => {
    const ns = await freshNamespace(kc, 'wait-settle', t);
    // Both must succeed for kubectl rollout status: on a loaded machine (load 30) a container's start and
    // its first probe take seconds, so each lives long enough to be probed (late: Ready before it exits;
    // slow: a failed probe before it is ready) and the deadline leaves room for a slow start.
    const roomy = { progressDeadlineSeconds: 120 };
    await applyObjects(kc, [
      deployment(ns, 'late', { command: ['sh', '-c', 'sleep 12; exit 1'], readinessProbe: { exec: { command: ['true'] }, ...PATIENT } }, roomy),
      deployment(ns, 'slow', { command: ['sh', '-c', 'sleep 8; touch /tmp/ready; exec sleep 3600'], readinessProbe: { exec: { command: ['cat', '/tmp/ready'] }, ...PATIENT } }, roomy),
    ]);
    const late = await beside(ns, ['deploy/late', '--settle', '90s'], ['rollout', 'status', 'deploy/late', '--timeout', '3m']);
    assert.equal(late.theirs.code, 0, late.theirs.stderr);
    assert.equal(late.mine.code, 5, late.mine.stderr);
    assert.match(late.mine.stdout, /^wait failed while settling after \d+s \(exit 5\): a Warning fired after the rollout succeeded: (BackOff|Unhealthy) on Pod\/late-/m);
    const slow = await beside(ns, ['deploy/slow', '--settle', '8s'], ['rollout', 'status', 'deploy/slow', '--timeout', '3m']);
    assert.equal(slow.theirs.code, 0);
    assert.equal(slow.mine.code, 0, slow.mine.stdout);
    assert.match(slow.mine.stdout, /Warning  Unhealthy  Pod\/slow-\S+  Readiness probe failed/);
    assert.match(slow.mine.stdout, /^deployment "slow" successfully rolled out in \d+s, 1 of 1 ready, no Warning in the 8s after$/m);
  });

  test('deleted while waiting: exit 7, told plainly; kubectl rollout status exits 1', async (t) => {
    const ns = await freshNamespace(kc, 'wait-gone', t);
    await applyObjects(kc, [deployment(ns, 'doomed', { readinessProbe: { exec: { command: ['false'] }, periodSeconds: 1 } }, { progressDeadlineSeconds: 600 })]);
    const run = await ours(ns, ['deploy/doomed', '-q'], 'deployments');
    const reference = kubectl(['rollout', 'status', 'deploy/doomed', '-n', ns, '--timeout', '30s'], kc);
    await kubectlOk(kc, ['delete', 'deploy/doomed', '-n', ns, '--wait=false']);
    const [{ code }, theirs] = await Promise.all([run.exited, reference]);
    assert.equal(theirs.code, 1);
    assert.equal(code, 7, run.err());
    assert.match(run.out(), /^wait deleted while waiting after \d+s \(exit 7\): deployment "doomed" was deleted while waiting$/m);
  });

  test('Ctrl-C: exit 130 with what it knows (the events so far and the account)', async (t) => {
    const ns = await freshNamespace(kc, 'wait-int', t);
    // Not beside kubectl: what a stopped wait prints has no reference there.
    await applyObjects(kc, [deployment(ns, 'stuck', { readinessProbe: { exec: { command: ['false'] }, periodSeconds: 1 } }, { progressDeadlineSeconds: 600 })]);
    const run = await ours(ns, ['deploy/stuck'], 'deployments');
    // Once the kubelet has said the probe fails, so there is something to tell.
    await waitFor('the readiness probe to fail', async () => /Unhealthy  Pod\/stuck-/.test(run.out()));
    run.child.kill('SIGINT');
    const { code } = await run.exited;
    assert.equal(code, 130, run.err());
    assert.match(run.out(), /^wait interrupted after \d+s \(exit 130\): interrupted$/m);
    assert.match(run.out(), /Readiness probe failed/);
  });

  test('a rollout superseded by another (a newer generation while waiting): exit 8; kubectl rollout status follows the newer one', async (t) => {
    const ns = await freshNamespace(kc, 'wait-super', t);
    await applyObjects(kc, [deployment(ns, 'web', { readinessProbe: { exec: { command: ['false'] }, ...PATIENT } }, { progressDeadlineSeconds: 600 })]);
    const run = await ours(ns, ['deploy/web', '-q'], 'deployments');
    await kubectlOk(kc, ['patch', 'deploy/web', '-n', ns, '--type', 'json', '-p', JSON.stringify([{ op: 'replace', path: '/spec/template/spec/containers/0/readinessProbe/exec/command/0', value: 'true' }])]);
    const { code } = await run.exited;
    assert.equal(code, 8, run.err());
    assert.match(run.out(), /^wait superseded after \d+s \(exit 8\): deployment "web" was changed again while waiting \(generation 2; the wait began at 1\): this rollout was superseded$/m);
    const theirs = await kubectl(['rollout', 'status', 'deploy/web', '-n', ns, '--timeout', '3m'], kc);
    assert.equal(theirs.code, 0, theirs.stderr);
  });
});

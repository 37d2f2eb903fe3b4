// The Why of `incident` on the real node (test/harness/kubelet-node.ts: kubelet v1.36.3, containerd,
// runc): what the kubelet writes in a container's status and events, told as causes, each compared
// with `kubectl describe` (and `kubectl logs --previous`) for the same object. An OOM kill writes no
// event (kubernetes#69676): only the status says it, and the record keeps it after the Deployment is
// deleted.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { sharedRealNode, UNPULLABLE_IMAGE } from '../harness/kubelet-node.ts';
import { getObject } from '../harness/api-direct.ts';
import { applyObjects, kubectlJSON, kubectlOk } from '../harness/kubectl.ts';
import { freshNamespace } from '../harness/namespace.ts';
import { evtimeline, kubectl } from '../harness/plugin.ts';
import { deleteAndWait, describeWhen, parseDescribe, realNodePod, stageOomKill, whyScenarios } from '../harness/real-node-pods.ts';
import { waitFor } from '../harness/wait.ts';
import { describedMessages, describedRows, whyOf } from '../harness/described.ts';
import { listEvents } from '../harness/workloads.ts';

/** The reason of a Job's Failed condition (what jsonpath {.status.conditions[?(@.type=="Failed")].reason} prints). */
const jobFailedReason = (job: Record<string, any> | null): string | undefined =>
  (job?.status?.conditions as { type: string; reason?: string }[] | undefined)?.find((c) => c.type === 'Failed')?.reason;

const { cp, node } = await sharedRealNode();
const kc = cp.kubeconfig;
const ns: Record<string, string> = {};
const dir = mkdtempSync(join(tmpdir(), 'evtimeline-why-real-'));

before(async () => {
  for (const name of ['crash', 'pull', 'config', 'probe', 'job']) ns[name] = await freshNamespace(kc, `why-${name}`);
  await applyObjects(kc, whyScenarios(node, ns));
});

after(() => rmSync(dir, { recursive: true, force: true }));

async function why(args: string[]): Promise<string[]> {
  const r = await evtimeline(['incident', ...args], kc);
  assert.equal(r.code, 0, r.stderr);
  return whyOf(r.stdout);
}

test('a Deployment killed for memory: OOMKilled, exit 137, the limit and the restarts, though no event says OOM; the same from a record after the Deployment is deleted', async () => {
  const oom = ns.oom ?? (ns.oom = await freshNamespace(kc, 'why-oom'));
  const { pod } = await stageOomKill(kc, node, oom, 'thumbnailer', () => {});
  assert.ok(!(await listEvents(kc, oom)).some((e) => /OOMKilled|out of memory/i.test(`${e.reason} ${e.message}`)), 'no event mentions the OOM kill');
  const lines = await why(['-n', oom, '--for', 'deploy/thumbnailer', '--tree']);
  const { described } = await describeWhen(kc, oom, pod, 'worker', (d) => d.lastReason === 'OOMKilled');
  const line = lines.find((l) => l.includes('was killed for using more memory'));
  assert.ok(line !== undefined, lines.join('\n'));
  const restarts = Number(/restarted (\d+) times?\.$/.exec(line)?.[1]);
  // kubectl describe pod, read after: the same reason and exit code, a restart count at least as high.
  assert.equal(line, `  Pod/${pod}: container worker was killed for using more memory than its limit (OOMKilled, exit code ${described.lastExitCode}, limits.memory 20Mi), restarted ${restarts} time${restarts === 1 ? '' : 's'}.`);
  assert.equal(described.lastReason, 'OOMKilled');
  assert.ok(restarts >= 2 && restarts <= described.restartCount, `${restarts} vs describe's ${described.restartCount}`);
  assert.equal(lines[0], line, 'the OOM kill is the first cause');

  const file = join(dir, 'oom.jsonl');
  const recorded = await evtimeline(['record', '-n', oom, file, '--duration', '3s'], kc);
  assert.equal(recorded.code, 0, recorded.stderr);
  await deleteAndWait(kc, oom, ['deployment', 'thumbnailer']);
  await waitFor('the pod gone', async () => (await getObject(kc, 'pods', pod, oom)) === null);
  const replayed = (await why(['--from', file])).find((l) => l.includes('was killed for using more memory'));
  assert.match(replayed ?? '', new RegExp(`^ {2}Pod/${pod}: container worker was killed for using more memory than its limit \\(OOMKilled, exit code 137, limits\\.memory 20Mi\\), restarted \\d+ times\\.$`));
});

interface TerminatedStatus {
  exitCode?: number;
  containerID?: string;
}
interface CrasherStatus {
  restartCount?: number;
  state?: { waiting?: { reason?: string }; running?: object; terminated?: TerminatedStatus };
  lastState?: { terminated?: TerminatedStatus };
}

/** The crasher's container status as the API server holds it: its state, which instance exited last, and which before. */
async function crasherStatus(): Promise<CrasherStatus> {
  const pod = await kubectlJSON<{ status?: { containerStatuses?: CrasherStatus[] } }>(kc, ['-n', ns.crash!, 'get', 'pod', 'crasher']);
  const c = pod.status?.containerStatuses?.[0] ?? {};
  return { restartCount: c.restartCount, state: c.state, lastState: c.lastState };
}

test('a container that keeps exiting: its exit code and its last words, as kubectl logs has them for the instance whose exit is told', async () => {
  const { described } = await describeWhen(kc, ns.crash!, 'crasher', 'main', (d) => d.restartCount >= 1 && d.lastExitCode === 3);
  assert.equal(described.lastReason, 'Error');
  const words = 'starting\nfatal: cannot reach db:5432\n';
  // The instance whose exit is told: between an exit and the restart a back-off later (at most 5 s on
  // this node), state.terminated, whose words `kubectl logs` has; the lastState.terminated before it,
  // while the container waits in CrashLoopBackOff or runs again (its 20 s), whose words `kubectl logs
  // --previous` has (the kubelet keeps the newest dead container: pkg/kubelet/pod_container_deletor.go).
  // A look counts only if the status was the same before and after it (the plugin and kubectl then
  // read the same instance); one that straddles a change is taken again at the next change. The
  // container's 20 s of life make a look fit between two changes on a loaded machine: at load 40-58,
  // with no sleep, every look straddled (NOTE9).
  const straddled: string[] = [];
  let seen = '';
  for (;;) {
    const before = await waitFor('the crasher to have exited, at a status not looked at yet', async () => {
      const now = await crasherStatus();
      return (now.restartCount ?? 0) >= 1 && (now.state?.terminated ?? now.lastState?.terminated) !== undefined && JSON.stringify(now) !== seen ? now : undefined;
    }, { everyMs: 100 });
    seen = JSON.stringify(before);
    const previous = before.state?.terminated === undefined;
    const lines = await why(['-n', ns.crash!]);
    const logs = await kubectl(['-n', ns.crash!, 'logs', 'crasher', '--tail=5', ...(previous ? ['--previous'] : [])], kc);
    const after = await crasherStatus();
    if (JSON.stringify(after) !== seen) {
      straddled.push(`${seen} -> ${JSON.stringify(after)}`);
      assert.ok(straddled.length < 10, `the status changed during every look:\n${straddled.join('\n')}`);
      continue;
    }
    assert.equal(logs.code, 0, logs.stderr);
    assert.equal(logs.stdout, words, `kubectl logs${previous ? ' --previous' : ''}`);
    const line = lines.find((l) => l.startsWith('  Pod/crasher: container main keeps exiting with code 3 (Error), restarted '));
    assert.ok(line !== undefined, lines.join('\n'));
    assert.ok(line.endsWith('; its last words: "starting\\nfatal: cannot reach db:5432".'), `${line}\n${seen}`);
    assert.ok(!lines.some((l) => l.startsWith('  Not read: pods/log')), lines.join('\n'));
    break;
  }
});

test('an image that cannot be pulled and a missing ConfigMap key: named as kubectl describe pod shows their reason', async () => {
  const pulled = await describeWhen(kc, ns.pull!, 'puller', 'main', (d) => d.reason === 'ErrImagePull' || d.reason === 'ImagePullBackOff');
  const pullLine = (await why(['-n', ns.pull!])).find((l) => l.includes('cannot pull image'));
  assert.match(pullLine ?? '', new RegExp(`^ {2}Pod/puller: container main cannot pull image "${UNPULLABLE_IMAGE.replace(/[.:/]/g, '\\$&')}" \\((ErrImagePull|ImagePullBackOff)\\): Failed to pull image "`));
  assert.ok(['ErrImagePull', 'ImagePullBackOff'].includes(pulled.described.reason ?? ''));

  const configured = await describeWhen(kc, ns.config!, 'configured', 'main', (d) => d.reason === 'CreateContainerConfigError');
  assert.equal(configured.described.reason, 'CreateContainerConfigError');
  assert.ok((await why(['-n', ns.config!])).includes('  Pod/configured: container main cannot start: key "missing" is missing from ConfigMap "settings".'));
});

test('a ConfigMap and a Secret that do not exist at all: named as kubectl describe pod shows them (CreateContainerConfigError, FailedMount)', async (t) => {
  const absent = await freshNamespace(kc, 'why-absent', t);
  await applyObjects(kc, [
    realNodePod(node, absent, 'unconfigured', { command: ['sleep', '3600'], env: [{ name: 'MODE', valueFrom: { configMapKeyRef: { name: 'absent-settings', key: 'mode' } } }] }),
    realNodePod(node, absent, 'unmounted', { command: ['sleep', '3600'], volumeMounts: [{ name: 'creds', mountPath: '/creds' }] }, { volumes: [{ name: 'creds', secret: { secretName: 'absent-creds' } }] }),
  ]);
  const { described } = await describeWhen(kc, absent, 'unconfigured', 'main', (d) => d.reason === 'CreateContainerConfigError');
  assert.equal(described.reason, 'CreateContainerConfigError');
  const mounted = await describeWhen(kc, absent, 'unmounted', 'main', (d) => d.reason === 'ContainerCreating');
  assert.equal(mounted.described.reason, 'ContainerCreating');
  await waitFor('FailedMount', async () => (await listEvents(kc, absent)).some((e) => e.reason === 'FailedMount' && e.involvedObject.name === 'unmounted'));
  // What kubectl describe pod shows of each: the kubelet's own words, in its Events.
  const unconfigured = await kubectlOk(kc, ['-n', absent, 'describe', 'pod', 'unconfigured']);
  assert.ok(describedMessages(unconfigured, 'Failed').includes('Error: configmap "absent-settings" not found'), unconfigured);
  const unmounted = await kubectlOk(kc, ['-n', absent, 'describe', 'pod', 'unmounted']);
  assert.ok(describedMessages(unmounted, 'FailedMount').includes('MountVolume.SetUp failed for volume "creds" : secret "absent-creds" not found'), unmounted);
  const lines = await why(['-n', absent]);
  assert.ok(lines.includes('  Pod/unconfigured: container main cannot start: ConfigMap "absent-settings" does not exist.'), lines.join('\n'));
  assert.ok(lines.includes('  Pod/unmounted: volume creds cannot start: Secret "absent-creds" does not exist.'), lines.join('\n'));
});

test('a readiness probe that fails while the container starts, fewer times than its threshold: folded as expected, counted as kubectl describe pod counts it', async (t) => {
  const warming = await freshNamespace(kc, 'why-ready', t);
  await applyObjects(kc, [
    realNodePod(node, warming, 'warming', {
      command: ['sh', '-c', 'exec sleep 3600'],
      readinessProbe: { exec: { command: ['sh', '-c', 'test -f /tmp/ready'] }, periodSeconds: 1, failureThreshold: 30 },
    }),
  ]);
  // It warms up once the probe has failed at least once (the test says when: a fixed sleep in the
  // container let a slow kubelet's first probe come after it, and nothing failed); once Ready, the
  // probe has stopped failing, so the count is final.
  await waitFor('a readiness probe failure', async () => (await listEvents(kc, warming)).some((e) => e.reason === 'Unhealthy'));
  await kubectlOk(kc, ['-n', warming, 'exec', 'warming', '--', 'touch', '/tmp/ready']);
  await waitFor('ready after failing', async () => {
    const pod = await kubectlJSON<{ status?: { containerStatuses?: { ready: boolean }[] } }>(kc, ['-n', warming, 'get', 'pod', 'warming']);
    return pod.status?.containerStatuses?.[0]?.ready === true;
  });
  const described = await kubectlOk(kc, ['-n', warming, 'describe', 'pod', 'warming']);
  assert.match(described, /\n\s+Ready:\s+True\n/);
  const rows = describedRows(described, 'Unhealthy');
  assert.equal(rows.length, 1, described);
  assert.match(rows[0]?.message ?? '', /^Readiness probe failed: ?$/);
  const failures = rows[0]?.times ?? 0;
  const lines = await why(['-n', warming]);
  assert.deepEqual(lines, ['  1 probe failure below its threshold while starting: expected (--detail).']);
  const detailed = await why(['-n', warming, '--detail']);
  assert.ok(detailed.includes(`  Pod/warming: container main's readiness probe failed while it started (${failures} failure${failures === 1 ? '' : 's'}, threshold 30): expected, below the threshold.`), detailed.join('\n'));
});

/** The cells of one column of a table whose columns are padded (the timeline's -o wide). */
function column(table: string, head: string, next: string): { row: string; cell: string }[] {
  const [header, ...rows] = table.split('\n').filter((l) => l !== '');
  const from = header?.indexOf(head) ?? -1;
  const to = header?.indexOf(next) ?? -1;
  assert.ok(from >= 0 && to > from, table);
  return rows.map((row) => ({ row, cell: row.slice(from, to).trim() }));
}

test("the timeline's -o wide STATUS: a Pod's as kubectl get pods says it, a container's as kubectl describe pod", async () => {
  await describeWhen(kc, ns.config!, 'configured', 'main', (d) => d.reason === 'CreateContainerConfigError');
  await waitFor('the Job Failed', async () => jobFailedReason(await getObject(kc, 'jobs', 'migrate', ns.job!)) === 'BackoffLimitExceeded');
  for (const namespace of [ns.config!, ns.job!]) {
    const r = await evtimeline(['-n', namespace, '-o', 'wide'], kc);
    assert.equal(r.code, 0, r.stderr);
    const cells = column(r.stdout, 'STATUS', 'MESSAGE');
    // kubectl get pods' STATUS column (printers PrintPod), by Pod name.
    const printed = new Map((await kubectlOk(kc, ['-n', namespace, 'get', 'pods', '--no-headers'])).trim().split('\n').map((l) => l.split(/\s+/)).map((f) => [f[0], f[2]]));
    let told = 0;
    for (const { row, cell } of cells) {
      const pod = /\bpod\/(\S+)/i.exec(row)?.[1];
      if (pod === undefined || !printed.has(pod)) continue;
      // An event about a container (its fieldPath spec.containers{NAME}) is told as `NAME: status`.
      const container = /^([a-z0-9-]+): /.exec(cell)?.[1];
      if (container === undefined) {
        assert.equal(cell, printed.get(pod), row);
      } else {
        const d = parseDescribe(await kubectlOk(kc, ['-n', namespace, 'describe', 'pod', pod]), container);
        const now = d.state === 'Running' ? 'Running' : d.reason ?? d.state;
        assert.ok(cell.startsWith(`${container}: ${now}`), `${cell} vs describe ${JSON.stringify(d)}`);
        if (d.exitCode !== undefined) assert.ok(cell.includes(`(exit ${d.exitCode})`), cell);
      }
      told += 1;
    }
    assert.ok(told > 0, r.stdout);
  }
  // The Job's own rows: its Failed condition's reason, as kubectl get job -o wide's conditions hold it.
  const jobRows = column((await evtimeline(['-n', ns.job!, '-o', 'wide'], kc)).stdout, 'STATUS', 'MESSAGE').filter(({ row }) => /\bJob\/migrate\b/.test(row));
  assert.ok(jobRows.length > 0);
  for (const { cell } of jobRows) assert.equal(cell, 'BackoffLimitExceeded');
});

test('a liveness probe that fails: named as the cause of the restarts, with its threshold, as the kubelet killed it', async () => {
  const { described } = await describeWhen(kc, ns.probe!, 'prober', 'main', (d) => d.restartCount >= 1);
  await waitFor('Killing', async () => (await listEvents(kc, ns.probe!)).some((e) => e.reason === 'Killing' && e.message.includes('failed liveness probe')));
  const line = (await why(['-n', ns.probe!])).find((l) => l.includes('liveness probe fails'));
  assert.match(line ?? '', /^ {2}Pod\/prober: container main is restarted because its liveness probe fails \(\d+ failures, threshold 2; restarted \d+ times?\)/);
  assert.ok(described.restartCount >= 1);
});

test("a Job past its back-off limit, with its Pods' exit codes, as kubectl describe job counts them", async () => {
  await waitFor('the Job Failed', async () => jobFailedReason(await getObject(kc, 'jobs', 'migrate', ns.job!)) === 'BackoffLimitExceeded');
  const describedJob = await kubectlOk(kc, ['-n', ns.job!, 'describe', 'job', 'migrate']);
  const failed = Number(/Pods Statuses:\s+\d+ Active[^/]*\/ \d+ Succeeded \/ (\d+) Failed/.exec(describedJob)?.[1]);
  const line = (await why(['-n', ns.job!])).find((l) => l.startsWith('  Job/migrate: gave up'));
  assert.ok(line !== undefined);
  assert.ok(line.startsWith(`  Job/migrate: gave up: Job has reached the specified backoff limit (backoffLimit 1, ${failed} failed Pods); exit codes: `), `${line}\n${describedJob}`);
  assert.equal((line.match(/migrate exit 7 \(Error\)/g) ?? []).length, failed, line);
});

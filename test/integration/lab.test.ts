// The lab (/work/shared/LAB.md, steps 1-7) played with the real kubectl against the real control
// plane, into a fresh namespace; then the facts the lab is about are checked on the server and in
// the report files. Step 8 belongs to the plugin's own tests.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedControlPlane } from '../harness/controlplane.ts';
import { freshNamespace } from '../harness/namespace.ts';
import { playLab, REPORT_FILES, CRD_NAME, type LabResult } from '../harness/lab.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const controlPlane = sharedControlPlane();

let kubeconfig = '';
let ns = '';
let outDir = '';
let lab: LabResult;
const logLines: string[] = [];

function kubectl(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'kubectl',
      args,
      { env: { ...process.env, KUBECONFIG: kubeconfig }, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

async function kubectlOk(args: string[]): Promise<string> {
  const r = await kubectl(args);
  assert.equal(r.code, 0, `kubectl ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}

const report = (name: string): Promise<string> => readFile(join(outDir, name), 'utf8');

before(
  async () => {
    const cp = await controlPlane;
    kubeconfig = cp.kubeconfig;
    ns = await freshNamespace(kubeconfig, 'op-events');
    outDir = await mkdtemp(join(tmpdir(), 'evtimeline-lab-'));
    const t0 = performance.now();
    try {
      lab = await playLab({ kubeconfig, namespace: ns, outDir, log: (l) => logLines.push(l) });
    } catch (err) {
      const msg = err instanceof Error ? err.message : String(err);
      throw new Error(`${msg}\n--- lab log ---\n${logLines.join('\n')}`);
    }
    process.stderr.write(`lab played into ${ns} in ${((performance.now() - t0) / 1000).toFixed(1)} s (${outDir})\n`);
  },
  { timeout: 300_000 },
);

after(async () => {
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

describe('the lab, played with the real kubectl', () => {
  test('writes every report file and returns the namespace and folder it used', async () => {
    assert.equal(lab.namespace, ns);
    assert.equal(lab.outDir, outDir);
    for (const f of REPORT_FILES) {
      assert.ok(lab.files.includes(f), `${f} missing from LabResult.files`);
      assert.ok((await stat(join(outDir, f))).isFile(), `${f} not written`);
    }
    for (const f of ['pipeline-crd.yaml', 'pipeline-build1.yaml', 'event-started.yaml', 'event-bad.yaml', 'event-weird.yaml', 'event-done.yaml', 'hungry-pod.yaml']) {
      const text = await readFile(join(outDir, f), 'utf8');
      assert.doesNotMatch(text, /__[A-Z_]+__/, `${f} still has a placeholder`);
    }
    // No temporary files of the atomic writes are left behind.
    const { readdir } = await import('node:fs/promises');
    assert.deepEqual((await readdir(outDir)).filter((n) => n.startsWith('.')), []);
  });

  test('step 1: the CRD is Established and build-1 has a uid, saved as one line', async () => {
    const established = await kubectlOk([
      'get', 'crd', CRD_NAME, '-o', 'jsonpath={.status.conditions[?(@.type=="Established")].status}',
    ]);
    assert.equal(established, 'True');
    const text = await report('pipeline-uid.txt');
    assert.match(text, /^[^\n]+\n$/, 'pipeline-uid.txt is not exactly one line');
    const uid = text.trim();
    assert.match(uid, UUID);
    assert.equal(uid, lab.pipelineUid);
    assert.equal(await kubectlOk(['-n', ns, 'get', 'pipelines.ev.labhub.io', 'build-1', '-o', 'jsonpath={.metadata.uid}']), uid);
  });

  test('step 2: build-1-started is about the real build-1 (uid) and shows in kubectl events', async () => {
    const got = JSON.parse(await kubectlOk(['-n', ns, 'get', 'event', 'build-1-started', '-o', 'json'])) as {
      involvedObject: Record<string, string>;
      reason: string;
      type: string;
      source: { component: string };
    };
    assert.deepEqual(
      { ...got.involvedObject },
      { apiVersion: 'ev.labhub.io/v1', kind: 'Pipeline', name: 'build-1', namespace: ns, uid: lab.pipelineUid },
    );
    assert.equal(got.reason, 'ReconcileStarted');
    assert.equal(got.type, 'Normal');
    assert.equal(got.source.component, 'pipeline-operator');
    const list = await report('events-list.txt');
    assert.match(list, /ReconcileStarted/);
    assert.match(list, /Pipeline\/build-1/);
  });

  test('step 3: an event with no involvedObject is rejected, naming involvedObject.namespace', async () => {
    const text = await report('invalid-event.txt');
    const [first, ...rest] = text.split('\n');
    const m = /^apply-rc=(\d+)$/.exec(first ?? '');
    assert.ok(m, `first line is not apply-rc=<code>: ${JSON.stringify(first)}`);
    assert.notEqual(Number(m[1]), 0, 'the server accepted an event without involvedObject');
    const words = rest.join('\n');
    assert.match(words, /involvedObject\.namespace/);
    assert.match(words, /does not match event\.namespace/);
    const get = await kubectl(['-n', ns, 'get', 'event', 'build-1-orphan']);
    assert.notEqual(get.code, 0);
    assert.match(get.stderr, /NotFound|not found/);
  });

  test('step 4: type Critical is accepted through core/v1 but kubectl events cannot filter for it', async () => {
    assert.equal(await kubectlOk(['-n', ns, 'get', 'event', 'build-1-weird', '-o', 'jsonpath={.type}']), 'Critical');
    const text = await report('type-report.txt');
    assert.match(text, /^critical-rc=1$/m);
    assert.match(text, /valid --types are Normal or Warning/);
    assert.match(text, /^warning-rc=0$/m);
    const warningPart = text.slice(text.indexOf('warning-rc='));
    assert.doesNotMatch(warningPart, /StageUnknown|build-1-weird/, '--types=Warning shows the Critical event');
  });

  test('step 5: a repeat bumps count: kubectl events shows (x5 over ...)', async () => {
    assert.equal(await kubectlOk(['-n', ns, 'get', 'event', 'build-1-started', '-o', 'jsonpath={.count}']), '5');
    const text = await report('count-report.txt');
    const line = text.split('\n').find((l) => l.includes('ReconcileStarted'));
    assert.ok(line, `no ReconcileStarted line in count-report.txt:\n${text}`);
    assert.match(line, /\(x5 over /);
  });

  test('step 6: both APIs read one store', async () => {
    const lines = (await report('both-apis.txt')).trimEnd().split('\n');
    for (const l of lines) assert.match(l, /^(core|new): \S+$/, `unexpected line ${JSON.stringify(l)}`);
    const core = lines.filter((l) => l.startsWith('core: ')).map((l) => l.slice(6));
    const fresh = lines.filter((l) => l.startsWith('new: ')).map((l) => l.slice(5));
    assert.ok(core.includes('build-1-done'), 'the events.k8s.io/v1 event is not readable through core/v1');
    assert.ok(fresh.includes('build-1-started'), 'the core/v1 event is not readable through events.k8s.io/v1');
    assert.deepEqual(core, fresh, 'the two APIs list different events');
    assert.deepEqual(core, [...core].sort());
    for (const n of ['build-1-started', 'build-1-weird', 'build-1-done']) assert.ok(core.includes(n), n);

    // Field names differ, the data is the same: regarding/note seen as involvedObject/message ...
    const done = JSON.parse(await kubectlOk(['-n', ns, 'get', 'event', 'build-1-done', '-o', 'json'])) as {
      involvedObject: { uid: string; name: string };
      message: string;
      reportingComponent: string;
      reportingInstance: string;
      action: string;
      eventTime: string;
    };
    assert.equal(done.involvedObject.uid, lab.pipelineUid);
    assert.equal(done.involvedObject.name, 'build-1');
    assert.equal(done.message, 'Finished reconciling pipeline build-1 at stage build.');
    assert.equal(done.reportingComponent, 'pipeline-operator');
    assert.equal(done.reportingInstance, 'pipeline-operator-0');
    assert.equal(done.action, 'Reconcile');
    assert.match(done.eventTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    // ... and involvedObject/message/count seen as regarding/note/deprecatedCount.
    const started = JSON.parse(
      await kubectlOk(['-n', ns, 'get', 'events.events.k8s.io', 'build-1-started', '-o', 'json']),
    ) as { regarding: { uid: string }; note: string; deprecatedCount: number; deprecatedSource: { component: string } };
    assert.equal(started.regarding.uid, lab.pipelineUid);
    assert.equal(started.note, 'Started reconciling pipeline build-1 at stage build.');
    assert.equal(started.deprecatedCount, 5);
    assert.equal(started.deprecatedSource.component, 'pipeline-operator');
  });

  test('step 7: the scheduler reports FailedScheduling for pod hungry', async () => {
    const items = (
      JSON.parse(
        await kubectlOk([
          '-n', ns, 'get', 'events', '--field-selector', 'reason=FailedScheduling,involvedObject.name=hungry', '-o', 'json',
        ]),
      ) as {
        items: { type: string; message: string; reportingComponent?: string; source?: { component?: string }; involvedObject: { kind: string } }[];
      }
    ).items;
    assert.ok(items.length >= 1, 'no FailedScheduling event for pod hungry');
    const ev = items[0]!;
    assert.equal(ev.type, 'Warning');
    assert.equal(ev.involvedObject.kind, 'Pod');
    assert.equal(ev.reportingComponent || ev.source?.component, 'default-scheduler');
    // 0/2 in the run's cluster: its real node (test/harness/kubelet-node.ts) is tainted NoSchedule.
    assert.match(ev.message, /0\/\d nodes are available: 1 Insufficient cpu/);
    assert.match(ev.message, /Insufficient cpu/);
    const text = await report('scheduler-event.txt');
    assert.match(text, /FailedScheduling/);
    assert.match(text, /pod\/hungry/);
    assert.match(text, /default-scheduler/);
    assert.match(text, /0\/\d nodes are available: 1 Insufficient cpu/);
    assert.match(text, /Insufficient cpu/);
  });

  test('the lab can be replayed into the same namespace', { timeout: 180_000 }, async () => {
    const again = await mkdtemp(join(tmpdir(), 'evtimeline-lab-replay-'));
    try {
      const r = await playLab({ kubeconfig, namespace: ns, outDir: again });
      assert.equal(r.pipelineUid, lab.pipelineUid, 'build-1 was re-created by the replay');
      const both = await readFile(join(again, 'both-apis.txt'), 'utf8');
      assert.match(both, /^core: build-1-done$/m);
      assert.match(both, /^new: build-1-started$/m);
      const text = await readFile(join(again, 'count-report.txt'), 'utf8');
      assert.match(text, /\(x5 over /);
      // The earlier play's objects were cleared: the replay tells the same story as a first play.
      assert.doesNotMatch(await readFile(join(again, 'events-list.txt'), 'utf8'), /FailedScheduling/);
      assert.equal(both, await report('both-apis.txt'));
    } finally {
      await rm(again, { recursive: true, force: true });
    }
  });
});

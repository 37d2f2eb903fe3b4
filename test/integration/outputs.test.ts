// kubectl's output conventions and times against the real control plane, through kubectl's plugin
// mechanism: -o name as kubectl prints it, -o yaml as the same document as -o json, ages in a saved
// capture counted from when it was taken, --absolute-times live.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { parse } from 'yaml';
import { sharedControlPlane } from '../harness/controlplane.ts';
import type { ControlPlane } from '../harness/controlplane.ts';
import { freshNamespace } from '../harness/namespace.ts';
import { evtimeline, kubectl } from '../harness/plugin.ts';
import { scratchDir } from '../support/tmp.ts';

const cpPromise = sharedControlPlane();
let cp: ControlPlane;
let ns: string;
const LAST = '2026-01-02T03:04:05Z';

before(async () => {
  cp = await cpPromise;
  ns = await freshNamespace(cp.kubeconfig, 'outputs');
  for (const [name, first] of [['older', '2026-01-02T03:00:00Z'], ['newer', '2026-01-02T03:01:00Z']] as const) {
    const event = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name, namespace: ns },
      involvedObject: { kind: 'ConfigMap', name: `cm-${name}`, namespace: ns },
      reason: 'Synced',
      type: 'Normal',
      message: `${name}: yes`,
      firstTimestamp: first,
      lastTimestamp: name === 'newer' ? LAST : first,
      count: name === 'newer' ? 3 : 1,
    };
    const r = await kubectl(['create', '-f', '-'], cp.kubeconfig, { input: JSON.stringify(event) });
    assert.equal(r.code, 0, r.stderr);
  }
});

test('-o name prints what kubectl get events -o name prints', async () => {
  const ours = await evtimeline(['-n', ns, '-o', 'name'], cp.kubeconfig);
  const theirs = await kubectl(['-n', ns, 'get', 'events', '-o', 'name'], cp.kubeconfig);
  assert.equal(ours.code, 0, ours.stderr);
  assert.deepEqual(ours.stdout.split('\n').sort(), theirs.stdout.split('\n').sort());
});

test('-o yaml is the -o json document', async () => {
  const json = await evtimeline(['-n', ns, '-o', 'json'], cp.kubeconfig);
  const yaml = await evtimeline(['-n', ns, '-o', 'yaml'], cp.kubeconfig);
  assert.deepEqual(parse(yaml.stdout, { version: '1.1' }), JSON.parse(json.stdout));
  assert.match(yaml.stdout, /message: "older: yes"/);
});

test('--absolute-times prints the times the server holds', async () => {
  const r = await evtimeline(['-n', ns, '--absolute-times'], cp.kubeconfig);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`^2026-01-02T03:01:00Z\\s+${LAST} \\(x3\\)\\s+Normal\\s+Synced\\s+ConfigMap/cm-newer`, 'm'));
});

test("a capture's ages count from when it was taken, and stderr says so", async () => {
  const dir = join(scratchDir('outputs'), 'capture');
  const captured = await evtimeline(['capture', '-n', ns, dir], cp.kubeconfig);
  assert.equal(captured.code, 0, captured.stderr);
  const live = await evtimeline(['-n', ns], cp.kubeconfig);
  const saved = await evtimeline(['--from', join(dir, 'events.json')], cp.kubeconfig);
  assert.equal(saved.code, 0, saved.stderr);
  assert.match(saved.stderr, /^Ages are counted from \d{4}-\d\d-\d\dT[\d:.]+Z, when the capture was taken\.$/m);
  // Taken moments ago: the same ages as a live read now (months since January either way).
  assert.equal(saved.stdout.split('\n')[1]?.split(/\s{2,}/)[0], live.stdout.split('\n')[1]?.split(/\s{2,}/)[0]);
  const list = await kubectl(['-n', ns, 'get', 'events', '-o', 'json'], cp.kubeconfig);
  const fromList = await evtimeline(['--from', '-'], cp.kubeconfig, { input: list.stdout });
  assert.match(fromList.stderr, new RegExp(`^Ages are counted from ${LAST}, the newest event in the file`, 'm'));
  // 03:00:00 to the newest, 03:04:05
  assert.match(fromList.stdout, /\s4m5s\s+4m5s\s+Normal\s+Synced\s+ConfigMap\/cm-older/);
});

// kubectl's output conventions and times against the real control plane: -o name as kubectl prints
// it, -o yaml as the same document as -o json, ages in a saved capture counted from when it was
// taken, --absolute-times live; and the plugin through kubectl's plugin mechanism printing, byte for
// byte, what the harness's evtimeline() (the executable as kubectl execs it) prints.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
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

// Every other file runs the plugin as kubectl's plugin mechanism would (test/harness/plugin.ts):
// this holds the two the same, output, errors and exit codes.
test('through kubectl or as kubectl execs it: the same stdout, stderr and exit code', async () => {
  const cases = [['-n', ns], ['-n', ns, '-o', 'json'], ['-n', ns, '-o', 'wide', '--types', 'Normal'], ['-n', ns, '--bogus'], ['-n', ns, '--for', 'configmap/cm-older', '-o', 'stable'], ['--version']];
  for (const args of cases) {
    const through = await kubectl(['evtimeline', ...args], cp.kubeconfig);
    const direct = await evtimeline(args, cp.kubeconfig);
    assert.deepEqual(direct, through, args.join(' '));
  }
  // Not a tautology: the cases above include a refusal.
  assert.equal((await evtimeline(['-n', ns, '--bogus'], cp.kubeconfig)).code, 2);
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

test('incident and type-audit: -o yaml is their -o json document; type-audit -o name names the events with findings', async () => {
  const critical = {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: 'odd-type', namespace: ns },
    involvedObject: { kind: 'ConfigMap', name: 'cm-odd', namespace: ns, uid: '5d0c1c7e-3b43-4c1e-9d53-2f0f6a1b7c10' },
    reason: 'Synced',
    type: 'Critical',
    message: 'odd',
    firstTimestamp: '2026-01-02T03:02:00Z',
    lastTimestamp: '2026-01-02T03:02:00Z',
    count: 1,
  };
  const created = await kubectl(['create', '-f', '-'], cp.kubeconfig, { input: JSON.stringify(critical) });
  assert.equal(created.code, 0, created.stderr);
  try {
    for (const [verb, exit] of [['incident', 0], ['type-audit', 3]] as const) {
      const json = await evtimeline([verb, '-n', ns, '-o', 'json'], cp.kubeconfig);
      const yaml = await evtimeline([verb, '-n', ns, '-o', 'yaml'], cp.kubeconfig);
      assert.equal(json.code, exit, json.stderr);
      assert.equal(yaml.code, exit, yaml.stderr);
      const fromJson = JSON.parse(json.stdout) as Record<string, unknown>;
      const fromYaml = parse(yaml.stdout, { version: '1.1' }) as Record<string, unknown>;
      // The read time (and the TTL horizon counted from it) differs between the two runs; all else is the same document.
      for (const doc of [fromJson, fromYaml]) {
        delete doc.at;
        if (doc.limits) delete (doc.limits as Record<string, unknown>).ttlHorizon;
      }
      assert.deepEqual(fromYaml, fromJson, verb);
    }
    // Every event here lacks something (no uid, or a type), each named once, as kubectl prints names.
    const names = await evtimeline(['type-audit', '-n', ns, '-o', 'name'], cp.kubeconfig);
    assert.equal(names.code, 3, names.stderr);
    assert.deepEqual(names.stdout.split('\n').filter(Boolean).sort(), ['event/newer', 'event/odd-type', 'event/older']);
    assert.equal((await evtimeline(['incident', '-n', ns, '-o', 'name'], cp.kubeconfig)).code, 2);
  } finally {
    await kubectl(['-n', ns, 'delete', 'event', 'odd-type'], cp.kubeconfig);
  }
});

test('--absolute-times in -o wide and incident, live and from a capture and a record: RFC 3339 times, no ages, no notice of an age', async () => {
  const dir = scratchDir('outputs-absolute');
  const capture = join(dir, 'capture');
  assert.equal((await evtimeline(['capture', '-n', ns, capture], cp.kubeconfig)).code, 0);
  const record = join(dir, 'events.jsonl');
  const recorded = await evtimeline(['record', '-n', ns, record, '--duration', '1s'], cp.kubeconfig);
  assert.equal(recorded.code, 0, recorded.stderr);
  for (const from of [[], ['--from', capture], ['--from', record]]) {
    const wide = await evtimeline(['-n', ns, ...from, '--absolute-times', '-o', 'wide'], cp.kubeconfig);
    assert.equal(wide.code, 0, wide.stderr);
    // What the file is may be said on stderr; from when ages count is not (there are none).
    assert.doesNotMatch(wide.stderr, /Ages are counted/, from.join(' '));
    assert.match(wide.stdout, new RegExp(`^2026-01-02T03:01:00Z\\s+${LAST} \\(x3\\)\\s+Normal\\s+Synced\\s+ConfigMap/cm-newer\\s`, 'm'), from.join(' '));
    assert.match(wide.stdout, /^2026-01-02T03:00:00Z\s+2026-01-02T03:00:00Z\s+Normal\s+Synced\s+ConfigMap\/cm-older\s/m, from.join(' '));
    const incident = await evtimeline(['incident', '-n', ns, ...from, '--absolute-times'], cp.kubeconfig);
    assert.equal(incident.code, 0, incident.stderr);
    assert.doesNotMatch(incident.stdout, /\bago\b/, from.join(' '));
    assert.match(incident.stdout, new RegExp(`3 times in 3m5s \\(first at 2026-01-02T03:01:00Z, last at ${LAST}\\)`), from.join(' '));
    assert.doesNotMatch(incident.stderr, /Ages are counted/, from.join(' '));
  }
});

test("a record's ages count from its last observation, and stderr says so, in the table and the incident", async () => {
  const record = join(scratchDir('outputs-record'), 'events.jsonl');
  const recorded = await evtimeline(['record', '-n', ns, record, '--duration', '1s'], cp.kubeconfig);
  assert.equal(recorded.code, 0, recorded.stderr);
  const header = JSON.parse(readFileSync(record, 'utf8').split('\n')[1] ?? '{}') as { observedAt: string };
  for (const verb of [[], ['incident']]) {
    const r = await evtimeline([...verb, '--from', record], cp.kubeconfig);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /^Ages are counted from (\S+), the record's last observation\.$/m);
    const from = /^Ages are counted from (\S+),/m.exec(r.stderr)?.[1] ?? '';
    assert.ok(Date.parse(from) >= Date.parse(header.observedAt), `${from} is the last observation, not before ${header.observedAt}`);
  }
});

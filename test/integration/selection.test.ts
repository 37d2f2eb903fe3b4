// The selection flags, flags anywhere and help (through kubectl where kubectl's own parsing is the
// point, else as its plugin mechanism runs the plugin) against the real API server, each
// compared with what kubectl itself does where it has the same flag.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedControlPlane, type ControlPlane } from '../harness/controlplane.ts';
import { emitEvents } from '../harness/emit.ts';
import { kubectlOk } from '../harness/kubectl.ts';
import { freshNamespace } from '../harness/namespace.ts';
import { evtimeline, kubectl } from '../harness/plugin.ts';

const cpPromise = sharedControlPlane();
let cp: ControlPlane;
let ns: string;

/** A ConfigMap with labels, and events about it through client-go's legacy recorder. */
async function configMapWithEvents(name: string, labels: string[], events: { type?: string; reason: string; message: string }[]): Promise<void> {
  await kubectlOk(cp.kubeconfig, ['-n', ns, 'create', 'configmap', name]);
  if (labels.length > 0) await kubectlOk(cp.kubeconfig, ['-n', ns, 'label', 'configmap', name, ...labels]);
  for (const e of events) await emitEvents(cp, { kind: 'ConfigMap', name, namespace: ns, component: 'acme-operator', ...e });
}

before(async () => {
  cp = await cpPromise;
  ns = await freshNamespace(cp.kubeconfig, 'select');
  await configMapWithEvents('web', ['app=web', 'tier=front'], [
    { reason: 'Synced', message: 'web synced' },
    { type: 'Warning', reason: 'Unhealthy', message: 'Startup probe failed: connection refused' },
  ]);
  await configMapWithEvents('db', ['app=db'], [
    { reason: 'Synced', message: 'db synced' },
    { type: 'Warning', reason: 'BackOff', message: 'Back-off restarting failed container' },
  ]);
});

const stable = async (args: string[]) => {
  const r = await evtimeline(['-n', ns, '-o', 'stable', ...args], cp.kubeconfig);
  assert.equal(r.code, 0, r.stderr);
  return { lines: r.stdout.trimEnd().split('\n').filter((l) => l !== ''), stderr: r.stderr };
};

test('--field-selector goes to the server in the list request, and selects what kubectl get events selects', async () => {
  const r = await evtimeline(['-n', ns, '-o', 'name', '--field-selector', 'type=Warning,reason!=BackOff', '-v=6'], cp.kubeconfig);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, new RegExp(`url="${cp.server}/api/v1/namespaces/${ns}/events\\?limit=500&fieldSelector=type%3DWarning%2Creason%21%3DBackOff"`));
  const theirs = await kubectlOk(cp.kubeconfig, ['-n', ns, 'get', 'events', '--field-selector', 'type=Warning,reason!=BackOff', '-o', 'name']);
  const names = (text: string) => text.trim().split('\n').map((l) => l.replace(/^event(\.events\.k8s\.io)?\//, '')).sort();
  assert.deepEqual(names(r.stdout), names(theirs));
  assert.equal(names(r.stdout).length, 1);
});

test("a field the API server cannot select events by is refused before any request, in the server's words", async () => {
  const r = await evtimeline(['-n', ns, '--field-selector', 'message=x'], cp.kubeconfig);
  assert.equal(r.code, 2);
  assert.equal(r.stderr, 'error: --field-selector "message=x": field label not supported: message\n');
  const theirs = await kubectl(['-n', ns, 'get', 'events', '--field-selector', 'message=x'], cp.kubeconfig);
  assert.match(theirs.stderr, /field label not supported: message/);
});

test('-l keeps the events about the objects whose labels match, as kubectl get configmaps -l selects them', async () => {
  const selected = await kubectlOk(cp.kubeconfig, ['-n', ns, 'get', 'configmaps', '-l', 'tier in (front),app', '-o', 'name']);
  assert.equal(selected.trim(), 'configmap/web');
  const r = await stable(['-l', 'tier in (front),app']);
  assert.deepEqual(r.lines, ['Normal Synced ConfigMap/web', 'Warning Unhealthy ConfigMap/web']);
  assert.match(r.stderr, /^Hidden: 2 events by -l\.$/m);
});

test('the exclusions and the message patterns, with the footer of what each hid', async () => {
  const r = await stable(['--exclude-reason', 'synced', '--exclude-message', '^Back-off']);
  assert.deepEqual(r.lines, ['Warning Unhealthy ConfigMap/web']);
  assert.match(r.stderr, /^Hidden: 2 events by --exclude-reason, 1 by --exclude-message\.$/m);
  const kept = await stable(['--message', 'synced$', '--exclude-type', 'Warning']);
  assert.deepEqual(kept.lines, ['Normal Synced ConfigMap/db', 'Normal Synced ConfigMap/web']);
});

test('--exclude-startup-probes hides a start-up probe Unhealthy no Killing followed, in the timeline and the incident', async () => {
  const r = await stable(['--exclude-startup-probes', '--types', 'Warning']);
  assert.deepEqual(r.lines, ['Warning BackOff ConfigMap/db']);
  const incident = await evtimeline(['incident', '-n', ns, '--exclude-startup-probes'], cp.kubeconfig);
  assert.match(incident.stdout, /- Hidden: 1 event by --exclude-startup-probes \(start-up probes below their failure threshold\)\./);
  assert.doesNotMatch(incident.stdout, /Unhealthy/);
});

test('--since-time and --until: an absolute window; --since with --since-time is a usage error as in kubectl logs', async () => {
  const future = new Date(Date.now() + 3_600_000).toISOString();
  const none = await evtimeline(['-n', ns, '-o', 'name', '--since-time', future], cp.kubeconfig);
  assert.equal(none.stdout, '');
  assert.match(none.stderr, /^Hidden: 4 events by --since-time\.$/m);
  const all = await stable(['--until', future, '--since-time', '2026-01-01T00:00:00Z']);
  assert.equal(all.lines.length, 4);
  const both = await evtimeline(['-n', ns, '--since', '1h', '--since-time', future], cp.kubeconfig);
  assert.equal(both.code, 2);
  assert.equal(both.stderr, 'error: only one of --since-time / --since may be used\n');
});

test('a saved capture keeps the labels: -l works after the objects are gone', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'select-capture-'));
  try {
    const captured = await evtimeline(['capture', '-n', ns, join(dir, 'cap')], cp.kubeconfig);
    assert.equal(captured.code, 0, captured.stderr);
    const r = await evtimeline(['--from', join(dir, 'cap'), '-o', 'stable', '-l', 'app=db'], cp.kubeconfig);
    assert.deepEqual(r.stdout.trimEnd().split('\n'), ['Normal Synced ConfigMap/db', 'Warning BackOff ConfigMap/db']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('flags anywhere through kubectl: the verb after its own flags, and a value that names a verb', async () => {
  const after = await kubectl(['evtimeline', '-n', ns, '--for', 'cm/web', '--tree', '--detail', 'incident'], cp.kubeconfig);
  const before = await kubectl(['evtimeline', 'incident', '-n', ns, '--for', 'cm/web', '--tree', '--detail'], cp.kubeconfig);
  assert.equal(after.code, 0, after.stderr);
  // the two runs are read a moment apart: times and ages masked
  const mask = (text: string) => text.replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, 'T').replace(/\b\d+[smh] ago\b/g, 'AGE');
  assert.equal(mask(after.stdout), mask(before.stdout));
  assert.match(after.stdout, /^Incident in namespace /);
  const lookup = await kubectl(['evtimeline', '-n', ns, '--for', 'incident/x'], cp.kubeconfig);
  assert.equal(lookup.code, 1);
  assert.equal(lookup.stderr, 'error: the server doesn\'t have a resource type "incident"\n');
});

test('kubectl evtimeline help VERB is VERB --help, with examples', async () => {
  const help = await kubectl(['evtimeline', 'help', 'incident'], cp.kubeconfig);
  const flag = await kubectl(['evtimeline', 'incident', '--help'], cp.kubeconfig);
  assert.equal(help.code, 0);
  assert.equal(help.stdout, flag.stdout);
  assert.match(help.stdout, /\nExamples:\n {2}# Account for a namespace\n {2}kubectl evtimeline incident -n op-events\n/);
});

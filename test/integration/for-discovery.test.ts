// --for TYPE/NAME resolved through the real API server's discovery, beside `kubectl events --for`
// (the server's own kubectl) on the same cluster: two CRDs in different groups sharing the Kind
// Pipeline, a CRD with a short name, and a type nothing serves.
// Runs alone: while its CRDs exist, a bare `pipeline` means two types to every other file.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sharedControlPlane } from '../harness/controlplane.ts';
import { crdObject, deleteCrds } from '../harness/crds.ts';
import type { ControlPlane } from '../harness/controlplane.ts';
import { LAB_FIXTURES_DIR, rfc3339Seconds } from '../harness/lab.ts';
import { freshNamespace } from '../harness/namespace.ts';
import { evtimeline, kubectl } from '../harness/plugin.ts';
import type { RunResult } from '../harness/plugin.ts';
import { scratchDir } from '../support/tmp.ts';

const cpPromise = sharedControlPlane();
let cp: ControlPlane;
let ns: string;

const OTHER_GROUP = 'ci.evtimeline.test';
const SHORT_GROUP = 'short.evtimeline.test';

const event = (name: string, apiVersion: string, kind: string, objectName: string, message: string) => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name },
  involvedObject: { apiVersion, kind, name: objectName, namespace: ns },
  reason: 'Started',
  type: 'Normal',
  message,
  firstTimestamp: rfc3339Seconds(),
  lastTimestamp: rfc3339Seconds(),
  count: 1,
  source: { component: 'for-discovery-test' },
});

/** The control plane's own kubectl (the server's version), as a user would run it. */
function serverKubectl(args: string[]): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile(cp.binary, ['kubectl', `--kubeconfig=${cp.kubeconfig}`, ...args], { maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

async function ok(args: string[], input?: string): Promise<string> {
  const r = await kubectl(args, cp.kubeconfig, { input });
  assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

// The integration run shares one control plane: a second group's Pipeline left behind would make
// other files' bare `pipeline` mean two things, so the extra CRDs go when this file is done.
after(async () => {
  if (cp) await deleteCrds(cp.kubeconfig, [`pipelines.${OTHER_GROUP}`, `gadgets.${SHORT_GROUP}`]);
});

const MESSAGES = { labhub: 'labhub pipeline started', other: 'other pipeline started', gadget: 'gadget started' };

before(async () => {
  cp = await cpPromise;
  ns = await freshNamespace(cp.kubeconfig, 'for-discovery');
  // The lab's CRD (other tests apply it too: apply is idempotent), a second group's Pipeline, a CRD with a short name.
  await ok(['apply', '-f', join(LAB_FIXTURES_DIR, 'pipeline-crd.yaml')]);
  const crds = [crdObject(OTHER_GROUP, 'pipelines', 'Pipeline', 'v1beta1'), crdObject(SHORT_GROUP, 'gadgets', 'Gadget', 'v1', ['gdg'])];
  await ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: crds }));
  await ok(['wait', '--for=condition=Established', '--timeout=60s', 'crd/pipelines.ev.labhub.io', `crd/pipelines.${OTHER_GROUP}`, `crd/gadgets.${SHORT_GROUP}`]);
  const events = [
    event('labhub', 'ev.labhub.io/v1', 'Pipeline', 'build-1', MESSAGES.labhub),
    event('other', `${OTHER_GROUP}/v1beta1`, 'Pipeline', 'build-1', MESSAGES.other),
    event('gadget', `${SHORT_GROUP}/v1`, 'Gadget', 'g-1', MESSAGES.gadget),
  ];
  await ok(['-n', ns, 'create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: events }));
});

/** Which of the test's messages a table shows. */
const shown = (text: string) => Object.entries(MESSAGES).filter(([, m]) => text.includes(m)).map(([k]) => k);

test('a Kind two groups share is refused with both qualified choices (exit 2), not mixed', async () => {
  const r = await evtimeline(['-n', ns, 'timeline', '--for', 'Pipeline/build-1'], cp.kubeconfig);
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stdout, '');
  // Other tests on a shared control plane may add Pipelines of their own: ours must both be named.
  const choices = /; name one of (.*)\n$/.exec(r.stderr)?.[1]?.split(', ') ?? [];
  assert.ok(choices.includes(`pipelines.${OTHER_GROUP}/build-1`), r.stderr);
  assert.ok(choices.includes('pipelines.ev.labhub.io/build-1'), r.stderr);
  assert.match(r.stderr, /^error: --for Pipeline\/build-1 is ambiguous: "pipeline" is served by more than one group; /);
});

test('resource.group, Kind.group and resource.version.group show only that group, as kubectl events does', async () => {
  for (const [type, want] of [
    ['pipelines.ev.labhub.io', ['labhub']],
    ['Pipeline.ev.labhub.io', ['labhub']],
    [`PIPELINES.${OTHER_GROUP}`, ['other']],
    [`pipelines.v1beta1.${OTHER_GROUP}`, ['other']],
  ] as const) {
    const ours = await evtimeline(['-n', ns, 'timeline', '--for', `${type}/build-1`], cp.kubeconfig);
    assert.equal(ours.code, 0, ours.stderr);
    assert.deepEqual(shown(ours.stdout), want, type);
    assert.match(ours.stdout, / Pipeline\/build-1 /, 'one group shown: no qualification needed');
    const theirs = await serverKubectl(['-n', ns, 'events', '--for', `${type}/build-1`]);
    assert.equal(theirs.code, 0, theirs.stderr);
    assert.deepEqual(shown(theirs.stdout), want, `kubectl events --for ${type}`);
  }
});

test("a CRD's short name is resolved through discovery, as kubectl events resolves it", async () => {
  const ours = await evtimeline(['-n', ns, 'timeline', '--for', 'GDG/g-1', '-o', 'stable'], cp.kubeconfig);
  assert.equal(ours.code, 0, ours.stderr);
  assert.equal(ours.stdout, 'Normal Started Gadget/g-1\n');
  const theirs = await serverKubectl(['-n', ns, 'events', '--for', 'gdg/g-1']);
  assert.deepEqual(shown(theirs.stdout), ['gadget']);
});

test("an unknown type is an error in kubectl's words (exit 1)", async () => {
  for (const type of ['Nonsense', `pipelines.v9.ev.labhub.io`, 'nonsense.nowhere.example']) {
    const theirs = await serverKubectl(['-n', ns, 'events', '--for', `${type}/x`]);
    assert.equal(theirs.code, 1);
    const ours = await evtimeline(['-n', ns, 'timeline', '--for', `${type}/x`], cp.kubeconfig);
    assert.equal(ours.code, 1, ours.stderr);
    assert.equal(ours.stdout, '');
    assert.equal(ours.stderr, `error: ${theirs.stderr.trim()}\n`, type);
  }
});

test('a table shows group-qualified names where two groups share a Kind, with -n and with -A', async () => {
  const here = await evtimeline(['-n', ns, 'timeline'], cp.kubeconfig);
  assert.equal(here.code, 0, here.stderr);
  assert.match(here.stdout, / Pipeline\.ev\.labhub\.io\/build-1 /);
  assert.match(here.stdout, new RegExp(` Pipeline\\.${OTHER_GROUP.replaceAll('.', '\\.')}/build-1 `));
  assert.match(here.stdout, / Gadget\/g-1 /, 'a Kind of one group keeps Kind/name');
  const stable = await evtimeline(['-n', ns, 'timeline', '-o', 'stable'], cp.kubeconfig);
  assert.equal(stable.stdout, ['Normal Started Gadget/g-1', `Normal Started Pipeline.${OTHER_GROUP}/build-1`, 'Normal Started Pipeline.ev.labhub.io/build-1', ''].join('\n'));
  const all = await evtimeline(['-A', 'timeline', '--for', `pipelines.${OTHER_GROUP}/build-1`], cp.kubeconfig);
  assert.equal(all.code, 0, all.stderr);
  assert.deepEqual(shown(all.stdout), ['other']);
  const everything = await evtimeline(['-A', 'timeline'], cp.kubeconfig);
  assert.match(everything.stdout, new RegExp(`${ns} .* Pipeline\\.${OTHER_GROUP.replaceAll('.', '\\.')}/build-1 `));
});

test('offline (--from), group-qualified types match the events’ apiVersion; there is no discovery', async () => {
  const dir = scratchDir('for-discovery');
  const file = join(dir, 'events.json');
  writeFileSync(file, await ok(['-n', ns, 'get', 'events', '-o', 'json']));
  const one = await evtimeline(['timeline', '--from', file, '--for', `pipelines.${OTHER_GROUP}/build-1`], cp.kubeconfig);
  assert.equal(one.code, 0, one.stderr);
  assert.deepEqual(shown(one.stdout), ['other']);
  // No discovery offline, yet a bare Kind is resolved as online (issue 28, README "Offline (--from)"):
  // the groups the file's events name stand in for discovery, and two custom groups sharing a Kind
  // are refused, exit 2, never mixed. The file holds only this namespace's events, so the choices
  // are exactly our two groups; each choice, as the error offers it, shows only its group's event.
  const both = await evtimeline(['timeline', '--from', file, '--for', 'Pipeline/build-1', '-o', 'stable'], cp.kubeconfig);
  assert.equal(both.code, 2, both.stderr);
  assert.equal(both.stdout, '');
  const choices = [[`pipeline.${OTHER_GROUP}/build-1`, 'other'], ['pipeline.ev.labhub.io/build-1', 'labhub']] as const;
  assert.equal(both.stderr, `error: --for Pipeline/build-1 is ambiguous: "pipeline" is served by more than one group; name one of ${choices.map(([c]) => c).join(', ')}\n`);
  for (const [choice, want] of choices) {
    const r = await evtimeline(['timeline', '--from', file, '--for', choice], cp.kubeconfig);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(shown(r.stdout), [want], choice);
    assert.match(r.stdout, / Pipeline\/build-1 /, 'one group shown: no qualification needed');
  }
});

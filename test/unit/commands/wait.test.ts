// `wait` through its port: an in-memory live source whose object and events follows are scripted
// (a relist after 410 Gone, a re-created object, a newer generation, Ctrl-C), on a fixed clock.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseWaitOptions, runWait } from '../../../src/commands/wait.ts';
import { runCli } from '../../../src/cli.ts';
import { UsageError } from '../../../src/errors.ts';
import type { EventSource, FollowOptions, FollowStep } from '../../../src/core/source.ts';
import type { ObjectMeta } from '../../../src/core/ownership.ts';
import { normaliseEvent } from '../../../src/core/event.ts';
import { ago, ev, NOW } from '../../support/builders.ts';
import { fakeDeps } from '../../support/deps.ts';
import { fromCluster } from '../../support/sources.ts';
import { servedResource } from '../../support/served.ts';

const NS = 'shop';
const DEPLOY_UID = 'd0000000-0000-0000-0000-000000000001';
const RS_UID = 'r0000000-0000-0000-0000-000000000001';

function deployment(o: { uid?: string; generation?: number; observed?: number; available?: number; deadline?: boolean } = {}) {
  const generation = o.generation ?? 2;
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: NS, uid: o.uid ?? DEPLOY_UID, generation, creationTimestamp: ago(3600), resourceVersion: '10' },
    spec: { replicas: 1 },
    status: {
      observedGeneration: o.observed ?? generation,
      replicas: 1,
      updatedReplicas: 1,
      availableReplicas: o.available ?? 0,
      readyReplicas: o.available ?? 0,
      ...(o.deadline ? { conditions: [{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded' }] } : {}),
    },
  };
}

const meta = (kind: string, name: string, uid: string, owner: string | null, created: number): ObjectMeta => ({
  apiVersion: kind === 'Pod' ? 'v1' : 'apps/v1',
  kind,
  namespace: NS,
  name,
  uid,
  owners: owner === null ? [] : [{ apiVersion: 'apps/v1', kind: kind === 'Pod' ? 'ReplicaSet' : 'Deployment', name: kind === 'Pod' ? 'web-1' : 'web', uid: owner, controller: true }],
  created,
  deleting: null,
});
const OBJECTS = [meta('Deployment', 'web', DEPLOY_UID, null, NOW - 3_600_000), meta('ReplicaSet', 'web-1', RS_UID, DEPLOY_UID, NOW - 30_000), meta('Pod', 'web-1-a', 'p1', RS_UID, NOW - 29_000)];

const podEvent = (name: string, reason: string, type: string, last: number, count = 1) =>
  ev({ name, namespace: NS, kind: 'Pod', objectName: 'web-1-a', objectUid: 'p1', reason, type, message: `${reason} happened`, first: 25, last, count, uid: `uid-${name}` });
const OLD = ev({ name: 'old', namespace: NS, kind: 'Deployment', objectName: 'web', objectUid: DEPLOY_UID, reason: 'ScalingReplicaSet', message: 'Scaled up replica set web-0 from 0 to 1', first: 3000, uid: 'uid-old' });

/** Hands each step over, then hangs as an open watch does until the wait stops it. */
async function* scripted(steps: (FollowStep | (() => Promise<void>))[], signal: AbortSignal): AsyncGenerator<FollowStep> {
  for (const step of steps) {
    if (typeof step === 'function') await step();
    else yield step;
  }
  await new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));
}

const list = (items: unknown[], why: 'start' | 'expired' = 'start'): FollowStep => ({ kind: 'list', items: items as never, resourceVersion: '1', why });
const change = (object: unknown, type: 'ADDED' | 'MODIFIED' | 'DELETED' = 'MODIFIED'): FollowStep => ({ kind: 'change', type, object: object as never });

function source(o: { object: (FollowStep | (() => Promise<void>))[]; events: (FollowStep | (() => Promise<void>))[]; read?: unknown[] }): EventSource {
  return {
    provenance: fromCluster({ namespace: NS }),
    read: async () => ({ events: (o.read ?? []).map(normaliseEvent) }),
    versions: async () => null,
    objects: null,
    discovery: { served: async () => [servedResource('apps', 'v1', 'deployments', 'Deployment', { shortNames: ['deploy'] })] },
    ownership: async () => OBJECTS,
    followObject: (_object, opts: FollowOptions) => scripted(o.object, opts.signal),
    follow: (opts: FollowOptions) => scripted(o.events, opts.signal),
    ownedBy: async () => OBJECTS.filter((m) => m.kind === 'ReplicaSet'),
  };
}

async function run(args: string[], src: EventSource, interruptAfter?: (interrupt: () => void) => void) {
  const fake = fakeDeps({ openSource: async () => src });
  interruptAfter?.(fake.interrupt);
  const result = await runWait(parseWaitOptions(args[0] ?? '', {}), fake.deps);
  return { code: result.exitCode as number, out: fake.stdout(), err: fake.stderr() };
}

/** resolves once `probe` is true, checking as the event loop turns */
const until = async (probe: () => boolean) => {
  while (!probe()) await new Promise((resolve) => setImmediate(resolve));
};

test('a relist after 410 Gone tells no event twice and loses none; the rollout began at its newest ReplicaSet, so an older event is not told', async () => {
  let told = 0;
  const a = podEvent('a', 'Pulled', 'Normal', 20);
  const b = podEvent('b', 'BackOff', 'Warning', 10);
  const b2 = podEvent('b', 'BackOff', 'Warning', 5, 2);
  const c = podEvent('c', 'Started', 'Normal', 2);
  const src = source({
    object: [list([deployment()]), async () => until(() => told >= 1), change(deployment({ available: 1 }))],
    events: [list([OLD, a]), change(b), list([OLD, a, b2, c], 'expired'), async () => void (told = 1)],
    read: [OLD, a, b2, c],
  });
  const r = await run(['deploy/web'], src);
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(r.out.split('\n').filter(Boolean), [
    '+10s  Normal  Pulled  Pod/web-1-a  Pulled happened',
    '+20s  Warning  BackOff  Pod/web-1-a  BackOff happened',
    '+25s  Warning  BackOff  Pod/web-1-a  BackOff happened (x2)',
    '+28s  Normal  Started  Pod/web-1-a  Started happened',
    'deployment "web" successfully rolled out in 30s, 1 of 1 ready',
  ]);
});

test('the same name under a new uid is a new story: exit 7', async () => {
  const src = source({ object: [list([deployment()]), change(deployment({ uid: 'other', generation: 1 }), 'ADDED')], events: [list([])] });
  const r = await run(['deploy/web'], src);
  assert.equal(r.code, 7);
  assert.match(r.out, /^wait re-created while waiting after 30s \(exit 7\): deployment "web" was deleted and created again while waiting \(uid d0000000-0000-0000-0000-000000000001, now other\): a new object is a new story\n/);
});

test('deleted while waiting: exit 7', async () => {
  const src = source({ object: [list([deployment()]), change(deployment(), 'DELETED')], events: [list([])] });
  const r = await run(['deploy/web'], src);
  assert.equal(r.code, 7);
  assert.match(r.out, /^wait deleted while waiting after 30s \(exit 7\): deployment "web" was deleted while waiting\n/);
});

test('a newer generation before this one was done supersedes it: exit 8', async () => {
  const src = source({ object: [list([deployment()]), change(deployment({ generation: 3, observed: 2 }))], events: [list([])] });
  const r = await run(['deploy/web'], src);
  assert.equal(r.code, 8);
  assert.match(r.out, /this rollout was superseded\n/);
});

test('the progress deadline is exit 5, with the account of this rollout (owner first)', async () => {
  const b = podEvent('b', 'BackOff', 'Warning', 10);
  const src = source({ object: [list([deployment({ deadline: true })])], events: [list([OLD, b])], read: [OLD, b] });
  const r = await run(['deploy/web'], src);
  assert.equal(r.code, 5);
  assert.match(r.out, /wait failed after 30s \(exit 5\): deployment "web" exceeded its progress deadline\n/);
  assert.doesNotMatch(r.out.slice(r.out.indexOf('wait failed')), /Scaled up replica set web-0/, 'an event before the rollout is not in its account');
  assert.match(r.out.slice(r.out.indexOf('wait failed')), /BackOff/);
});

test('Ctrl-C ends the wait with 130 and what it knows', async () => {
  const b = podEvent('b', 'BackOff', 'Warning', 10);
  let interrupt = () => {};
  const src = source({ object: [list([deployment()]), async () => interrupt()], events: [list([b])], read: [b] });
  const r = await run(['deploy/web'], src, (i) => (interrupt = i));
  assert.equal(r.code, 130);
  assert.match(r.out, /^wait interrupted after 30s \(exit 130\): interrupted\n/m);
});

test('a name that is not there is exit 1 at once in the API server\'s words; --wait-for-create waits for it', async () => {
  await assert.rejects(run(['deploy/web'], source({ object: [list([])], events: [] })), (e: Error) => e.name === 'RuntimeError' && e.message === 'deployments.apps "web" not found');
  const fake = fakeDeps({ openSource: async () => source({ object: [list([]), change(deployment({ generation: 1, available: 1 }), 'ADDED')], events: [list([])] }) });
  const r = await runWait(parseWaitOptions('deploy/web', { waitForCreate: true }), fake.deps);
  assert.equal(r.exitCode, 0);
  assert.match(fake.stdout(), /^deployment "web" successfully rolled out in 60m, 1 of 1 ready\n$/);
});

test('-o json is one result object; a Kind without a rollout needs --for-condition (exit 2)', async () => {
  const fake = fakeDeps({ openSource: async () => source({ object: [list([deployment({ available: 1 })])], events: [list([])] }) });
  const r = await runWait(parseWaitOptions('deploy/web', { output: 'json' }), fake.deps);
  assert.equal(r.exitCode, 0);
  const json = JSON.parse(fake.stdout());
  assert.deepEqual([json.kind, json.outcome, json.exitCode, json.message, json.rolloutBeganAt, json.durations.rolloutSeconds], ['WaitResult', 'succeeded', 0, 'deployment "web" successfully rolled out', new Date(NOW - 30_000).toISOString(), 30]);
  assert.throws(() => parseWaitOptions('deploy/web', { output: 'yaml' }), /want text or json/);
  assert.throws(() => parseWaitOptions('deploy/web', { timeout: 'soon' }), /--timeout "soon": want a duration/);
});

test('on a terminal, the status line kubectl would print is drawn on stderr and cleared before each event line and at the end', async () => {
  const b = podEvent('b', 'BackOff', 'Warning', 10);
  let step = 0;
  const src = source({ object: [list([deployment()]), async () => until(() => step >= 1), change(deployment({ available: 1 }))], events: [list([b]), async () => void (step = 1)], read: [b] });
  const fake = fakeDeps({ openSource: async () => src, tty: true, env: { TERM: 'xterm' } });
  const r = await runWait(parseWaitOptions('deploy/web', {}), fake.deps);
  assert.equal(r.exitCode, 0);
  assert.match(fake.stderr(), /\r\u001b\[KWaiting for deployment "web" rollout to finish: 0 of 1 updated replicas are available\.\.\. 0s/);
  assert.ok(fake.stderr().endsWith('\r\u001b[K'), 'cleared at the end');
  assert.equal(fake.stdout(), '+20s  Warning  BackOff  Pod/web-1-a  BackOff happened\ndeployment "web" successfully rolled out in 30s, 1 of 1 ready\n');
});

test('what wait refuses before reading anything: --from, -A, --for, a bad --for-condition, a bad --settle (exit 2)', () => {
  assert.throws(() => parseWaitOptions('deploy/web', { from: 'x.json' }), /wait follows the live cluster: --from does not apply/);
  assert.throws(() => parseWaitOptions('deploy/web', { allNamespaces: true }), /-A does not apply/);
  assert.throws(() => parseWaitOptions('deploy/web', { for: 'pod/x' }), /--for does not apply/);
  assert.throws(() => parseWaitOptions('deploy/web', { forCondition: 'Ready=True=x' }), /want a condition type/);
  assert.throws(() => parseWaitOptions('deploy/web', { settle: '-1s' }), /--settle "-1s": want a duration/);
  assert.throws(() => parseWaitOptions('web', {}), /^UsageError: wait "web": want TYPE\/NAME, e\.g\. deployment\/web$/);
  assert.deepEqual(parseWaitOptions('widgets.example.com/w1', { forCondition: 'Ready' }).condition, { type: 'Ready', status: 'True' });
});

/** runs wait with these flags (as commander hands them over) against `src` */
async function runWith(raw: Record<string, unknown>, src: EventSource) {
  const fake = fakeDeps({ openSource: async () => src });
  const result = await runWait(parseWaitOptions('deploy/web', raw), fake.deps);
  return { code: result.exitCode as number, out: fake.stdout(), err: fake.stderr() };
}

const lines = (out: string) => out.split('\n').filter((l) => l.startsWith('+'));

test('the selection flags choose the event lines printed as they come; -o json keeps every event of the rollout', async () => {
  const pulled = podEvent('a', 'Pulled', 'Normal', 20);
  const backoff = podEvent('b', 'BackOff', 'Warning', 10);
  const started = podEvent('c', 'Started', 'Normal', 5);
  const rollout = () => source({ object: [list([deployment()]), async () => until(() => true), change(deployment({ available: 1 }))], events: [list([OLD, pulled, backoff, started])], read: [OLD, pulled, backoff, started] });
  const cases: [Record<string, unknown>, string[]][] = [
    [{}, ['Pulled', 'BackOff', 'Started']],
    [{ types: ['warning'] }, ['BackOff']],
    [{ excludeType: ['Warning'] }, ['Pulled', 'Started']],
    [{ reason: ['pulled,started'] }, ['Pulled', 'Started']],
    [{ excludeReason: ['Pulled'] }, ['BackOff', 'Started']],
    [{ message: '^Back' }, ['BackOff']],
    [{ excludeMessage: 'happened$' }, []],
    [{ fieldSelector: 'reason!=Pulled,type=Normal' }, ['Started']],
  ];
  for (const [raw, reasons] of cases) {
    const r = await runWith(raw, rollout());
    assert.equal(r.code, 0, `${JSON.stringify(raw)}: ${r.err}`);
    assert.deepEqual(lines(r.out).map((l) => l.split(/\s+/)[2]), reasons, JSON.stringify(raw));
    assert.match(r.out, /deployment "web" successfully rolled out in 30s/);
  }
  const fake = fakeDeps({ openSource: async () => rollout() });
  await runWait(parseWaitOptions('deploy/web', { output: 'json', types: ['Warning'] }), fake.deps);
  assert.deepEqual(JSON.parse(fake.stdout()).events.map((e: { reason: string }) => e.reason).sort(), ['BackOff', 'Pulled', 'Started']);
});

test('--exclude-startup-probes hides a start-up probe\'s Unhealthy until the kubelet kills its container for it; one hidden before the kill is told at the end', async () => {
  const probe = (name: string, last: number) =>
    ev({ name, namespace: NS, kind: 'Pod', objectName: 'web-1-a', objectUid: 'p1', reason: 'Unhealthy', type: 'Warning', message: 'Startup probe failed: connection refused', first: 25, last, uid: `uid-${name}` });
  const killing = ev({ name: 'k', namespace: NS, kind: 'Pod', objectName: 'web-1-a', objectUid: 'p1', reason: 'Killing', message: 'Container app failed startup probe, will be restarted', first: 15, uid: 'uid-k' });
  let step = 0;
  const src = source({
    object: [list([deployment()]), async () => until(() => step >= 1), change(deployment({ available: 1 }))],
    events: [list([probe('u1', 20)]), change(killing), change(probe('u2', 10)), async () => void (step = 1)],
    read: [probe('u1', 20), killing, probe('u2', 10)],
  });
  const r = await runWith({ excludeStartupProbes: true }, src);
  assert.equal(r.code, 0, r.err);
  // u1 (+10s) came below the threshold and is hidden as it comes; after the Killing, u2 (+20s) is
  // told, and the last read of the rollout's events tells u1 too: the kill shows it counted.
  assert.deepEqual(lines(r.out).map((l) => l.split(/\s+/).slice(0, 3).join(' ')), ['+15s Normal Killing', '+20s Warning Unhealthy', '+10s Warning Unhealthy']);
  const without = await runWith({}, source({ object: [list([deployment()]), change(deployment({ available: 1 }))], events: [list([probe('u1', 20)])], read: [probe('u1', 20)] }));
  assert.deepEqual(lines(without.out).map((l) => l.split(/\s+/).slice(0, 3).join(' ')), ['+10s Warning Unhealthy']);
  const hidden = await runWith({ excludeStartupProbes: true }, source({ object: [list([deployment()]), change(deployment({ available: 1 }))], events: [list([probe('u1', 20)])], read: [probe('u1', 20)] }));
  assert.deepEqual(lines(hidden.out), []);
});

test('--settle counts only the Warnings the selection keeps: one hidden by --exclude-reason does not fail it, the same one shown does (exit 5)', async () => {
  // lastSeen after success (the fixed clock's now): a Warning that fires while settling
  const late = ev({ name: 'late', namespace: NS, kind: 'Pod', objectName: 'web-1-a', objectUid: 'p1', reason: 'FailedMount', type: 'Warning', message: 'MountVolume.SetUp failed', first: 20, last: -5, uid: 'uid-late' });
  const settling = () => source({ object: [list([deployment({ available: 1 })])], events: [list([late])], read: [late] });
  const failed = await runWith({ settle: '50ms' }, settling());
  assert.equal(failed.code, 5, failed.err);
  assert.match(failed.out, /a Warning fired after the rollout succeeded: FailedMount on Pod\/web-1-a/);
  const passed = await runWith({ settle: '50ms', excludeReason: ['failedmount'] }, settling());
  assert.equal(passed.code, 0, passed.err);
  assert.deepEqual(lines(passed.out), []);
  assert.match(passed.out, /deployment "web" successfully rolled out/);
});

test('the selection flags wait refuses, in one line (exit 2): a window (--since, --since-time, --until), other objects (-l), and --settle with every Warning hidden', () => {
  const refused: [Record<string, unknown>, RegExp][] = [
    [{ since: '10m' }, /^UsageError: wait does not take --since: the events of this rollout are those since it began$/],
    [{ sinceTime: '2026-11-30T10:00:00Z' }, /^UsageError: wait does not take --since-time: /],
    [{ until: '2026-11-30T10:00:00Z' }, /^UsageError: wait does not take --until: /],
    [{ selector: 'app=web' }, /^UsageError: wait does not take -l: it follows the tree of the object it waits for/],
    [{ settle: '90s', types: ['Normal'] }, /^UsageError: --settle fails on a Warning, and --types Normal hides every one: drop one of them$/],
    [{ settle: '90s', excludeType: ['warning'] }, /^UsageError: --settle fails on a Warning, and --exclude-type hides every one/],
  ];
  for (const [raw, words] of refused) assert.throws(() => parseWaitOptions('deploy/web', raw), (e: Error) => e.name === 'UsageError' && words.test(`${e.name}: ${e.message}`), JSON.stringify(raw));
  // without --settle, --types Normal is a choice of lines, not a contradiction
  assert.deepEqual(parseWaitOptions('deploy/web', { types: ['Normal'] }).selection.types, ['Normal']);
});

test('wait refuses --template (kubectl wait would print the object through it; this wait prints its account): exit 2 before anything is read', async () => {
  assert.throws(() => parseWaitOptions('deploy/web', { template: '{.metadata.name}' }), /^UsageError: wait prints its own account of the rollout \(-o text or json\), not the object: --template does not apply$/);
  const fake = fakeDeps();
  await assert.rejects(runCli(['wait', 'deploy/web', '--template', '{.metadata.name}'], fake.deps), (e: unknown) => e instanceof UsageError && /--template does not apply/.test(e.message));
  assert.equal(fake.stdout(), '');
  // --allow-missing-template-keys only tunes a template: without one it changes nothing, in kubectl wait too.
  assert.equal(parseWaitOptions('deploy/web', { allowMissingTemplateKeys: false }).json, false);
});

// A wait may run for days (--timeout 0): what it keeps of the events follows what the server holds,
// as -w and record do (test/unit/commands/long-runs.test.ts): an event deleted (the TTL), or left
// out of a relist after 410 Gone, is let go.
const startupKilling = ev({ name: 'k', namespace: NS, kind: 'Pod', objectName: 'web-1-a', objectUid: 'p1', reason: 'Killing', message: 'Container app failed startup probe, will be restarted', first: 15, uid: 'uid-k' });
const startupProbe = ev({ name: 'u', namespace: NS, kind: 'Pod', objectName: 'web-1-a', objectUid: 'p1', reason: 'Unhealthy', type: 'Warning', message: 'Startup probe failed: connection refused', first: 25, last: 10, uid: 'uid-u' });

for (const [how, gone] of [
  ['deleted (the TTL)', [change(startupKilling, 'DELETED')]],
  ['left out of a relist after 410 Gone', [list([], 'expired')]],
] as const) {
  test(`--exclude-startup-probes judges an Unhealthy by the Killing events the server still holds: one ${how} no longer counts`, async () => {
    let step = 0;
    const src = source({
      object: [list([deployment()]), async () => until(() => step >= 1), change(deployment({ available: 1 }))],
      events: [list([]), change(startupKilling, 'ADDED'), ...gone, change(startupProbe, 'ADDED'), async () => void (step = 1)],
      read: [startupProbe],
    });
    const r = await runWith({ excludeStartupProbes: true }, src);
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(lines(r.out).map((l) => l.split(/\s+/).slice(0, 3).join(' ')), ['+15s Normal Killing']);
  });
}

test('a wait that runs for days: 5,000 events created and deleted while waiting are each printed once, and the report holds those the server still holds', async () => {
  const N = 5_000;
  const pulled = (i: number) => ev({ name: `web-1-a.${i}`, namespace: NS, kind: 'Pod', objectName: 'web-1-a', objectUid: 'p1', reason: 'Pulled', message: `Pulled image "web:${i}"`, first: 20, uid: `uid-${i}` });
  const churn: FollowStep[] = [];
  for (let i = 0; i < N; i += 1) churn.push(change(pulled(i), 'ADDED'), change(pulled(i), 'DELETED'));
  const still = podEvent('s', 'Started', 'Normal', 5);
  let step = 0;
  const src = source({
    object: [list([deployment()]), async () => until(() => step >= 1), change(deployment({ available: 1 }))],
    events: [list([]), ...churn, change(still, 'ADDED'), async () => void (step = 1)],
    read: [still],
  });
  const fake = fakeDeps({ openSource: async () => src });
  const result = await runWait(parseWaitOptions('deploy/web', { output: 'json' }), fake.deps);
  assert.equal(result.exitCode, 0, fake.stderr());
  // The lines as they come (on stderr under -o json): every event once, deleted or not.
  assert.equal(lines(fake.stderr()).length, N + 1);
  assert.deepEqual(JSON.parse(fake.stdout()).events.map((e: { reason: string }) => e.reason), ['Started']);
});

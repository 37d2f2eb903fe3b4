// Several contexts read together (--context a,b, --contexts, --all-contexts) through the port: the
// fleet source (core/fleet.ts) over in-memory sources, one per context. Agreement with kubectl events
// per context on real control planes is test/integration/fleet.test.ts.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../../../src/cli.ts';
import { EXIT, RuntimeError, UsageError } from '../../../src/errors.ts';
import { FLEET_READS_AT_ONCE, fleetSource } from '../../../src/core/fleet.ts';
import type { FleetEntry } from '../../../src/core/fleet.ts';
import type { EventSource, FollowStep } from '../../../src/core/source.ts';
import type { Json } from '../../../src/core/json.ts';
import { parseCommonOptions } from '../../../src/options/common.ts';
import { ev } from '../../support/builders.ts';
import { fakeDeps } from '../../support/deps.ts';
import { servedResource } from '../../support/served.ts';
import { fromCluster, memorySource, openSources } from '../../support/sources.ts';

const EAST = 'https://east.example:6443';
const WEST = 'https://west.example:6443';

function member(context: string, server: string, raw: unknown[], o: { served?: ReturnType<typeof servedResource>[] } = {}): FleetEntry {
  const source = memorySource({ provenance: fromCluster({ context, server, namespace: 'shop' }), raw, ...(o.served ? { served: o.served } : {}) });
  return { context, server, namespace: 'shop', source };
}

function down(context: string, server: string, why: string): FleetEntry {
  const source: EventSource = {
    ...memorySource({ provenance: fromCluster({ context, server }), raw: [] }),
    read: async () => {
      throw new RuntimeError(why);
    },
  };
  return { context, server, namespace: 'shop', source };
}

async function run(argv: string[], live: EventSource) {
  const fake = fakeDeps({ openSource: openSources({ live }).open, now: Date.parse('2026-11-30T12:00:00Z') });
  const code = await runCli(argv, fake.deps).catch((error: unknown) => error);
  return { code, stdout: fake.stdout(), stderr: fake.stderr() };
}

const eastEvents = () => [
  ev({ namespace: 'shop', reason: 'Pulled', kind: 'Pod', apiVersion: 'v1', objectName: 'web-1', first: 300 }),
  ev({ namespace: 'shop', type: 'Warning', reason: 'BackOff', kind: 'Pod', apiVersion: 'v1', objectName: 'web-1', first: 100 }),
];
const westEvents = () => [ev({ namespace: 'shop', type: 'Warning', reason: 'FailedScheduling', kind: 'Pod', apiVersion: 'v1', objectName: 'web-2', first: 200 })];

describe('several contexts in one timeline', () => {
  test('the table merges them in time order with a CONTEXT column first', async () => {
    const r = await run(['--context', 'east,west'], fleetSource([member('east', EAST, eastEvents()), member('west', WEST, westEvents())]));
    assert.equal(r.code, EXIT.ok, r.stderr);
    const [header, ...rows] = r.stdout.trimEnd().split('\n');
    assert.match(header ?? '', /^CONTEXT\s+FIRST SEEN\s+LAST SEEN\s+TYPE\s+REASON\s+OBJECT/);
    assert.deepEqual(
      rows.map((row) => row.split(/\s+/).filter((cell) => /^(east|west|Pulled|BackOff|FailedScheduling)$/.test(cell))),
      [['east', 'Pulled'], ['west', 'FailedScheduling'], ['east', 'BackOff']],
    );
  });

  test('one context keeps the table it always had: no CONTEXT column', async () => {
    const one = memorySource({ provenance: fromCluster({ context: 'east', server: EAST, namespace: 'shop' }), raw: eastEvents() });
    const r = await run(['--context', 'east'], one);
    assert.doesNotMatch(r.stdout, /CONTEXT/);
  });

  test('-o stable prefixes each line with its context; -o json carries context and server', async () => {
    const fleet = () => fleetSource([member('east', EAST, eastEvents()), member('west', WEST, westEvents())]);
    const stable = await run(['--context', 'east,west', '-o', 'stable'], fleet());
    assert.equal(stable.stdout, ['east Normal Pulled Pod/web-1', 'east Warning BackOff Pod/web-1', 'west Warning FailedScheduling Pod/web-2', ''].join('\n'));
    const json = await run(['--context', 'east,west', '-o', 'json'], fleet());
    const items = JSON.parse(json.stdout) as { reason: string; context: string; server: string }[];
    assert.deepEqual(
      items.map((i) => [i.reason, i.context, i.server]),
      [['Pulled', 'east', EAST], ['FailedScheduling', 'west', WEST], ['BackOff', 'east', EAST]],
    );
  });

  test('a context that does not answer: one warning naming it, the others printed, exit 4', async () => {
    const r = await run(['--context', 'east,gone,west'], fleetSource([member('east', EAST, eastEvents()), down('gone', 'https://gone.example', 'cannot reach the API server at https://gone.example (context "gone"): connection refused'), member('west', WEST, westEvents())]));
    assert.equal(r.code, EXIT.partial);
    assert.equal(r.stderr.split('\n').filter((l) => l.startsWith('warning:')).length, 1);
    assert.match(r.stderr, /^warning: context "gone" \(https:\/\/gone\.example\) did not answer, its events are not shown: cannot reach the API server .*connection refused$/m);
    assert.match(r.stdout, /east .*Pulled/);
    assert.match(r.stdout, /west .*FailedScheduling/);
  });

  test('when no context answers, the first one\'s error is the error (exit 1)', async () => {
    const r = await run(['--context', 'a,b'], fleetSource([down('a', EAST, 'first \x1b[31m down'), down('b', WEST, 'second down')]));
    assert.ok(r.code instanceof RuntimeError);
    assert.equal(r.code.message, 'first \x1b[31m down');
  });

  test('a context that could not be opened counts as not answering; its reason is escaped', async () => {
    const r = await run(['--context', 'east,bad'], fleetSource([member('east', EAST, eastEvents()), { context: 'bad\x1b[2J', server: '', namespace: 'shop', unopened: new RuntimeError('context "bad" names cluster "x", which has no server\x07') }]));
    assert.equal(r.code, EXIT.partial);
    assert.match(r.stderr, /^warning: context "bad\^\[\[2J" did not answer, its events are not shown: context "bad" names cluster "x", which has no server\^G$/m);
  });

  test('--for resolves a Kind served by one cluster and not the other; served by none, it is the server\'s error', async () => {
    const crd = servedResource('ev.labhub.io', 'v1', 'pipelines', 'Pipeline');
    const pods = servedResource('', 'v1', 'pods', 'Pod');
    const fleet = () =>
      fleetSource([
        member('east', EAST, [ev({ namespace: 'shop', reason: 'Started', objectName: 'build-1' })], { served: [pods, crd] }),
        member('west', WEST, westEvents(), { served: [pods] }),
      ]);
    const r = await run(['--context', 'east,west', '--for', 'pipeline/build-1', '-o', 'stable'], fleet());
    assert.equal(r.code, EXIT.ok, r.stderr);
    assert.equal(r.stdout, 'east Normal Started Pipeline/build-1\n');
    const none = await run(['--context', 'east,west', '--for', 'widget/w'], fleet());
    assert.ok(none.code instanceof RuntimeError);
    assert.match(none.code.message, /doesn't have a resource type "widget"/);
  });

  test(`reads at most ${FLEET_READS_AT_ONCE} contexts at once, and all of them`, async () => {
    let now = 0;
    let most = 0;
    const entries: FleetEntry[] = Array.from({ length: 40 }, (_, i) => {
      const base = member(`c${i}`, `https://c${i}.example`, [ev({ namespace: 'shop', reason: `R${i}` })]);
      const inner = (base as { source: EventSource }).source;
      const source: EventSource = {
        ...inner,
        read: async (opts) => {
          now += 1;
          most = Math.max(most, now);
          await new Promise((resolve) => setTimeout(resolve, 5));
          now -= 1;
          return inner.read(opts);
        },
      };
      return { ...base, source };
    });
    const read = await fleetSource(entries).read();
    assert.equal(most, FLEET_READS_AT_ONCE);
    assert.equal(read.events.length, 40);
  });

  test('each context is asked to label its events as it makes them; one that does not is labelled after, in the contexts\' order', async () => {
    const asked: unknown[] = [];
    const labelling = (entry: FleetEntry): FleetEntry => {
      const inner = (entry as { source: EventSource }).source;
      return { ...entry, source: { ...inner, read: async (opts) => (asked.push(opts?.cluster), inner.read(opts)) } };
    };
    const read = await fleetSource([labelling(member('east', EAST, eastEvents())), labelling(member('west', WEST, westEvents()))]).read();
    assert.deepEqual(asked, [{ context: 'east', server: EAST }, { context: 'west', server: WEST }]);
    assert.deepEqual(
      read.events.map((e) => [e.reason, e.cluster?.context]),
      [['Pulled', 'east'], ['BackOff', 'east'], ['FailedScheduling', 'west']],
    );
  });
});

describe('choosing several contexts', () => {
  test('--context is comma-separated and repeatable; one name is the plain --context', () => {
    assert.deepEqual(parseCommonOptions({ context: ['a,b', 'c', 'a'] }).scope.fleet, { names: ['a', 'b', 'c'] });
    assert.deepEqual(parseCommonOptions({ context: 'a,b' }).scope.fleet, { names: ['a', 'b'] });
    const one = parseCommonOptions({ context: ['a'] }).scope;
    assert.equal(one.context, 'a');
    assert.equal(one.fleet, undefined);
  });

  test('--contexts takes a regular expression; --all-contexts every context; two ways at once is a usage error', () => {
    const scope = parseCommonOptions({ contexts: '^prod-' }).scope;
    assert.ok(scope.fleet !== undefined && 'pattern' in scope.fleet && scope.fleet.pattern.test('prod-eu'));
    assert.deepEqual(parseCommonOptions({ allContexts: true }).scope.fleet, { all: true });
    assert.throws(() => parseCommonOptions({ contexts: '(' }), (e: unknown) => e instanceof UsageError && /^--contexts "\(": /.test(e.message));
    assert.throws(() => parseCommonOptions({ context: 'a', allContexts: true }), /--context and --all-contexts both choose contexts: use one/);
    assert.throws(() => parseCommonOptions({ context: 'a,b', from: 'x.json' }), /do not apply to --from/);
    assert.throws(() => parseCommonOptions({ allContexts: true, server: 'https://x' }), /--server names one cluster/);
  });

  test('verbs that do not read several contexts yet refuse them in one line', async () => {
    const live = fleetSource([member('east', EAST, eastEvents()), member('west', WEST, westEvents())]);
    for (const argv of [['-w', '--for', 'deployment/web', '--tree'], ['incident', '--for', 'deployment/web', '--tree']]) {
      const r = await run([...argv, '--context', 'east,west'], live);
      assert.ok(r.code instanceof UsageError, argv.join(' '));
      assert.match(r.code.message, /^(-w|--watch|incident) --tree tells one tree, and each of several contexts has its own: pass one --context, or read them with the timeline \(--for X --tree\)$/);
    }
    const wait = await run(['wait', 'deployment/web', '--context', 'east,west'], live);
    assert.ok(wait.code instanceof UsageError);
    assert.match(wait.code.message, /^wait reads one context: several \(--context a,b, --contexts, --all-contexts\) are read by the timeline \(-w, -o html too\), incident, type-audit, record, capture and export$/);
    // The one writer patches one event of one cluster.
    const patch = await run(['aggregate-patch', 'web.1', '-n', 'shop', '--context', 'east,west'], live);
    assert.ok(patch.code instanceof UsageError);
    assert.equal(patch.code.message, 'aggregate-patch writes to one cluster at a time: pass one --context (several are read by the timeline, incident, record, capture and export)');
  });

  test('type-audit across clusters: one group names the clusters it spans; -o json carries each finding\'s context', async () => {
    const odd = (namespace: string, objectName: string) => ev({ namespace, type: 'warning', reason: 'DiskFull', component: 'disk-watcher', kind: 'Pod', apiVersion: 'v1', objectName });
    const fleet = () => fleetSource([member('east', EAST, [odd('shop', 'db-0')]), member('west\x1b[1m', WEST, [odd('shop', 'db-0'), ...westEvents()])]);
    const text = await run(['type-audit', '--context', 'east,west'], fleet());
    assert.equal(text.code, EXIT.findings, text.stderr);
    assert.match(text.stdout, /^ {2}2 events about 2 objects in 2 clusters \(east, west\^\[\[1m\): reason DiskFull, type warning, reported by disk-watcher, 2 times in all; for example east: shop\/ev-\d+ about Pod\/db-0 \(count 1\)$/m);
    const json = await run(['type-audit', '--context', 'east,west', '-o', 'json'], fleet());
    const doc = JSON.parse(json.stdout) as { findings: { context: string; kind: string }[]; groups: { contexts: string[] }[] };
    assert.deepEqual(doc.findings.filter((f) => f.kind === 'unconventional-type').map((f) => f.context), ['east', 'west\x1b[1m']);
    assert.deepEqual(doc.groups[0]?.contexts, ['east', 'west\x1b[1m']);
    const partial = await run(['type-audit', '--context', 'east,gone'], fleetSource([member('east', EAST, [odd('shop', 'db-0')]), down('gone', 'https://gone.example', 'refused')]));
    assert.equal(partial.code, EXIT.partial, 'incomplete: 4 before 3');
    assert.match(partial.stderr, /^warning: context "gone"/m);
  });

  test('incident across clusters: the headline names the clusters that share a story, each cluster\'s standing is said', async () => {
    // Pod names as a ReplicaSet makes them (pod-template-hash and suffix in Kubernetes' safe alphabet), each its own uid.
    const unscheduled = (objectName: string, first: number) =>
      ev({ namespace: 'shop', type: 'Warning', reason: 'FailedScheduling', kind: 'Pod', apiVersion: 'v1', objectName, objectUid: `uid-${objectName}`, first, message: '0/3 nodes are available: 3 Insufficient cpu.' });
    const fleet = () =>
      fleetSource([
        member('east', EAST, [unscheduled('web-5d4f7c9b8-x2k4q', 100), ...eastEvents()]),
        member('west', WEST, [unscheduled('web-7f8c6d5b4-q9r8s', 200)]),
        down('gone', 'https://gone.example', 'connection refused'),
        member('south\x1b[1m', 'https://south.example', [unscheduled('web-6c5b4d798-z4w2x', 300)]),
      ]);
    const r = await run(['incident', '--context', 'east,west,gone,south'], fleet());
    assert.equal(r.code, EXIT.partial, r.stderr);
    assert.match(r.stdout, /^Incident in 4 contexts \(east, west, gone, south\^\[\[1m\), read from their clusters at /);
    assert.match(r.stdout, /^ {2}4 contexts read together, 3 answered\. 1 story is told in more than one cluster:\n {2}FailedScheduling on Pod\/web-<hash>-<id>: in 3 of 3 clusters \(east, west, south\^\[\[1m\)\.$/m);
    assert.match(r.stdout, /^Clusters\n {2}east \(https:\/\/east\.example:6443, namespace shop\): 3 events, back to \S+ \(\d+m ago\); an event not written for 1h \(--event-ttl\) is gone from it\.$/m);
    assert.match(r.stdout, /^ {2}gone \(https:\/\/gone\.example, namespace shop\): did not answer \(connection refused\); its events are not in this account\.$/m);
    // The three Pods tell one story: one family, its oldest member first, said to span the three clusters.
    assert.match(r.stdout, /^south\^\[\[1m: Pod\/web-6c5b4d798-z4w2x and 2 more Pod\/web-<hash>-<id> with the same story in 3 clusters \(south\^\[\[1m, west, east\)$/m);
    const json = await run(['incident', '--context', 'east,west,gone,south', '-o', 'json'], fleet());
    const doc = JSON.parse(json.stdout) as { groups: { reason: string; clusters?: string[] }[]; clusters: { answered: number; shared: { group: number; clusters: string[] }[]; standing: { context: string; events: number; unanswered?: string }[] } };
    assert.equal(doc.clusters.answered, 3);
    assert.deepEqual(doc.clusters.standing.map((s) => [s.context, s.events, s.unanswered ?? null]), [['east', 3, null], ['west', 1, null], ['gone', 0, 'connection refused'], ['south\x1b[1m', 1, null]]);
    const [shared] = doc.clusters.shared;
    assert.deepEqual(shared?.clusters, ['east', 'west', 'south\x1b[1m']);
    assert.equal(doc.groups[shared?.group ?? -1]?.reason, 'FailedScheduling');
  });

  test('incident across clusters where no story is shared says so, and one context reads as it always did', async () => {
    const r = await run(['incident', '--context', 'east,west'], fleetSource([member('east', EAST, eastEvents()), member('west', WEST, westEvents())]));
    assert.equal(r.code, EXIT.ok, r.stderr);
    assert.match(r.stdout, /^ {2}2 contexts read together, 2 answered\. No story is told in more than one cluster\.$/m);
    assert.match(r.stdout, /^west: Pod\/web-2/m);
    const one = memorySource({ provenance: fromCluster({ context: 'east', server: EAST, namespace: 'shop' }), raw: eastEvents() });
    const alone = await run(['incident'], one);
    assert.doesNotMatch(alone.stdout, /Clusters|contexts read together|east: /);
  });

  test('-w across contexts: one stream with a CONTEXT column; --watch-only skips each context\'s list; a context that stops is said, exit 4', async () => {
    const following = (context: string, server: string, listed: unknown[], changed: unknown[]): FleetEntry => {
      const steps: FollowStep[] = [{ kind: 'list', items: listed as Json[], resourceVersion: '1', why: 'start' }, ...changed.map((object): FollowStep => ({ kind: 'change', type: 'ADDED', object: object as Json }))];
      return { context, server, namespace: 'shop', source: memorySource({ provenance: fromCluster({ context, server, namespace: 'shop' }), raw: [], steps }) };
    };
    const pulled = () => ev({ namespace: 'shop', reason: 'Pulled', kind: 'Pod', apiVersion: 'v1', objectName: 'web-9', first: 5 });
    const fleet = () => fleetSource([following('east', EAST, eastEvents(), [pulled()]), following('west', WEST, westEvents(), [])]);
    const r = await run(['-w', '--context', 'east,west'], fleet());
    assert.equal(r.code, EXIT.ok, r.stderr);
    const rows = r.stdout.trimEnd().split('\n');
    assert.match(rows[0] ?? '', /^CONTEXT\s+FIRST SEEN\s+LAST SEEN\s+TYPE\s+REASON/);
    assert.deepEqual(rows.slice(1).map((row) => row.split(/\s+/).filter((cell) => /^(east|west|Pulled|BackOff|FailedScheduling)$/.test(cell)).join(' ')).sort(), ['east BackOff', 'east Pulled', 'east Pulled', 'west FailedScheduling']);
    const only = await run(['--watch-only', '--context', 'east,west', '-o', 'stable'], fleet());
    assert.equal(only.stdout, 'east Normal Pulled Pod/web-9\n');
    const stops: EventSource = { ...memorySource({ provenance: fromCluster({ context: 'gone', server: 'https://gone.example' }), raw: [] }), follow: async function* () { yield* []; throw new RuntimeError('gave up following events after 10 failures in a row: ECONNREFUSED'); } };
    const partial = await run(['-w', '--context', 'east,gone', '-o', 'stable'], fleetSource([following('east', EAST, eastEvents(), []), { context: 'gone', server: 'https://gone.example', namespace: 'shop', source: stops }]));
    assert.equal(partial.code, EXIT.partial, partial.stderr);
    assert.match(partial.stderr, /^warning: context "gone" \(https:\/\/gone\.example\) stopped answering, its events are no longer followed: gave up following events after 10 failures in a row: ECONNREFUSED$/m);
    assert.equal(partial.stdout, 'east Normal Pulled Pod/web-1\neast Warning BackOff Pod/web-1\n');
  });
});

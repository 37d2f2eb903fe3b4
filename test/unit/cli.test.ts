// Each verb end to end in-process, reading the lab's events from a file, with a fixed clock.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../src/cli.ts';
import { ev, labEvents } from '../support/builders.ts';
import { fakeDeps } from '../support/deps.ts';

const dir = mkdtempSync(join(tmpdir(), 'evtimeline-cli-'));
const labFile = join(dir, 'lab.json');
writeFileSync(labFile, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: labEvents() }));

async function run(argv: string[], o: { stdin?: string } = {}) {
  const fake = fakeDeps({ stdin: o.stdin });
  const code = await runCli(argv, fake.deps).catch((error: unknown) => ({ error }));
  return { code, stdout: fake.stdout(), stderr: fake.stderr() };
}

const LAB_STABLE = `Critical StageUnknown Pipeline/build-1
Normal ReconcileStarted Pipeline/build-1
Normal ReconcileSucceeded Pipeline/build-1
Warning FailedScheduling Pod/hungry
`;

test('timeline -o table on the lab, -n narrowing the file to one namespace', async () => {
  const r = await run(['-n', 'op-events', '--from', labFile]);
  assert.equal(r.code, 0);
  assert.equal(
    r.stdout,
    `FIRST SEEN   LAST SEEN         TYPE        REASON               OBJECT             FROM                MESSAGE
2m           3s (x5 over 2m)   Normal      ReconcileStarted     Pipeline/build-1   pipeline-operator   Started reconciling Pipeline build-1.
90s          90s               Critical!   StageUnknown         Pipeline/build-1   pipeline-operator   Stage of build-1 is not known.
60s          60s               Normal      ReconcileSucceeded   Pipeline/build-1   pipeline-operator   Pipeline build-1 reconciled.
45s          45s               Warning     FailedScheduling     Pod/hungry         default-scheduler   0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.
`,
  );
});

test('-o stable is the lab timeline.sh table, flags before or after the verb', async () => {
  assert.equal((await run(['--from', labFile, '-o', 'stable'])).stdout, LAB_STABLE);
  assert.equal((await run(['timeline', '-o', 'stable', '--from', labFile])).stdout, LAB_STABLE);
});

test('--from - reads the events from stdin', async () => {
  const r = await run(['--from', '-', '-o', 'stable'], { stdin: readFileSync(labFile, 'utf8') });
  assert.equal(r.stdout, LAB_STABLE);
});

test('a saved stable table can be read back, and incident says it carries no times', async () => {
  const table = join(dir, 'timeline.txt');
  writeFileSync(table, LAB_STABLE);
  const r = await run(['incident', '--from', table]);
  assert.equal(r.code, 0);
  for (const word of ['FailedScheduling', 'ReconcileStarted', 'ReconcileSucceeded', 'Critical']) assert.ok(r.stdout.includes(word), word);
  assert.match(r.stdout, /no times/);
  assert.doesNotMatch(r.stdout, /x5/);
});

test('type-audit exits 3 on the lab and 0 on conventional events', async () => {
  assert.equal((await run(['type-audit', '--from', labFile])).code, 3);
  const clean = join(dir, 'clean.json');
  writeFileSync(clean, JSON.stringify([ev({ type: 'Normal' }), ev({ type: 'Warning', reason: 'BackOff' })]));
  const r = await run(['type-audit', '--from', clean]);
  assert.equal(r.code, 0, r.stdout);
});

test('incident -o json is the same findings as data', async () => {
  const r = await run(['incident', '--from', labFile, '-o', 'json']);
  const incident = JSON.parse(r.stdout) as { unconventionalTypes: { type: string }[]; reporters: unknown[] };
  assert.deepEqual(incident.unconventionalTypes.map((t) => t.type), ['Critical']);
  assert.equal(incident.reporters.length, 2);
});

test('capture --from writes every report and refuses a non-empty folder', async () => {
  const out = join(dir, 'capture');
  const r = await run(['capture', '--from', labFile, out]);
  assert.equal(r.code, 0, JSON.stringify(r));
  assert.deepEqual(readdirSync(out).sort(), [
    'both-apis.txt', 'count-report.txt', 'events-list.txt', 'events.json', 'incident.txt', 'scheduler-event.txt', 'timeline.txt', 'type-report.txt',
  ]);
  assert.equal(readFileSync(join(out, 'timeline.txt'), 'utf8'), LAB_STABLE);
  assert.equal((await run(['--from', join(out, 'events.json'), '-o', 'stable'])).stdout, LAB_STABLE);
  const again = await run(['capture', '--from', labFile, out]);
  assert.match(String((again.code as { error?: Error }).error?.message), /is not empty: pass --force/);
  assert.equal((await run(['capture', '--from', labFile, out, '--force'])).code, 0);
});

test('hostile event text is escaped in the table and kept exact in JSON', async () => {
  const hostile = join(dir, 'hostile.json');
  const message = 'evil \u001b]0;owned\u0007 \u001b[31mred\r over \u202eright-to-left';
  writeFileSync(hostile, JSON.stringify([ev({ message, reason: 'Bad\u001b[2J' })]));
  const table = await run(['--from', hostile]);
  assert.doesNotMatch(table.stdout, /\u001b|\r|\u202e|\u0007/);
  assert.match(table.stdout, /\^\[\]0;owned\^G \^\[\[31mred\\r over \\u202eright-to-left/);
  const json = JSON.parse((await run(['--from', hostile, '-o', 'json'])).stdout) as { message: string }[];
  assert.equal(json[0]?.message, message);
});

const usageErrors: [string, string[], RegExp][] = [
  ['an unknown verb', ['bogus'], /unknown verb "bogus"/],
  ['an unknown flag', ['--bogus'], /unknown option '--bogus'/],
  ['an unknown output', ['-o', 'yaml', '--from', labFile], /-o "yaml": want one of table, wide, json, stable/],
  ['a bad --since', ['--since', 'soon', '--from', labFile], /--since "soon"/],
  ['aggregate-patch with --from', ['aggregate-patch', 'x', '--from', labFile], /--from does not apply/],
  ['aggregate-patch with both --add and --count', ['aggregate-patch', 'x', '--add', '1', '--count', '2'], /exclude each other/],
];
for (const [name, argv, message] of usageErrors) {
  test(`${name} is a usage error`, async () => {
    const r = await run(argv);
    const error = (r.code as { error?: Error }).error;
    assert.equal(error?.name, 'UsageError');
    assert.match(error.message, message);
  });
}

test('--from a missing file is a runtime error naming the file', async () => {
  const r = await run(['--from', join(dir, 'nope.json')]);
  const error = (r.code as { error?: Error }).error;
  assert.equal(error?.name, 'RuntimeError');
  assert.match(error.message, /nope\.json: no such file/);
});

test('--version prints the version, commit and runtime', async () => {
  const r = await run(['--version']);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /^kubectl-evtimeline v\S+ \(commit \S+, node v24\.\d+\.\d+\)\n$/);
});

// -- Re-created objects and --compare, against a fake API server -----------------------------------

const RECREATED_UID = 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee';
/** The very events in labFile: the builders give each call new uids, and --compare matches by uid. */
const savedLab = (JSON.parse(readFileSync(labFile, 'utf8')) as { items: Record<string, unknown>[] }).items;
const restarted = ev({ name: 'build-1-restarted', reason: 'ReconcileStarted', objectUid: RECREATED_UID, first: 20 });

/**
 * A fake API server over plain HTTP: the namespace op-events holds the lab's events but build-1-weird
 * (expired) plus one about the re-created build-1; Pipeline build-1 exists with a new uid; Pod hungry
 * is gone. Answers 404 to anything else; `asked` counts requests by path.
 */
async function fakeCluster(o: { forbidPipelines?: boolean } = {}) {
  const { createServer } = await import('node:http');
  const live = [...savedLab.filter((e) => (e.metadata as { name: string }).name !== 'build-1-weird'), restarted];
  const routes: Record<string, [number, unknown]> = {
    '/api/v1/namespaces/op-events/events': [200, { kind: 'EventList', apiVersion: 'v1', metadata: { resourceVersion: '2000' }, items: live }],
    '/api/v1': [200, { resources: [{ name: 'pods', kind: 'Pod', namespaced: true, verbs: ['get', 'list'] }] }],
    '/apis/ev.labhub.io/v1': [200, { resources: [{ name: 'pipelines', kind: 'Pipeline', namespaced: true, verbs: ['get', 'list'] }] }],
    '/apis/ev.labhub.io/v1/namespaces/op-events/pipelines/build-1': o.forbidPipelines
      ? [403, { kind: 'Status', reason: 'Forbidden', message: 'pipelines.ev.labhub.io "build-1" is forbidden' }]
      : [200, { metadata: { name: 'build-1', uid: RECREATED_UID, creationTimestamp: '2026-11-30T11:59:30Z' } }],
  };
  const asked = new Map<string, number>();
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    asked.set(path, (asked.get(path) ?? 0) + 1);
    const [code, body] = routes[path] ?? [404, { kind: 'Status', reason: 'NotFound', message: `${path} not found` }];
    res.writeHead(code, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const kubeconfig = join(dir, `fake-${port}.kubeconfig`);
  writeFileSync(
    kubeconfig,
    [
      'apiVersion: v1',
      'kind: Config',
      'current-context: fake',
      'clusters:',
      `- {name: fake, cluster: {server: "http://127.0.0.1:${port}", insecure-skip-tls-verify: true}}`,
      'users:',
      '- {name: fake, user: {token: t}}',
      'contexts:',
      '- {name: fake, context: {cluster: fake, user: fake, namespace: op-events}}',
      '',
    ].join('\n'),
  );
  return { kubeconfig, asked, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function withCluster(o: { forbidPipelines?: boolean }, body: (c: Awaited<ReturnType<typeof fakeCluster>>) => Promise<void>): Promise<void> {
  const cluster = await fakeCluster(o);
  try {
    await body(cluster);
  } finally {
    await cluster.close();
  }
}


test('a live timeline marks events about a previous incarnation and a deleted object, looking each object up once', async () => {
  await withCluster({}, async ({ kubeconfig, asked }) => {
    const r = await run(['--kubeconfig', kubeconfig]);
    assert.equal(r.code, 0, String(r.stderr));
    assert.equal(
      r.stdout,
      `FIRST SEEN   LAST SEEN         TYPE      REASON               OBJECT                        FROM                MESSAGE
2m           3s (x5 over 2m)   Normal    ReconcileStarted     Pipeline/build-1 (previous)   pipeline-operator   Started reconciling Pipeline build-1.
60s          60s               Normal    ReconcileSucceeded   Pipeline/build-1 (previous)   pipeline-operator   Pipeline build-1 reconciled.
45s          45s               Warning   FailedScheduling     Pod/hungry (gone)             default-scheduler   0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.
20s          20s               Normal    ReconcileStarted     Pipeline/build-1              pipeline-operator   Started reconciling.
`,
    );
    assert.equal(r.stderr, '');
    assert.deepEqual(Object.fromEntries(asked), {
      '/api/v1/namespaces/op-events/events': 1,
      '/apis/ev.labhub.io/v1': 1,
      '/apis/ev.labhub.io/v1/namespaces/op-events/pipelines/build-1': 1,
      '/api/v1': 1,
      '/api/v1/namespaces/op-events/pods/hungry': 1,
    });
  });
});

test('a live timeline -o json gives each event its incarnation; -o stable looks nothing up and stays the lab table', async () => {
  await withCluster({}, async ({ kubeconfig, asked }) => {
    const json = JSON.parse((await run(['--kubeconfig', kubeconfig, '-o', 'json'])).stdout) as { name: string; incarnation: string; onServer?: boolean }[];
    assert.deepEqual(
      json.map((e) => [e.name, e.incarnation, e.onServer]),
      [
        ['build-1-started', 'previous', undefined],
        ['build-1-done', 'previous', undefined],
        ['hungry.18a1b2c3d4e5f607', 'gone', undefined],
        ['build-1-restarted', 'current', undefined],
      ],
    );
    asked.clear();
    const stable = await run(['--kubeconfig', kubeconfig, '-o', 'stable']);
    assert.equal(stable.stdout, 'Normal ReconcileStarted Pipeline/build-1\nNormal ReconcileSucceeded Pipeline/build-1\nWarning FailedScheduling Pod/hungry\n');
    assert.deepEqual([...asked.keys()], ['/api/v1/namespaces/op-events/events']);
  });
});

test('a live incident tells the two incarnations of build-1 apart and says the pod is gone', async () => {
  await withCluster({}, async ({ kubeconfig }) => {
    const r = await run(['incident', '--kubeconfig', kubeconfig]);
    assert.equal(r.code, 0);
    assert.ok(
      r.stdout.includes(
        `  Pipeline/build-1 was re-created at 2026-11-30T11:59:30Z (uid 11111111-2222-3333-4444-555555555555 -> uid ${RECREATED_UID}); 2 events are about the previous build-1 and 1 about the current one.\n`,
      ),
      r.stdout,
    );
    assert.ok(r.stdout.includes('  Pod/hungry (uid 99999999-8888-7777-6666-555555555555) no longer exists; 1 event is about it.\n'));
    assert.ok(r.stdout.includes('Pipeline/build-1 (uid 11111111-2222-3333-4444-555555555555, a previous incarnation)\n'));
    assert.ok(r.stdout.includes(`Pipeline/build-1 (uid ${RECREATED_UID}, the current incarnation)\n`));
    const json = JSON.parse((await run(['incident', '--kubeconfig', kubeconfig, '-o', 'json'])).stdout) as {
      recreatedObjects: { previousEvents: number }[];
      goneObjects: unknown[];
      objects: { incarnation: string }[];
    };
    assert.deepEqual(json.recreatedObjects.map((o) => o.previousEvents), [2]);
    assert.equal(json.goneObjects.length, 1);
    assert.deepEqual(json.objects.map((o) => o.incarnation), ['previous', 'gone', 'current']);
  });
});

test('an object the reader may not get is unknown: no marker, no error, and incident says it could not tell', async () => {
  await withCluster({ forbidPipelines: true }, async ({ kubeconfig }) => {
    const table = await run(['--kubeconfig', kubeconfig]);
    assert.equal(table.code, 0);
    assert.doesNotMatch(table.stdout, /build-1 \(/);
    assert.match(table.stdout, /Pod\/hungry \(gone\)/);
    const incident = await run(['incident', '--kubeconfig', kubeconfig]);
    assert.match(incident.stdout, /- Whether this object still exists or was re-created is unknown: Pipeline\/build-1 \(not allowed to get pipelines\)\./);
  });
});

test('timeline --from --compare marks the saved events the server no longer has, in the table, on stderr and in JSON', async () => {
  await withCluster({}, async ({ kubeconfig }) => {
    const r = await run(['--kubeconfig', kubeconfig, '--from', labFile, '--compare', '-n', 'op-events']);
    assert.equal(r.code, 0, String(r.stderr));
    const weird = r.stdout.split('\n').find((line) => line.includes('StageUnknown')) ?? '';
    assert.match(weird, /^90s +90s \[not on server\] +Critical! +StageUnknown +Pipeline\/build-1 \(previous\) /);
    assert.equal(r.stdout.split('\n').filter((line) => line.includes('[not on server]')).length, 1);
    assert.equal(
      r.stderr,
      '1 of 4 events in the file is no longer on the server (expired after --event-ttl or deleted), marked [not on server]; 1 event on the server is not in the file.\n',
    );
    const json = JSON.parse((await run(['--kubeconfig', kubeconfig, '--from', labFile, '--compare', '-o', 'json'])).stdout) as { name: string; onServer: boolean }[];
    assert.deepEqual(json.filter((e) => !e.onServer).map((e) => e.name), ['build-1-weird']);
  });
});

test('incident --from a record --compare counts and lists what only the record holds', async () => {
  const { formatObservation } = await import('../../src/io/record-file.ts');
  const record = join(dir, 'events.jsonl');
  const observedAt = (seconds: number) => new Date(Date.parse('2026-11-30T12:00:00Z') - seconds * 1000).toISOString();
  writeFileSync(record, savedLab.map((event, i) => formatObservation({ observedAt: observedAt(100 - i), type: 'ADDED', event })).join(''));
  await withCluster({}, async ({ kubeconfig }) => {
    const r = await run(['incident', '--kubeconfig', kubeconfig, '--from', record, '--compare']);
    assert.equal(r.code, 0, String(r.stderr));
    assert.match(r.stdout, /^Incident across all namespaces, read from a record, compared with the cluster at 2026-11-30T12:00:00Z\n/);
    assert.ok(r.stdout.includes('  1 of 4 events in the record (25%) is no longer on the server (expired after --event-ttl or deleted).\n'), r.stdout);
    assert.ok(
      r.stdout.includes(
        'Only in the record (no longer on the server)\n  StageUnknown on Pipeline/build-1 (event build-1-weird, Critical), last seen 2026-11-30T11:58:30Z (90s ago)\n',
      ),
    );
    assert.ok(r.stdout.includes('  - The recorder watched from 2026-11-30T11:58:20Z (100s ago) to 2026-11-30T11:58:23Z (97s ago): the record\'s first and last observation.\n'));
    assert.ok(r.stdout.includes('  - 1 event on the server is not in the record (written after it, or outside its scope): read the cluster without --from to see it.\n'));
  });
});

test('a timeline from a record states on stderr the window it covers; stdout stays the table', async () => {
  const { formatObservation } = await import('../../src/io/record-file.ts');
  const record = join(dir, 'window.jsonl');
  writeFileSync(
    record,
    labEvents().map((event, i) => formatObservation({ observedAt: `2026-11-30T11:5${i}:00.000Z`, type: 'ADDED', event })).join(''),
  );
  const r = await run(['--from', record, '-o', 'stable']);
  assert.equal(r.stdout, LAB_STABLE);
  assert.equal(
    r.stderr,
    'The record covers 2026-11-30T11:50:00Z .. 2026-11-30T11:53:00Z (first .. last observation); its events were first seen 2026-11-30T11:58:00Z .. last seen 2026-11-30T11:59:57Z.\n',
  );
  const list = await run(['--from', labFile, '-o', 'stable']);
  assert.equal(list.stderr, '');
});

const compareErrors: [string, string[], RegExp][] = [
  ['timeline --compare without --from', ['--compare'], /--compare needs --from FILE/],
  ['incident --compare without --from', ['incident', '--compare'], /--compare needs --from FILE/],
];
for (const [name, argv, message] of compareErrors) {
  test(`${name} is a usage error`, async () => {
    const error = ((await run(argv)).code as { error?: Error }).error;
    assert.equal(error?.name, 'UsageError');
    assert.match(error.message, message);
  });
}

test('--compare with a stable table is a usage error: the table has no uids to compare', async () => {
  const table = join(dir, 'compare-timeline.txt');
  writeFileSync(table, LAB_STABLE);
  const error = ((await run(['incident', '--from', table, '--compare'])).code as { error?: Error }).error;
  assert.equal(error?.name, 'UsageError');
  assert.match(error.message, /a stable table has none/);
});

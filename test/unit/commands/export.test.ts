// export through the EventSource port: every version a source holds goes out, one log record each,
// observed when the input observed it. The versions are sent over loopback HTTP to a sink that only
// keeps the request bodies; agreement with a real OpenTelemetry Collector is test/integration/otlp.test.ts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runCli } from '../../../src/cli.ts';
import { EXIT, RuntimeError, UsageError } from '../../../src/errors.ts';
import { fleetSource } from '../../../src/core/fleet.ts';
import type { EventSource } from '../../../src/core/source.ts';
import { parseOtlpLines } from '../../../src/otlp/collector-file.ts';
import { parseStableTable } from '../../../src/core/stable-table.ts';
import { ev, LAB_STABLE, NOW } from '../../support/builders.ts';
import { fakeDeps } from '../../support/deps.ts';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { systemSources } from '../../../src/system.ts';
import { formatHeader, formatObservation } from '../../../src/io/record-line.ts';
import { scratchDir } from '../../support/tmp.ts';
import { fromCluster, fromRecord, fromStableTable, memorySource, openSources } from '../../support/sources.ts';

const bodies: string[] = [];
const sink = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    bodies.push(Buffer.concat(chunks).toString('utf8'));
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
let url = '';
before(async () => {
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(sink.address() as AddressInfo).port}/v1/logs`;
});
after(() => sink.close());

async function run(argv: string[], sources: ReturnType<typeof openSources>) {
  bodies.length = 0;
  const fake = fakeDeps({ openSource: sources.open });
  const code = await runCli(argv, fake.deps).catch((error: unknown) => error);
  // The sink's bodies, read back as a collector's file exporter would have written them.
  const sent = bodies.length === 0 ? null : parseOtlpLines(bodies.join('\n'));
  return { code, stderr: fake.stderr(), sent };
}

/** Two versions of one event (its count went 1 -> 2), as a recorder observed them. */
function twoVersions() {
  const first = ev({ name: 'pull', uid: 'aaaaaaaa-0000-0000-0000-000000000001', count: 1 });
  const second = structuredClone(first) as Record<string, unknown> & { metadata: { resourceVersion: string } };
  second.count = 2;
  second.metadata.resourceVersion = String(Number(first.metadata && (first.metadata as { resourceVersion: string }).resourceVersion) + 5);
  return { first, second };
}

describe('export reads every version through the port', () => {
  test('a record sends each observed version, observed when the recorder saw it', async () => {
    const { first, second } = twoVersions();
    const other = ev({ name: 'other', namespace: 'elsewhere' });
    const saved = memorySource({
      provenance: fromRecord({ namespace: null }),
      raw: [second, other],
      versions: [
        { event: first, observedAt: NOW - 120_000 },
        { event: second, observedAt: NOW - 60_000 },
        // the same version observed again (a re-list) goes out once
        { event: second, observedAt: NOW - 30_000 },
        { event: other, observedAt: NOW - 10_000 },
      ],
    });
    const sources = openSources({ saved });
    const r = await run(['export', '--from', 'rec.jsonl', '-A', '--otlp', url, '--otlp-json'], sources);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(sources.requests, [{ kind: 'file', path: 'rec.jsonl', namespace: null }]);
    assert.deepEqual(
      r.sent?.versions.map((v) => [v.event.count, v.observedAt]),
      [
        [1, NOW - 120_000],
        [2, NOW - 60_000],
        [undefined, NOW - 10_000],
      ].map(([count, at]) => [count ?? (other.count as number), at]),
    );
  });

  test('--since counts back from a saved input\'s last observation, not from now', async () => {
    const old = ev({ name: 'old', first: 7200, last: 7200 });
    const saved = memorySource({ provenance: fromRecord(), raw: [old], versions: [{ event: old, observedAt: NOW - 7_000_000 }] });
    const r = await run(['export', '--from', 'rec.jsonl', '--since', '1h', '--otlp', url, '--otlp-json'], openSources({ saved }));
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.sent?.versions.length, 1);
  });

  test('the live cluster sends its one version each, observed now', async () => {
    const live = memorySource({ provenance: fromCluster(), raw: [ev({ name: 'a' }), ev({ name: 'b' })] });
    const r = await run(['export', '-n', 'op-events', '--otlp', url, '--otlp-json'], openSources({ live }));
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.sent?.versions.map((v) => [v.event.metadata && (v.event.metadata as { name: string }).name, v.observedAt]), [
      ['a', NOW],
      ['b', NOW],
    ]);
  });

  test('several contexts, one down and one not in the kubeconfig: the answering one is sent, one line each for the others, exit 4', async () => {
    const east = memorySource({ provenance: fromCluster({ context: 'east', server: 'https://east.example' }), raw: [ev({ name: 'a' }), ev({ name: 'b' })] });
    const west: EventSource = {
      ...memorySource({ provenance: fromCluster({ context: 'west', server: 'https://west.example' }), raw: [ev({ name: 'c' })] }),
      versions: async () => {
        throw new RuntimeError('cannot reach the API server at https://west.example (context "west"): ECONNREFUSED');
      },
    };
    const live = fleetSource([
      { context: 'east', server: 'https://east.example', namespace: 'op-events', source: east },
      { context: 'west', server: 'https://west.example', namespace: 'op-events', source: west },
      { context: 'gone\u001b[31m', server: '', namespace: null, unopened: new UsageError('context "gone" does not exist in the kubeconfig') },
    ]);
    const r = await run(['export', '--context', 'east,west,gone', '--otlp', url, '--otlp-json'], openSources({ live }));
    assert.equal(r.code, EXIT.partial, r.stderr);
    assert.deepEqual(r.stderr.split('\n').filter((l) => l.startsWith('warning:')), [
      'warning: context "west" (https://west.example) did not answer, its events are not sent: cannot reach the API server at https://west.example (context "west"): ECONNREFUSED',
      'warning: context "gone^[[31m" did not answer, its events are not sent: context "gone" does not exist in the kubeconfig',
    ]);
    assert.deepEqual(r.sent?.versions.map((v) => (v.event.metadata as { name: string }).name), ['a', 'b']);
    const clusters = bodies.flatMap((b) => (JSON.parse(b) as { resourceLogs: { resource: { attributes: { key: string; value: { stringValue: string } }[] } }[] }).resourceLogs.map((rl) => rl.resource.attributes.find((a) => a.key === 'k8s.cluster.name')?.value.stringValue));
    assert.deepEqual([...new Set(clusters)], ['east']);
    // None answering: the first one's error, nothing sent.
    const none = await run(['export', '--context', 'west,gone', '--otlp', url], openSources({ live: fleetSource([{ context: 'west', server: 'https://west.example', namespace: 'op-events', source: west }]) }));
    assert.ok(none.code instanceof RuntimeError);
    assert.equal(none.sent, null);
  });

  test('nothing in scope: says so, sends nothing', async () => {
    const live = memorySource({ provenance: fromCluster({ namespace: 'quiet' }), raw: [] });
    const r = await run(['export', '-n', 'quiet', '--otlp', url], openSources({ live }));
    assert.equal(r.code, 0);
    assert.equal(r.sent, null);
    assert.match(r.stderr, /No events found in quiet namespace/);
  });

  test('a stable table holds no events to export', async () => {
    const saved = memorySource({ provenance: fromStableTable(), events: parseStableTable(LAB_STABLE) });
    const r = await run(['export', '--from', 'timeline.txt', '--otlp', url], openSources({ saved }));
    assert.ok(r.code instanceof UsageError);
    assert.equal((r.code as Error).message, '--from timeline.txt: a stable table holds no events to export (use a capture, list or record)');
    assert.equal(r.sent, null);
  });
});

describe('the file adapters hand back every version', () => {
  const dir = scratchDir('export-port');
  const header = (namespace: string) =>
    formatHeader({ kind: 'EvtimelineRecord', version: 1, context: 'lab', server: 'https://127.0.0.1:6443', namespace, filter: {}, startedAt: NOW - 300_000 } as never);
  const { first, second } = twoVersions();
  const elsewhere = ev({ name: 'elsewhere', namespace: 'other' });
  const text = [
    header('op-events'),
    formatObservation({ observedAt: NOW - 200_000, type: 'ADDED', event: first }),
    formatObservation({ observedAt: NOW - 100_000, type: 'MODIFIED', event: second }),
    formatObservation({ observedAt: NOW - 50_000, type: 'ADDED', event: elsewhere }),
    formatObservation({ observedAt: NOW - 10_000, type: 'DELETED', event: second }),
    '',
  ].join('\n');
  const expected = [
    [1, NOW - 200_000],
    [2, NOW - 100_000],
  ];

  for (const [how, path] of [
    ['a record file, streamed', 'rec.jsonl'],
    ['a record on stdin, read whole', '-'],
  ] as const) {
    test(`${how}: every observation in scope but the DELETED lines`, async () => {
      const file = path === '-' ? path : join(dir, path);
      if (path !== '-') await writeFile(file, text);
      const open = systemSources({ env: {}, stdin: Readable.from([text]), stderr: { write: () => {} } });
      const source = await open({ kind: 'file', path: file, namespace: 'op-events' });
      const versions = await source.versions();
      assert.deepEqual(versions?.map((v) => [v.event.count, v.observedAt]), expected);
      if (path === '-') return; // stdin is read once
      const all = await (await open({ kind: 'file', path: file, namespace: null })).versions();
      assert.equal(all?.length, 3, 'without -n the other namespace is kept');
    });
  }

  test('a stable table: none', async () => {
    const file = join(dir, 'timeline.txt');
    await writeFile(file, LAB_STABLE);
    const open = systemSources({ env: {}, stdin: Readable.from([]), stderr: { write: () => {} } });
    assert.equal(await (await open({ kind: 'file', path: file, namespace: null })).versions(), null);
  });
});

// OTLP's timeUnixNano is a fixed64 of nanoseconds: it ends at 2554-07-21T23:34:33.709551615Z. Anyone
// who may create events can date one 3000-01-01 (the API server accepts it).
describe('times OTLP cannot hold (issue 28, L2)', () => {
  for (const [encoding, flags] of [
    ['protobuf', []],
    ['JSON', ['--otlp-json']],
  ] as const) {
    for (const far of ['3000-01-01T00:00:00Z', '2554-07-21T23:34:34Z', '9999-12-31T23:59:59Z', '1969-12-31T23:59:59Z']) {
      test(`${encoding}: an event dated ${far} goes out with timeUnixNano 0 (unknown), its own time in our attributes, with one line; the rest of its batch as usual`, async () => {
        const farEvent = ev({ name: 'far', reason: 'Far' });
        farEvent.lastTimestamp = far;
        farEvent.firstTimestamp = far;
        const near = ev({ name: 'near', reason: 'Near', first: 60 });
        const saved = memorySource({ provenance: fromRecord({ namespace: null }), raw: [near, farEvent], versions: [{ event: near, observedAt: NOW }, { event: farEvent, observedAt: NOW }] });
        bodies.length = 0;
        const fake = fakeDeps({ openSource: openSources({ saved }).open });
        const code = await runCli(['export', '--from', 'rec.jsonl', '-A', '--otlp', url, ...flags], fake.deps);
        assert.equal(code, 0, fake.stderr());
        assert.equal(bodies.length, 1, 'one request: the batch is not split or refused');
        const notices = fake.stderr().split('\n').filter((l) => l.includes('timeUnixNano'));
        assert.deepEqual(notices, [
          'export: 1 event version is dated outside what OTLP\'s timeUnixNano can hold (1970-01-01T00:00:00Z to 2554-07-21T23:34:33Z): it goes out with timeUnixNano 0 (unknown), its own times in the evtimeline.event.* attributes',
        ]);
        if (encoding === 'JSON') {
          const records = (JSON.parse(bodies[0] ?? '{}') as { resourceLogs: { scopeLogs: { logRecords: { timeUnixNano: string; body: { stringValue: string } }[] }[] }[] }).resourceLogs.flatMap((r) => r.scopeLogs.flatMap((s) => s.logRecords));
          assert.deepEqual(records.map((r) => r.timeUnixNano), [String(BigInt(NOW - 60_000) * 1_000_000n), '0']);
          // Read back, the event keeps its own time.
          const back = parseOtlpLines(bodies[0] ?? '');
          assert.deepEqual(back?.versions.map((v) => v.event.lastTimestamp), [new Date(NOW - 60_000).toISOString().replace('.000Z', 'Z'), far]);
        }
      });
    }
  }
});

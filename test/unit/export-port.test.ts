// export through the EventSource port: every version a source holds goes out, one log record each,
// observed when the input observed it. The versions are sent over loopback HTTP to a sink that only
// keeps the request bodies; agreement with a real OpenTelemetry Collector is test/integration/otlp.test.ts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runCli } from '../../src/cli.ts';
import { UsageError } from '../../src/errors.ts';
import { parseOtlpLines } from '../../src/otlp/collector-file.ts';
import { parseStableTable } from '../../src/core/stable-table.ts';
import { ev, LAB_STABLE, NOW } from '../support/builders.ts';
import { fakeDeps } from '../support/deps.ts';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { systemSources } from '../../src/system.ts';
import { formatHeader, formatObservation } from '../../src/io/record-file.ts';
import { scratchDir } from '../support/tmp.ts';
import { fromCluster, fromRecord, fromStableTable, memorySource, openSources } from '../support/sources.ts';

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

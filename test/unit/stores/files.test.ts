// --from the files other log stores write out, sniffed from their content, through the same CLI
// and file source as every saved input (fixtures: test/fixtures/stores, each citing its writer).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli } from '../../../src/cli.ts';
import { UsageError } from '../../../src/errors.ts';
import { parseAlloyLogfmt, unquoteGo } from '../../../src/stores/alloy-line.ts';
import { parseStoreDocument, parseStoreLines } from '../../../src/stores/files.ts';
import { fakeDeps } from '../../support/deps.ts';
import { NOW } from '../../support/builders.ts';
import { scratchDir } from '../../support/tmp.ts';
import { CLOUD_LOGGING_EXPORT } from '../../fixtures/stores/cloud-logging.ts';
import { SEARCH_RESPONSE } from '../../fixtures/stores/elasticsearch.ts';
import { ALLOY_LOGFMT_LINES, LOGCLI_JSONL, QUERY_RANGE } from '../../fixtures/stores/loki.ts';

type Json = Record<string, any>;
const scratch = scratchDir('store-files');

async function run(name: string, text: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const file = join(scratch, name);
  await writeFile(file, text);
  const fake = fakeDeps({ now: NOW });
  const code = await runCli(['--from', file, ...args], fake.deps);
  return { code, stdout: fake.stdout(), stderr: fake.stderr() };
}

async function events(name: string, text: string, args: string[] = []): Promise<{ list: Json[]; stderr: string }> {
  const r = await run(name, text, ['-A', '-o', 'json', ...args]);
  assert.equal(r.code, 0, r.stderr);
  return { list: JSON.parse(r.stdout) as Json[], stderr: r.stderr };
}

describe('a Cloud Logging export (gcloud logging read --format=json) of GKE\'s event exporter', () => {
  test('one event per uid: count and times rebuilt from its entries, the latest payload kept', async () => {
    const { list, stderr } = await events('gcloud.json', CLOUD_LOGGING_EXPORT);
    const backOff = list.find((e) => e.reason === 'BackOff');
    assert.equal(list.length, 2);
    assert.equal(backOff?.count, 3);
    assert.equal(backOff?.firstSeen, '2026-11-24T09:00:00.000Z');
    assert.equal(backOff?.lastSeen, '2026-11-24T09:07:00.000Z');
    assert.equal(backOff?.message, 'Back-off restarting failed container web in pod web-7d4b9');
    assert.equal(backOff?.uid, 'b1f0c7d2-0001');
    assert.equal(list.find((e) => e.reason === 'Scheduled')?.reporter, 'default-scheduler');
    assert.match(stderr, /gcloud\.json: written by GKE's event exporter, which did not keep count and firstTimestamp \(rebuilt: one entry per occurrence\)\n/);
  });
  test('the same entries one a line (a log sink\'s files in Cloud Storage) read as the array does', async () => {
    const lines = (JSON.parse(CLOUD_LOGGING_EXPORT) as Json[]).map((e) => JSON.stringify(e)).join('\n');
    const asLines = await events('sink.jsonl', `${lines}\n`);
    assert.deepEqual(asLines.list, (await events('gcloud-again.json', CLOUD_LOGGING_EXPORT)).list);
    assert.match(asLines.stderr, /written by GKE's event exporter/);
  });
  test("the exporter's own warnings (textPayload) in the same log are skipped, its events read", async () => {
    const entries = JSON.parse(CLOUD_LOGGING_EXPORT) as Json[];
    const warning = { insertId: 'w', logName: entries[0]?.logName, textPayload: 'Failed to encode event', severity: 'WARNING', timestamp: '2026-11-24T09:03:00Z' };
    const { list, stderr } = await events('with-text.json', JSON.stringify([...entries, warning]));
    assert.equal(list.length, 2);
    assert.match(stderr, /skipped 1 line not about a Kubernetes event/);
  });
  test("an entry stamped with Go's zero time (the exporter's Timestamp is lastTimestamp, zero for an event with only eventTime) is timed by its eventTime, not year 1", async () => {
    const [first] = JSON.parse(CLOUD_LOGGING_EXPORT) as Json[];
    const payload = { ...first?.jsonPayload, eventTime: '2026-11-24T09:05:00.123456Z', metadata: { ...first?.jsonPayload.metadata, uid: 'only-event-time', creationTimestamp: undefined } };
    const { list } = await events('zero.json', JSON.stringify([{ ...first, timestamp: '0001-01-01T00:00:00Z', jsonPayload: payload }]));
    assert.deepEqual([list[0]?.firstSeen, list[0]?.lastSeen], ['2026-11-24T09:05:00.123Z', '2026-11-24T09:05:00.123Z']);
  });
  test('incident names the store', async () => {
    const r = await run('gcloud-incident.json', CLOUD_LOGGING_EXPORT, ['incident', '-n', 'shop']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Incident in namespace shop, read from a Cloud Logging export/);
  });
});

describe('an Elasticsearch/OpenSearch _search response of kubernetes-event-exporter', () => {
  test('hits\' _source are events; two versions of one uid are one event, the newer', async () => {
    const { list, stderr } = await events('search.json', SEARCH_RESPONSE);
    assert.equal(list.length, 1);
    assert.deepEqual([list[0]?.count, list[0]?.resourceVersion, list[0]?.lastSeen], [6, '930', '2026-11-24T10:04:00.000Z']);
    assert.match(stderr, /search\.json: skipped 1 line not about a Kubernetes event\n/);
  });
});

describe('Loki: logcli jsonl and a query_range answer', () => {
  test('Alloy\'s logfmt: a run of counts is one event first seen when it began; a count starting again is a new one', async () => {
    const { list, stderr } = await events('logcli.jsonl', LOGCLI_JSONL);
    const backOffs = list.filter((e) => e.reason === 'BackOff');
    assert.equal(backOffs.length, 2);
    const first = backOffs.find((e) => e.count === 5);
    assert.deepEqual([first?.firstSeen, first?.lastSeen, first?.resourceVersion, first?.namespace], ['2026-11-24T11:00:00.000Z', '2026-11-24T11:02:00.000Z', '9010', 'payments']);
    assert.equal(first?.message, 'Back-off restarting failed container pay in pod pay-7f9_payments("x")');
    assert.equal(backOffs.find((e) => e.count === 1)?.message, 'Back-off again \u00e9\t\u001b[31m');
    const scheduled = list.find((e) => e.reason === 'Scheduled');
    assert.deepEqual([scheduled?.action, scheduled?.reporter, scheduled?.instance, scheduled?.uid], ['Binding', 'default-scheduler', 'default-scheduler-node-a', '']);
    assert.match(stderr, /logcli\.jsonl: written by Grafana Alloy \(logfmt\), which did not keep uid, event name, series, eventTime, firstTimestamp [^\n]*; repeats joined by object, reason and first timestamp\n/);
  });
  test('a hostile message from a store is escaped on the terminal', async () => {
    const r = await run('logcli-table.jsonl', LOGCLI_JSONL, ['-A', '-o', 'wide']);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!r.stdout.includes('\u001b'));
  });
  test('query_range: Alloy\'s json lines joined by count, the exporter\'s Event JSON by uid, anything else skipped', async () => {
    const { list, stderr } = await events('range.json', QUERY_RANGE);
    assert.equal(list.length, 2);
    assert.equal(list.find((e) => e.reason === 'BackOff')?.count, 7);
    assert.equal(list.find((e) => e.reason === 'SuccessfulCreate')?.uid, 'loki-uid-1');
    assert.match(stderr, /written by Grafana Alloy \(json\) and kubernetes-event-exporter's Loki sink, which did not keep uid/);
    assert.match(stderr, /skipped 1 line not about a Kubernetes event/);
  });
  test('a metric query\'s answer (resultType matrix or vector) is refused in one line that says what it is (exit 2)', async () => {
    for (const resultType of ['matrix', 'vector']) {
      const answer = JSON.stringify({ status: 'success', data: { resultType, result: [{ metric: { namespace: 'payments' }, values: [[1764000000, '3']] }] } });
      await assert.rejects(run(`metric-${resultType}.json`, answer, ['-A']), (error: Error) => {
        assert.ok(error instanceof UsageError);
        assert.match(error.message, new RegExp(`^--from \\S+metric-${resultType}\\.json: a Loki answer of resultType "${resultType}" \\(a metric query: numbers, not log lines\\); save a log query's answer \\(resultType "streams"\\)$`));
        return true;
      });
    }
  });
  test('lines of a run within one millisecond, newest first as Loki answers (direction=backward): ordered to the nanosecond, one event', async () => {
    const line = (count: number) => `name=pay-7f9 kind=Pod reason=BackOff type=Warning count=${count} msg="Back-off" `;
    const values = [
      ['1764000000123000900', line(3)],
      ['1764000000123000500', line(2)],
      ['1764000000123000100', line(1)],
    ];
    const answer = JSON.stringify({ status: 'success', data: { resultType: 'streams', result: [{ stream: { namespace: 'payments' }, values }] } });
    const { list } = await events('same-ms.json', answer);
    assert.deepEqual(
      list.map((e) => [e.count, e.firstSeen, e.lastSeen]),
      [[3, '2025-11-24T16:00:00.123Z', '2025-11-24T16:00:00.123Z']],
    );
    // logcli's jsonl says the same times in RFC 3339 with nanoseconds, in the zone of the machine it ran on.
    const jsonl = values.map(([ns, l]) => JSON.stringify({ labels: { namespace: 'payments' }, line: l, timestamp: `2025-11-24T17:00:00.123${(ns as string).slice(-6)}+01:00` })).join('\n');
    assert.deepEqual((await events('same-ms.jsonl', jsonl)).list.map((e) => e.count), [3]);
  });
  test('-n narrows to the stream\'s namespace', async () => {
    const other = await run('range-n.json', QUERY_RANGE, ['-n', 'other', '-o', 'json']);
    assert.deepEqual(JSON.parse(other.stdout), []);
    const payments = await run('range-p.json', QUERY_RANGE, ['-n', 'payments', '-o', 'json']);
    assert.equal((JSON.parse(payments.stdout) as Json[]).length, 2);
  });
});

describe('what is not another store\'s output is left to the other readers', () => {
  const cases: [string, unknown][] = [
    ['a plain event list', { kind: 'EventList', items: [] }],
    ['an empty array', []],
    ['a search response of nothing', { hits: { hits: [] } }],
  ];
  test('an event list is not sniffed as a store', () => {
    assert.equal(parseStoreDocument(cases[0]?.[1], 'doc'), null);
    assert.equal(parseStoreDocument(cases[1]?.[1], 'doc'), null);
    assert.deepEqual((parseStoreDocument(cases[2]?.[1], 'doc') as Json)?.raw.core, []);
    assert.equal(parseStoreLines('{"kind":"EvtimelineRecord"}\n'), null);
  });
});

describe("Alloy's logfmt, exactly as its writer spells it", () => {
  test('a %s value with spaces runs to the next key', () => {
    assert.deepEqual(parseAlloyLogfmt('name=a b kind=Pod reason=X msg="m" '), { name: 'a b', kind: 'Pod', reason: 'X', msg: 'm' });
  });
  test('a %s value holding ` msg=` or `="` (a reason or host may say anything): the last ` msg="` is the message', () => {
    assert.deepEqual(parseAlloyLogfmt('name=a kind=Pod sourcehost=h msg="x" reason=Odd msg=1 a="b type=Normal msg="real \\" msg=\\"" '), {
      name: 'a',
      kind: 'Pod',
      sourcehost: 'h msg="x"',
      reason: 'Odd msg=1 a="b',
      type: 'Normal',
      msg: 'real " msg="',
    });
  });
  test('not Alloy: refused', () => {
    for (const line of ['level=info msg="x"', 'name=a msg=unquoted ', 'name=a kind=Pod', 'name=a msg="x" trailing']) assert.equal(parseAlloyLogfmt(line), null, line);
  });
  test('Go quoting: escapes, \\x bytes, \\u runes', () => {
    assert.equal(unquoteGo('"a\\"b\\\\c\\n\\t\\x41\\u00e9\\U0001F600"', 0)?.value, 'a"b\\c\n\tAé😀');
    assert.equal(unquoteGo('"unterminated', 0), null);
    assert.equal(unquoteGo('"\\q"', 0), null);
  });
  test('ALLOY_LOGFMT_LINES each parse', () => {
    for (const line of ALLOY_LOGFMT_LINES) assert.ok(parseAlloyLogfmt(line), line);
  });
});

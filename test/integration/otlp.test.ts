// export --otlp and record --otlp against a real OpenTelemetry Collector (test/otelcol: the OTLP
// receiver and the contrib file exporter, built from Go modules; test/harness/otelcol.ts) and the
// real control plane, with the built single executable. What the collector's file exporter wrote
// is read back with --from and compared with the live cluster: the same stable table and counts.
// The collector is stopped in the middle of an export and started again (nothing lost, nothing
// twice); a recorder shipping while events arrive is killed with SIGKILL and resumed. TLS with a
// CA of the test's own, and headers and retryable answers through a proxy in front of the
// collector (a proxy is allowed to misbehave; the collector itself is the real one).

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { join } from 'node:path';
import { sharedControlPlane } from '../harness/controlplane.ts';
import type { ControlPlane } from '../harness/controlplane.ts';
import { playLab } from '../harness/lab.ts';
import { labEventsAfterHungry } from '../harness/lab-shared.ts';
import { freshNamespace } from '../harness/namespace.ts';
import { ensureOtelcol } from '../harness/build-otelcol.mjs';
import { startCollector } from '../harness/otelcol.ts';
import type { Collector } from '../harness/otelcol.ts';
import { PLUGIN_BINARY, evtimeline } from '../harness/plugin.ts';
import { spawnCollecting } from '../harness/spawned.ts';
import type { Spawned } from '../harness/spawned.ts';
import { scratchDir } from '../support/tmp.ts';
import { api, sleep, waitFor } from '../support/cluster-api.ts';
import { parseOtlpLines } from '../../src/otlp/collector-file.ts';
import { parseRecordText } from '../../src/io/record-replay.ts';
import { planEvents, subjectsIn } from '../../scripts/bench-events.ts';
import { eachLimited } from '../../src/core/bounded.ts';

type Json = Record<string, any>;

const shared = sharedControlPlane();
const scratch = scratchDir('otlp-it');
const collectors: Collector[] = [];
// Both collectors are built (once per pin set: about ten minutes of wall on a cold Go cache and a
// loaded 2-core machine) before any test's own timeout starts counting.
before(async () => {
  if (!process.env.EVTIMELINE_TEST_OTELCOL_BINARY) await ensureOtelcol();
  await ensureOtelcol('otelcol-k8s');
});
const children = new Set<ChildProcessWithoutNullStreams>();
after(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await Promise.all(collectors.map((c) => c.close()));
});

/** The packaged plugin run in the background; killed after the file if a test leaves it running. */
function plugin(cp: ControlPlane, args: string[]): Spawned {
  const run = spawnCollecting(PLUGIN_BINARY, args, { env: { ...process.env, KUBECONFIG: cp.kubeconfig } });
  children.add(run.child);
  return run;
}

async function collector(opts: Parameters<typeof startCollector>[0] = {}): Promise<Collector> {
  const c = await startCollector(opts);
  collectors.push(c);
  return c;
}

/** N events in `ns` as a busy namespace holds them (scripts/bench-events.ts), 32 POSTs at a time. */
async function populate(cp: ControlPlane, ns: string, n: number): Promise<void> {
  const subjects = subjectsIn(ns, 40, '0b5e7a11-0000-4000-8000-00000000ffff', 0);
  await eachLimited(planEvents(n, subjects, Date.now()), 32, async (p) => {
    await api(cp, 'POST', p.path, p.body);
  });
}

/** `kubectl evtimeline` with the built executable; asserts it exited 0 unless told otherwise. */
async function run(cp: ControlPlane, args: string[], expectCode = 0) {
  const result = await evtimeline(args, cp.kubeconfig);
  assert.equal(result.code, expectCode, `evtimeline ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return result;
}

/** What a user compares: every field of the timeline's JSON the cluster and the file both state (the live read adds incarnations). */
function comparable(jsonText: string): Json[] {
  return (JSON.parse(jsonText) as Json[]).map(({ incarnation: _i, onServer: _o, ...rest }) => rest);
}

const versionKey = (event: Json): string => `${event.metadata?.uid}@${event.metadata?.resourceVersion}`;

/** A log record as the collector's file holds it: attribute values as their OTLP JSON, for comparing. */
interface StoredRecord {
  resource: Record<string, string>;
  attributes: Record<string, string>;
  body: string;
  time: string;
  severity: string;
}

/** Every log record in a collector's file, grouped by k8s.event.uid, in file order. */
function recordsByEventUid(text: string): Map<string, StoredRecord[]> {
  const plain = (kvs: Json[] | undefined) => Object.fromEntries((kvs ?? []).map((kv) => [kv.key, JSON.stringify(kv.value)]));
  const byUid = new Map<string, StoredRecord[]>();
  for (const line of text.split('\n').filter((l) => l.trim() !== '')) {
    for (const rl of (JSON.parse(line) as Json).resourceLogs ?? []) {
      for (const sl of rl.scopeLogs ?? []) {
        for (const lr of sl.logRecords ?? []) {
          const record = {
            resource: plain(rl.resource?.attributes),
            attributes: plain(lr.attributes),
            body: JSON.stringify(lr.body),
            time: String(lr.timeUnixNano),
            severity: `${lr.severityNumber ?? 0} ${lr.severityText ?? ''}`,
          };
          const uid = JSON.parse(record.attributes['k8s.event.uid'] ?? '{}').stringValue as string;
          byUid.set(uid, [...(byUid.get(uid) ?? []), record]);
        }
      }
    }
  }
  return byUid;
}

/** Log records per event version (uid@resourceVersion) in the collector's file. */
function versionCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const v of parseOtlpLines(text)?.versions ?? []) {
    const key = versionKey(v.event);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

describe('export --otlp to a real collector, read back with --from', () => {
  test('the lab: the same stable table, events and counts as the live cluster (OTLP JSON)', { timeout: 240_000 }, async () => {
    const cp = await shared;
    const ns = await freshNamespace(cp.kubeconfig, 'otlp-lab');
    await playLab({ kubeconfig: cp.kubeconfig, namespace: ns, outDir: join(scratch, 'lab') });
    // 4 events alone on the cluster, more beside other files (a FailedScheduling per retry): see lab-shared.ts.
    const events = await labEventsAfterHungry(cp, ns);
    const col = await collector();
    const exported = await run(cp, ['export', '-n', ns, '--otlp', col.url, '--otlp-json']);
    assert.match(exported.stderr, new RegExp(`^exported ${events.length} log records to http://127\\.0\\.0\\.1:\\d+/v1/logs in [\\d.]+ s \\(\\d+/s, 1 request\\)\n$`));
    await col.stop();
    const file = join(scratch, 'lab-collector.jsonl');
    await writeFile(file, await col.readOutput());

    const liveStable = (await run(cp, ['-n', ns, '-o', 'stable'])).stdout;
    assert.equal((await run(cp, ['--from', file, '-o', 'stable'])).stdout, liveStable);
    assert.match(liveStable, /^Critical StageUnknown Pipeline\/build-1$/m);
    assert.deepEqual(comparable((await run(cp, ['--from', file, '-o', 'json'])).stdout), comparable((await run(cp, ['-n', ns, '-o', 'json'])).stdout));
    // The unconventional type has the severity the receiver's newer releases give Critical (FATAL)
    // with its name as severity text, and its raw type is kept.
    const text = await readFile(file, 'utf8');
    assert.match(text, /"severityNumber":21,"severityText":"Critical"/);
    assert.match(text, /\{"key":"evtimeline\.event\.type","value":\{"stringValue":"Critical"\}\}/);
    assert.match(text, /\{"key":"k8s\.event\.count","value":\{"intValue":"5"\}\}/);
  });

  describe('a namespace of 5,000 events', () => {
    let cp: ControlPlane;
    let ns = '';
    before(async () => {
      cp = await shared;
      ns = await freshNamespace(cp.kubeconfig, 'otlp-5000');
      await populate(cp, ns, 5000);
    });

    test('exported as protobuf in batches, each version once; --from the file shows what the cluster shows', { timeout: 300_000 }, async () => {
      const col = await collector();
      const exported = await run(cp, ['export', '-n', ns, '--otlp', col.url]);
      assert.match(exported.stderr, /^exported 5000 log records to .* \(\d+\/s, 5 requests\)\n$/);
      await col.stop();
      const file = join(scratch, 'ns5000-collector.jsonl');
      const text = await col.readOutput();
      await writeFile(file, text);
      const counts = versionCounts(text);
      assert.equal(counts.size, 5000);
      assert.ok([...counts.values()].every((n) => n === 1));

      assert.equal((await run(cp, ['--from', file, '-o', 'stable'])).stdout, (await run(cp, ['-n', ns, '-o', 'stable'])).stdout);
      const fromFile = comparable((await run(cp, ['--from', file, '-o', 'json'])).stdout);
      assert.equal(fromFile.length, 5000);
      assert.deepEqual(fromFile, comparable((await run(cp, ['-n', ns, '-o', 'json'])).stdout));
    });

    test('the collector stopped in the middle of an export and started again: nothing lost, nothing twice', { timeout: 300_000 }, async () => {
      const col = await collector();
      const { exited, err } = plugin(cp, ['export', '-n', ns, '--otlp', col.url, '--otlp-batch', '5']);
      // Stopped (SIGTERM: the collector answers what it has read and flushes its file; a SIGKILL
      // would lose what its file exporter had acknowledged but not flushed, the collector's loss)
      // as soon as it has written something, and started again two seconds later.
      await waitFor('the collector to write the first batches', async () => (await col.readOutput()).length > 0, { everyMs: 10 });
      await col.stop('SIGTERM');
      const before = versionCounts(await col.readOutput()).size;
      await sleep(2000);
      await col.restart();
      assert.equal((await exited).code, 0, err());
      assert.ok(before > 0 && before < 5000, `stopped after ${before} of 5000 versions`);
      assert.match(err(), /retrying in/, 'the exporter had to wait for the collector');
      await col.stop();
      const counts = versionCounts(await col.readOutput());
      assert.equal(counts.size, 5000, 'every version arrived');
      assert.deepEqual([...counts.entries()].filter(([, n]) => n !== 1), [], 'none twice');
    });
  });
});

describe('record --otlp', () => {
  test('ships while events arrive; killed with SIGKILL and resumed, every version arrives, and none the ledger confirmed is sent again', { timeout: 300_000 }, async () => {
    const cp = await shared;
    const ns = await freshNamespace(cp.kubeconfig, 'otlp-record');
    const col = await collector();
    const file = join(scratch, 'shipped.jsonl');
    const ledger = `${file}.otlp.json`;
    const start = (extra: string[] = []) => plugin(cp, ['record', '-n', ns, file, '--otlp', col.url, '--otlp-batch', '25', ...extra]);
    const confirmedBytes = async (): Promise<number> => {
      const text = await readFile(ledger, 'utf8').catch(() => '');
      return text === '' ? 0 : (JSON.parse(text) as Json).endpoints[col.url].bytes;
    };

    const first = start();
    await waitFor('the recorder to start', async () => existsSync(file));
    const subjects = subjectsIn(ns, 10, '0b5e7a11-0000-4000-8000-00000000eeee', 0);
    const planned = planEvents(600, subjects, Date.now());
    let posted = 0;
    // Events arrive steadily (two writers, a pause after each), as from a busy controller.
    const burst = eachLimited(planned, 2, async (p) => {
      await api(cp, 'POST', p.path, p.body);
      posted += 1;
      await sleep(20);
    });
    // Killed while events still arrive, once the ledger says a part was confirmed.
    const confirmedLines = async () => parseRecordText((await readFile(file, 'utf8')).slice(0, await confirmedBytes()))?.observations.length ?? 0;
    await waitFor('the ledger to confirm 100 lines', async () => (await confirmedLines()) >= 100, { everyMs: 5 });
    first.child.kill('SIGKILL');
    const killed = await first.exited;
    assert.equal(killed.signal, 'SIGKILL');
    const confirmedAtKill = await confirmedBytes();
    const recordAtKill = await readFile(file, 'utf8');
    const confirmedKeys = parseRecordText(recordAtKill.slice(0, confirmedAtKill))!.observations.map((o) => versionKey(o.event));
    assert.ok(posted < planned.length, `killed while events arrived (${posted} of ${planned.length} posted)`);

    await burst;
    const second = start(['--duration', '20s']);
    const done = await second.exited;
    assert.equal(done.code, 0, second.err());
    assert.match(second.err(), /shipped \d+ log records to http:\/\/127\.0\.0\.1:\d+\/v1\/logs \(\d+ requests?\)\n/);
    await col.stop();

    const record = parseRecordText(await readFile(file, 'utf8'))!;
    const recorded = new Set(record.observations.filter((o) => o.type !== 'DELETED').map((o) => versionKey(o.event)));
    assert.equal(recorded.size, planned.length, 'the record holds every event');
    const counts = versionCounts(await col.readOutput());
    assert.deepEqual([...recorded].filter((k) => !counts.has(k)), [], 'every recorded version reached the collector');
    assert.deepEqual(confirmedKeys.filter((k) => counts.get(k) !== 1), [], 'what the ledger confirmed before the kill arrived exactly once');
    // Only a batch in flight at the kill (accepted, not yet in the ledger) can arrive twice.
    const twice = [...counts.values()].filter((n) => n > 1).length;
    assert.ok(twice <= 25, `${twice} versions arrived twice: more than one batch`);
    const ledgerAfter = JSON.parse(await readFile(ledger, 'utf8')) as Json;
    assert.equal(ledgerAfter.endpoints[col.url].bytes, Buffer.byteLength(await readFile(file, 'utf8')), 'the ledger covers the whole record');

    // The same record back-filled into another collector by export --from: every version, once.
    const backfill = await collector();
    const exported = await run(cp, ['export', '--from', file, '--otlp', backfill.url]);
    assert.match(exported.stderr, new RegExp(`^exported ${recorded.size} log records `));
    await backfill.stop();
    const backfilled = versionCounts(await backfill.readOutput());
    assert.deepEqual([...backfilled.keys()].sort(), [...recorded].sort());
    assert.ok([...backfilled.values()].every((n) => n === 1));
  });
});

/** A self-signed certificate and its key (openssl), valid for a day. */
async function selfSigned(name: string, extra: string[]): Promise<{ cert: string; key: string }> {
  const key = join(scratch, `${name}-key.pem`);
  const cert = join(scratch, `${name}-cert.pem`);
  await new Promise<void>((resolvePromise, reject) =>
    execFile(
      'openssl',
      ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', `/CN=${name}`, ...extra],
      (error) => (error ? reject(error) : resolvePromise()),
    ),
  );
  return { cert, key };
}

describe('record --otlp while the collector is down', () => {
  test('the record keeps growing and is shipped once the collector is back: every version once, the retries said on stderr', { timeout: 300_000 }, async () => {
    const cp = await shared;
    const ns = await freshNamespace(cp.kubeconfig, 'otlp-down');
    const col = await collector();
    await col.stop('SIGKILL');
    const file = join(scratch, 'down.jsonl');
    const { child, exited, err } = plugin(cp, ['record', '-n', ns, file, '--otlp', col.url, '--otlp-batch', '20']);
    await waitFor('the recorder to start', async () => existsSync(file));
    await populate(cp, ns, 100);
    const observations = async () => parseRecordText(await readFile(file, 'utf8'))?.observations.length ?? 0;
    await waitFor('the record to hold every event', async () => (await observations()) >= 100);
    await waitFor('a failed attempt said on stderr', async () => /connection refused \(nothing listens there\); retrying in/.test(err()));
    // Lines that ship nothing (the record's header, object lines) move the ledger on with an empty
    // batch when nothing is queued before them (src/otlp/record-ship.ts follow): a ledger may exist
    // already if the shipper read the record before its first event, but it confirms no log record.
    const early = existsSync(`${file}.otlp.json`) ? (JSON.parse(await readFile(`${file}.otlp.json`, 'utf8')) as Json).endpoints[col.url] : undefined;
    assert.equal(early?.logRecords ?? 0, 0, `nothing confirmed while the collector is down: ${JSON.stringify(early)}`);

    await col.restart();
    const ledgerCovers = async () => {
      const ledger = JSON.parse(await readFile(`${file}.otlp.json`, 'utf8').catch(() => '{"endpoints":{}}')) as Json;
      return ledger.endpoints[col.url]?.bytes === Buffer.byteLength(await readFile(file, 'utf8'));
    };
    await waitFor('the ledger to cover the whole record', ledgerCovers, { everyMs: 100 });
    child.kill('SIGTERM');
    assert.equal((await exited).code, 0, err());
    assert.match(err(), /shipped 100 log records to http:\/\/127\.0\.0\.1:\d+\/v1\/logs \(\d+ requests?, \d+ retr(y|ies)\)\n/);
    await col.stop();
    const counts = versionCounts(await col.readOutput());
    assert.equal(counts.size, 100);
    assert.ok([...counts.values()].every((n) => n === 1), 'each version once');
  });
});

describe('reaching a real collector: TLS, headers, retryable answers', () => {
  let cp: ControlPlane;
  let ns = '';
  before(async () => {
    cp = await shared;
    ns = await freshNamespace(cp.kubeconfig, 'otlp-tls');
    await populate(cp, ns, 30);
  });

  test('https with --otlp-ca: exported; without it the certificate is refused with one clear line, exit 1', { timeout: 120_000 }, async () => {
    const { cert, key } = await selfSigned('server', ['-addext', 'subjectAltName=IP:127.0.0.1']);
    const col = await collector({ tls: { certFile: cert, keyFile: key } });
    assert.match(col.url, /^https:/);
    const refused = await run(cp, ['export', '-n', ns, '--otlp', col.url], 1);
    // One line of words: no OpenSSL internals, no advice to run node with --use-system-ca.
    assert.match(refused.stderr, /^error: OTLP export to https:\/\/127\.0\.0\.1:\d+\/v1\/logs failed: TLS: certificate signed by unknown authority: give the CA that signed it with --otlp-ca FILE\n$/);
    await run(cp, ['export', '-n', ns, '--otlp', col.url, '--otlp-ca', cert]);
    await col.stop();
    assert.equal(versionCounts(await col.readOutput()).size, 30);
  });

  test('mutual TLS: a collector asking for a client certificate takes --otlp-client-cert/--otlp-client-key; without them one clear line, exit 1', { timeout: 180_000 }, async () => {
    const server = await selfSigned('server-mtls', ['-addext', 'subjectAltName=IP:127.0.0.1']);
    const client = await selfSigned('client', []);
    const col = await collector({ tls: { certFile: server.cert, keyFile: server.key, clientCaFile: client.cert } });
    const refused = await run(cp, ['export', '-n', ns, '--otlp', col.url, '--otlp-ca', server.cert], 1);
    assert.match(refused.stderr, /^error: OTLP export to https:\/\/127\.0\.0\.1:\d+\/v1\/logs failed: TLS: .*\n$/);
    const other = await selfSigned('stranger', []);
    const strange = await run(cp, ['export', '-n', ns, '--otlp', col.url, '--otlp-ca', server.cert, '--otlp-client-cert', other.cert, '--otlp-client-key', other.key], 1);
    assert.match(strange.stderr, /^error: OTLP export to .* failed: TLS: .*\n$/, 'a certificate the collector does not trust');
    for (const said of [refused.stderr, strange.stderr]) assert.doesNotMatch(said, /deps\/openssl|error:[0-9A-F]{8}|use-system-ca/);
    await run(cp, ['export', '-n', ns, '--otlp', col.url, '--otlp-ca', server.cert, '--otlp-client-cert', client.cert, '--otlp-client-key', client.key]);
    await col.stop();
    assert.equal(versionCounts(await col.readOutput()).size, 30);
  });

  test('headers reach the endpoint; 503 and 429 with Retry-After are waited out', { timeout: 120_000 }, async () => {
    const col = await collector();
    const target = new URL(col.url);
    const seen: { status: number; auth: string | undefined; tenant: string | undefined }[] = [];
    const answers = [503, 429];
    // A proxy that answers the first two requests itself (503, then 429 with Retry-After: 1), then forwards.
    const proxy = http.createServer((req, res) => {
      const status = answers.shift();
      seen.push({ status: status ?? 200, auth: req.headers.authorization, tenant: req.headers['x-scope-orgid'] as string | undefined });
      if (status !== undefined) {
        req.resume();
        res.writeHead(status, status === 429 ? { 'Retry-After': '1' } : {}).end('busy\n');
        return;
      }
      const upstream = http.request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      req.pipe(upstream);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
    try {
      const port = (proxy.address() as { port: number }).port;
      const result = await run(cp, ['export', '-n', ns, '--otlp', `http://127.0.0.1:${port}`, '--otlp-header', 'Authorization=Bearer s3cr=t', '--otlp-header', 'X-Scope-OrgID=team-a']);
      assert.match(result.stderr, /HTTP 503: busy; retrying in 0\.5 s\n/);
      assert.match(result.stderr, /HTTP 429: busy; retrying in 1\.0 s\n/);
      assert.match(result.stderr, /exported 30 log records .*2 retries\)\n$/);
      assert.deepEqual(seen.map((s) => s.status), [503, 429, 200]);
      assert.ok(seen.every((s) => s.auth === 'Bearer s3cr=t' && s.tenant === 'team-a'));
    } finally {
      proxy.close();
    }
    await col.stop();
    assert.equal(versionCounts(await col.readOutput()).size, 30);
  });

  test('a 400 is not retried: one line, exit 1', { timeout: 180_000 }, async () => {
    const col = await collector();
    const bad = await run(cp, ['export', '-n', ns, '--otlp', col.url.replace('/v1/logs', '/v1/traces')], 1);
    assert.match(bad.stderr, /^error: OTLP export to http:\/\/127\.0\.0\.1:\d+\/v1\/traces failed: HTTP 4\d\d/);
  });
});

describe('what the contrib k8s_events and k8sobjects receivers stored (collector v0.111.0), read back', () => {
  test('k8sobjects: the same timeline as the live list; k8s_events: agrees on every field it keeps; our export keeps what it drops', { timeout: 600_000 }, async () => {
    const cp = await shared;
    const ns = await freshNamespace(cp.kubeconfig, 'otlp-receivers');
    const col = await collector({ k8s: { kubeconfig: cp.kubeconfig, namespace: ns } });
    // The k8s_events receiver drops events stamped before its own start, and the lab stamps whole seconds.
    await sleep(1500);
    await playLab({ kubeconfig: cp.kubeconfig, namespace: ns, outDir: join(scratch, 'lab-receivers') });
    // No more scheduling attempts (and so no more series updates) once the pod is gone; beside other
    // files hungry's retries may have made more than one FailedScheduling (harness/lab-shared.ts).
    const settled = await labEventsAfterHungry(cp, ns);
    await run(cp, ['export', '-n', ns, '--otlp', col.url]);

    // The moment both receivers hold every event at its latest version: that list is "live".
    const liveList = await waitFor(
      'the receivers to catch up with the server',
      async () => {
        const list = await api(cp, 'GET', `/api/v1/namespaces/${ns}/events`);
        const objects = parseOtlpLines(await readFile(col.receiverOutputs.k8sObjects, 'utf8').catch(() => ''));
        const events = parseOtlpLines(await readFile(col.receiverOutputs.k8sEvents, 'utf8').catch(() => ''));
        const held = new Set(objects?.versions.map((v) => versionKey(v.event)));
        const counts = new Map(events?.versions.map((v) => [(v.event as Json).metadata?.uid, (v.event as Json).count ?? 0]));
        const caughtUp = (list.items as Json[]).every((e) => held.has(versionKey(e)) && counts.get(e.metadata.uid) === (e.count ?? 0));
        return list.items.length === settled.length && caughtUp ? list : undefined;
      },
      { everyMs: 250 },
    );
    await col.stop();
    const liveFile = join(scratch, 'receivers-live.json');
    await writeFile(liveFile, JSON.stringify(liveList));
    const live = comparable((await run(cp, ['--from', liveFile, '-o', 'json'])).stdout);

    // The same events as events.k8s.io/v1 lists them (regarding, note, deprecated*, series), saved
    // and exported: the log records of the core/v1 list, and what the k8s_events receiver wrote.
    const newList = await api(cp, 'GET', `/apis/events.k8s.io/v1/namespaces/${ns}/events`);
    assert.deepEqual(new Set((newList.items as Json[]).map(versionKey)), new Set((liveList.items as Json[]).map(versionKey)), 'one store: the same versions');
    assert.ok((newList.items as Json[]).every((e) => typeof e.note === 'string' && e.regarding !== undefined && e.message === undefined));
    const newFile = join(scratch, 'receivers-live-events-k8s-io.json');
    await writeFile(newFile, JSON.stringify(newList));
    const both = await collector();
    await run(cp, ['export', '--from', liveFile, '--otlp', both.url]);
    await run(cp, ['export', '--from', newFile, '--otlp', both.url]);
    await both.stop();
    const exported = recordsByEventUid(await readFile(both.output, 'utf8'));
    const received = recordsByEventUid(await readFile(col.receiverOutputs.k8sEvents, 'utf8'));
    const k8sOnly = (attributes: Record<string, string>) => Object.fromEntries(Object.entries(attributes).filter(([k]) => k.startsWith('k8s.')));
    for (const e of liveList.items as Json[]) {
      const name = e.metadata.name as string;
      const [fromCore, fromNew, ...more] = exported.get(e.metadata.uid) ?? [];
      assert.ok(fromCore !== undefined && fromNew !== undefined && more.length === 0, `${name}: one record from each export`);
      assert.deepEqual(fromNew, fromCore, `${name}: both shapes of the event, one log record`);
      assert.equal(fromNew.body, JSON.stringify({ stringValue: e.message }), `${name}: the note is the body`);
      const theirs = received.get(e.metadata.uid)?.at(-1);
      assert.ok(theirs !== undefined, `${name}: the receiver wrote it`);
      assert.deepEqual(fromNew.resource, theirs.resource, `${name}: the receiver's resource (involved object, node)`);
      assert.deepEqual(k8sOnly(fromNew.attributes), theirs.attributes, `${name}: the receiver's attributes`);
      assert.equal(fromNew.body, theirs.body, `${name}: the receiver's body`);
      assert.equal(fromNew.time, theirs.time, `${name}: the receiver's timestamp`);
      if (['Normal', 'Warning'].includes(e.type)) assert.equal(fromNew.severity, theirs.severity, `${name}: the receiver's severity`);
    }

    // k8sobjects stores the objects themselves: everything agrees.
    assert.deepEqual(parseOtlpLines(await readFile(col.receiverOutputs.k8sObjects, 'utf8'))?.writers, ['k8sobjects']);
    assert.deepEqual(comparable((await run(cp, ['--from', col.receiverOutputs.k8sObjects, '-o', 'json'])).stdout), live);

    // k8s_events: the fields it keeps agree; what it drops is missing; our export in the same
    // collector kept all of it.
    assert.deepEqual(parseOtlpLines(await readFile(col.receiverOutputs.k8sEvents, 'utf8'))?.writers, ['k8s_events']);
    const fromReceiver = new Map(comparable((await run(cp, ['--from', col.receiverOutputs.k8sEvents, '-o', 'json'])).stdout).map((e) => [e.uid, e]));
    const rawByUid = new Map((liveList.items as Json[]).map((e) => [e.metadata.uid, e]));
    assert.equal(fromReceiver.size, settled.length);
    for (const want of live) {
      const got = fromReceiver.get(want.uid) as Json;
      const raw = rawByUid.get(want.uid) as Json;
      const kept = (e: Json) => ({ name: e.name, namespace: e.namespace, reason: e.reason, message: e.message, action: e.action, object: e.object });
      assert.deepEqual(kept(got), kept(want), `${want.name}: the fields the receiver keeps`);
      assert.equal(got.type, ['Normal', 'Warning'].includes(want.type) ? want.type : '', `${want.name}: a type it has no severity for is lost`);
      assert.equal(got.count, raw.count > 0 ? raw.count : 1, `${want.name}: count, never series.count`);
      assert.equal(got.reporter, '', `${want.name}: no reporter`);
      // Its one timestamp (eventTime, else lastTimestamp, else firstTimestamp: receiver.go
      // getEventTimestamp) is read as the last seen: the live one unless a series moved it on.
      const stamp = raw.eventTime ?? raw.lastTimestamp ?? raw.firstTimestamp;
      assert.equal(got.lastSeen, new Date(Date.parse(stamp)).toISOString(), `${want.name}: the receiver's timestamp`);
      if (raw.series == null) assert.equal(got.lastSeen, want.lastSeen, `${want.name}: no series, so the same last seen as live`);
      // k8s.event.start_time is the creation, read as the first seen; no instance but the node it names.
      assert.equal(got.firstSeen, new Date(Date.parse(raw.metadata.creationTimestamp)).toISOString(), `${want.name}: first seen is the creation`);
      assert.equal(got.instance, raw.source?.host ?? '', `${want.name}: no reportingInstance`);
      assert.equal(got.resourceVersion, '', `${want.name}: the event's own resourceVersion is not kept`);
    }
    const ours = comparable((await run(cp, ['--from', col.output, '-o', 'json'])).stdout);
    assert.deepEqual(ours, live, 'our export keeps every field, reporters and series included');
    assert.ok(live.some((e) => e.reporter === 'default-scheduler') && live.some((e) => e.type === 'Critical'));
  });
});

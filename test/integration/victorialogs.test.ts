// --from victorialogs+http://... against a real VictoriaLogs (built from the Go module proxy by
// test/harness/build-victorialogs.mjs, v1.52.2; test/harness/victorialogs.ts), single node and a
// cluster of two storage nodes behind one front, with the built single executable: what our
// export shipped is read back as the same timeline, the window goes into the query, a big answer
// is paged by time, a store that is down or loses a storage node mid-read is one line and exit 1
// (or the read is complete), a hostile stored message is escaped, and OTLP JSON is refused in one
// line that says protobuf.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { ensureVictoriaLogs } from '../harness/build-victorialogs.mjs';
import { startVictoriaLogs } from '../harness/victorialogs.ts';
import type { VictoriaLogs } from '../harness/victorialogs.ts';
import { PLUGIN_BINARY } from '../harness/plugin.ts';
import { spawnCollecting } from '../harness/spawned.ts';
import { scratchDir } from '../support/tmp.ts';
import { sharedControlPlane } from '../harness/controlplane.ts';
import { freshNamespace } from '../harness/namespace.ts';
import { playLab } from '../harness/lab.ts';
import { labEventsAfterHungry } from '../harness/lab-shared.ts';
import { ensureOtelcol } from '../harness/build-otelcol.mjs';
import { startCollector } from '../harness/otelcol.ts';
import { evtimeline } from '../harness/plugin.ts';
import { api, sleep, waitFor } from '../support/cluster-api.ts';

type Json = Record<string, any>;

const scratch = scratchDir('victorialogs-it');
const stores: VictoriaLogs[] = [];
before(async () => {
  // Built once per pin (about 45 s on an idle machine; the collector ten minutes) before any test's own timeout counts.
  if (!process.env.EVTIMELINE_TEST_VICTORIALOGS_BINARY) await ensureVictoriaLogs();
  await ensureOtelcol('otelcol-k8s');
});
after(async () => {
  await Promise.all(stores.map((s) => s.close()));
});

async function store(opts: Parameters<typeof startVictoriaLogs>[0] = {}): Promise<VictoriaLogs> {
  const s = await startVictoriaLogs(opts);
  stores.push(s);
  return s;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The packaged plugin, without a cluster: a store is all it reads. */
async function plugin(args: string[], onStart?: (run: ReturnType<typeof spawnCollecting>) => Promise<void>): Promise<Run> {
  const run = spawnCollecting(PLUGIN_BINARY, args, { env: { ...process.env, KUBECONFIG: join(scratch, 'no-kubeconfig') } });
  await onStart?.(run);
  const { code } = await run.exited;
  return { code, stdout: run.out(), stderr: run.err() };
}

const iso = (ms: number) => new Date(ms).toISOString();

/** A core/v1 Event `minutesAgo` before now (the plugin's clock is the wall clock). */
function event(i: number, minutesAgo: number, over: Json = {}): Json {
  const at = Date.now() - minutesAgo * 60_000;
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `ev-${i}`, namespace: over.namespace ?? 'shop', uid: `uid-${i}`, resourceVersion: String(1000 + i), creationTimestamp: iso(at) },
    involvedObject: { apiVersion: 'v1', kind: 'Pod', name: `pod-${i % 50}`, namespace: over.namespace ?? 'shop', uid: `pod-uid-${i % 50}` },
    reason: over.reason ?? 'BackOff',
    message: over.message ?? `Back-off restarting failed container ${i}`,
    type: over.type ?? 'Warning',
    count: 1,
    firstTimestamp: iso(at),
    lastTimestamp: iso(at),
    source: { component: 'kubelet', host: 'node-1' },
    reportingComponent: 'kubelet',
    reportingInstance: 'node-1',
  };
}

async function listFile(name: string, items: Json[]): Promise<string> {
  const path = join(scratch, name);
  await writeFile(path, JSON.stringify({ kind: 'EventList', apiVersion: 'v1', items }));
  return path;
}

/** Exports a file to the store; waits until it holds `rows` log records in all. */
async function exportTo(vl: VictoriaLogs, file: string, rows: number): Promise<void> {
  const r = await plugin(['export', '--from', file, '--otlp', vl.otlpUrl]);
  assert.equal(r.code, 0, r.stderr);
  await vl.flush(rows);
}

describe('--from victorialogs+http:// (a single node)', () => {
  let vl: VictoriaLogs;
  let file: string;
  const hostile = 'pulled <script>alert(1)</script> \u001b]0;owned\u0007 \u001b[2J done';
  before(async () => {
    vl = await store();
    const items = [
      ...Array.from({ length: 30 }, (_, i) => event(i, 10 + i)),
      // Outside a 1h window: 3 h ago.
      ...Array.from({ length: 5 }, (_, i) => event(100 + i, 180, { reason: 'Old' })),
      event(200, 5, { reason: 'Pulled', type: 'Normal', message: hostile }),
      event(300, 20, { namespace: 'other', reason: 'Elsewhere' }),
      // An events.k8s.io series begun 3 h ago, last observed 10 min ago: stored at its eventTime.
      {
        ...event(400, 180, { reason: 'FailedScheduling' }),
        firstTimestamp: undefined,
        lastTimestamp: undefined,
        count: undefined,
        eventTime: iso(Date.now() - 180 * 60_000).replace('Z', '000Z'),
        series: { count: 40, lastObservedTime: iso(Date.now() - 10 * 60_000).replace('Z', '000Z') },
      },
    ];
    // A repeat of ev-0: the same uid, a newer resourceVersion, count 4: one event, the newer version.
    const repeat = event(0, 10);
    repeat.metadata.resourceVersion = '5000';
    repeat.count = 4;
    file = await listFile('events.json', items);
    await exportTo(vl, file, items.length);
    await exportTo(vl, await listFile('repeat.json', [repeat]), items.length + 1);
  });

  test('what export shipped is read back as the same events, repeats joined by uid', async () => {
    const fromStore = await plugin(['--from', vl.fromUrl, '-A', '-o', 'json']);
    assert.equal(fromStore.code, 0, fromStore.stderr);
    const events = JSON.parse(fromStore.stdout) as Json[];
    assert.equal(events.length, 38);
    const ev0 = events.find((e) => e.uid === 'uid-0');
    assert.equal(ev0?.count, 4);
    assert.equal(ev0?.resourceVersion, '5000');
    // Against the file it came from: the same reasons, objects, messages and reporters.
    const fromFile = await plugin(['--from', file, '-A', '-o', 'json']);
    const shape = (list: Json[]) => list.map((e) => [e.uid, e.reason, e.type, e.object.kind, e.object.name, e.message, e.reporter, e.instance, e.namespace, e.firstSeen, e.lastSeen].join('|')).sort();
    assert.deepEqual(
      shape(events.filter((e) => e.uid !== 'uid-0')),
      shape((JSON.parse(fromFile.stdout) as Json[]).filter((e) => e.uid !== 'uid-0')),
    );
    // Our export keeps every field: nothing to say about what the store could not keep.
    assert.doesNotMatch(fromStore.stderr, /did not keep|skipped/);
  });

  test('--since and -n go into the query (-v=6 shows the time filter and the namespace filter) and the store selects', async () => {
    const r = await plugin(['--from', vl.fromUrl, '-n', 'shop', '--since', '1h', '-o', 'json', '-v=6']);
    assert.equal(r.code, 0, r.stderr);
    const events = JSON.parse(r.stdout) as Json[];
    assert.ok(events.length > 0 && events.every((e) => e.reason !== 'Old' && e.namespace === 'shop'), 'only the last hour of shop');
    assert.ok(events.some((e) => e.uid === 'uid-400'), 'a series begun before the window and observed in it');
    const requests = r.stderr.split('\n').filter((l) => l.includes('"Response"'));
    // How many and from when to when, then the one window that holds them.
    assert.equal(requests.length, 2, r.stderr);
    const url = new URL(/url="([^"]+)"/.exec(requests[1] as string)?.[1] ?? '');
    assert.equal(url.pathname, '/select/logsql/query');
    const query = url.searchParams.get('query') ?? '';
    const start = Date.parse(/_time:>=(\S+)/.exec(query)?.[1] ?? '');
    assert.ok(Math.abs(start - (Date.now() - 3600_000)) < 120_000, query);
    assert.match(query, /k8s\.namespace\.name:="shop"/);
    // The server selected: that query matches the rows of these events (ev-0 twice: two versions), not all 39 it holds.
    const res = await fetch(`${vl.front.url}/select/logsql/query?query=${encodeURIComponent(`${query} | count() rows`)}`);
    assert.equal(Number(JSON.parse(await res.text()).rows), events.length + 1);
  });

  test('--since-time pushes its start; --until is applied after reading (an event first seen before it is whole)', async () => {
    // Half a minute from every event's time: the events were made moments ago.
    const since = iso(Date.now() - 25.5 * 60_000);
    const until = iso(Date.now() - 14.5 * 60_000);
    const r = await plugin(['--from', vl.fromUrl, '-n', 'shop', '--since-time', since, '--until', until, '-o', 'json', '-v=6']);
    assert.equal(r.code, 0, r.stderr);
    const reasons = new Set((JSON.parse(r.stdout) as Json[]).map((e) => e.uid));
    // ev-i was last seen 10+i minutes ago; the series ev-400 began 3 h ago and was last observed 10 min ago.
    const want = new Set([...Array.from({ length: 11 }, (_, i) => `uid-${i + 5}`), 'uid-400']);
    assert.deepEqual(reasons, want);
    assert.match(decodeURIComponent(r.stderr), new RegExp(`_time:>=${since.replace(/\./g, '\\.')}`));
  });

  test('?query= narrows with LogsQL', async () => {
    const r = await plugin(['--from', `${vl.fromUrl}?query=${encodeURIComponent('k8s.event.reason:=Pulled')}`, '-A', '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual((JSON.parse(r.stdout) as Json[]).map((e) => e.uid), ['uid-200']);
  });

  test('a hostile stored message is escaped on the terminal and inert in the HTML page', async () => {
    const table = await plugin(['--from', vl.fromUrl, '-n', 'shop', '--reason', 'Pulled', '-o', 'wide']);
    assert.equal(table.code, 0, table.stderr);
    assert.ok(!table.stdout.includes('\u001b'), 'no raw escape reaches the terminal');
    assert.match(table.stdout, /\^\[\]0;owned/);
    const page = await plugin(['--from', vl.fromUrl, '-n', 'shop', '-o', 'html']);
    assert.equal(page.code, 0, page.stderr);
    assert.ok(!page.stdout.includes('<script>alert(1)</script>'), 'the message never becomes markup');
    assert.ok(!page.stdout.includes('\u001b'));
  });

  test('incident reads the store and says so', async () => {
    const r = await plugin(['incident', '--from', vl.fromUrl, '-n', 'shop']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Incident in namespace shop, read from VictoriaLogs/);
    assert.match(r.stdout, /BackOff/);
  });

  test('type-audit, --for and --tree read the store too', async () => {
    const audit = await plugin(['type-audit', '--from', vl.fromUrl, '-n', 'shop']);
    assert.equal(audit.code, 0, audit.stderr);
    assert.match(audit.stdout, /^Type audit: 37 events checked/);
    const uids = (r: Run) => (JSON.parse(r.stdout) as Json[]).map((e) => e.uid).sort();
    const forPod = await plugin(['--from', vl.fromUrl, '-n', 'shop', '--for', 'Pod/pod-3', '-o', 'json']);
    assert.equal(forPod.code, 0, forPod.stderr);
    assert.deepEqual(uids(forPod), ['uid-103', 'uid-3']);
    // A store keeps no ownership: the tree is what the events name, here the Pod alone.
    const tree = await plugin(['--from', vl.fromUrl, '-n', 'shop', '--for', 'Pod/pod-3', '--tree', '-o', 'json']);
    assert.equal(tree.code, 0, tree.stderr);
    assert.deepEqual(uids(tree), ['uid-103', 'uid-3']);
    assert.match(tree.stderr, /the store holds no ownership/);
  });

  test('export --otlp-json to VictoriaLogs is one line saying it takes protobuf', async () => {
    const r = await plugin(['export', '--from', file, '--otlp', vl.otlpUrl, '--otlp-json']);
    assert.equal(r.code, 1);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, /protobuf/);
    assert.match(r.stderr, /drop --otlp-json/);
  });

  test('a store that is down is exit 1 and one line', async () => {
    const down = await store();
    const url = down.fromUrl;
    await down.front.stop();
    const r = await plugin(['--from', url, '-A']);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^error: cannot reach victorialogs\+http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED\n$/);
  });
});

/** openssl, as a promise. */
function openssl(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => execFile('openssl', args, (error, _out, stderr) => (error ? reject(new Error(`openssl ${args[0]}: ${stderr}`)) : resolve())));
}

/** A CA (self-signed, valid a day) in `dir`: its certificate and key. */
async function certificateAuthority(name: string): Promise<{ cert: string; key: string }> {
  const key = join(scratch, `${name}-ca-key.pem`);
  const cert = join(scratch, `${name}-ca.pem`);
  await openssl(['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', `/CN=${name} test CA`, '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign']);
  return { cert, key };
}

/** A server certificate for 127.0.0.1 signed by `ca`. */
async function serverCertificate(ca: { cert: string; key: string }): Promise<{ cert: string; key: string }> {
  const key = join(scratch, 'store-key.pem');
  const csr = join(scratch, 'store.csr');
  const cert = join(scratch, 'store-cert.pem');
  const ext = join(scratch, 'store.ext');
  await writeFile(ext, 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  await openssl(['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', csr, '-subj', '/CN=127.0.0.1']);
  await openssl(['x509', '-req', '-in', csr, '-CA', ca.cert, '-CAkey', ca.key, '-CAcreateserial', '-out', cert, '-days', '1', '-extfile', ext]);
  return { cert, key };
}

describe('--from victorialogs+https:// (the store serving TLS, -tls)', () => {
  test('read with --from-ca naming the CA that signed the store\'s certificate; another CA is exit 1 and one line', async () => {
    const ca = await certificateAuthority('store');
    const stranger = await certificateAuthority('stranger');
    const server = await serverCertificate(ca);
    const vl = await store({ tls: { ...server, ca: await readFile(ca.cert, 'utf8') } });
    assert.match(vl.fromUrl, /^victorialogs\+https:\/\/127\.0\.0\.1:\d+$/);
    const items = Array.from({ length: 12 }, (_, i) => event(i, 10 + i));
    const shipped = await plugin(['export', '--from', await listFile('tls.json', items), '--otlp', vl.otlpUrl, '--otlp-ca', ca.cert]);
    assert.equal(shipped.code, 0, shipped.stderr);
    await vl.flush(items.length);

    const r = await plugin(['--from', vl.fromUrl, '--from-ca', ca.cert, '-n', 'shop', '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual((JSON.parse(r.stdout) as Json[]).map((e) => e.uid).sort(), items.map((e) => e.metadata.uid).sort());

    for (const args of [['--from-ca', stranger.cert], []]) {
      const refused = await plugin(['--from', vl.fromUrl, ...args, '-n', 'shop']);
      assert.equal(refused.code, 1, refused.stderr);
      assert.equal(refused.stdout, '');
      assert.match(refused.stderr, /^error: victorialogs\+https:\/\/127\.0\.0\.1:\d+: TLS: certificate signed by unknown authority: give the CA that signed it with --from-ca FILE\n$/);
    }
    // Plain http to the https port: said, not a hang or a parse error.
    const plain = await plugin(['--from', vl.fromUrl.replace('https:', 'http:'), '-n', 'shop']);
    assert.equal(plain.code, 1, plain.stderr);
    assert.equal(plain.stderr.trim().split('\n').length, 1, plain.stderr);
  });
});

describe('a big answer is paged by time, never truncated', () => {
  test('25,000 events at 5,000 distinct times, five to a millisecond, read in time windows of ?page-rows=, each once', async () => {
    const vl = await store();
    const items = Array.from({ length: 25_000 }, (_, i) => {
      const e = event(i, 0);
      // Five events a millisecond: windows begin and end between and at equal times.
      const at = iso(Date.now() - 3600_000 + Math.floor(i / 5));
      Object.assign(e, { firstTimestamp: at, lastTimestamp: at });
      return e;
    });
    await exportTo(vl, await listFile('big.json', items), items.length);
    const requested = (stderr: string) => stderr.split('\n').flatMap((l) => /url="([^"]+)"/.exec(l)?.[1] ?? []).map((u) => new URL(u));
    // By default a window holds 100,000 rows: one stats request, then one window.
    const whole = await plugin(['--from', vl.fromUrl, '-A', '-o', 'name', '-v=6']);
    assert.equal(whole.code, 0, whole.stderr);
    assert.equal(new Set(whole.stdout.trim().split('\n')).size, 25_000);
    assert.equal(requested(whole.stderr).length, 2, whole.stderr);
    const r = await plugin(['--from', `${vl.fromUrl}?page-rows=10000`, '-A', '-o', 'name', '-v=6']);
    assert.equal(r.code, 0, r.stderr);
    const names = r.stdout.trim().split('\n');
    assert.equal(names.length, 25_000);
    assert.equal(new Set(names).size, 25_000);
    assert.deepEqual([...names].sort(), whole.stdout.trim().split('\n').sort(), 'the same events either way');
    // One stats request (how many, from when to when), then three consecutive time windows of about 10,000 rows each.
    const urls = requested(r.stderr);
    assert.equal(urls.length, 4, r.stderr);
    assert.match(urls[0]?.searchParams.get('query') ?? '', /\| stats count\(\) as rows/);
    const windows = urls.slice(1).map((u) => ({ start: u.searchParams.get('start') ?? '', end: u.searchParams.get('end') ?? '' }));
    for (const [i, { start, end }] of windows.entries()) {
      assert.ok(start !== '' && end !== '' && start < end, `window ${i}: ${start} .. ${end}`);
      if (i > 0) assert.equal(start, windows[i - 1]?.end, 'each window starts where the last ended');
    }
  });
});

describe('a window that runs past the server\'s -search.maxQueryDuration', () => {
  test('is cut by the server: exit 1, one line that points to &page-rows, nothing on stdout', async () => {
    const vl = await store({ extraArgs: ['-search.maxQueryDuration=500ms'] });
    // 100,000 rows in one window (the default size): the reader takes them for a second or more, longer than
    // the server lets a query run; its count and the stats request take a few milliseconds.
    const items = Array.from({ length: 100_000 }, (_, i) => event(i, 30 - (i % 600) / 20));
    await exportTo(vl, await listFile('limited.json', items), items.length);
    const r = await plugin(['--from', vl.fromUrl, '-A', '-o', 'json']);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^error: victorialogs\+http:\/\/127\.0\.0\.1:\d+: the answer broke off before its end \(.*-search\.maxQueryDuration: a smaller &page-rows=N shortens each request\)\n$/);
  });
});

describe('a VictoriaLogs cluster: two storage nodes behind one front', () => {
  let vl: VictoriaLogs;
  const N = 30_000;
  before(async () => {
    vl = await store({ storageNodes: 2 });
    await exportTo(vl, await listFile('cluster.json', Array.from({ length: N }, (_, i) => event(i, 1 + (i % 600) / 10))), N);
  });

  test('the front merges both nodes: every event once', async () => {
    const r = await plugin(['--from', vl.fromUrl, '-A', '-o', 'name']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(new Set(r.stdout.trim().split('\n')).size, N);
    // Sharded: each storage node holds part of them.
    for (const node of vl.storage) {
      const res = await fetch(`${node.url}/select/logsql/query?query=*&limit=1`);
      assert.equal(res.status, 200);
      assert.notEqual((await res.text()).trim(), '', `${node.url} holds rows`);
    }
  });

  test('a storage node stopped mid-read: the read is complete, or exit 1 with one line', async () => {
    const stopped = vl.storage[1];
    assert.ok(stopped);
    // What was ingested is on disk (-inmemoryDataFlushInterval=1s) before the node is killed.
    await new Promise((res) => setTimeout(res, 2000));
    const r = await plugin(['--from', vl.fromUrl, '-A', '-o', 'name', '-v=6'], async (run) => {
      // Once the first page is under way, the node goes.
      while (!run.err().includes('"Response"') && run.child.exitCode === null) await new Promise((res) => setTimeout(res, 5));
      await stopped.stop('SIGKILL');
    });
    try {
      const lines = r.stderr.split('\n').filter((l) => l !== '' && !l.includes('"Response"'));
      if (r.code === 0) {
        assert.equal(new Set(r.stdout.trim().split('\n')).size, N, 'a complete read');
      } else {
        assert.equal(r.code, 1);
        assert.equal(r.stdout, '', 'nothing partial on stdout');
        assert.equal(lines.length, 1, r.stderr);
        assert.match(lines[0] as string, /^error: victorialogs\+http:\/\/127\.0\.0\.1:\d+: /);
      }
    } finally {
      await stopped.start();
    }
    // With the node back, the read is whole again.
    const again = await plugin(['--from', vl.fromUrl, '-A', '-o', 'name']);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(new Set(again.stdout.trim().split('\n')).size, N);
  });

  test('a storage node that is down before the read: exit 1, one line naming the front\'s answer', async () => {
    const stopped = vl.storage[0];
    assert.ok(stopped);
    await stopped.stop();
    try {
      const r = await plugin(['--from', vl.fromUrl, '-A']);
      assert.equal(r.code, 1);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /^error: victorialogs\+http:\/\/127\.0\.0\.1:\d+: HTTP 502: [^\n]+\n$/);
    } finally {
      await stopped.start();
    }
  });
});

describe('what the collector\'s k8s_events receiver shipped through otlphttp, and our export beside it', () => {
  test('read back from VictoriaLogs: the fields the receiver keeps, what it does not said in one line; our export joins by uid and fills them in', { timeout: 600_000 }, async () => {
    const cp = await sharedControlPlane();
    const ns = await freshNamespace(cp.kubeconfig, 'vl-receiver');
    const vl = await store();
    const col = await startCollector({ k8s: { kubeconfig: cp.kubeconfig, namespace: ns, store: vl.otlpUrl } });
    try {
      // The receiver drops events stamped before its own start, and the lab stamps whole seconds.
      await sleep(1500);
      await playLab({ kubeconfig: cp.kubeconfig, namespace: ns, outDir: join(scratch, 'lab') });
      // 4 events alone on the cluster, more beside other files (a FailedScheduling per retry): see lab-shared.ts.
      const items = await labEventsAfterHungry(cp, ns);
      const live = await waitFor(
        'the receiver to ship every event at its latest count to the store',
        async () => {
          await vl.flush();
          const r = await evtimeline(['--from', vl.fromUrl, '-n', ns, '-o', 'json'], cp.kubeconfig);
          if (r.code !== 0) return undefined;
          const stored = new Map((JSON.parse(r.stdout) as Json[]).map((e) => [e.uid, e.count]));
          const behind = items.filter((e) => stored.get(e.metadata.uid) !== (e.count > 0 ? e.count : 1));
          if (behind.length === 0) return { items };
          // Said when the wait gives up: which events the store lacks or holds at an older count.
          throw new Error(behind.map((e) => `${e.reason} ${e.involvedObject.kind}/${e.involvedObject.name} count ${e.count}, stored ${stored.get(e.metadata.uid)}`).join('; '));
        },
        { everyMs: 500 },
      );
      const receiverOnly = await evtimeline(['--from', vl.fromUrl, '-n', ns, '-o', 'json'], cp.kubeconfig);
      assert.equal(receiverOnly.code, 0, receiverOnly.stderr);
      // One line: who wrote them and what they did not keep.
      assert.match(receiverOnly.stderr, /^victorialogs\+http:\/\/127\.0\.0\.1:\d+: written by the k8s_events receiver, which did not keep series, firstTimestamp, source\.component, resourceVersion, reporter\n$/);
      const byUid = new Map((JSON.parse(receiverOnly.stdout) as Json[]).map((e) => [e.uid, e]));
      for (const raw of live.items as Json[]) {
        const got = byUid.get(raw.metadata.uid) as Json;
        assert.ok(got, `${raw.metadata.name} stored`);
        assert.deepEqual([got.name, got.namespace, got.reason, got.message, got.object.kind, got.object.name, got.object.uid], [raw.metadata.name, ns, raw.reason, raw.message, raw.involvedObject.kind, raw.involvedObject.name, raw.involvedObject.uid]);
        assert.equal(got.reporter, '', 'v0.111.0 keeps no reporter');
      }
      // Our export into the same store: joined by uid, its copy (every field) is the one shown.
      const exported = await evtimeline(['export', '-n', ns, '--otlp', vl.otlpUrl], cp.kubeconfig);
      assert.equal(exported.code, 0, exported.stderr);
      await vl.flush();
      const both = await evtimeline(['--from', vl.fromUrl, '-n', ns, '-o', 'json'], cp.kubeconfig);
      const fromLive = await evtimeline(['-n', ns, '-o', 'json'], cp.kubeconfig);
      const strip = (text: string) => (JSON.parse(text) as Json[]).map(({ incarnation: _i, onServer: _o, ...rest }) => rest);
      assert.deepEqual(strip(both.stdout), strip(fromLive.stdout), 'the store with our export reads as the live cluster');
      // With the namespace's events deleted from the cluster, the store still tells the incident.
      await api(cp, 'DELETE', `/api/v1/namespaces/${ns}/events`);
      const incident = await evtimeline(['incident', '--from', vl.fromUrl, '-n', ns], cp.kubeconfig);
      assert.equal(incident.code, 0, incident.stderr);
      assert.match(incident.stdout, new RegExp(`^Incident in namespace ${ns}, read from VictoriaLogs`));
      assert.match(incident.stdout, /default-scheduler/);
    } finally {
      await col.close();
    }
  });
});

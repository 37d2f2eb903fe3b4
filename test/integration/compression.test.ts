// Compressed answers, against the real API server: the plugin asks for gzip as kubectl does (Go's
// http.Transport adds `Accept-Encoding: gzip` unless client-go's DisableCompression is set,
// client-go rest/config.go:102), the kube-apiserver compresses every list page larger than 128 KiB
// (apiserver responsewriters/writers.go:159), and what a user sees does not change: the same -o
// json and -o yaml, the same -v=6 request lines. --disable-compression and the kubeconfig's
// `disable-compression: true` (clientcmd/api/types.go:102) ask for none, as they do for kubectl.
// The bytes are counted by a TCP proxy in front of the server (TLS included).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sharedControlPlane } from '../harness/controlplane.ts';
import type { ControlPlane } from '../harness/controlplane.ts';
import { freshNamespace } from '../harness/namespace.ts';
import { evtimeline, kubectl } from '../harness/plugin.ts';
import { startTcpProxy } from '../harness/tcp-proxy.ts';
import type { TcpProxy } from '../harness/tcp-proxy.ts';
import { proxiedKubeconfig } from '../support/recorder.ts';
import { postEvents } from '../support/posted-events.ts';
import { scratchDir } from '../support/tmp.ts';

/** Three pages of 500, each far past the server's 128 KiB threshold. */
const N = 1200;

const cpPromise = sharedControlPlane();
let cp: ControlPlane;
let ns: string;
let proxy: TcpProxy;
let compressed: string;
let uncompressed: string;

before(async () => {
  cp = await cpPromise;
  const work = scratchDir('compression');
  ns = await freshNamespace(cp.kubeconfig, 'compression');
  await postEvents(cp, ns, N, { component: 'compression', reason: 'Listed', padding: 100 });
  proxy = await startTcpProxy(cp.server);
  compressed = proxiedKubeconfig(cp, proxy, ns, join(work, 'compressed.kubeconfig'));
  // The same kubeconfig with its cluster's disable-compression set.
  const doc = JSON.parse(readFileSync(compressed, 'utf8')) as { clusters: Array<{ cluster: Record<string, unknown> }> };
  for (const { cluster } of doc.clusters) cluster['disable-compression'] = true;
  uncompressed = join(work, 'uncompressed.kubeconfig');
  writeFileSync(uncompressed, JSON.stringify(doc));
});
after(async () => {
  await proxy?.close();
});

/** A run through the proxy: its output and the bytes the server sent for it. */
async function counted(run: () => ReturnType<typeof evtimeline>): Promise<{ code: number; stdout: string; stderr: string; bytes: number }> {
  const before = proxy.serverBytes;
  const result = await run();
  return { ...result, bytes: proxy.serverBytes - before };
}

/** The -v=6 lines without their time stamps, pid and milliseconds: method, URL (a continue token, which names the list's revision, as TOKEN) and status. */
function requestLines(stderr: string): string[] {
  return [...stderr.matchAll(/"Response" verb="([A-Z]+)" url="([^"]*)" status="([^"]*)"/g)].map((m) => `${m[1]} ${(m[2] ?? '').replace(/continue=[^&]+/, 'continue=TOKEN')} ${m[3]}`);
}

describe('a list read compressed and not', () => {
  for (const output of ['json', 'yaml']) {
    test(`-o ${output}: the same output whether the server compressed it or not, in a fraction of the bytes`, async () => {
      const gzip = await counted(() => evtimeline(['-o', output], compressed));
      const flag = await counted(() => evtimeline(['-o', output, '--disable-compression'], compressed));
      const field = await counted(() => evtimeline(['-o', output], uncompressed));
      for (const run of [gzip, flag, field]) assert.equal(run.code, 0, run.stderr);
      assert.equal(gzip.stdout, flag.stdout);
      assert.equal(gzip.stdout, field.stdout);
      assert.equal((gzip.stdout.match(/Listed/g) ?? []).length, N);
      // 1,200 events of about 1 KiB each: some 1.4 MB as sent, a small part of it compressed.
      assert.ok(flag.bytes > 1_000_000, `${flag.bytes} bytes uncompressed`);
      assert.ok(Math.abs(field.bytes - flag.bytes) < flag.bytes / 10, `flag ${flag.bytes}, kubeconfig ${field.bytes}`);
      assert.ok(gzip.bytes * 4 < flag.bytes, `compressed ${gzip.bytes} bytes against ${flag.bytes}`);
    });
  }

  test('--disable-compression=false leaves compression on', async () => {
    const on = await counted(() => evtimeline(['-o', 'json', '--disable-compression=false'], compressed));
    const off = await counted(() => evtimeline(['-o', 'json', '--disable-compression'], compressed));
    assert.equal(on.code, 0, on.stderr);
    assert.ok(on.bytes * 4 < off.bytes, `--disable-compression=false ${on.bytes} bytes, --disable-compression ${off.bytes}`);
  });

  test('kubectl, the reference, is sent as few bytes compressed and as many without', async () => {
    const env = { HOME: scratchDir('compression-kubectl') };
    const gzip = await counted(() => kubectl(['get', 'events', '-o', 'json'], compressed, { env }));
    const off = await counted(() => kubectl(['get', 'events', '-o', 'json', '--disable-compression'], compressed, { env }));
    const ours = await counted(() => evtimeline(['-o', 'json'], compressed));
    const oursOff = await counted(() => evtimeline(['-o', 'json', '--disable-compression'], compressed));
    assert.equal(gzip.code, 0, gzip.stderr);
    assert.ok(gzip.bytes * 4 < off.bytes, `kubectl: compressed ${gzip.bytes}, not ${off.bytes}`);
    // The same three pages (HTTP/1.1 chunks here, HTTP/2 frames for kubectl, which also reads discovery).
    const figures = `ours ${ours.bytes} / ${oursOff.bytes}, kubectl ${gzip.bytes} / ${off.bytes}`;
    assert.ok(Math.abs(oursOff.bytes - off.bytes) < off.bytes / 10, figures);
    assert.ok(ours.bytes <= gzip.bytes, figures);
  });

  test('-v=6 prints the same request lines either way, as kubectl prints them', async () => {
    const gzip = await evtimeline(['-o', 'json', '-v=6'], compressed);
    const off = await evtimeline(['-o', 'json', '-v=6', '--disable-compression'], compressed);
    assert.equal(gzip.code, 0, gzip.stderr);
    const lines = requestLines(gzip.stderr);
    assert.deepEqual(lines, requestLines(off.stderr));
    assert.equal(lines.filter((l) => new RegExp(`^GET ${proxy.url.replace(/\./g, '\\.')}/api/v1/namespaces/${ns}/events\\?limit=500(&continue=TOKEN)? 200 OK$`).test(l)).length, 3, lines.join('\n'));
  });
});

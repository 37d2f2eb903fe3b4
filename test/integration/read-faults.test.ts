// A connection that dies in the middle of a list page, between the read verbs and the real API
// server (a TCP proxy cuts it part-way through the second page): each verb exits 1 with one line
// saying the answer was cut off, prints no partial output, and a capture (which lists both Event
// APIs) leaves no folder behind. And -w stops once stdout can take no more (a full disk).
// client-go does not retry a body cut off mid-page either (rest/request.go retries only errors
// before the response); a list that lost a page must not be shown as if it were whole.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { closeSync, openSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { sharedControlPlane } from '../harness/controlplane.ts';
import type { ControlPlane } from '../harness/controlplane.ts';
import { freshNamespace } from '../harness/namespace.ts';
import { PLUGIN_BINARY } from '../harness/plugin.ts';
import { startTcpProxy } from '../harness/tcp-proxy.ts';
import type { TcpProxy } from '../harness/tcp-proxy.ts';
import { proxiedKubeconfig } from '../support/recorder.ts';
import { postEvents } from '../support/posted-events.ts';
import { scratchDir } from '../support/tmp.ts';

/** Three pages of 500: the cut lands inside the second. */
const N = 1200;
/** Uncompressed: past discovery and the first page (each event is about 1 KB), inside the second page. */
const CUT_AFTER_BYTES = 800_000;

const cpPromise = sharedControlPlane();
let cp: ControlPlane;
let ns: string;
let work: string;
const proxies: TcpProxy[] = [];

before(async () => {
  cp = await cpPromise;
  work = scratchDir('read-faults');
  ns = await freshNamespace(cp.kubeconfig, 'read-faults');
  await postEvents(cp, ns, N, { component: 'read-faults', reason: 'Listed', padding: 100 });
});
after(async () => {
  for (const proxy of proxies) await proxy.close();
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function plugin(args: string[], kubeconfig: string): Promise<Run> {
  return new Promise((resolve) => {
    execFile(PLUGIN_BINARY, [...args, '--kubeconfig', kubeconfig], { env: { PATH: process.env.PATH, HOME: work }, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

describe('a connection reset in the middle of a list page', () => {
  const verbs = [
    ['timeline -o json', ['-o', 'json']],
    ['incident', ['incident']],
    ['type-audit', ['type-audit']],
    ['capture', ['capture', 'cap']],
  ] as const;
  // Compressed (as kubectl asks, the default) the three pages are some 25 KiB each: the cut lands a
  // quarter of the way through the bytes a read of the list alone (-o stable, no lookups) took, in
  // the first page, which every verb reads before anything else (half-way, incident's lookups once
  // met the cut and it read on). Plain (--disable-compression), past the first page.
  for (const [verb, args, compressed] of [...verbs.map(([v, a]) => [v, a, true] as const), [verbs[0][0], verbs[0][1], false] as const]) {
    test(`${verb}${compressed ? '' : ' --disable-compression'}: exit 1, one line saying the answer was cut off, no partial output`, async () => {
      const proxy = await startTcpProxy(cp.server);
      proxies.push(proxy);
      const kubeconfig = proxiedKubeconfig(cp, proxy, ns, join(work, `${verb.replace(/\W+/g, '-')}-${compressed}.kubeconfig`));
      const argv = [...args.map((a) => (a === 'cap' ? join(work, 'cap') : a)), ...(compressed ? [] : ['--disable-compression'])];
      let at = CUT_AFTER_BYTES;
      if (compressed) {
        const list = await plugin(['-o', 'stable'], kubeconfig);
        assert.equal(list.code, 0, list.stderr);
        at = Math.floor(proxy.serverBytes / 4);
      }
      const cut = proxy.cutAfterServerBytes(at);
      const run = await plugin(argv, kubeconfig);
      assert.ok((await cut) >= 1, 'the proxy cut a live connection');
      assert.equal(run.code, 1, run.stderr);
      assert.match(
        run.stderr,
        new RegExp(`^error: the answer from the API server at ${proxy.url.replace(/\./g, '\\.')} to GET /(api/v1|apis/events\\.k8s\\.io/v1)/namespaces/${ns}/events was cut off \\([A-Za-z_]+\\)\\n$`),
      );
      assert.equal(run.stdout, '');
      assert.deepEqual(readdirSync(work).filter((name) => name === 'cap' || name.startsWith('.cap.')), []);
    });
  }
});

describe('-w with stdout on a full device', () => {
  test('stops at the first write that fails: exit 1 with kubectl\'s line (it kept watching, the output going nowhere)', async () => {
    const full = openSync('/dev/full', 'w');
    const child = spawn(PLUGIN_BINARY, ['-w', '-n', ns, '--kubeconfig', cp.kubeconfig], { stdio: ['ignore', full, 'pipe'], env: { PATH: process.env.PATH, HOME: work } });
    // A hang guard, not a time limit: without the fix the watch never ends.
    const guard = setTimeout(() => child.kill('SIGKILL'), 120_000);
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(guard);
    closeSync(full);
    assert.equal(code, 1, stderr);
    assert.equal(stderr, 'error: write /dev/stdout: no space left on device\n');
  });
});

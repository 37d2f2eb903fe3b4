// Hostile names and values against the real control plane: dot segments and slashes in names and
// namespaces (D1), an event about an object named `..`, counts at the int32 edge (D10), a plain
// http:// server as `kubectl proxy` serves one (D7). The real kubectl is the reference for wording.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sharedControlPlane } from '../harness/controlplane.ts';
import type { ControlPlane } from '../harness/controlplane.ts';
import { freshNamespace } from '../harness/namespace.ts';
import { evtimeline, kubectl } from '../harness/plugin.ts';
import { scratchDir } from '../support/tmp.ts';

const cpPromise = sharedControlPlane();
let cp: ControlPlane;
let ns: string;
let work: string;

async function ok(args: string[], input?: string): Promise<string> {
  const r = await kubectl(args, cp.kubeconfig, { input });
  assert.equal(r.code, 0, `kubectl ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}

function event(name: string, o: { kind?: string; objectName?: string; objectUid?: string; count?: number } = {}): string {
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, namespace: ns },
    involvedObject: { apiVersion: 'v1', kind: o.kind ?? 'Pod', name: o.objectName ?? 'web', namespace: ns, ...(o.objectUid ? { uid: o.objectUid } : {}) },
    reason: 'Hostile',
    type: 'Normal',
    message: 'a test event',
    firstTimestamp: now,
    lastTimestamp: now,
    count: o.count ?? 1,
    source: { component: 'hostile-test' },
  });
}

function stderrLine(r: { stderr: string }): string {
  const lines = r.stderr.split('\n').filter((l) => l !== '');
  assert.equal(lines.length, 1, r.stderr);
  return lines[0] ?? '';
}

before(async () => {
  cp = await cpPromise;
  work = scratchDir('hostile');
  ns = await freshNamespace(cp.kubeconfig, 'hostile');
  await ok(['-n', ns, 'create', '-f', '-'], event('plain'));
});

describe('names and namespaces that are not names', () => {
  test('aggregate-patch .. exits 2 before any request; the Namespace object is not touched', async () => {
    const before = JSON.parse(await ok(['get', 'namespace', ns, '-o', 'json'])) as { metadata: { resourceVersion: string } };
    const r = await evtimeline(['aggregate-patch', '..', '-n', ns], cp.kubeconfig);
    assert.equal(r.code, 2);
    assert.equal(stderrLine(r), `error: invalid resource name "..": [may not be '..']`);
    assert.equal(r.stdout, '');
    const after = JSON.parse(await ok(['get', 'namespace', ns, '-o', 'json'])) as { metadata: { resourceVersion: string } };
    assert.equal(after.metadata.resourceVersion, before.metadata.resourceVersion);
  });

  for (const bad of ['..', '.', 'a/b', 'a%2fb']) {
    test(`-n ${bad} exits 2 in kubectl's words`, async () => {
      const reference = await kubectl(['get', 'events', '-n', bad], cp.kubeconfig);
      assert.notEqual(reference.code, 0);
      const r = await evtimeline(['-n', bad], cp.kubeconfig);
      assert.equal(r.code, 2);
      // kubectl prints client-go's error bare; ours carries the plugin's usual `error: ` prefix.
      assert.equal(stderrLine(r), `error: ${stderrLine(reference)}`);
    });
  }

  test('-n with a capital letter names the API server rule for namespaces', async () => {
    const r = await evtimeline(['-n', 'Op-Events'], cp.kubeconfig);
    assert.equal(r.code, 2);
    assert.match(stderrLine(r), /^error: invalid namespace "Op-Events": \[a lowercase RFC 1123 label must consist of/);
  });

  test('an event about a Pod named .. is not matched to the Namespace its path would resolve to', async () => {
    const namespace = JSON.parse(await ok(['get', 'namespace', ns, '-o', 'json'])) as { metadata: { uid: string } };
    // core/v1 accepts any involvedObject.name: the event names the namespace's own uid, so a lookup
    // that reached /api/v1/namespaces/NS/ (where pods/.. resolves) would call it "current".
    await ok(['-n', ns, 'create', '-f', '-'], event('dots', { objectName: '..', objectUid: namespace.metadata.uid }));
    const r = await evtimeline(['-n', ns, '-o', 'json'], cp.kubeconfig);
    assert.equal(r.code, 0, r.stderr);
    const dots = (JSON.parse(r.stdout) as { name: string; incarnation?: string }[]).find((e) => e.name === 'dots');
    assert.equal(dots?.incarnation, 'unknown');
  });
});

describe('counts at the int32 edge', () => {
  test('--count 2147483648 --dry-run=client is a usage error', async () => {
    const r = await evtimeline(['aggregate-patch', 'plain', '-n', ns, '--count', '2147483648', '--dry-run=client'], cp.kubeconfig);
    assert.equal(r.code, 2);
    assert.equal(stderrLine(r), `error: --count "2147483648": want a whole number from 1 to 2147483647 (the API's int32 count)`);
  });

  test('--add past int32 from the stored count is a usage error, and nothing is patched', async () => {
    await ok(['-n', ns, 'create', '-f', '-'], event('full', { count: 2147483647 }));
    const r = await evtimeline(['aggregate-patch', 'full', '-n', ns, '--add', '1'], cp.kubeconfig);
    assert.equal(r.code, 2);
    assert.equal(stderrLine(r), `error: --add 1 would take the count of event full from 2147483647 past 2147483647 (the API's int32 count)`);
    const stored = JSON.parse(await ok(['-n', ns, 'get', 'event', 'full', '-o', 'json'])) as { count: number };
    assert.equal(stored.count, 2147483647);
  });
});

describe('a plain http:// server, as kubectl proxy serves one', () => {
  let proxy: ChildProcess | undefined;
  after(() => {
    proxy?.kill('SIGTERM');
  });

  test('reads the events kubectl reads through the same proxy', async () => {
    proxy = spawn('kubectl', ['--kubeconfig', cp.kubeconfig, 'proxy', '--port=0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const port = await new Promise<string>((resolve, reject) => {
      let out = '';
      proxy?.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /127\.0\.0\.1:(\d+)/.exec(out);
        if (match?.[1]) resolve(match[1]);
      });
      proxy?.on('exit', (code) => reject(new Error(`kubectl proxy exited ${code}`)));
    });
    const config = join(work, 'proxy.kubeconfig');
    writeFileSync(
      config,
      [
        'apiVersion: v1',
        'kind: Config',
        'current-context: proxy',
        `clusters: [{name: proxy, cluster: {server: "http://127.0.0.1:${port}"}}]`,
        'users: [{name: proxy, user: {}}]',
        `contexts: [{name: proxy, context: {cluster: proxy, user: proxy, namespace: ${ns}}}]`,
        '',
      ].join('\n'),
    );
    const reference = await kubectl(['get', 'events', '-o', 'name'], config);
    assert.equal(reference.code, 0, reference.stderr);
    const r = await evtimeline(['-o', 'json'], config);
    assert.equal(r.code, 0, r.stderr);
    const names = (JSON.parse(r.stdout) as { name: string }[]).map((e) => `event/${e.name}`).sort();
    assert.deepEqual(names, reference.stdout.split('\n').filter((l) => l !== '').sort());
  });
});

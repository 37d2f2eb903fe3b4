// kubectl's global connection flags and the ways real clusters authenticate, against the real
// kube-apiserver, the plugin run as kubectl's plugin mechanism runs it: an exec credential plugin, a client
// certificate signed by the cluster's client CA, a kubeconfig tokenFile, --token, impersonation,
// --insecure-skip-tls-verify, --certificate-authority, --tls-server-name, -v=6, and proxies
// (kubeconfig proxy-url, HTTPS_PROXY/NO_PROXY) through a CONNECT proxy on loopback.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { sharedControlPlane } from '../harness/controlplane.ts';
import type { ControlPlane } from '../harness/controlplane.ts';
import { startConnectProxy } from '../harness/connect-proxy.ts';
import type { ConnectProxy } from '../harness/connect-proxy.ts';
import { freshNamespace } from '../harness/namespace.ts';
import { evtimeline, kubectl, pluginEnv } from '../harness/plugin.ts';
import { startTcpProxy } from '../harness/tcp-proxy.ts';
import { waitFor } from '../harness/wait.ts';
import { scratchDir } from '../support/tmp.ts';

const cpPromise = sharedControlPlane();
let cp: ControlPlane;
let ns: string;
let work: string;
let proxy: ConnectProxy;

interface Kubeconfig {
  server?: string;
  cluster?: Record<string, unknown>;
  user: Record<string, unknown>;
}

let written = 0;
/** A kubeconfig for the test cluster with the given user (and cluster fields, CA data by default). */
function kubeconfig(k: Kubeconfig): string {
  const path = join(work, `kubeconfig-${++written}`);
  const cluster = k.cluster ?? { 'certificate-authority-data': Buffer.from(cp.ca).toString('base64') };
  writeFileSync(
    path,
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      'current-context': 'test',
      clusters: [{ name: 'test', cluster: { server: k.server ?? cp.server, ...cluster } }],
      users: [{ name: 'someone', user: k.user }],
      contexts: [{ name: 'test', context: { cluster: 'test', user: 'someone', namespace: ns } }],
    }),
  );
  return path;
}

/** An exec credential plugin: a shell script that counts its runs, keeps its environment, prints `credential`. */
function execPlugin(name: string, credential: unknown, extra = ''): { command: string; runs(): number; execInfo(): Record<string, unknown> } {
  const dir = join(work, name);
  const command = `${dir}.sh`;
  writeFileSync(
    command,
    `#!/bin/sh\necho run >> '${dir}.runs'\nprintf '%s' "$KUBERNETES_EXEC_INFO" > '${dir}.info'\n${extra}\ncat <<'EOF'\n${JSON.stringify(credential)}\nEOF\n`,
  );
  chmodSync(command, 0o755);
  return {
    command,
    runs: () => (existsSync(`${dir}.runs`) ? readFileSync(`${dir}.runs`, 'utf8').split('\n').filter(Boolean).length : 0),
    execInfo: () => JSON.parse(readFileSync(`${dir}.info`, 'utf8')) as Record<string, unknown>,
  };
}

function credential(token: string, expirationTimestamp?: string): unknown {
  return { apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: { token, ...(expirationTimestamp ? { expirationTimestamp } : {}) } };
}

function exec(command: string, interactiveMode = 'IfAvailable'): Record<string, unknown> {
  return { exec: { apiVersion: 'client.authentication.k8s.io/v1', command, interactiveMode } };
}

/** The names the plugin lists in the test namespace: proof that it read the cluster. */
async function names(config: string, args: string[] = [], env: NodeJS.ProcessEnv = {}) {
  return evtimeline(['-o', 'name', ...args], config, { env });
}

const EVENT = 'auth-check';

/** A core/v1 event in the test namespace about `object`, happening now. */
async function createEvent(name: string, object: Record<string, string>, message: string): Promise<void> {
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const event = { apiVersion: 'v1', kind: 'Event', metadata: { name, namespace: ns }, involvedObject: object, reason: 'Checked', type: 'Normal', message, firstTimestamp: now, lastTimestamp: now, count: 1 };
  const r = await kubectl(['apply', '-f', '-'], cp.kubeconfig, { input: JSON.stringify(event) });
  assert.equal(r.code, 0, r.stderr);
}

before(async () => {
  cp = await cpPromise;
  work = scratchDir('auth');
  ns = await freshNamespace(cp.kubeconfig, 'auth');
  // A uid, so the timeline also looks the Pod up: a second request.
  await createEvent(EVENT, { apiVersion: 'v1', kind: 'Pod', name: 'p', namespace: ns, uid: '0b7c6a9e-4d0f-4c55-9f3b-6d2f5e1a0c11' }, 'an event only an authenticated reader sees');
  proxy = await startConnectProxy({ 'kubernetes.default.svc': '127.0.0.1' });
});

after(async () => proxy?.close());

const LISTED = `event/${EVENT}\n`;

test('an exec credential plugin authenticates, runs once per process, and is told it is not interactive', async () => {
  const plugin = execPlugin('exec-once', credential(cp.token));
  // The timeline lists events and then looks up the Pod they are about: several requests, one run.
  const r = await evtimeline(['-o', 'wide', '-v=6'], kubeconfig({ user: exec(plugin.command) }));
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /Checked/);
  assert.ok(r.stderr.split('\n').filter((line) => line.includes('"Response"')).length >= 2, r.stderr);
  assert.equal(plugin.runs(), 1);
  assert.deepEqual(plugin.execInfo(), { kind: 'ExecCredential', apiVersion: 'client.authentication.k8s.io/v1', spec: { interactive: false } });
});

test('an expired exec credential is not reused: the plugin runs again for the next request', async () => {
  const plugin = execPlugin('exec-expired', credential(cp.token, '2020-01-01T00:00:00Z'));
  const r = await evtimeline(['-o', 'wide', '-v=6'], kubeconfig({ user: exec(plugin.command) }));
  assert.equal(r.code, 0, r.stderr);
  const requests = r.stderr.split('\n').filter((line) => line.includes('"Response"')).length;
  assert.ok(requests >= 2, r.stderr);
  assert.equal(plugin.runs(), requests);
});

test('provideClusterInfo hands the plugin the cluster, as client-go does', async () => {
  const plugin = execPlugin('exec-cluster', credential(cp.token));
  const user = { exec: { ...(exec(plugin.command).exec as object), provideClusterInfo: true } };
  assert.equal((await names(kubeconfig({ user }))).stdout, LISTED);
  const spec = plugin.execInfo().spec as { cluster: { server: string; 'certificate-authority-data': string } };
  assert.equal(spec.cluster.server, cp.server);
  assert.equal(Buffer.from(spec.cluster['certificate-authority-data'], 'base64').toString(), cp.ca);
});

test('exec plugin failures are one line naming the plugin and why, never the token', async () => {
  const always = execPlugin('exec-always', credential(cp.token));
  const r1 = await names(kubeconfig({ user: exec(always.command, 'Always') }));
  assert.equal(r1.code, 1);
  assert.equal(r1.stderr, `error: exec credential plugin ${JSON.stringify(always.command)} of user "someone": interactiveMode is Always, but standard input is not a terminal\n`);
  assert.equal(always.runs(), 0);

  const failing = execPlugin('exec-fails', credential(cp.token), 'echo "the SSO session expired: run aws sso login" >&2; exit 3');
  const r2 = await names(kubeconfig({ user: exec(failing.command) }));
  assert.equal(r2.code, 1);
  assert.match(r2.stderr, /error: exec credential plugin ".*exec-fails\.sh" of user "someone": it failed with exit code 3: the SSO session expired: run aws sso login\n$/);

  const wrongVersion = execPlugin('exec-version', { apiVersion: 'client.authentication.k8s.io/v1beta1', kind: 'ExecCredential', status: { token: cp.token } });
  const r3 = await names(kubeconfig({ user: exec(wrongVersion.command) }));
  assert.match(r3.stderr, /exec plugin is configured to use API version client\.authentication\.k8s\.io\/v1, plugin returned version client\.authentication\.k8s\.io\/v1beta1\n$/);

  const refused = execPlugin('exec-refused', credential('not-a-token-the-server-knows'));
  const r4 = await names(kubeconfig({ user: exec(refused.command) }));
  assert.equal(r4.code, 1);
  assert.match(r4.stderr, /refused the credentials \(401 Unauthorized\): the token from exec credential plugin ".*exec-refused\.sh"\n$/);
  assert.doesNotMatch(r4.stderr, /not-a-token-the-server-knows/);
});

test('a client certificate signed by the cluster client CA authenticates; one from another CA is refused by name', async () => {
  const user = { 'client-certificate': join(cp.dir, 'client.crt'), 'client-key': join(cp.dir, 'client.key') };
  assert.ok(existsSync(user['client-certificate']), `the control plane wrote no client certificate in ${cp.dir}`);
  const r = await names(kubeconfig({ user }));
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, LISTED);
  // The same through kubectl's flags, over a kubeconfig user with no credentials.
  const flags = await names(kubeconfig({ user: {} }), ['--client-certificate', user['client-certificate'], '--client-key', user['client-key']]);
  assert.equal(flags.stdout, LISTED, flags.stderr);

  const stranger = await names(kubeconfig({ user: { 'client-certificate': join(cp.dir, 'stranger.crt'), 'client-key': join(cp.dir, 'stranger.key') } }));
  assert.equal(stranger.code, 1);
  assert.equal(stranger.stderr, `error: the API server at ${cp.server} refused the credentials (401 Unauthorized): the client certificate ${join(cp.dir, 'stranger.crt')}\n`);
});

test('a kubeconfig tokenFile (relative to the kubeconfig) authenticates; an empty one is named', async () => {
  writeFileSync(join(work, 'token'), `${cp.token}\n`);
  const r = await names(kubeconfig({ user: { tokenFile: 'token' } }));
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, LISTED);
  writeFileSync(join(work, 'empty-token'), '\n');
  const empty = await names(kubeconfig({ user: { tokenFile: 'empty-token' } }));
  assert.equal(empty.stderr, `error: tokenFile ${join(work, 'empty-token')}: read empty token from file\n`);
});

test('--token wins over the kubeconfig; a refused one is named without being shown', async () => {
  const r = await names(cp.viewerKubeconfig, ['-n', ns, '--token', cp.token]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, LISTED);
  const bad = await names(cp.kubeconfig, ['-n', ns, '--token', 'sekrit-value-123']);
  assert.equal(bad.code, 1);
  assert.equal(bad.stderr, `error: the API server at ${cp.server} refused the credentials (401 Unauthorized): the bearer token from --token\n`);
});

test('--as viewer is refused what viewer is refused; --as-group widens it; --as-group alone is an error', async () => {
  const asViewer = await names(cp.kubeconfig, ['-n', ns, '--as', 'viewer']);
  const viewer = await names(cp.viewerKubeconfig, ['-n', ns]);
  assert.equal(viewer.code, 1);
  assert.equal(asViewer.code, 1);
  assert.equal(asViewer.stderr, viewer.stderr);
  assert.match(viewer.stderr, /User "viewer" cannot list resource "events"/);
  const masters = await names(cp.kubeconfig, ['-n', ns, '--as', 'viewer', '--as-group', 'system:masters', '--as-group', 'system:authenticated']);
  assert.equal(masters.stdout, LISTED, masters.stderr);
  const groupOnly = await names(cp.kubeconfig, ['-n', ns, '--as-group', 'system:masters']);
  assert.equal(groupOnly.code, 1);
  assert.match(groupOnly.stderr, /without impersonating a user: pass --as/);
});

test('TLS: no CA fails, --insecure-skip-tls-verify and --certificate-authority work, --tls-server-name is checked', async () => {
  writeFileSync(join(work, 'ca.crt'), cp.ca);
  const noCa = kubeconfig({ cluster: {}, user: { token: cp.token } });
  const unverified = await names(noCa);
  assert.equal(unverified.code, 1);
  assert.match(unverified.stderr, /cannot trust the API server at .*: TLS verification failed \((SELF_SIGNED|UNABLE_TO_VERIFY|DEPTH_ZERO)/);
  assert.equal((await names(noCa, ['--insecure-skip-tls-verify'])).stdout, LISTED);
  assert.equal((await names(noCa, ['--certificate-authority', join(work, 'ca.crt')])).stdout, LISTED);
  const good = await names(cp.kubeconfig, ['-n', ns, '--tls-server-name', 'kubernetes.default']);
  assert.equal(good.stdout, LISTED, good.stderr);
  const wrong = await names(cp.kubeconfig, ['-n', ns, '--tls-server-name', 'wrong.example']);
  assert.equal(wrong.code, 1);
  assert.match(wrong.stderr, /ERR_TLS_CERT_ALTNAME_INVALID/);
});

test('--server and --user pick other values than the context names', async () => {
  const port = new URL(cp.server).port;
  const config = kubeconfig({ server: 'https://127.0.0.1:1', user: { token: cp.token } });
  const r = await names(config, ['-s', `https://localhost:${port}`]);
  assert.equal(r.stdout, LISTED, r.stderr);
  const unknownUser = await names(config, ['--user', 'nobody']);
  assert.equal(unknownUser.stderr, 'error: auth info "nobody" does not exist in the kubeconfig\n');
});

test('-v=6 prints each request line and status on stderr, never the token', async () => {
  const r = await evtimeline(['-n', ns, '-o', 'name', '-v=6'], cp.kubeconfig);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, new RegExp(`"Response" verb="GET" url="${cp.server}/api/v1/namespaces/${ns}/events\\?limit=500" status="200 OK" milliseconds=\\d+`));
  assert.ok(!r.stderr.includes(cp.token));
  const quiet = await evtimeline(['-n', ns, '-o', 'name'], cp.kubeconfig);
  assert.equal(quiet.stderr, '');
});

test('proxies: kubeconfig proxy-url, HTTPS_PROXY, NO_PROXY, and no proxy from the environment for loopback, as kubectl does', async () => {
  const before = proxy.connects.length;
  const viaUrl = await names(kubeconfig({ cluster: { 'certificate-authority-data': Buffer.from(cp.ca).toString('base64'), 'proxy-url': proxy.url }, user: { token: cp.token } }));
  assert.equal(viaUrl.stdout, LISTED, viaUrl.stderr);
  assert.ok(proxy.connects.length > before);

  // A name only the proxy can resolve: through HTTPS_PROXY it works, with NO_PROXY it cannot.
  const port = new URL(cp.server).port;
  const named = kubeconfig({ server: `https://kubernetes.default.svc:${port}`, user: { token: cp.token } });
  const viaEnv = await names(named, [], { HTTPS_PROXY: proxy.url, NO_PROXY: 'example.com' });
  assert.equal(viaEnv.stdout, LISTED, viaEnv.stderr);
  assert.ok(proxy.connects.includes(`kubernetes.default.svc:${port}`));
  const bypassed = await names(named, [], { HTTPS_PROXY: proxy.url, NO_PROXY: '.svc' });
  assert.equal(bypassed.code, 1);
  assert.match(bypassed.stderr, /cannot reach the API server at https:\/\/kubernetes\.default\.svc:\d+ .*(ENOTFOUND|EAI_AGAIN)/);

  const loopbackBefore = proxy.connects.length;
  const loopback = await names(cp.kubeconfig, ['-n', ns], { HTTPS_PROXY: proxy.url });
  assert.equal(loopback.stdout, LISTED, loopback.stderr);
  assert.equal(proxy.connects.length, loopbackBefore);
});

test('completion through kubectl: namespaces from the cluster, users and clusters from the kubeconfig, the new flags', async () => {
  const namespaces = await kubectl(['__complete', 'evtimeline', '-n', ns.slice(0, 8)], cp.kubeconfig);
  assert.ok(namespaces.stdout.split('\n').includes(ns), namespaces.stdout);
  const users = await kubectl(['__complete', 'evtimeline', '--user', ''], cp.viewerKubeconfig);
  assert.ok(users.stdout.split('\n').includes('viewer'), users.stdout);
  const flags = await kubectl(['__complete', 'evtimeline', '--watch'], cp.kubeconfig);
  assert.deepEqual(flags.stdout.split('\n').filter((l) => l.startsWith('--')), ['--watch', '--watch-only']);
  // The lookups are made as the command will be: viewer may not list namespaces, --token or
  // --as change who asks, as in kubectl's own completion.
  const candidates = (r: { stdout: string }) => r.stdout.split('\n').filter((l) => l !== '' && !l.startsWith(':'));
  assert.deepEqual(candidates(await kubectl(['__complete', 'evtimeline', '-n', ns.slice(0, 8)], cp.viewerKubeconfig)), []);
  const withToken = await kubectl(['__complete', 'evtimeline', '--token', cp.token, '-n', ns.slice(0, 8)], cp.viewerKubeconfig);
  assert.ok(candidates(withToken).includes(ns), withToken.stdout);
  assert.deepEqual(candidates(await kubectl(['__complete', 'evtimeline', '--as', 'viewer', '-n', ns.slice(0, 8)], cp.kubeconfig)), []);
  const events = await kubectl(['__complete', 'evtimeline', '--token', cp.token, 'aggregate-patch', '-n', ns, ''], cp.viewerKubeconfig);
  assert.ok(candidates(events).includes(EVENT), events.stdout);
  assert.deepEqual(candidates(await kubectl(['__complete', 'evtimeline', '--context', ''], cp.kubeconfig)), ['evtimeline']);
  assert.deepEqual(candidates(await kubectl(['__complete', 'evtimeline', 'type-audit', '-o', ''], cp.kubeconfig)), ['text', 'json', 'yaml', 'name', 'jsonpath=', 'jsonpath-file=', 'jsonpath-as-json=']);
});

test('on a terminal, an IfAvailable or Always plugin is told it may talk to the user and gets stdin; Never gets neither', async () => {
  // script(1) (util-linux) runs the command on a pseudo-terminal: stdin is a terminal there.
  const onTerminal = (config: string) =>
    new Promise<number | null>((resolve) => {
      const child = spawn('script', ['-qec', `kubectl evtimeline -o name --kubeconfig ${config}`, '/dev/null'], { env: pluginEnv(config), stdio: ['pipe', 'pipe', 'pipe'] });
      child.on('exit', (code) => resolve(code));
      child.stdin.end();
    });
  const asks = execPlugin('exec-tty', credential(cp.token), `[ -t 0 ] && echo stdin-is-a-terminal >> '${join(work, 'exec-tty.stdin')}'`);
  assert.equal(await onTerminal(kubeconfig({ user: exec(asks.command, 'IfAvailable') })), 0);
  assert.deepEqual(asks.execInfo(), { kind: 'ExecCredential', apiVersion: 'client.authentication.k8s.io/v1', spec: { interactive: true } });
  assert.equal(readFileSync(join(work, 'exec-tty.stdin'), 'utf8'), 'stdin-is-a-terminal\n');

  const always = execPlugin('exec-always-tty', credential(cp.token), `[ -t 0 ] && echo stdin-is-a-terminal >> '${join(work, 'exec-always-tty.stdin')}'`);
  assert.equal(await onTerminal(kubeconfig({ user: exec(always.command, 'Always') })), 0);
  assert.deepEqual(always.execInfo(), { kind: 'ExecCredential', apiVersion: 'client.authentication.k8s.io/v1', spec: { interactive: true } });
  assert.equal(readFileSync(join(work, 'exec-always-tty.stdin'), 'utf8'), 'stdin-is-a-terminal\n');

  const never = execPlugin('exec-never', credential(cp.token), `[ -t 0 ] && echo stdin-is-a-terminal >> '${join(work, 'exec-never.stdin')}'`);
  assert.equal(await onTerminal(kubeconfig({ user: exec(never.command, 'Never') })), 0);
  assert.deepEqual(never.execInfo(), { kind: 'ExecCredential', apiVersion: 'client.authentication.k8s.io/v1', spec: { interactive: false } });
  assert.equal(existsSync(join(work, 'exec-never.stdin')), false);
});

test('every refused credential is one line naming its mechanism, and the secret is on neither stdout nor stderr, -v=6 included', async () => {
  const secret = 'Sekrit-Value-0123456789abcdef';
  writeFileSync(join(work, 'secret-token'), `${secret}\n`);
  const refusedExec = execPlugin('exec-secret', credential(secret));
  const cases: Array<{ config: string; args: string[]; names: RegExp }> = [
    { config: cp.kubeconfig, args: ['-n', ns, '--token', secret], names: /the bearer token from --token$/ },
    { config: kubeconfig({ user: { token: secret } }), args: [], names: /the bearer token of kubeconfig user "someone"$/ },
    { config: kubeconfig({ user: { tokenFile: 'secret-token' } }), args: [], names: new RegExp(`the bearer token in tokenFile ${join(work, 'secret-token')}$`) },
    { config: kubeconfig({ user: exec(refusedExec.command) }), args: [], names: /the token from exec credential plugin ".*exec-secret\.sh"$/ },
  ];
  for (const c of cases) {
    for (const verbosity of [[], ['-v=6']]) {
      const r = await names(c.config, [...c.args, ...verbosity]);
      const label = `${c.names.source} ${verbosity.join('')}`;
      assert.equal(r.code, 1, label);
      assert.equal(r.stdout, '', label);
      assert.ok(!r.stdout.includes(secret) && !r.stderr.includes(secret), `${label}: the secret was printed:\n${r.stderr}`);
      const errors = r.stderr.split('\n').filter((l) => l.startsWith('error: '));
      assert.equal(errors.length, 1, r.stderr);
      assert.match(errors[0] ?? '', new RegExp(`^error: the API server at ${cp.server} refused the credentials \\(401 Unauthorized\\): `), label);
      assert.match(errors[0] ?? '', c.names, label);
      if (verbosity.length > 0) assert.match(r.stderr, /"Response" verb="GET" url="[^"]*\/events\?limit=500" status="401 Unauthorized"/, label);
    }
  }
});

test('--context and --cluster pick the kubeconfig entries kubectl would; the kubeconfig user\'s as and as-groups impersonate', async () => {
  const ca = Buffer.from(cp.ca).toString('base64');
  const path = join(work, 'two-of-each');
  writeFileSync(
    path,
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      'current-context': 'broken',
      clusters: [
        { name: 'nowhere', cluster: { server: 'https://127.0.0.1:1', 'certificate-authority-data': ca } },
        { name: 'test', cluster: { server: cp.server, 'certificate-authority-data': ca } },
      ],
      users: [
        { name: 'admin', user: { token: cp.token } },
        { name: 'as-viewer', user: { token: cp.token, as: 'viewer' } },
        { name: 'as-viewer-masters', user: { token: cp.token, as: 'viewer', 'as-groups': ['system:masters'] } },
      ],
      contexts: [
        { name: 'broken', context: { cluster: 'nowhere', user: 'admin', namespace: ns } },
        { name: 'working', context: { cluster: 'test', user: 'admin', namespace: ns } },
      ],
    }),
  );
  const broken = await names(path);
  assert.equal(broken.code, 1);
  assert.match(broken.stderr, /^error: cannot reach the API server at https:\/\/127\.0\.0\.1:1 /);
  assert.equal((await names(path, ['--context', 'working'])).stdout, LISTED);
  assert.equal((await names(path, ['--cluster', 'test'])).stdout, LISTED);
  const viewer = await names(cp.viewerKubeconfig, ['-n', ns]);
  const asViewer = await names(path, ['--cluster', 'test', '--user', 'as-viewer']);
  assert.equal(asViewer.code, 1);
  assert.equal(asViewer.stderr, viewer.stderr);
  assert.equal((await names(path, ['--cluster', 'test', '--user', 'as-viewer-masters'])).stdout, LISTED);
});

test('--as-uid is sent: a user allowed to impersonate users but not uids is refused the uid', async () => {
  const role = `evtimeline-impersonate-users-${ns}`;
  const rbac = [
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: role }, rules: [{ apiGroups: [''], resources: ['users', 'groups'], verbs: ['impersonate'] }] },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: role },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'viewer' }],
    },
  ];
  const applied = await kubectl(['apply', '-f', '-'], cp.kubeconfig, { input: JSON.stringify({ apiVersion: 'v1', kind: 'List', items: rbac }) });
  assert.equal(applied.code, 0, applied.stderr);
  try {
    // viewer may become someone in system:masters; with a uid as well it may not.
    const masters = await waitForListed(() => names(cp.viewerKubeconfig, ['-n', ns, '--as', 'someone', '--as-group', 'system:masters']));
    assert.equal(masters.stdout, LISTED, masters.stderr);
    const withUid = await names(cp.viewerKubeconfig, ['-n', ns, '--as', 'someone', '--as-group', 'system:masters', '--as-uid', '1234']);
    assert.equal(withUid.code, 1);
    assert.match(withUid.stderr, /^error: .*User "viewer" cannot impersonate resource "uids" in API group "authentication\.k8s\.io"/);
    const uidOnly = await names(cp.kubeconfig, ['-n', ns, '--as-uid', '1234']);
    assert.equal(uidOnly.code, 1);
    assert.match(uidOnly.stderr, /without impersonating a user: pass --as/);
  } finally {
    await kubectl(['delete', 'clusterrolebinding,clusterrole', role, '--ignore-not-found'], cp.kubeconfig);
  }
});

/** RBAC takes effect once the authorizer's informers have seen the binding: asks until it does. */
async function waitForListed(run: () => Promise<{ code: number; stdout: string; stderr: string }>): Promise<{ code: number; stdout: string; stderr: string }> {
  for (let i = 0; ; i += 1) {
    const r = await run();
    if (r.stdout === LISTED || i === 40) return r;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

test('-w with an exec plugin whose token the server stops accepting: the plugin runs again once and the follow goes on', { timeout: 180_000 }, async () => {
  // A service account's token, revoked mid-follow by deleting the account; the plugin's second run gives the admin's.
  const sa = await kubectl(['-n', ns, 'create', 'serviceaccount', 'watcher'], cp.kubeconfig);
  assert.equal(sa.code, 0, sa.stderr);
  const bound = await kubectl(['-n', ns, 'create', 'rolebinding', 'watcher-view', '--clusterrole=view', `--serviceaccount=${ns}:watcher`], cp.kubeconfig);
  assert.equal(bound.code, 0, bound.stderr);
  const issued = await kubectl(['-n', ns, 'create', 'token', 'watcher'], cp.kubeconfig);
  assert.equal(issued.code, 0, issued.stderr);
  const saToken = issued.stdout.trim();
  const dir = join(work, 'exec-rotating');
  const script = `${dir}.sh`;
  writeFileSync(
    script,
    `#!/bin/sh\necho run >> '${dir}.runs'\nif [ "$(wc -l < '${dir}.runs')" -eq 1 ]; then token='${saToken}'; else token='${cp.token}'; fi\n` +
      `printf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"%s"}}' "$token"\n`,
  );
  chmodSync(script, 0o755);
  const runs = () => readFileSync(`${dir}.runs`, 'utf8').split('\n').filter(Boolean).length;
  const tcp = await startTcpProxy(cp.server);
  try {
    const config = kubeconfig({ server: tcp.url, user: exec(script, 'Never') });
    const child = spawn('kubectl', ['evtimeline', '-w', '-o', 'name'], { env: pluginEnv(config), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      await waitFor('the listed event', async () => out === LISTED);
      assert.equal(runs(), 1);
      const deleted = await kubectl(['-n', ns, 'delete', 'serviceaccount', 'watcher'], cp.kubeconfig);
      assert.equal(deleted.code, 0, deleted.stderr);
      await waitFor('the server to refuse the revoked token', async () => (await names(kubeconfig({ user: { token: saToken } }))).code === 1);
      // The watch's connection drops; resuming, the follower meets the 401.
      assert.ok(tcp.cutAll() > 0);
      const created = await kubectl(['-n', ns, 'create', 'configmap', 'renewed'], cp.kubeconfig);
      assert.equal(created.code, 0, created.stderr);
      await createEvent('after-renewal', { apiVersion: 'v1', kind: 'ConfigMap', name: 'renewed', namespace: ns }, 'seen with the renewed credential');
      await waitFor('the event after the renewal', async () => out === `${LISTED}event/after-renewal\n` || child.exitCode !== null);
    } finally {
      child.kill('SIGINT');
    }
    assert.equal(await exited, 0, err);
    assert.equal(out, `${LISTED}event/after-renewal\n`);
    assert.equal(runs(), 2);
    assert.match(err, /^watch refused the exec credential plugin's token \(401 Unauthorized\): running the plugin again$/m);
    assert.ok(!err.includes(saToken) && !err.includes(cp.token));
  } finally {
    await tcp.close();
    await kubectl(['-n', ns, 'delete', 'rolebinding', 'watcher-view', '--ignore-not-found'], cp.kubeconfig);
  }
});

/** A kubeconfig user with an oidc auth-provider; the issuer is a closed port: nothing here may need it. */
function oidcUser(idToken: string, extra: Record<string, string> = {}): Record<string, unknown> {
  return { 'auth-provider': { name: 'oidc', config: { 'client-id': 'kubernetes', 'idp-issuer-url': 'https://127.0.0.1:1', 'id-token': idToken, ...extra } } };
}

/** The same JWT with its exp claim replaced: its signature no longer verifies, which only the server checks. */
function withExp(token: string, exp: number): string {
  const [header, payload, signature] = token.split('.');
  const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
  return `${header}.${Buffer.from(JSON.stringify({ ...claims, exp })).toString('base64url')}.${signature}`;
}

/** A service account's token: a JWT the apiserver accepts, with a real exp claim. */
async function serviceAccountToken(name: string): Promise<string> {
  for (const args of [['create', 'serviceaccount', name], ['create', 'rolebinding', `${name}-view`, '--clusterrole=view', `--serviceaccount=${ns}:${name}`]]) {
    const r = await kubectl(['-n', ns, ...args], cp.kubeconfig);
    assert.equal(r.code, 0, r.stderr);
  }
  const issued = await kubectl(['-n', ns, 'create', 'token', name, '--duration', '1h'], cp.kubeconfig);
  assert.equal(issued.code, 0, issued.stderr);
  return issued.stdout.trim();
}

test('oidc auth-provider: an unexpired id-token is the bearer token, as kubectl sends it; a --token wins over it; an exec plugin beside it is refused', async () => {
  const token = await serviceAccountToken('oidc-reader');
  const config = kubeconfig({ user: oidcUser(token) });
  const r = await names(config);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(r.stdout.includes(LISTED), r.stdout);
  // kubectl lists by name, the timeline by time: the same names.
  const reference = await kubectl(['get', 'events', '-o', 'name'], config);
  assert.equal(reference.code, 0, reference.stderr);
  const sorted = (text: string) => text.split('\n').filter(Boolean).sort();
  assert.deepEqual(sorted(r.stdout), sorted(reference.stdout));
  // An unexpired id-token the server cannot verify (its exp moved past the real one) is sent and refused: the 401 names it.
  const forged = await names(kubeconfig({ user: oidcUser(withExp(token, Math.floor(Date.now() / 1000) + 7200)) }), ['-v=6']);
  assert.equal(forged.code, 1);
  assert.match(forged.stderr, /"Response" verb="GET" url="[^"]*\/events\?limit=500" status="401 Unauthorized"/);
  assert.match(forged.stderr, /^error: the API server at \S+ refused the credentials \(401 Unauthorized\): the id-token of auth-provider "oidc" of kubeconfig user "someone"\n$/m);
  assert.ok(!forged.stderr.includes(token.split('.')[2] ?? token));
  const overridden = await names(kubeconfig({ user: oidcUser('not-a-jwt') }), ['--token', cp.token]);
  assert.equal(overridden.stdout, r.stdout, overridden.stderr);
  // An exec plugin beside the auth-provider is refused before anything runs, in kubectl's words.
  const plugin = execPlugin('exec-beside-oidc', credential(cp.token));
  const both = kubeconfig({ user: { ...exec(plugin.command), ...oidcUser(token) } });
  const refused = await names(both);
  assert.equal(refused.code, 1);
  assert.equal(refused.stderr, 'error: authProvider cannot be provided in combination with an exec plugin for someone\n');
  assert.equal(plugin.runs(), 0);
  const kubectlRefused = await kubectl(['get', 'events', '-o', 'name'], both);
  assert.equal(kubectlRefused.code, 1);
  assert.match(kubectlRefused.stderr, /authProvider cannot be provided in combination with an exec plugin for someone/);
});

test('oidc auth-provider: an expired id-token is never sent; without a refresh-token, one line says why, as kubectl refuses it, -w too', async () => {
  const token = await serviceAccountToken('oidc-expired');
  // client-go decodes exp without verifying (oidc.go idTokenExpired): an exp in the past, or within 10 s.
  for (const exp of [Math.floor(Date.now() / 1000) - 3600, Math.floor(Date.now() / 1000) + 5]) {
    const expired = withExp(token, exp);
    const config = kubeconfig({ user: oidcUser(expired) });
    for (const verbosity of [[], ['-v=6']]) {
      const r = await names(config, verbosity);
      assert.equal(r.code, 1, r.stderr);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /^error: auth-provider "oidc" of user "someone": the id-token (expired at|expires at) \S+Z(, less than 10 s from now)?, and cannot refresh without refresh-token\n$/);
      assert.ok(!r.stderr.includes(expired) && !r.stderr.includes(token.split('.')[1] ?? token), r.stderr);
    }
    const reference = await kubectl(['get', 'events', '-o', 'name'], config);
    assert.equal(reference.code, 1);
    assert.match(reference.stderr, /No valid id-token, and cannot refresh without refresh-token/);
    // -w stops at once with the same line: asking again cannot help (it retried for minutes, as if the server were down).
    const watched = await names(config, ['-w']);
    assert.equal(watched.code, 1);
    assert.match(watched.stderr, /^error: auth-provider "oidc" of user "someone": the id-token [^\n]*, and cannot refresh without refresh-token\n$/);
  }
});

test('oidc auth-provider: with a refresh-token, an expired id-token says in one line that refreshing is not supported; kubectl would ask the issuer', async () => {
  const token = await serviceAccountToken('oidc-refresh');
  const expired = withExp(token, Math.floor(Date.now() / 1000) - 60);
  const refresh = 'Refresh-Secret-0123456789';
  const config = kubeconfig({ user: oidcUser(expired, { 'refresh-token': refresh }) });
  for (const verbosity of [[], ['-v=6']]) {
    const r = await names(config, verbosity);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^error: auth-provider "oidc" of user "someone": the id-token expired at \S+Z, and kubectl evtimeline does not support refreshing it with the refresh-token; kubectl does and saves the new id-token in the kubeconfig: run e\.g\. kubectl auth whoami with the same kubeconfig and context, then this again\n$/);
    for (const secret of [expired, refresh]) assert.ok(!r.stderr.includes(secret), r.stderr);
  }
  // kubectl asks the issuer's discovery document for its token endpoint (oidc.go tokenEndpoint): a closed port here.
  const reference = await kubectl(['get', 'events', '-o', 'name', '-v=6'], config);
  assert.equal(reference.code, 1);
  assert.match(reference.stderr, /https:\/\/127\.0\.0\.1:1\/\.well-known\/openid-configuration/);
});

test('a credential this machine cannot make stops -w and record at once with the one-shot line, never retried as a server that is down', { timeout: 600_000 }, async () => {
  // kubectl stops at once on these (client-go's round tripper fails before sending anything); the
  // follower used to take them for an unreachable server and run the plugin or read the file ten
  // times over two minutes.
  const failing = execPlugin('exec-fails-w', credential(cp.token), 'echo "the SSO session expired: run aws sso login" >&2; exit 1');
  const notPem = join(work, 'not-pem.key');
  writeFileSync(notPem, 'this is not a key\n');
  const cases = [
    { config: kubeconfig({ user: exec(failing.command) }), line: /^error: exec credential plugin ".*exec-fails-w\.sh" of user "someone": it failed with exit code 1: the SSO session expired: run aws sso login$/m },
    { config: kubeconfig({ user: { tokenFile: 'no-such-token' } }), line: new RegExp(`^error: tokenFile ${join(work, 'no-such-token')}: cannot read it \\(.*no such file or directory.*\\)$`, 'm') },
    { config: kubeconfig({ user: { 'client-certificate': join(work, 'no-such.crt'), 'client-key': join(work, 'no-such.key') } }), line: /^error: cannot prepare a request to .*no-such\.crt.*$/m },
    // A key that is not its certificate's, and one that is not PEM: kubectl's (Go crypto/tls's)
    // words, not OpenSSL's internals as an internal error, and not retried for minutes.
    {
      config: kubeconfig({ user: { 'client-certificate': join(cp.dir, 'client.crt'), 'client-key': join(cp.dir, 'stranger.key') } }),
      line: new RegExp(`^error: cannot prepare a request to ${cp.server.replace(/\./g, '\\.')} \\(context "test"\\): tls: private key does not match public key \\(client-certificate ${join(cp.dir, 'client.crt')}, client-key ${join(cp.dir, 'stranger.key')}\\)$`, 'm'),
    },
    {
      config: kubeconfig({ user: { 'client-certificate': join(cp.dir, 'client.crt'), 'client-key': notPem } }),
      line: new RegExp(`^error: cannot prepare a request to \\S+ \\(context "test"\\): tls: failed to find any PEM data in key input \\(client-certificate \\S+, client-key ${notPem}\\)$`, 'm'),
    },
  ];
  for (const [i, c] of cases.entries()) {
    const once = await names(c.config);
    assert.equal(once.code, 1, once.stderr);
    assert.match(once.stderr, c.line);
    assert.equal(once.stderr.split('\n').filter((l) => l.startsWith('error: ')).length, 1, once.stderr);
    const file = join(work, `never-${i}.jsonl`);
    for (const args of [['-o', 'name', '-w'], ['record', file]]) {
      const r = await evtimeline(args, c.config);
      // The very same stderr: the one line (and a failing plugin's own words, once), no retry notice.
      assert.equal(r.code, 1, `${args.join(' ')}: ${r.stderr}`);
      assert.equal(r.stderr, once.stderr, args.join(' '));
      assert.equal(r.stdout, '', args.join(' '));
    }
    assert.equal(existsSync(file), false, 'record left a file');
  }
  // The plugin ran once under -w and once under record, as often as the one-shot verb ran it.
  assert.equal(failing.runs(), 3);
  // A record that exists is left byte for byte as it was.
  const kept = join(work, 'kept.jsonl');
  const first = await evtimeline(['record', kept, '-n', ns, '--duration', '2s'], cp.kubeconfig);
  assert.equal(first.code, 0, first.stderr);
  const bytes = readFileSync(kept);
  const again = await evtimeline(['record', kept], cases[0]?.config ?? '');
  assert.equal(again.code, 1, again.stderr);
  assert.match(again.stderr, cases[0]?.line ?? /^$/);
  assert.deepEqual(readFileSync(kept), bytes);
  assert.equal(failing.runs(), 4);
});

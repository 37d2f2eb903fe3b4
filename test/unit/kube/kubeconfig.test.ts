import { test } from 'node:test';
import { inUserWords } from '../../../src/options/user-errors.ts';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { join } from 'node:path';
import { KubeconfigError, kubeconfigFiles, loadKubeTarget } from '../../../src/kube/kubeconfig.ts';
import { RuntimeError } from '../../../src/errors.ts';
import { requestOptions } from '../../../src/kube/http.ts';
import { openEndpoint } from '../../../src/otlp/http.ts';
import { scratchDir } from '../../support/tmp.ts';
import { systemSources } from '../../../src/system.ts';

const dir = scratchDir('kubeconfig');

function kubeconfig(file: string, o: { current?: string; cluster: string; server: string; context: string; namespace?: string }): string {
  const path = join(dir, file);
  writeFileSync(
    path,
    [
      'apiVersion: v1',
      'kind: Config',
      `current-context: "${o.current ?? ''}"`,
      'clusters:',
      `- name: ${o.cluster}`,
      `  cluster: {server: "${o.server}"}`,
      'users:',
      `- name: ${o.cluster}-user`,
      '  user: {token: abc}',
      'contexts:',
      `- name: ${o.context}`,
      `  context: {cluster: ${o.cluster}, user: ${o.cluster}-user${o.namespace ? `, namespace: ${o.namespace}` : ''}}`,
      '',
    ].join('\n'),
  );
  return path;
}

const a = kubeconfig('a', { current: 'ctx-a', cluster: 'shared', server: 'https://a.example:6443', context: 'ctx-a', namespace: 'team-a' });
const b = kubeconfig('b', { current: 'ctx-b', cluster: 'shared', server: 'https://b.example:6443', context: 'ctx-b' });
const noCurrent = kubeconfig('c', { cluster: 'other', server: 'https://c.example:6443', context: 'ctx-c' });

test('KUBECONFIG=a:b takes the current-context of the first file that sets it, as kubectl does', async () => {
  const target = await loadKubeTarget({ env: { KUBECONFIG: `${a}:${b}` } });
  assert.equal(target.context, 'ctx-a');
});

test('KUBECONFIG=c:b skips a file without current-context', async () => {
  assert.equal((await loadKubeTarget({ env: { KUBECONFIG: `${noCurrent}:${b}` } })).context, 'ctx-b');
});

test('a cluster name repeated across files resolves to the first file, not an error', async () => {
  const target = await loadKubeTarget({ env: { KUBECONFIG: `${b}:${a}` }, context: 'ctx-a' });
  assert.equal(target.server, 'https://b.example:6443');
});

test("the context's namespace is the default namespace, else default", async () => {
  assert.equal((await loadKubeTarget({ env: { KUBECONFIG: a } })).namespace, 'team-a');
  assert.equal((await loadKubeTarget({ env: { KUBECONFIG: b } })).namespace, 'default');
});

test('--kubeconfig wins over KUBECONFIG', async () => {
  assert.equal((await loadKubeTarget({ env: { KUBECONFIG: a }, kubeconfig: b })).context, 'ctx-b');
});

test('KUBECONFIG entries that do not exist are skipped', async () => {
  assert.deepEqual(kubeconfigFiles({ env: { KUBECONFIG: `${join(dir, 'missing')}:${a}` } }), [a]);
});

test('no kubeconfig at all is an error, never a silent localhost:8080', async () => {
  await assert.rejects(() => loadKubeTarget({ env: { HOME: join(dir, 'no-home') } }), (e: unknown) => e instanceof KubeconfigError && e.problem === 'none-found');
});

test('a --kubeconfig that does not exist is an error (exit 1, as kubectl)', async () => {
  await assert.rejects(() => loadKubeTarget({ env: {}, kubeconfig: join(dir, 'nope') }), RuntimeError);
});

test('an empty file in KUBECONFIG counts as an empty config, as kubectl reads it', async () => {
  const empty = join(dir, 'empty');
  writeFileSync(empty, '');
  assert.equal((await loadKubeTarget({ env: { KUBECONFIG: `${empty}:${a}` } })).context, 'ctx-a');
});

test('an unknown --context is named in the error', async () => {
  await assert.rejects(() => loadKubeTarget({ env: { KUBECONFIG: a }, context: 'prod' }), /context "prod" does not exist/);
});

test('a file with no current-context asks for --context', async () => {
  await assert.rejects(() => loadKubeTarget({ env: { KUBECONFIG: noCurrent } }), (e: unknown) => e instanceof KubeconfigError && e.problem === 'no-current-context');
});

test('a plain http:// server (kubectl proxy) gets its headers, not client-node\'s "HTTP protocol is not allowed"', async () => {
  const file = kubeconfig('proxy', { current: 'proxy', cluster: 'proxy', server: 'http://127.0.0.1:8001', context: 'proxy' });
  const target = await loadKubeTarget({ env: { KUBECONFIG: file } });
  const options = await requestOptions(target);
  assert.equal((options.headers as Record<string, string>).Authorization, 'Bearer abc');
});

test("a context's namespace that no server can hold is refused before any request", async () => {
  const file = kubeconfig('dots', { current: 'dots', cluster: 'dots', server: 'https://d.example:6443', context: 'dots', namespace: '..' });
  await assert.rejects(loadKubeTarget({ env: { KUBECONFIG: file } }), { message: `context "dots": invalid namespace "..": [may not be '..']` });
});

test('a failing exec credential plugin is named with its own words, not as an internal error', async () => {
  const path = join(dir, 'exec');
  writeFileSync(
    path,
    [
      'apiVersion: v1',
      'kind: Config',
      'current-context: exec',
      'clusters: [{name: exec, cluster: {server: "https://e.example:6443"}}]',
      'users:',
      '- name: exec',
      '  user:',
      '    exec: {apiVersion: client.authentication.k8s.io/v1, command: sh, interactiveMode: Never, args: ["-c", "echo token expired: run aws sso login >&2; exit 1"]}',
      'contexts: [{name: exec, context: {cluster: exec, user: exec}}]',
      '',
    ].join('\n'),
  );
  const target = await loadKubeTarget({ env: { KUBECONFIG: path } });
  await assert.rejects(requestOptions(target), (error: unknown) => {
    assert.ok(error instanceof RuntimeError);
    assert.equal(error.message, 'exec credential plugin "sh" of user "exec": it failed with exit code 1: token expired: run aws sso login');
    return true;
  });
});

test('a file the kubeconfig or a flag names that is a folder is said in words with its path, not as EISDIR', async () => {
  const folder = join(dir, 'a-folder');
  mkdirSync(folder, { recursive: true });
  await assert.rejects(loadKubeTarget({ kubeconfig: folder, env: {} }), { message: `cannot load kubeconfig ${folder}: illegal operation on a directory` });
  const path = join(dir, 'ca-folder');
  writeFileSync(
    path,
    [
      'apiVersion: v1',
      'kind: Config',
      'current-context: c',
      `clusters: [{name: c, cluster: {server: "https://c.example:6443", certificate-authority: ${JSON.stringify(folder)}}}]`,
      `users: [{name: c, user: {tokenFile: ${JSON.stringify(folder)}}}]`,
      'contexts: [{name: c, context: {cluster: c, user: c}}]',
      '',
    ].join('\n'),
  );
  const target = await loadKubeTarget({ env: { KUBECONFIG: path } });
  await assert.rejects(requestOptions(target), { message: `cannot prepare a request to https://c.example:6443 (context "c"): read ${folder}: illegal operation on a directory` });
  await assert.rejects(openEndpoint({ url: new URL('https://127.0.0.1:4318/v1/logs'), headers: {}, caFile: folder, timeoutMs: 1000 }).catch((e: unknown) => { throw inUserWords(e); }), { message: `--otlp-ca ${folder}: illegal operation on a directory` });
});

// L7: kubectl reads a kubeconfig as YAML 1.1 into typed fields (client-go tools/clientcmd/loader.go
// Load -> sigs.k8s.io/yaml YAMLToJSON over goyaml.v2 -> encoding/json into clientcmd/api/v1). Each
// expected line is what kubectl 1.32 printed for the same file.
function yaml11(file: string, lines: Record<string, string>): string {
  const path = join(dir, file);
  const text = [
    'apiVersion: v1',
    'kind: Config',
    `current-context: ${lines.current ?? 'ok'}`,
    'clusters:',
    '- name: c',
    '  cluster:',
    '    server: https://127.0.0.1:6443',
    `    insecure-skip-tls-verify: ${lines.insecure ?? 'false'}`,
    'users:',
    '- name: u',
    `  user: {token: ${lines.token ?? 't'}}`,
    'contexts:',
    `- name: ${lines.context ?? 'ok'}`,
    `  context: {cluster: c, user: u, namespace: ${lines.namespace ?? 'ns'}}`,
    '',
  ].join('\n');
  writeFileSync(path, text);
  return path;
}

for (const [word, want] of [
  ['yes', true],
  ['y', true],
  ['on', true],
  ['Yes', true],
  ['true', true],
  ['off', false],
  ['no', false],
  ['n', false],
] as const) {
  test(`insecure-skip-tls-verify: ${word} is ${want}, as kubectl reads it (YAML 1.1)`, async () => {
    const t = await loadKubeTarget({ kubeconfig: yaml11(`insecure-${word}`, { insecure: word }), env: {} });
    assert.equal(t.config.getCurrentCluster()?.skipTLSVerify, want);
  });
}

for (const [name, lines, want] of [
  ['a context named y', { context: 'y', current: '"y"' }, 'json: cannot unmarshal bool into Go struct field NamedContext.contexts.name of type string'],
  ['current-context: n', { current: 'n' }, 'json: cannot unmarshal bool into Go struct field Config.current-context of type string'],
  ['insecure-skip-tls-verify: "yes" (a string)', { insecure: '"yes"' }, 'json: cannot unmarshal string into Go struct field Cluster.clusters.cluster.insecure-skip-tls-verify of type bool'],
  ['namespace: on', { namespace: 'on' }, 'json: cannot unmarshal bool into Go struct field Context.contexts.context.namespace of type string'],
  ['token: 0755 (octal, a number)', { token: '0755' }, 'json: cannot unmarshal number into Go struct field AuthInfo.users.user.token of type string'],
] as const) {
  test(`${name} is refused with kubectl's words (exit 1)`, async () => {
    const path = yaml11(`refused-${name.replace(/\W+/g, '-')}`, lines);
    const error = inUserWords(await loadKubeTarget({ kubeconfig: path, env: {} }).catch((e: unknown) => e));
    assert.ok(error instanceof RuntimeError, String(error));
    assert.equal(error.message, `error loading config file "${path}": ${want}`);
  });
}

test('what YAML 1.1 leaves as text stays text: base-60 (1:30), a timestamp, a quoted "y"', async () => {
  for (const [token, context] of [['1:30', 'ok'], ['2001-12-14', 'ok'], ['t', '"y"']] as const) {
    const t = await loadKubeTarget({ kubeconfig: yaml11(`text-${token.replace(/\W/g, '')}`, { token, context, current: context }), env: {} });
    assert.equal(t.context, 'y' === context.replace(/"/g, '') ? 'y' : 'ok');
    assert.equal(t.config.getCurrentUser()?.token, token);
  }
});

test('contexts read together share one exec plugin run per user and server, as client-go caches its authenticator', async () => {
  // Two contexts of one exec user on one server (two namespaces) and a third on another server.
  const runs = join(dir, 'exec-runs');
  writeFileSync(runs, '');
  const path = join(dir, 'exec-fleet');
  const plugin = join(dir, 'exec-fleet.sh');
  const credential = { apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: { token: 't' } };
  writeFileSync(plugin, `echo run >> ${runs}\necho '${JSON.stringify(credential)}'\n`);
  const exec = { apiVersion: 'client.authentication.k8s.io/v1', command: 'sh', args: [plugin], interactiveMode: 'Never' };
  const context = (name: string, cluster: string, namespace?: string) => ({ name, context: { cluster, user: 'sso', ...(namespace ? { namespace } : {}) } });
  writeFileSync(
    path,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        { name: 'one', cluster: { server: 'http://127.0.0.1:9' } },
        { name: 'two', cluster: { server: 'http://127.0.0.2:9' } },
      ],
      users: [{ name: 'sso', user: { exec } }],
      contexts: [context('a', 'one', 'a'), context('b', 'one', 'b'), context('c', 'two')],
    }),
  );
  const open = systemSources({ env: {}, stdin: Readable.from([]), stderr: { write: () => {} } });
  const scope = { namespace: null, allNamespaces: false, kubeconfig: path, requestTimeoutMs: 2000, overrides: {}, verbosity: 0 };
  const fleet = await open({ kind: 'cluster', scope: { ...scope, fleet: { all: true } } });
  // Nothing listens on port 9: every context fails after its credentials are made.
  await assert.rejects(fleet.read());
  assert.equal(readFileSync(runs, 'utf8'), 'run\nrun\n');
});

// client-go: the cluster's disable-compression (clientcmd/api/types.go:102) or --disable-compression,
// which is merged over the kubeconfig only when true (clientcmd/merge.go skips zero values).
function compressionConfig(file: string, clusters: Array<{ name: string; off?: string }>, current: string): string {
  const path = join(dir, file);
  writeFileSync(
    path,
    [
      'apiVersion: v1',
      'kind: Config',
      `current-context: ${current}`,
      'clusters:',
      ...clusters.flatMap((c) => [`- name: ${c.name}`, '  cluster:', '    server: https://127.0.0.1:6443', ...(c.off === undefined ? [] : [`    disable-compression: ${c.off}`])]),
      'users:',
      '- name: u',
      '  user: {token: t}',
      'contexts:',
      ...clusters.map((c) => `- {name: ${c.name}, context: {cluster: ${c.name}, user: u}}`),
      '',
    ].join('\n'),
  );
  return path;
}

for (const [name, clusters, current, flag, want] of [
  ['a cluster without the field asks for gzip', [{ name: 'a' }], 'a', undefined, false],
  ['disable-compression: true does not', [{ name: 'a', off: 'true' }], 'a', undefined, true],
  ['disable-compression: yes (YAML 1.1) does not', [{ name: 'a', off: 'yes' }], 'a', undefined, true],
  ['disable-compression: false does', [{ name: 'a', off: 'false' }], 'a', undefined, false],
  ['another cluster turning it off changes nothing', [{ name: 'a' }, { name: 'b', off: 'true' }], 'a', undefined, false],
  ['--disable-compression turns it off', [{ name: 'a' }], 'a', true, true],
  ['--disable-compression=false does not turn the kubeconfig\'s back on', [{ name: 'a', off: 'true' }], 'a', false, true],
] as const) {
  test(`${name} (disableCompression ${want})`, async () => {
    const path = compressionConfig(`compression-${name.replace(/\W+/g, '-')}`, [...clusters], current);
    const t = await loadKubeTarget({ kubeconfig: path, env: {}, overrides: flag === undefined ? {} : { disableCompression: flag } });
    assert.equal(t.disableCompression, want);
  });
}

test('the first file to name a cluster decides its disable-compression, as for every field', async () => {
  const first = compressionConfig('compression-first', [{ name: 'a' }], 'a');
  const second = compressionConfig('compression-second', [{ name: 'a', off: 'true' }], 'a');
  assert.equal((await loadKubeTarget({ env: { KUBECONFIG: `${first}:${second}` } })).disableCompression, false);
  assert.equal((await loadKubeTarget({ env: { KUBECONFIG: `${second}:${first}` } })).disableCompression, true);
});

test('disable-compression: "yes" (a string) is refused with kubectl\'s words', async () => {
  const path = compressionConfig('compression-string', [{ name: 'a', off: '"yes"' }], 'a');
  await assert.rejects(loadKubeTarget({ kubeconfig: path, env: {} }), (error: unknown) => {
    assert.ok(error instanceof KubeconfigError);
    assert.equal(error.detail, 'json: cannot unmarshal string into Go struct field Cluster.clusters.cluster.disable-compression of type bool');
    return true;
  });
});

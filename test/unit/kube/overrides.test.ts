import { test } from 'node:test';
import assert from 'node:assert/strict';
import { proxyFromEnvironment } from '../../../src/kube/proxy.ts';
import { ImpersonationError, overrideCluster, overrideUser, rawUsersOf, userExtras } from '../../../src/kube/overrides.ts';
import { parseVerbosity } from '../../../src/options/common.ts';
import { parseConnectionOverrides } from '../../../src/options/connection.ts';

const proxyCases: Array<[string, string, Record<string, string>, string | undefined]> = [
  ['HTTPS_PROXY applies to an https server', 'https://api.example.com:6443', { HTTPS_PROXY: 'http://proxy:3128' }, 'http://proxy:3128'],
  ['the lower-case name works too', 'https://api.example.com', { https_proxy: 'http://proxy:3128' }, 'http://proxy:3128'],
  ['a proxy without a scheme is http', 'https://api.example.com', { HTTPS_PROXY: 'proxy:3128' }, 'http://proxy:3128'],
  ['HTTP_PROXY does not apply to https', 'https://api.example.com', { HTTP_PROXY: 'http://proxy:3128' }, undefined],
  ['HTTP_PROXY applies to http', 'http://api.example.com', { HTTP_PROXY: 'http://proxy:3128' }, 'http://proxy:3128'],
  ['loopback never goes through a proxy from the environment', 'https://127.0.0.1:6443', { HTTPS_PROXY: 'http://proxy:3128' }, undefined],
  ['nor does localhost', 'https://localhost:6443', { HTTPS_PROXY: 'http://proxy:3128' }, undefined],
  ['NO_PROXY names the host', 'https://api.example.com', { HTTPS_PROXY: 'http://p:1', NO_PROXY: 'api.example.com' }, undefined],
  ['NO_PROXY names a parent domain with a dot', 'https://api.example.com', { HTTPS_PROXY: 'http://p:1', NO_PROXY: '.example.com' }, undefined],
  ['NO_PROXY names a parent domain without one', 'https://api.example.com', { HTTPS_PROXY: 'http://p:1', NO_PROXY: 'example.com' }, undefined],
  ['NO_PROXY does not match a longer name', 'https://api.notexample.com', { HTTPS_PROXY: 'http://p:1', NO_PROXY: 'example.com' }, 'http://p:1'],
  ['NO_PROXY matches a CIDR', 'https://10.1.2.3:6443', { HTTPS_PROXY: 'http://p:1', NO_PROXY: '10.0.0.0/8' }, undefined],
  ['NO_PROXY with a port matches only that port', 'https://api.example.com:6443', { HTTPS_PROXY: 'http://p:1', NO_PROXY: 'api.example.com:443' }, 'http://p:1'],
  ['NO_PROXY=* turns proxies off', 'https://api.example.com', { HTTPS_PROXY: 'http://p:1', NO_PROXY: '*' }, undefined],
];
for (const [name, server, env, want] of proxyCases) test(`proxy: ${name}`, () => assert.equal(proxyFromEnvironment(server, env), want));

const cluster = { name: 'c', server: 'https://a:1', caData: 'Q0E=', skipTLSVerify: false, tlsServerName: 'named' };

test('--server replaces the server and clears tls-server-name, as client-go does', () =>
  assert.deepEqual(overrideCluster(cluster, { server: 'https://b:2' }), { ...cluster, server: 'https://b:2', tlsServerName: undefined }));
test('--insecure-skip-tls-verify clears the kubeconfig CA', () =>
  assert.deepEqual(overrideCluster(cluster, { insecureSkipTlsVerify: true }), { ...cluster, skipTLSVerify: true, caFile: undefined, caData: undefined }));
test('--certificate-authority replaces CA data with the file', () =>
  assert.deepEqual(overrideCluster(cluster, { certificateAuthority: '/ca.crt' }), { ...cluster, caFile: '/ca.crt', caData: undefined }));
test('--tls-server-name sets the name checked', () => assert.equal(overrideCluster(cluster, { tlsServerName: 'x' }).tlsServerName, 'x'));
test('--token and --client-certificate replace the user values', () =>
  assert.deepEqual(overrideUser({ name: 'u', token: 't', certData: 'Yw==' }, { token: 'n', clientCertificate: '/c.crt' }), { name: 'u', token: 'n', certFile: '/c.crt', certData: undefined }));
test('--as over the kubeconfig as, with groups and uid', () =>
  assert.deepEqual(userExtras({ as: 'k', 'as-groups': ['g'] }, { as: 'f', asUid: '7' }), { impersonate: { user: 'f', groups: ['g'], uid: '7' } }));
test('--as-group without a user to impersonate is an error, as in client-go', () => assert.throws(() => userExtras(undefined, { asGroups: ['g'] }), ImpersonationError));
test('--server host:port means https', () => assert.equal(parseConnectionOverrides({ server: 'h:6443' }).server, 'https://h:6443'));
test('-v=6 and -v 6 both read 6', () => {
  assert.equal(parseVerbosity('=6'), 6);
  assert.equal(parseVerbosity('6'), 6);
  assert.throws(() => parseVerbosity('loud'), /log level/);
});
test('--disable-compression is kept only when true (client-go merges no false over the kubeconfig)', () => {
  assert.equal(parseConnectionOverrides({ disableCompression: true }).disableCompression, true);
  assert.equal(parseConnectionOverrides({ disableCompression: false }).disableCompression, undefined);
});

test("the first file to name a user decides its raw entry, a tokenFile relative to that file; nameless entries are skipped", () => {
  const users = rawUsersOf([
    { file: '/one/config', doc: { users: [{ name: 'u', user: { tokenFile: 'tok' } }, { user: { as: 'nameless' } }] } },
    { file: '/two/config', doc: { users: [{ name: 'u', user: { as: 'later' } }, { name: 'v', user: null }] } },
    { file: '/three/config', doc: null },
  ]);
  assert.deepEqual([...users], [
    ['u', { tokenFile: '/one/tok' }],
    ['v', {}],
  ]);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { complete, DIRECTIVE, runComplete } from '../../../src/commands/complete.ts';
import type { NameLookups } from '../../../src/core/names.ts';
import type { NameLookupTarget } from '../../../src/core/connection.ts';
import { fakeDeps } from '../../support/deps.ts';

const lookups: NameLookups = {
  namespaces: async () => ['default', 'op-events', 'kube-system'],
  events: async (namespace) => (namespace === 'op-events' ? ['build-1-started', 'build-1-done', 'hungry.1'] : ['other']),
  contexts: async () => ['evtimeline', 'prod'],
  clusters: async () => ['evtimeline', 'staging'],
  users: async () => ['admin', 'viewer'],
};

const cases: [string, string[], string[], number][] = [
  ['an empty line offers the verbs', [''], ['timeline', 'incident', 'type-audit', 'aggregate-patch', 'capture', 'record', 'export', 'wait'], DIRECTIVE.noFileComp],
  ['a prefix narrows the verbs', ['in'], ['incident'], DIRECTIVE.noFileComp],
  ['flags before the verb do not hide the verbs', ['-n', 'op-events', 'ty'], ['type-audit'], DIRECTIVE.noFileComp],
  ['-n completes namespaces from the cluster', ['-n', 'op'], ['op-events'], DIRECTIVE.noFileComp],
  ['--namespace= completes inline', ['--namespace=ku'], ['--namespace=kube-system'], DIRECTIVE.noFileComp],
  ["-o offers the verb's formats", ['incident', '-o', ''], ['text', 'json', 'yaml', 'jsonpath=', 'jsonpath-file=', 'jsonpath-as-json='], DIRECTIVE.noFileComp],
  ['-o without a verb offers the timeline formats', ['-o', ''], ['table', 'wide', 'stable', 'html', 'json', 'yaml', 'name', 'jsonpath=', 'jsonpath-file=', 'jsonpath-as-json='], DIRECTIVE.noFileComp],
  ["a flag prefix offers the verb's flags first", ['aggregate-patch', '--c'], ['--count', '--context', '--contexts', '--color', '--cluster', '--certificate-authority', '--client-certificate', '--client-key'], DIRECTIVE.noFileComp],
  ['every declared flag is offered, kubectl connection flags included', ['--as'], ['--as', '--as-group', '--as-uid'], DIRECTIVE.noFileComp],
  ['aggregate-patch completes event names in the namespace given', ['aggregate-patch', '-n', 'op-events', 'build'], ['build-1-started', 'build-1-done'], DIRECTIVE.noFileComp],
  ['--context completes kubeconfig contexts', ['--context', 'p'], ['prod'], DIRECTIVE.noFileComp],
  ['--contexts offers each context as the pattern that matches it alone', ['--contexts', ''], ['^evtimeline$', '^prod$'], DIRECTIVE.noFileComp],
  ['--contexts completes a pattern begun with ^, and one begun without', ['--contexts', '^p'], ['^prod$'], DIRECTIVE.noFileComp],
  ['--contexts without the ^', ['--contexts', 'ev'], ['evtimeline$'], DIRECTIVE.noFileComp],
  ['--context completes the name after the last comma, not offering one already typed', ['--context', 'prod,'], ['prod,evtimeline'], DIRECTIVE.noFileComp],
  ['--cluster completes kubeconfig clusters', ['--cluster', 's'], ['staging'], DIRECTIVE.noFileComp],
  ['--user completes kubeconfig users', ['--user=v'], ['--user=viewer'], DIRECTIVE.noFileComp],
  ['--client-certificate lets the shell complete files', ['--client-certificate', ''], [], DIRECTIVE.default],
  ["the timeline's new flags are offered", ['timeline', '--wa'], ['--watch', '--watch-only'], DIRECTIVE.noFileComp],
  ['-o offers jsonpath forms', ['-o', 'json'], ['json', 'jsonpath=', 'jsonpath-file=', 'jsonpath-as-json='], DIRECTIVE.noFileComp],
  ['the value of --token is not taken for a verb', ['--token', 'x', 'inc'], ['incident'], DIRECTIVE.noFileComp],
  ['--from lets the shell complete files', ['--from', ''], [], DIRECTIVE.default],
  ['capture lets the shell complete a folder', ['capture', ''], [], DIRECTIVE.default],
  ['--types offers the conventional types', ['--types', ''], ['Normal', 'Warning'], DIRECTIVE.noFileComp],
];

for (const [name, words, candidates, directive] of cases) {
  test(`completion: ${name}`, async () => {
    assert.deepEqual(await complete(words, lookups), { candidates, directive });
  });
}

test('completion asks its names through Deps, for the kubeconfig and context typed so far; a name with a control character is dropped', async () => {
  const asked: NameLookupTarget[] = [];
  const fake = fakeDeps({
    nameLookups: (where) => {
      asked.push(where);
      return { ...lookups, events: async () => ['ok-1', 'evil\u001b]0;x\u0007', 'ok-2'] };
    },
  });
  await runComplete(['--kubeconfig', '/k/config', '--context', 'prod', 'aggregate-patch', 'ok'], fake.deps);
  assert.deepEqual(asked.map((w) => [w.kubeconfig, w.context]), [['/k/config', 'prod']]);
  assert.equal(fake.stdout(), `ok-1\nok-2\n:${DIRECTIVE.noFileComp}\n`);
});

test("completion's lookups use kubectl's connection flags typed anywhere on the line, as kubectl's own completion does", async () => {
  const asked: NameLookupTarget[] = [];
  const fake = fakeDeps({
    nameLookups: (where) => {
      asked.push(where);
      return lookups;
    },
  });
  await runComplete(
    ['-s', '127.0.0.1:6443', '--token=t0k', '--user', 'u', '--cluster=c', '--as', 'someone', '--as-group', 'g1', '--as-group=g2', '--as-uid', '42', '--insecure-skip-tls-verify', '--tls-server-name', 'kubernetes', '-n', 'op'],
    fake.deps,
  );
  assert.deepEqual(asked, [
    {
      kubeconfig: undefined,
      context: undefined,
      overrides: { server: 'https://127.0.0.1:6443', token: 't0k', user: 'u', cluster: 'c', as: 'someone', asGroups: ['g1', 'g2'], asUid: '42', insecureSkipTlsVerify: true, tlsServerName: 'kubernetes' },
    },
  ]);
  assert.equal(fake.stdout(), `op-events\n:${DIRECTIVE.noFileComp}\n`);
  asked.length = 0;
  await runComplete(['--insecure-skip-tls-verify=false', '--certificate-authority', '/ca.crt', '--client-certificate', '/c.crt', '--client-key', '/c.key', '-n', ''], fake.deps);
  assert.deepEqual(asked[0]?.overrides, { certificateAuthority: '/ca.crt', clientCertificate: '/c.crt', clientKey: '/c.key' });
});

test('--contexts escapes the regex characters of a context name, so the pattern offered matches that context alone', async () => {
  const dotted: NameLookups = { ...lookups, contexts: async () => ['prod.eu', 'prod-eu', 'a+b(1)'] };
  const offered = await complete(['--contexts', '^prod'], dotted);
  assert.deepEqual(offered.candidates, ['^prod\\.eu$', '^prod-eu$']);
  assert.ok(new RegExp(offered.candidates[0] ?? '', 'u').test('prod.eu') && !new RegExp(offered.candidates[0] ?? '', 'u').test('prodXeu'));
  assert.deepEqual((await complete(['--contexts', 'a'], dotted)).candidates, ['a\\+b\\(1\\)$']);
});

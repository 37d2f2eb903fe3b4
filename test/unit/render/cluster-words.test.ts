// What went wrong with a cluster: a value src/kube raises (kube/cluster-error.ts), worded once here.
// Each sentence is the one the plugin printed before these were values (the integration tests
// assert the same lines through the binary: auth, faults, read-faults, record).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ClusterProblem } from '../../../src/core/cluster-problems.ts';
import { clusterProblemText } from '../../../src/render/cluster-words.ts';

const at = { server: 'https://c.example:6443', context: 'c' };

const cases: [ClusterProblem, string][] = [
  [{ kind: 'kubeconfig-unreadable', path: '/k', why: 'illegal operation on a directory' }, 'cannot load kubeconfig /k: illegal operation on a directory'],
  [{ kind: 'no-context', context: 'x' }, 'context "x" does not exist in the kubeconfig'],
  [{ kind: 'no-cluster', cluster: 'x' }, 'cluster "x" does not exist in the kubeconfig'],
  [{ kind: 'no-auth-info', user: 'x' }, 'auth info "x" does not exist in the kubeconfig'],
  [{ kind: 'no-server', context: 'c', cluster: 'x' }, 'context "c" names cluster "x", which has no server'],
  [{ kind: 'token-file-empty', path: '/t' }, 'tokenFile /t: read empty token from file'],
  [{ kind: 'token-file-unreadable', path: '/t', why: 'no such file or directory' }, 'tokenFile /t: cannot read it (no such file or directory)'],
  [{ kind: 'exec-plugin', command: 'sh', user: 'exec', why: 'it failed with exit code 1' }, 'exec credential plugin "sh" of user "exec": it failed with exit code 1'],
  [{ kind: 'exec-certificate-through-proxy', command: 'aws' }, 'exec credential plugin "aws": a client certificate through a proxy is not supported'],
  [{ kind: 'cannot-prepare', ...at, why: 'read /ca: is a directory' }, 'cannot prepare a request to https://c.example:6443 (context "c"): read /ca: is a directory'],
  [
    { kind: 'client-key-pair', ...at, pair: 'mismatch', files: { cert: '/c.crt', key: '/c.key' }, detail: '' },
    'cannot prepare a request to https://c.example:6443 (context "c"): tls: private key does not match public key (client-certificate /c.crt, client-key /c.key)',
  ],
  [{ kind: 'client-key-pair', ...at, pair: 'cert-not-pem', files: {}, detail: '' }, 'cannot prepare a request to https://c.example:6443 (context "c"): tls: failed to find any PEM data in certificate input'],
  [{ kind: 'client-key-pair', ...at, pair: 'key-not-pem', files: { key: '/k' }, detail: '' }, 'cannot prepare a request to https://c.example:6443 (context "c"): tls: failed to find any PEM data in key input (client-certificate data, client-key /k)'],
  [{ kind: 'client-key-pair', ...at, pair: 'unparsable', files: {}, detail: 'bad decrypt' }, 'cannot prepare a request to https://c.example:6443 (context "c"): tls: failed to parse the client certificate or key: bad decrypt'],
  [{ kind: 'path-resolves-elsewhere', path: '/api/v1/x/..', resolved: '/api/v1' }, 'refusing request path "/api/v1/x/..": it resolves to /api/v1'],
  [{ kind: 'unreachable', ...at, why: 'ECONNREFUSED' }, 'cannot reach the API server at https://c.example:6443 (context "c"): ECONNREFUSED'],
  [{ kind: 'tls-untrusted', ...at, code: 'SELF_SIGNED_CERT_IN_CHAIN', why: 'self-signed certificate in certificate chain' }, 'cannot trust the API server at https://c.example:6443 (context "c"): TLS verification failed (SELF_SIGNED_CERT_IN_CHAIN: self-signed certificate in certificate chain)'],
  [{ kind: 'timed-out', server: 'https://c.example:6443', ms: 1000 }, 'request to https://c.example:6443 timed out after 1000 ms (--request-timeout)'],
  [{ kind: 'cut-off', server: 'https://c.example:6443', method: 'GET', path: '/api/v1/events', why: 'ECONNRESET' }, 'the answer from the API server at https://c.example:6443 to GET /api/v1/events was cut off (ECONNRESET)'],
  [{ kind: 'not-json', path: '/api/v1/events?limit=500' }, 'the API server sent something that is not JSON for /api/v1/events?limit=500'],
  [{ kind: 'answer-too-large', method: 'GET', path: '/api/v1/events', mib: 128 }, "the API server's answer to GET /api/v1/events is larger than 128 MiB: refusing to read it"],
  [{ kind: 'not-gzip', method: 'GET', path: '/api/v1/events', why: 'incorrect header check' }, "the API server's answer to GET /api/v1/events says it is gzip but does not inflate (incorrect header check)"],
  [{ kind: 'not-a-list', path: '/api/v1/events', noun: 'events' }, "the API server's answer to GET /api/v1/events is not a list of events"],
  [{ kind: 'another-event', namespace: 'op', name: 'e1', what: 'Namespace ""/"op"' }, 'the API server answered for Event "op/e1" with Namespace ""/"op": refusing to use it'],
  [{ kind: 'same-continue-token', what: 'events in namespace ns' }, 'the API server sent the same continue token twice while listing events in namespace ns: stopping instead of reading the same page forever'],
  [{ kind: 'too-many-pages', what: 'events in namespace ns', pages: 100000 }, 'listing events in namespace ns went past 100000 pages: stopping'],
  [{ kind: 'not-a-watch-event', line: `{"kind":"${'x'.repeat(100)}"}` }, `not a watch event: {"kind":"${'x'.repeat(71)}`],
  [{ kind: 'watch-line-not-json', why: 'Unexpected token' }, 'a watch line that is not JSON (Unexpected token)'],
  [{ kind: 'watch-line-too-long', mib: 16 }, 'the watch of events sent a line longer than 16 MiB: stopping instead of buffering it'],
  [{ kind: 'watch-ended-at-once' }, 'the watch ended as soon as it began'],
  [{ kind: 'watch-failed', why: 'forbidden' }, 'the watch of events failed: forbidden'],
  [{ kind: 'watch-keeps-expiring', why: 'too old resource version' }, 'the watch of events keeps expiring (410 Gone): too old resource version'],
  [{ kind: 'gave-up-following', failures: 10, why: 'ECONNREFUSED' }, 'gave up following events after 10 failures in a row: ECONNREFUSED'],
];

for (const [problem, words] of cases) {
  test(`${problem.kind}: ${words.slice(0, 90)}`, () => assert.equal(clusterProblemText(problem), words));
}

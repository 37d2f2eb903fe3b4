// A cluster problem (core/cluster-problems.ts) in words, one line: kube/cluster-error.ts makes it an
// error's message, so main's `error:` line, the several-contexts warning, -w's and record's retry
// notices and a lookup's `failed` detail say the same. Unescaped: each of those escapes what it prints.
import type { ClientKeyPair, ClusterProblem, ServerAt } from '../core/cluster-problems.ts';

function at({ server, context }: ServerAt): string {
  return `the API server at ${server} (context "${context}")`;
}

/** Go crypto/tls's words (tls.X509KeyPair), as client-go reports a pair that does not load. */
function keyPairWords(pair: ClientKeyPair, detail: string): string {
  switch (pair) {
    case 'mismatch':
      return 'tls: private key does not match public key';
    case 'cert-not-pem':
      return 'tls: failed to find any PEM data in certificate input';
    case 'key-not-pem':
      return 'tls: failed to find any PEM data in key input';
    case 'unparsable':
      return `tls: failed to parse the client certificate or key: ${detail}`;
  }
}

export function clusterProblemText(p: ClusterProblem): string {
  switch (p.kind) {
    case 'kubeconfig-unreadable':
      return `cannot load kubeconfig ${p.path}: ${p.why}`;
    case 'no-context':
      return `context "${p.context}" does not exist in the kubeconfig`;
    case 'no-cluster':
      return `cluster "${p.cluster}" does not exist in the kubeconfig`;
    case 'no-auth-info':
      return `auth info "${p.user}" does not exist in the kubeconfig`;
    case 'no-server':
      return `context "${p.context}" names cluster "${p.cluster}", which has no server`;
    case 'token-file-empty':
      // client-go's "read empty token from file %q" (transport/token_source.go:141), after the file's name.
      return `tokenFile ${p.path}: read empty token from file`;
    case 'token-file-unreadable':
      return `tokenFile ${p.path}: cannot read it (${p.why})`;
    case 'exec-plugin':
      return `exec credential plugin ${JSON.stringify(p.command)} of user "${p.user}": ${p.why}`;
    case 'exec-certificate-through-proxy':
      return `exec credential plugin ${JSON.stringify(p.command)}: a client certificate through a proxy is not supported`;
    case 'cannot-prepare':
      return `cannot prepare a request to ${p.server} (context "${p.context}"): ${p.why}`;
    case 'client-key-pair': {
      const { cert, key } = p.files;
      const files = cert !== undefined || key !== undefined ? ` (client-certificate ${cert ?? 'data'}, client-key ${key ?? 'data'})` : '';
      return clusterProblemText({ kind: 'cannot-prepare', server: p.server, context: p.context, why: `${keyPairWords(p.pair, p.detail)}${files}` });
    }
    case 'path-resolves-elsewhere':
      return `refusing request path ${JSON.stringify(p.path)}: it resolves to ${p.resolved}`;
    case 'unreachable':
      return `cannot reach ${at(p)}: ${p.why}`;
    case 'tls-untrusted':
      return `cannot trust ${at(p)}: TLS verification failed (${p.code}: ${p.why})`;
    case 'timed-out':
      return `request to ${p.server} timed out after ${p.ms} ms (--request-timeout)`;
    case 'cut-off':
      return `the answer from the API server at ${p.server} to ${p.method} ${p.path} was cut off (${p.why})`;
    case 'not-json':
      return `the API server sent something that is not JSON for ${p.path}`;
    case 'answer-too-large':
      return `the API server's answer to ${p.method} ${p.path} is larger than ${p.mib} MiB: refusing to read it`;
    case 'not-gzip':
      return `the API server's answer to ${p.method} ${p.path} says it is gzip but does not inflate (${p.why})`;
    case 'not-a-list':
      return `the API server's answer to GET ${p.path} is not a list of ${p.noun}`;
    case 'another-event':
      return `the API server answered for Event ${JSON.stringify(`${p.namespace}/${p.name}`)} with ${p.what}: refusing to use it`;
    case 'same-continue-token':
      return `the API server sent the same continue token twice while listing ${p.what}: stopping instead of reading the same page forever`;
    case 'too-many-pages':
      return `listing ${p.what} went past ${p.pages} pages: stopping`;
    case 'not-a-watch-event':
      return `not a watch event: ${p.line.slice(0, 80)}`;
    case 'watch-line-not-json':
      return `a watch line that is not JSON (${p.why})`;
    case 'watch-line-too-long':
      return `the watch of events sent a line longer than ${p.mib} MiB: stopping instead of buffering it`;
    case 'watch-ended-at-once':
      return 'the watch ended as soon as it began';
    case 'watch-failed':
      return `the watch of events failed: ${p.why}`;
    case 'watch-keeps-expiring':
      return `the watch of events keeps expiring (410 Gone): ${p.why}`;
    case 'gave-up-following':
      return `gave up following events after ${p.failures} failures in a row: ${p.why}`;
  }
}

// What went wrong between the plugin and a cluster, as values: src/kube raises them in typed errors
// (kube/cluster-error.ts) and src/render/cluster-words.ts words them, the one place that does, so
// the line main prints, the warning for a context that did not answer, -w's and record's retry
// notices and an object lookup's `failed` detail all say it alike (scripts/adapter-words.sh).

/** `where`: the API server and its kubeconfig context. */
export interface ServerAt {
  server: string;
  context: string;
}

/** Why a client certificate and key do not load. */
export type ClientKeyPair = 'mismatch' | 'cert-not-pem' | 'key-not-pem' | 'unparsable';

export type ClusterProblem =
  // The kubeconfig (kube/kubeconfig.ts)
  | { kind: 'kubeconfig-unreadable'; path: string; why: string }
  | { kind: 'no-context'; context: string }
  | { kind: 'no-cluster'; cluster: string }
  | { kind: 'no-auth-info'; user: string }
  | { kind: 'no-server'; context: string; cluster: string }
  // Credentials (kube/auth.ts, kube/exec-credential.ts, kube/http.ts)
  | { kind: 'token-file-empty'; path: string }
  /** `why`: the file system's words (io/errno.ts) */
  | { kind: 'token-file-unreadable'; path: string; why: string }
  /** `why`: the plugin's failure, in client-go's words where it has them */
  | { kind: 'exec-plugin'; command: string; user: string; why: string }
  | { kind: 'exec-certificate-through-proxy'; command: string }
  /** `why`: client-node's words, with the file's path */
  | ({ kind: 'cannot-prepare'; why: string } & ServerAt)
  /** `files`: the kubeconfig's client-certificate and client-key files (none: inline data); `detail`: OpenSSL's reason, for 'unparsable' */
  | ({ kind: 'client-key-pair'; pair: ClientKeyPair; files: { cert?: string; key?: string }; detail: string } & ServerAt)
  // Requests and answers (kube/http.ts, kube/events-api.ts, kube/paging.ts)
  | { kind: 'path-resolves-elsewhere'; path: string; resolved: string }
  /** `why`: the socket's error code, or Go's words for a deadline */
  | ({ kind: 'unreachable'; why: string } & ServerAt)
  /** `code`, `why`: OpenSSL's code and words, as Node reports them */
  | ({ kind: 'tls-untrusted'; code: string; why: string } & ServerAt)
  | { kind: 'timed-out'; server: string; ms: number }
  /** `why`: the socket's error code, or its words */
  | { kind: 'cut-off'; server: string; method: string; path: string; why: string }
  | { kind: 'not-json'; path: string }
  | { kind: 'answer-too-large'; method: string; path: string; mib: number }
  /** `why`: zlib's words */
  | { kind: 'not-gzip'; method: string; path: string; why: string }
  | { kind: 'not-a-list'; path: string; noun: string }
  /** `what`: the kind and namespace/name the answer carried */
  | { kind: 'another-event'; namespace: string; name: string; what: string }
  | { kind: 'same-continue-token'; what: string }
  | { kind: 'too-many-pages'; what: string; pages: number }
  // Following events (kube/watch.ts); `why`: what the last attempt met, already in words
  | { kind: 'not-a-watch-event'; line: string }
  | { kind: 'watch-line-not-json'; why: string }
  | { kind: 'watch-line-too-long'; mib: number }
  | { kind: 'watch-ended-at-once' }
  | { kind: 'watch-failed'; why: string }
  | { kind: 'watch-keeps-expiring'; why: string }
  | { kind: 'gave-up-following'; failures: number; why: string };

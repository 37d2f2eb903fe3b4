// Domain errors of core and io in the user's words: the one place that names the flag or argument
// a problem came from, and decides whether calling again differently fixes it (exit 2) or not (exit 1).
import { RuntimeError, UsageError } from '../errors.ts';
import { AggregateError } from '../core/aggregate.ts';
import type { AggregateProblem } from '../core/aggregate.ts';
import { FolderError } from '../io/atomic.ts';
import { SavedFileError } from '../io/saved-events.ts';
import { RecordFileError } from '../io/record-writer.ts';
import { kindWords } from '../io/path-kind.ts';
import type { PathKind } from '../io/path-kind.ts';
import { PemFileError } from '../otlp/http.ts';
import { KubeconfigError } from '../kube/kubeconfig.ts';
import { ClientKeyPairError } from '../kube/http.ts';

/** A client certificate and key that do not load: Go crypto/tls's words, then which files. */
function clientKeyPairWords(error: ClientKeyPairError): string {
  const why = {
    mismatch: 'tls: private key does not match public key',
    'cert-not-pem': 'tls: failed to find any PEM data in certificate input',
    'key-not-pem': 'tls: failed to find any PEM data in key input',
    unparsable: `tls: failed to parse the client certificate or key: ${error.detail}`,
  }[error.problem];
  const { cert, key } = error.files;
  const files = cert !== undefined || key !== undefined ? ` (client-certificate ${cert ?? 'data'}, client-key ${key ?? 'data'})` : '';
  return `cannot prepare a request to ${error.server} (context "${error.context}"): ${why}${files}`;
}

/** The flag that named a PEM file: --otlp-ca, --from-client-key, ... */
function pemFlag(error: PemFileError): string {
  return `--${error.endpoint === 'store' ? 'from' : 'otlp'}-${error.role}`;
}

function aggregateWords(problem: AggregateProblem): string {
  switch (problem.kind) {
    case 'count-below-current':
      return `--count ${problem.count} is below the current count ${problem.current}: a recorder never decreases it`;
    case 'series-too-small':
      return `--count ${problem.count} is too small: a series starts at 2`;
    case 'not-an-event':
      return 'aggregate-patch needs an Event object';
    case 'new-api-view':
      return 'aggregate-patch needs the core/v1 view of the event, not events.k8s.io/v1';
    case 'invalid-time':
      return 'the time of the repeat is not a valid time';
  }
}

function kubeconfigWords(error: KubeconfigError): string {
  switch (error.problem) {
    case 'no-such-file':
      // kubectl exits 1 here too: the flag is well formed, the file system says no.
      return `--kubeconfig ${error.path}: no such file`;
    case 'none-found':
      return 'no kubeconfig found: set KUBECONFIG, pass --kubeconfig, or create ~/.kube/config';
    case 'no-current-context':
      return 'current-context is not set in the kubeconfig: pass --context';
    case 'not-loadable':
      // kubectl's wording (clientcmd's LoadFromFile error, as kubectl prints it).
      return `error loading config file "${error.path}": ${error.detail}`;
  }
}

/** --from's words for a saved file that is not one: binary (at which byte), not a file (what it is). */
function savedFileWords(error: SavedFileError): string {
  if (error.problem === 'binary') return `not text (a NUL byte at byte ${error.detail}): neither JSON, a record, nor a stable table`;
  if (error.problem !== 'not-a-file') return error.detail;
  return error.detail === 'folder' ? 'a folder with no events.json in it (not a capture)' : `${kindWords(error.detail as PathKind)}, not a file`;
}

/** record's words for a path it cannot record into; null: the message the error carries. */
function recordFileWords(error: RecordFileError): string | null {
  if (error.problem === 'no-reader') return `record stopped before any process read ${error.path} (a FIFO): nothing recorded`;
  if (error.problem === 'not-a-file' && error.kind !== null) return `${error.path} is ${kindWords(error.kind)}: record needs a file`;
  return null;
}

/** The error as main prints it; errors that are not domain errors pass through unchanged. */
export function inUserWords(error: unknown): unknown {
  if (error instanceof SavedFileError) {
    const text = `--from ${error.path}: ${savedFileWords(error)}`;
    return error.problem === 'unreadable' || error.problem === 'not-a-file' ? new RuntimeError(text) : new UsageError(text);
  }
  if (error instanceof FolderError) {
    if (error.problem === 'not-empty') return new UsageError(`${error.message}: pass --force to replace it`);
    return error.problem === 'no-parent' ? new RuntimeError(error.message) : new UsageError(error.message);
  }
  if (error instanceof RecordFileError) {
    const fixable = error.problem === 'not-a-file' || error.problem === 'no-folder' || error.problem === 'not-a-record';
    const text = recordFileWords(error) ?? error.message;
    return fixable ? new UsageError(text) : new RuntimeError(text);
  }
  if (error instanceof AggregateError) return new UsageError(aggregateWords(error.problem));
  if (error instanceof KubeconfigError) return new RuntimeError(kubeconfigWords(error));
  if (error instanceof ClientKeyPairError) return new RuntimeError(clientKeyPairWords(error));
  if (error instanceof PemFileError) {
    if (error.problem === 'unreadable') return new RuntimeError(`${pemFlag(error)} ${error.file}: ${error.detail}`);
    return new UsageError(`${pemFlag(error)} ${error.file}: not a PEM ${error.role === 'client-key' ? 'private key' : 'certificate'} file`);
  }
  return error;
}

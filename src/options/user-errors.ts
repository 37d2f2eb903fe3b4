// Domain errors of core and io in the user's words: the one place that names the flag or argument
// a problem came from, and decides whether calling again differently fixes it (exit 2) or not (exit 1).
import { RuntimeError, UsageError } from '../errors.ts';
import { AggregateError } from '../core/aggregate.ts';
import type { AggregateProblem } from '../core/aggregate.ts';
import { FolderError } from '../io/atomic.ts';
import { SavedFileError } from '../io/saved-events.ts';
import { MAX_FROM_BYTES } from '../io/event-file.ts';
import { RecordFileError } from '../io/record-writer.ts';
import { kindWords } from '../io/path-kind.ts';
import type { PathKind } from '../io/path-kind.ts';
import { PemFileError } from '../otlp/http.ts';
import { KubeconfigError } from '../kube/kubeconfig.ts';
import { ImpersonationError } from '../kube/overrides.ts';
import { ShipError } from '../otlp/ship.ts';
import { StoreAnswerError } from '../stores/victorialogs.ts';

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

/** --from's words for a saved file that is not one. */
function savedFileWords(error: SavedFileError): string {
  switch (error.problem) {
    case 'empty':
      return 'the file is empty';
    case 'unrecognised':
      return 'neither JSON, a record, nor a stable table';
    case 'not-saved-events':
      // `detail`: what it is instead, where a reader knows (a store's answer of another kind).
      return error.detail || 'not a capture, an event list, or a record';
    case 'not-an-event':
      return `item ${error.item?.position} is not an Event: ${error.item?.what}`;
    case 'binary':
      return `not text (a NUL byte at byte ${error.detail}): neither JSON, a record, nor a stable table`;
    case 'no-such-file':
      return 'no such file';
    case 'unreadable':
      return error.detail;
    case 'too-big':
      return `${Math.ceil(Number(error.detail) / 1024 / 1024)} MiB is more than --from reads (${MAX_FROM_BYTES / 1024 / 1024} MiB)`;
    case 'not-a-file':
      return error.detail === 'folder' ? 'a folder with no events.json in it (not a capture)' : `${kindWords(error.detail as PathKind)}, not a file`;
  }
}

/** A saved file the file system would not hand over: calling again differently does not fix it. */
const SAVED_FILE_REFUSED: ReadonlySet<SavedFileError['problem']> = new Set(['no-such-file', 'unreadable', 'too-big', 'not-a-file']);

/** The words for a folder or file that cannot be written (capture's folder, --output-file, a ledger). */
function folderWords(error: FolderError): string {
  const { dir, parent } = error;
  switch (error.problem) {
    case 'not-a-folder':
      return `${dir} exists and is not a folder`;
    case 'not-empty':
      return `${dir} is not empty`;
    case 'no-parent':
      return `cannot ${error.what === 'folder' ? 'create' : 'write'} ${dir}: ${parent} does not exist`;
    case 'not-a-file':
      return `cannot write ${dir}: it is ${kindWords(error.kind ?? 'file')}`;
  }
}

/** record's words for a path it cannot record into. */
function recordFileWords(error: RecordFileError): string {
  const { path, detail } = error;
  switch (error.problem) {
    case 'no-reader':
      return `record stopped before any process read ${path} (a FIFO): nothing recorded`;
    case 'not-a-file':
      return error.kind === null ? `${path}: ${error.problem}` : `${path} is ${kindWords(error.kind)}: record needs a file`;
    case 'no-folder':
      return `cannot create ${path}: ${detail} is not a folder`;
    case 'not-a-record':
      return `${path} is not an evtimeline record (line ${detail} is not a record line): nothing written`;
    case 'unreadable':
      return `cannot read ${path}: ${detail}`;
    case 'unwritable':
      return `cannot write ${path}: ${detail}`;
    case 'changed':
      return `${path} changed while it was being read: is another recorder writing to it?`;
  }
}

/** An OTLP export that failed: where, and the endpoint's answer (what to drop when it wants protobuf). */
function shipWords(error: ShipError): string {
  switch (error.problem) {
    case 'failed':
      return `OTLP export to ${error.url} failed: ${error.why}`;
    case 'json-refused':
      return `OTLP export to ${error.url} failed: the endpoint takes OTLP protobuf, not JSON: drop --otlp-json`;
    case 'gave-up':
      return `OTLP export to ${error.url} failed ${error.attempts} times in a row, giving up: ${error.why}`;
  }
}

/** A log store's answer that cannot be read. */
function storeAnswerWords(error: StoreAnswerError): string {
  switch (error.problem) {
    case 'broke-off':
      return `${error.store}: the answer broke off before its end (a server or storage node stopped, or the request ran past the server's -search.maxQueryDuration: a smaller &page-rows=N shortens each request)`;
    case 'query-failed':
      return `${error.store}: the query failed: ${error.detail}`;
  }
}

/** The error as main prints it; errors that are not domain errors pass through unchanged. */
export function inUserWords(error: unknown): unknown {
  if (error instanceof SavedFileError) {
    const text = `--from ${error.path}: ${savedFileWords(error)}`;
    return SAVED_FILE_REFUSED.has(error.problem) ? new RuntimeError(text) : new UsageError(text);
  }
  if (error instanceof FolderError) {
    if (error.problem === 'not-empty') return new UsageError(`${folderWords(error)}: pass --force to replace it`);
    return error.problem === 'no-parent' ? new RuntimeError(folderWords(error)) : new UsageError(folderWords(error));
  }
  if (error instanceof RecordFileError) {
    const fixable = error.problem === 'not-a-file' || error.problem === 'no-folder' || error.problem === 'not-a-record';
    const text = recordFileWords(error);
    return fixable ? new UsageError(text) : new RuntimeError(text);
  }
  if (error instanceof AggregateError) return new UsageError(aggregateWords(error.problem));
  if (error instanceof KubeconfigError) return new RuntimeError(kubeconfigWords(error));
  if (error instanceof PemFileError) {
    if (error.problem === 'no-such-file') return new RuntimeError(`${pemFlag(error)} ${error.file}: no such file`);
    if (error.problem === 'unreadable') return new RuntimeError(`${pemFlag(error)} ${error.file}: ${error.detail}`);
    return new UsageError(`${pemFlag(error)} ${error.file}: not a PEM ${error.role === 'client-key' ? 'private key' : 'certificate'} file`);
  }
  if (error instanceof ShipError) return new RuntimeError(shipWords(error));
  if (error instanceof StoreAnswerError) return new RuntimeError(storeAnswerWords(error));
  // client-go's transport.New refuses the same (transport/transport.go); the fix is ours to name.
  if (error instanceof ImpersonationError) return new RuntimeError('requesting uid or groups for impersonation without impersonating a user: pass --as');
  return error;
}

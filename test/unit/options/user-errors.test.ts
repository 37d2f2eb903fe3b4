// Domain errors of core and io become the user's words (the flag they came from) and an exit class, once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AggregateError } from '../../../src/core/aggregate.ts';
import { RuntimeError, UsageError } from '../../../src/errors.ts';
import { FolderError } from '../../../src/io/atomic.ts';
import { SavedFileError } from '../../../src/io/saved-events.ts';
import { RecordFileError } from '../../../src/io/record-writer.ts';
import { inUserWords } from '../../../src/options/user-errors.ts';
import { KubeconfigError } from '../../../src/kube/kubeconfig.ts';
import { PemFileError } from '../../../src/otlp/http.ts';
import { ShipError } from '../../../src/otlp/ship.ts';
import { ImpersonationError } from '../../../src/kube/overrides.ts';

const cases: [string, Error, typeof UsageError | typeof RuntimeError, string][] = [
  ['an empty saved file', new SavedFileError('a.json', 'empty'), UsageError, '--from a.json: the file is empty'],
  ['a saved file of another kind', new SavedFileError('a.txt', 'unrecognised'), UsageError, '--from a.txt: neither JSON, a record, nor a stable table'],
  ['a JSON file that holds no events', new SavedFileError('a.json', 'not-saved-events'), UsageError, '--from a.json: not a capture, an event list, or a record'],
  ['a list holding something else', new SavedFileError('a.json', 'not-an-event', '', { position: 2, what: 'a Pod' }), UsageError, '--from a.json: item 2 is not an Event: a Pod'],
  ['a saved file that is not there', new SavedFileError('gone.json', 'no-such-file'), RuntimeError, '--from gone.json: no such file'],
  ['a saved file the system will not read', new SavedFileError('a.json', 'unreadable', 'permission denied'), RuntimeError, '--from a.json: permission denied'],
  ['a saved file past the size --from reads', new SavedFileError('big.json', 'too-big', String(600 * 1024 * 1024 + 1)), RuntimeError, '--from big.json: 601 MiB is more than --from reads (512 MiB)'],
  ['a capture folder that holds files', new FolderError('out', 'not-empty', 'folder'), UsageError, 'out is not empty: pass --force to replace it'],
  ['a capture folder that is a file', new FolderError('out', 'not-a-folder', 'folder'), UsageError, 'out exists and is not a folder'],
  ['a capture folder with no parent', new FolderError('a/b', 'no-parent', 'folder', 'a'), RuntimeError, 'cannot create a/b: a does not exist'],
  ['an --output-file with no parent', new FolderError('a/b.txt', 'no-parent', 'file', 'a'), RuntimeError, 'cannot write a/b.txt: a does not exist'],
  ['an --output-file that is a socket', new FolderError('s', 'not-a-file', 'file', '', 'socket'), UsageError, 'cannot write s: it is a socket'],
  ['a record that is another file', new RecordFileError('r', 'not-a-record', '3'), UsageError, 'r is not an evtimeline record (line 3 is not a record line): nothing written'],
  ['a record another writer changed', new RecordFileError('r', 'changed'), RuntimeError, 'r changed while it was being read: is another recorder writing to it?'],
  ['a record whose folder is a file', new RecordFileError('f/r', 'no-folder', 'f'), UsageError, 'cannot create f/r: f is not a folder'],
  ['a record the system will not read', new RecordFileError('r', 'unreadable', 'permission denied'), RuntimeError, 'cannot read r: permission denied'],
  ['a record the system will not write', new RecordFileError('r', 'unwritable', 'no space left on device'), RuntimeError, 'cannot write r: no space left on device'],
  ['a record that is a folder', new RecordFileError('r', 'not-a-file', '', 'folder'), UsageError, 'r is a folder: record needs a file'],
  ['a record that is a socket', new RecordFileError('r.sock', 'not-a-file', '', 'socket'), UsageError, 'r.sock is a socket: record needs a file'],
  ['a record into a FIFO nobody read before the stop', new RecordFileError('f', 'no-reader', '', 'pipe'), RuntimeError, 'record stopped before any process read f (a FIFO): nothing recorded'],
  ['a saved file of NUL bytes', new SavedFileError('/dev/zero', 'binary', '1'), UsageError, '--from /dev/zero: not text (a NUL byte at byte 1): neither JSON, a record, nor a stable table'],
  ['a folder that is not a capture', new SavedFileError('d', 'not-a-file', 'folder'), RuntimeError, '--from d: a folder with no events.json in it (not a capture)'],
  ["a capture's events.json that is a FIFO", new SavedFileError('d/events.json', 'not-a-file', 'pipe'), RuntimeError, '--from d/events.json: a pipe (FIFO), not a file'],
  ['a total below the count', new AggregateError({ kind: 'count-below-current', count: 4, current: 5 }), UsageError, '--count 4 is below the current count 5: a recorder never decreases it'],
  ['a --kubeconfig that is not there', new KubeconfigError('no-such-file', 'k.yaml'), RuntimeError, '--kubeconfig k.yaml: no such file'],
  ['no kubeconfig at all', new KubeconfigError('none-found'), RuntimeError, 'no kubeconfig found: set KUBECONFIG, pass --kubeconfig, or create ~/.kube/config'],
  ['a kubeconfig with no current context', new KubeconfigError('no-current-context'), RuntimeError, 'current-context is not set in the kubeconfig: pass --context'],
  ["a collector's CA that is not there", new PemFileError('collector', 'ca', 'ca.pem', 'no-such-file'), RuntimeError, '--otlp-ca ca.pem: no such file'],
  ["a collector's CA the system will not read", new PemFileError('collector', 'ca', 'ca.pem', 'unreadable', 'permission denied'), RuntimeError, '--otlp-ca ca.pem: permission denied'],
  ["a store's client key that is not PEM", new PemFileError('store', 'client-key', 'k.pem', 'not-pem'), UsageError, '--from-client-key k.pem: not a PEM private key file'],
  ["a collector's client certificate that is not PEM", new PemFileError('collector', 'client-cert', 'c.pem', 'not-pem'), UsageError, '--otlp-client-cert c.pem: not a PEM certificate file'],
  ['an OTLP export refused', new ShipError('http://c:4318/v1/logs', 'failed', 'HTTP 401: unauthorized', 1), RuntimeError, 'OTLP export to http://c:4318/v1/logs failed: HTTP 401: unauthorized'],
  ['OTLP JSON refused for protobuf', new ShipError('http://c:4318/v1/logs', 'json-refused', 'HTTP 415', 1), RuntimeError, 'OTLP export to http://c:4318/v1/logs failed: the endpoint takes OTLP protobuf, not JSON: drop --otlp-json'],
  ['an OTLP export given up', new ShipError('http://c:4318/v1/logs', 'gave-up', 'ECONNRESET', 4), RuntimeError, 'OTLP export to http://c:4318/v1/logs failed 4 times in a row, giving up: ECONNRESET'],
  ['a uid or groups to impersonate without a user', new ImpersonationError(), RuntimeError, 'requesting uid or groups for impersonation without impersonating a user: pass --as'],
  ['a series total of 1', new AggregateError({ kind: 'series-too-small', count: 1 }), UsageError, '--count 1 is too small: a series starts at 2'],
];
for (const [name, error, kind, message] of cases) {
  test(`${name} is said as the user typed it`, () => {
    const said = inUserWords(error);
    assert.ok(said instanceof kind, String(said));
    assert.equal((said as Error).message, message);
  });
}

test('any other error passes unchanged', () => {
  const error = new Error('boom');
  assert.equal(inUserWords(error), error);
});

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

const cases: [string, Error, typeof UsageError | typeof RuntimeError, string][] = [
  ['an empty saved file', new SavedFileError('a.json', 'empty', 'the file is empty'), UsageError, '--from a.json: the file is empty'],
  ['a saved file of another kind', new SavedFileError('a.txt', 'unrecognised', 'neither JSON, a record, nor a stable table'), UsageError, '--from a.txt: neither JSON, a record, nor a stable table'],
  ['a saved file that is not there', new SavedFileError('gone.json', 'unreadable', 'no such file'), RuntimeError, '--from gone.json: no such file'],
  ['a capture folder that holds files', new FolderError('out', 'not-empty', 'out is not empty'), UsageError, 'out is not empty: pass --force to replace it'],
  ['a capture folder that is a file', new FolderError('out', 'not-a-folder', 'out exists and is not a folder'), UsageError, 'out exists and is not a folder'],
  ['a capture folder with no parent', new FolderError('a/b', 'no-parent', 'cannot create a/b: a does not exist'), RuntimeError, 'cannot create a/b: a does not exist'],
  ['a record that is another file', new RecordFileError('r', 'not-a-record', 'r is not an evtimeline record'), UsageError, 'r is not an evtimeline record'],
  ['a record another writer changed', new RecordFileError('r', 'changed', 'r changed'), RuntimeError, 'r changed'],
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
  ["a collector's CA that is not there", new PemFileError('collector', 'ca', 'ca.pem', 'unreadable', 'no such file'), RuntimeError, '--otlp-ca ca.pem: no such file'],
  ["a store's client key that is not PEM", new PemFileError('store', 'client-key', 'k.pem', 'not-pem', 'no PEM block'), UsageError, '--from-client-key k.pem: not a PEM private key file'],
  ["a collector's client certificate that is not PEM", new PemFileError('collector', 'client-cert', 'c.pem', 'not-pem', 'no PEM block'), UsageError, '--otlp-client-cert c.pem: not a PEM certificate file'],
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

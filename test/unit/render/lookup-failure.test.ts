// Why an object could not be looked up: a domain value from src/kube, worded once in render for
// the incident text and its -o json alike.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LookupFailure } from '../../../src/core/incarnation.ts';
import { lookupFailureText } from '../../../src/render/lookup-failure.ts';

const cases: [LookupFailure, string][] = [
  [{ reason: 'not-looked-up' }, 'not looked up'],
  [{ reason: 'no-version', apiVersion: 'apps/' }, 'apiVersion apps/ names no version'],
  [{ reason: 'not-served', apiVersion: 'gone.example.com/v1' }, 'gone.example.com/v1 is no longer served'],
  [{ reason: 'no-kind', apiVersion: 'v1', kind: 'Widget' }, 'v1 serves no kind Widget'],
  [{ reason: 'no-get', resource: 'tokenreviews' }, 'tokenreviews cannot be read with get'],
  [{ reason: 'no-namespace', kind: 'Pod', name: 'web' }, 'the event names no namespace for Pod web'],
  [{ reason: 'invalid-name', detail: `invalid resource name "..": [may not be '..']` }, `invalid resource name "..": [may not be '..']`],
  [{ reason: 'another-object', kind: 'Pod', name: 'web' }, 'the server answered for Pod web with another object'],
  [{ reason: 'no-uid', kind: 'Pod', name: 'web' }, 'the server sent Pod web without a uid'],
  [{ reason: 'forbidden', step: 'list', target: 'pods' }, 'not allowed to list pods'],
  [{ reason: 'failed', step: 'discover', target: 'example.com/v1', detail: 'etcd is down' }, 'cannot discover example.com/v1: etcd is down'],
];

for (const [why, words] of cases) {
  test(`${why.reason}: ${words}`, () => assert.equal(lookupFailureText(why), words));
}

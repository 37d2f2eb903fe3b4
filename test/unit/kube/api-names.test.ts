import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { runCli } from '../../../src/cli.ts';
import { UsageError } from '../../../src/errors.ts';
import { pathSegment } from '../../../src/kube/api-names.ts';
import { eventNameError, namespaceError } from '../../../src/core/object-names.ts';
import { eventsPath } from '../../../src/kube/events-api.ts';
import { buildUrl } from '../../../src/kube/http.ts';
import { groupVersionPath } from '../../../src/kube/discovery.ts';
import { fakeDeps } from '../../support/deps.ts';

const LABEL_RULE =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name', or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const SUBDOMAIN_RULE =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

describe('namespaceError: client-go path rules, then the API server namespace rule', () => {
  const cases: [string, string, string | null][] = [
    ['accepts a plain label', 'op-events', null],
    ['accepts 63 characters', 'a'.repeat(63), null],
    ['refuses ".." in client-go words', '..', `invalid namespace "..": [may not be '..']`],
    ['refuses "."', '.', `invalid namespace ".": [may not be '.']`],
    ['refuses a slash as kubectl does', 'a/b', `invalid namespace "a/b": [may not contain '/']`],
    ['refuses a percent sign', 'a%2e', `invalid namespace "a%2e": [may not contain '%']`],
    ['names both of slash and percent', '%/', `invalid namespace "%/": [may not contain '/' may not contain '%']`],
    ['refuses dots in a label as the API server does', 'a.b', `invalid namespace "a.b": [must not contain dots]`],
    ['refuses capitals', 'Foo', `invalid namespace "Foo": [${LABEL_RULE}]`],
    ['refuses 64 characters', 'a'.repeat(64), `invalid namespace "${'a'.repeat(64)}": [must be no more than 63 bytes]`],
    ['refuses an empty name', '', 'namespace may not be empty'],
  ];
  for (const [name, input, want] of cases) test(name, () => assert.equal(namespaceError(input), want));
});

describe('eventNameError: an Event name is a DNS-1123 subdomain', () => {
  const cases: [string, string, string | null][] = [
    ['accepts a recorder name with dots', 'hungry.17c3a2b1d2e3f4a5', null],
    ['refuses ".."', '..', `invalid resource name "..": [may not be '..']`],
    ['refuses a slash', 'a/b', `invalid resource name "a/b": [may not contain '/']`],
    ['refuses a space', 'a b', `invalid resource name "a b": [${SUBDOMAIN_RULE}]`],
    ['refuses an empty name', '', 'resource name may not be empty'],
  ];
  for (const [name, input, want] of cases) test(name, () => assert.equal(eventNameError(input), want));
});

describe('path building', () => {
  test('refuses a dot segment wherever it would go', () => {
    assert.throws(() => eventsPath('core', '..'), /invalid namespace "\.\."/);
    assert.throws(() => eventsPath('core', 'ns', '.'), /invalid resource name "\."/);
    assert.throws(() => pathSegment('resource name', ''), /may not be empty/);
  });

  test('refuses a path the URL parser would resolve elsewhere', () => {
    assert.throws(() => buildUrl('https://h:6443', '/api/v1/namespaces/x/events/..'), /refusing request path/);
    assert.throws(() => buildUrl('https://h:6443/prefix', '/api/v1/%2e%2e/x'), /refusing request path/);
    assert.equal(buildUrl('https://h:6443/prefix/', '/api/v1/events?limit=1').pathname, '/prefix/api/v1/events');
  });

  test('reads no group/version that is not one (an involvedObject.apiVersion is free text)', () => {
    assert.equal(groupVersionPath('../..'), null);
    assert.equal(groupVersionPath('ev.labhub.io/..'), null);
    assert.equal(groupVersionPath('a/b/c'), null);
    assert.equal(groupVersionPath('ev.labhub.io/v1'), '/apis/ev.labhub.io/v1');
  });

  test('builds, for any name a path segment may hold, a URL whose path is exactly what was asked', () => {
    const name = fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }).filter((s) => s !== '.' && s !== '..' && !/[/%]/.test(s));
    fc.assert(
      fc.property(name, name, (namespace, event) => {
        const path = eventsPath('core', namespace, event);
        const url = buildUrl('https://h:6443', path);
        return decodeURIComponent(url.pathname.split('/')[4] ?? '') === namespace && decodeURIComponent(url.pathname.split('/')[6] ?? '') === event;
      }),
    );
  });
});

describe('names refused before any request, exit 2', () => {
  async function usage(argv: string[]): Promise<string> {
    const fake = fakeDeps();
    // No kubeconfig exists here: had a verb got as far as loading one, the error would say so instead.
    const error = await runCli(argv, fake.deps).then(
      () => assert.fail('expected a usage error'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof UsageError, String(error));
    return error.message;
  }
  const cases: [string, string[], string][] = [
    ['timeline -n ..', ['-n', '..'], `invalid namespace "..": [may not be '..']`],
    ['timeline -n .', ['-n', '.'], `invalid namespace ".": [may not be '.']`],
    ['incident -n a/b, as kubectl words it', ['incident', '-n', 'a/b'], `invalid namespace "a/b": [may not contain '/']`],
    ['aggregate-patch ..', ['aggregate-patch', '..', '-n', 'ns'], `invalid resource name "..": [may not be '..']`],
    ['aggregate-patch with a bad namespace', ['aggregate-patch', 'x', '-n', '..'], `invalid namespace "..": [may not be '..']`],
    ['record -n ..', ['record', '-n', '..', 'f.jsonl'], `invalid namespace "..": [may not be '..']`],
    ['capture -n ..', ['capture', '-n', '..', 'out'], `invalid namespace "..": [may not be '..']`],
  ];
  for (const [name, argv, want] of cases) test(name, async () => assert.equal(await usage(argv), want));
});

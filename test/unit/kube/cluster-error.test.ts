// A cluster's problem raised as a value (kube/cluster-error.ts, kube/credential-error.ts): its
// message is render/cluster-words.ts's words, so the warning for a context that did not answer says
// what main's error line says when that context is read alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../../../src/cli.ts';
import { EXIT, RuntimeError } from '../../../src/errors.ts';
import { fleetSource } from '../../../src/core/fleet.ts';
import type { EventSource } from '../../../src/core/source.ts';
import type { ClusterProblem } from '../../../src/core/cluster-problems.ts';
import { ClusterError } from '../../../src/kube/cluster-error.ts';
import { CredentialProblem, LocalCredentialError } from '../../../src/kube/credential-error.ts';
import { clusterProblemText } from '../../../src/render/cluster-words.ts';
import { ev } from '../../support/builders.ts';
import { fakeDeps } from '../../support/deps.ts';
import { fromCluster, memorySource, openSources } from '../../support/sources.ts';

const timedOut: ClusterProblem = { kind: 'timed-out', server: 'https://west.example', ms: 1000 };

test('a ClusterError is a RuntimeError (exit 1) carrying its problem, its message the problem in words', () => {
  const error = new ClusterError(timedOut);
  assert.ok(error instanceof RuntimeError);
  assert.deepEqual(error.problem, timedOut);
  assert.equal(error.message, 'request to https://west.example timed out after 1000 ms (--request-timeout)');
});

test('a credential problem is final under -w and record (a LocalCredentialError, so named), in the same words', () => {
  const error = new CredentialProblem({ kind: 'token-file-empty', path: '/t' });
  assert.ok(error instanceof LocalCredentialError);
  assert.equal(error.name, 'LocalCredentialError');
  assert.equal(error.message, clusterProblemText(error.problem));
});

async function run(argv: string[], live: EventSource) {
  const fake = fakeDeps({ openSource: openSources({ live }).open, now: Date.parse('2026-11-30T12:00:00Z') });
  const code = await runCli(argv, fake.deps).catch((error: unknown) => error);
  return { code, stdout: fake.stdout(), stderr: fake.stderr() };
}

test("the several-contexts warning and main's line say a context's problem alike", async () => {
  const west: EventSource = {
    ...memorySource({ provenance: fromCluster({ context: 'west', server: 'https://west.example' }), raw: [] }),
    read: async () => {
      throw new ClusterError(timedOut);
    },
  };
  const east = memorySource({ provenance: fromCluster({ context: 'east', server: 'https://east.example', namespace: 'shop' }), raw: [ev({ namespace: 'shop', reason: 'Pulled' })] });
  const both = await run(['--context', 'east,west'], fleetSource([
    { context: 'east', server: 'https://east.example', namespace: 'shop', source: east },
    { context: 'west', server: 'https://west.example', namespace: 'shop', source: west },
  ]));
  assert.equal(both.code, EXIT.partial);
  const words = clusterProblemText(timedOut);
  assert.match(both.stderr, new RegExp(`^warning: context "west" \\(https://west\\.example\\) did not answer, its events are not shown: ${words.replace(/[.()]/g, '\\$&')}$`, 'm'));
  const alone = await run(['--context', 'west'], west);
  assert.ok(alone.code instanceof RuntimeError);
  assert.equal(alone.code.message, words);
});

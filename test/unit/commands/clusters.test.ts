// D4: what came from one cluster is never silently mixed with, or compared against, another.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../../src/cli.ts';
import { distinctServers, sameServer } from '../../../src/core/server.ts';
import { RECORD_KIND } from '../../../src/core/record.ts';
import { UsageError } from '../../../src/errors.ts';
import { formatHeader, formatObservation } from '../../../src/io/record-line.ts';
import { ev, labEvents } from '../../support/builders.ts';
import { fakeDeps } from '../../support/deps.ts';
import { scratchDir } from '../../support/tmp.ts';

const dir = scratchDir('clusters');
// Nothing listens on port 1: a verb that got as far as a request would fail with "cannot reach".
const HERE = 'https://127.0.0.1:1';
const THERE = 'https://10.0.0.9:6443';

const kubeconfig = join(dir, 'kubeconfig');
writeFileSync(
  kubeconfig,
  [
    'apiVersion: v1',
    'kind: Config',
    'current-context: here',
    `clusters: [{name: here, cluster: {server: "${HERE}"}}]`,
    'users: [{name: here, user: {token: t}}]',
    'contexts: [{name: here, context: {cluster: here, user: here, namespace: op-events}}]',
    '',
  ].join('\n'),
);
const env = { HOME: dir, KUBECONFIG: kubeconfig };

function header(server: string, startedAt = '2026-11-30T11:00:00.000Z'): string {
  return formatHeader({ kind: RECORD_KIND, version: 1, context: 'c', server, namespace: 'op-events', filter: {}, startedAt: Date.parse(startedAt) });
}

function observation(event: Record<string, unknown>, at = '2026-11-30T11:00:01.000Z'): string {
  return formatObservation({ observedAt: Date.parse(at), type: 'ADDED', event });
}

describe('sameServer', () => {
  const cases: [string, string, boolean][] = [
    ['https://h:6443', 'https://h:6443/', true],
    ['https://H:443', 'https://h', true],
    ['http://127.0.0.1:8001', 'http://127.0.0.1:8001', true],
    ['https://a:6443', 'https://b:6443', false],
    ['https://h:6443', 'https://h:6444', false],
    ['https://rancher/k8s/clusters/c-1', 'https://rancher/k8s/clusters/c-2', false],
  ];
  for (const [a, b, want] of cases) test(`${a} and ${b}: ${want ? 'one server' : 'two'}`, () => assert.equal(sameServer(a, b), want));
  test('lists each server once, leaving out files that name none', () => assert.deepEqual(distinctServers(['https://a', '', 'https://A:443/', 'https://b']), ['https://a', 'https://b']));
});

describe('--compare against another cluster', () => {
  test('a capture taken from another server is refused before any request, exit 2', async () => {
    const capture = join(dir, 'capture.json');
    writeFileSync(capture, JSON.stringify({ kind: 'EvtimelineCapture', version: 1, context: 'prod', server: THERE, namespace: 'op-events', capturedAt: '2026-11-30T11:00:00Z', core: labEvents(), eventsK8sIo: [] }));
    const error = await runCli(['incident', '--from', capture, '--compare'], fakeDeps({ env }).deps).then(
      () => assert.fail('compared'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof UsageError, String(error));
    assert.equal(
      error.message,
      `--compare: ${capture} was taken from ${THERE}, but context "here" talks to ${HERE}: every event would look gone (pass --context to compare with the cluster it came from)`,
    );
  });

  test('a record one of whose sessions came from another server is refused too', async () => {
    const file = join(dir, 'two-sessions.jsonl');
    writeFileSync(file, header(HERE) + observation(ev({ uid: 'a' })) + header(THERE, '2026-11-30T11:30:00.000Z') + observation(ev({ uid: 'b' })));
    await assert.rejects(runCli(['timeline', '--from', file, '--compare'], fakeDeps({ env }).deps), (e: unknown) => e instanceof UsageError && /was taken from https:\/\/10\.0\.0\.9:6443/.test(e.message));
  });

  test('a list that names no server is compared, with a warning first', async () => {
    const list = join(dir, 'list.json');
    writeFileSync(list, JSON.stringify({ items: [ev()] }));
    const fake = fakeDeps({ env });
    // The warning comes before the first request, which then fails: nothing listens on port 1.
    await assert.rejects(runCli(['timeline', '--from', list, '--compare'], fake.deps), /cannot reach the API server/);
    assert.equal(fake.stderr(), `warning: ${list} does not say which API server it came from: comparing it with ${HERE}\n`);
  });
});

describe('a record spanning two clusters', () => {
  test('is read, with a warning naming both servers', async () => {
    const file = join(dir, 'spanning.jsonl');
    writeFileSync(file, header(HERE) + observation(ev({ uid: 'a', reason: 'Here' })) + header(THERE, '2026-11-30T11:30:00.000Z') + observation(ev({ uid: 'b', reason: 'There' })));
    const fake = fakeDeps();
    assert.equal(await runCli(['timeline', '--from', file, '-o', 'stable'], fake.deps), 0);
    assert.equal(fake.stdout().split('\n').filter((l) => l !== '').length, 2);
    assert.equal(fake.stderr().split('\n')[0], `warning: ${file} was recorded from 2 API servers (${HERE}, ${THERE}): its events are read as one record`);
  });

  test('record refuses to add this cluster to a record of another, before any request, and leaves it as it was', async () => {
    const file = join(dir, 'theirs.jsonl');
    const text = header(THERE) + observation(ev({ uid: 'a' }));
    writeFileSync(file, text);
    const error = await runCli(['record', file], fakeDeps({ env }).deps).then(
      () => assert.fail('recorded'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof UsageError, String(error));
    assert.equal(error.message, `${file} was recorded from ${THERE}, and context "here" talks to ${HERE}: record this cluster into another file`);
    assert.ok(existsSync(file));
    assert.equal(readFileSync(file, 'utf8'), text);
  });
});

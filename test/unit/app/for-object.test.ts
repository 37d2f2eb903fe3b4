// --for TYPE/NAME through the EventSource port: a live source's discovery resolves it as kubectl
// does; a saved input (no discovery) keeps the type as typed. Tables tell two groups' Kinds apart.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveFilter } from '../../../src/app/for-object.ts';
import { normaliseEvent } from '../../../src/core/event.ts';
import type { ServedResource } from '../../../src/core/resources.ts';
import { sortTimeline, stableLines } from '../../../src/core/timeline.ts';
import { RuntimeError, UsageError } from '../../../src/errors.ts';
import { plainPalette } from '../../../src/render/color.ts';
import { renderTimelineTable } from '../../../src/render/timeline-table.ts';
import { NOW, ev } from '../../support/builders.ts';
import { fakeDeps } from '../../support/deps.ts';
import { fromCapture, fromCluster, memorySource, openSources } from '../../support/sources.ts';
import { runCli } from '../../../src/cli.ts';

const pipeline = (group: string, version: string, shortNames: string[] = []): ServedResource => ({
  group,
  version,
  resource: 'pipelines',
  singular: 'pipeline',
  kind: 'Pipeline',
  shortNames,
  namespaced: true,
  verbs: ['get', 'list', 'watch'],
});
const SERVED = [pipeline('ci.example.org', 'v1beta1'), pipeline('ev.labhub.io', 'v1', ['pl'])];
const live = memorySource({ provenance: fromCluster(), served: SERVED });
const forObject = (kind: string) => ({ object: { kind, name: 'build-1' } });

describe('resolveFilter', () => {
  test('resolves a CRD short name to its Kind and group', async () => {
    assert.deepEqual(await resolveFilter(live, forObject('pl')), { object: { kind: 'Pipeline', group: 'ev.labhub.io', name: 'build-1' } });
  });
  test('resolves resource.group to that group', async () => {
    assert.deepEqual(await resolveFilter(live, forObject('pipelines.ci.example.org')), { object: { kind: 'Pipeline', group: 'ci.example.org', name: 'build-1' } });
  });
  test('refuses a Kind two groups share, naming both qualified choices (exit 2)', async () => {
    await assert.rejects(resolveFilter(live, forObject('Pipeline')), (error: Error) => {
      assert.ok(error instanceof UsageError);
      assert.equal(
        error.message,
        '--for Pipeline/build-1 is ambiguous: "pipeline" is served by more than one group; name one of pipelines.ci.example.org/build-1, pipelines.ev.labhub.io/build-1',
      );
      return true;
    });
  });
  test("refuses an unknown type in kubectl's words (exit 1)", async () => {
    await assert.rejects(resolveFilter(live, forObject('Nonsense')), new RuntimeError('the server doesn\'t have a resource type "nonsense"'));
  });
  test('names the group an unknown type was asked in', async () => {
    await assert.rejects(resolveFilter(live, forObject('pipelines.nowhere.io')), new RuntimeError('the server doesn\'t have a resource type "pipelines" in group "nowhere.io"'));
  });
  test('leaves a saved input’s filter as typed: there is no discovery', async () => {
    const saved = memorySource({ provenance: fromCapture(), raw: [] });
    assert.deepEqual(await resolveFilter(saved, forObject('pl')), forObject('pl'));
  });
});

describe('objects of two groups sharing a Kind', () => {
  const events = sortTimeline(
    [
      ev({ name: 'a', reason: 'Started', apiVersion: 'ev.labhub.io/v1', kind: 'Pipeline', objectName: 'build-1', first: 30 }),
      ev({ name: 'b', reason: 'Started', apiVersion: 'ci.example.org/v1beta1', kind: 'Pipeline', objectName: 'build-1', first: 20 }),
      ev({ name: 'c', reason: 'Pulled', apiVersion: 'v1', kind: 'Pod', objectName: 'build-1-pod', first: 10 }),
    ].map(normaliseEvent),
  );
  test('are group-qualified in the table, and only they', () => {
    const table = renderTimelineTable(events, { now: NOW, wide: false, allNamespaces: false, noHeaders: true, palette: plainPalette });
    const objects = table.trimEnd().split('\n').map((line) => line.split(/ {3,}/)[4]);
    assert.deepEqual(objects, ['Pipeline.ev.labhub.io/build-1', 'Pipeline.ci.example.org/build-1', 'Pod/build-1-pod']);
  });
  test('are group-qualified in stable lines, which would otherwise fold them into one', () => {
    assert.deepEqual(stableLines(events), [
      'Normal Pulled Pod/build-1-pod',
      'Normal Started Pipeline.ci.example.org/build-1',
      'Normal Started Pipeline.ev.labhub.io/build-1',
    ]);
  });
  test('keep Kind/name when one group has the Kind among the events', () => {
    assert.deepEqual(stableLines(events.slice(0, 1)), ['Normal Started Pipeline/build-1']);
  });
});

// Issue 28: offline `--for pod/x` matched a custom resource's Pod as well as the core Pod. A bare
// TYPE is now resolved as online, in kubectl's discovery order (core, the API server's own groups,
// then custom resources), among the groups the file's events name and the built-in Kinds.
describe('a saved input: a bare TYPE names one group, in kubectl\'s order', () => {
  const crdPod = { apiVersion: 'chaos.example.com/v1', kind: 'Pod' };
  const raw = [
    ev({ name: 'core', reason: 'Pulled', apiVersion: 'v1', kind: 'Pod', objectName: 'x', objectUid: 'u-core', first: 30 }),
    ev({ name: 'crd', reason: 'Injected', ...crdPod, objectName: 'x', objectUid: 'u-crd', first: 20 }),
    ev({ name: 'ci', reason: 'Started', apiVersion: 'ci.example.org/v1beta1', kind: 'Pipeline', objectName: 'build-1', objectUid: 'u-ci', first: 10 }),
    ev({ name: 'lab', reason: 'Started', apiVersion: 'ev.labhub.io/v1', kind: 'Pipeline', objectName: 'build-1', objectUid: 'u-lab', first: 5 }),
  ];
  async function reasons(argv: string[], items = raw) {
    const saved = memorySource({ provenance: fromCapture(), raw: items });
    const fake = fakeDeps({ openSource: openSources({ saved }).open });
    const code = await runCli(['--from', 'cap', '-o', 'json', ...argv], fake.deps).catch((error: unknown) => error);
    return { code, reasons: fake.stdout() === '' ? [] : (JSON.parse(fake.stdout()) as { reason: string }[]).map((e) => e.reason), stderr: fake.stderr() };
  }
  for (const token of ['pod', 'po', 'pods', 'Pod']) {
    test(`--for ${token}/x: the core Pod's events only, not the custom resource's Pod`, async () => {
      assert.deepEqual((await reasons(['--for', `${token}/x`])).reasons, ['Pulled']);
    });
  }
  test('--for pod.chaos.example.com/x names the custom resource\'s Pod', async () => {
    assert.deepEqual((await reasons(['--for', 'pod.chaos.example.com/x'])).reasons, ['Injected']);
  });
  test('a file holding only the custom resource\'s Pod: --for pod/x finds none, as kubectl would (the core Pod is served everywhere)', async () => {
    const r = await reasons(['--for', 'pod/x'], raw.slice(1));
    assert.deepEqual([r.code, r.reasons], [0, []]);
  });
  test('two custom groups sharing a Kind: refused as online, naming both qualified choices (exit 2); each choice works', async () => {
    const r = await reasons(['--for', 'pipeline/build-1']);
    assert.ok(r.code instanceof UsageError);
    assert.equal(r.code.message, '--for pipeline/build-1 is ambiguous: "pipeline" is served by more than one group; name one of pipeline.ci.example.org/build-1, pipeline.ev.labhub.io/build-1');
    assert.deepEqual((await reasons(['--for', 'pipeline.ev.labhub.io/build-1'])).reasons, ['Started']);
  });
  test('one group only: the TYPE as typed, any case of the Kind, as before', async () => {
    const lower = { ...raw[0], involvedObject: { ...(raw[0]?.involvedObject as object), kind: 'pod' } };
    assert.deepEqual((await reasons(['--for', 'pod/x'], [lower])).reasons, ['Pulled']);
  });
});

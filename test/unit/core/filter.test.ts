import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { normaliseEvent } from '../../../src/core/event.ts';
import type { Event } from '../../../src/core/event.ts';
import { filterCounted, filterEvents, matchesKind, matchesType, parseObjectRef, type EventFilter } from '../../../src/core/filter.ts';
import { StartupProbeEvidence } from '../../../src/core/startup-probes.ts';
import { NOW, ev, labEvents } from '../../support/builders.ts';

describe('parseObjectRef', () => {
  const cases: [string, string, { kind: string; name: string } | null][] = [
    ['a Kind and a name', 'Pipeline/build-1', { kind: 'Pipeline', name: 'build-1' }],
    ['a lower-case resource plural', 'pods/hungry', { kind: 'pods', name: 'hungry' }],
    ['surrounding spaces', '  pod/hungry ', { kind: 'pod', name: 'hungry' }],
    ['no slash as invalid (kubectl: must be in resource/name form)', 'hungry', null],
    ['two slashes as invalid', 'pod/hungry/x', null],
    ['an empty name as invalid', 'pod/', null],
    ['an empty kind as invalid', '/hungry', null],
    ['a group-qualified resource (kubectl events --for takes resource.group)', 'pipelines.ev.labhub.io/build-1', { kind: 'pipelines.ev.labhub.io', name: 'build-1' }],
    ['a version- and group-qualified resource', 'pipelines.v1.ev.labhub.io/build-1', { kind: 'pipelines.v1.ev.labhub.io', name: 'build-1' }],
    ['a type with a path character as invalid', 'pods;rm/x', null],
    ['resource.version. (the core group, as kubectl reads it)', 'Pod.v1./x', { kind: 'Pod.v1.', name: 'x' }],
  ];
  for (const [name, text, want] of cases) {
    test(`reads ${name}`, () => assert.deepEqual(parseObjectRef(text), want));
  }
});

describe('matchesKind', () => {
  const cases: [string, string, string, boolean][] = [
    ['the Kind itself', 'Pod', 'Pod', true],
    ['the Kind in lower case', 'pod', 'Pod', true],
    ['the Kind in upper case', 'PIPELINE', 'Pipeline', true],
    ['the plural', 'pipelines', 'Pipeline', true],
    ['an -es plural', 'ingresses', 'Ingress', true],
    ['a -y to -ies plural', 'networkpolicies', 'NetworkPolicy', true],
    ['not another Kind', 'pods', 'Pipeline', false],
    ['a short name, as kubectl api-resources lists it', 'po', 'Pod', true],
    ['a short name in upper case', 'DEPLOY', 'Deployment', true],
    ['a short name of a two-word Kind', 'netpol', 'NetworkPolicy', true],
    ['either of two short names', 'crds', 'CustomResourceDefinition', true],
    ['a short name that is not an abbreviation', 'quota', 'ResourceQuota', true],
    ['not the short name of another Kind', 'po', 'PersistentVolume', false],
    ['not a prefix that is no short name', 'dep', 'Deployment', false],
    ["not a custom resource's short name (needs discovery)", 'pl', 'Pipeline', false],
    ['not a name of Object.prototype', 'constructor', 'Object', false],
    ['not an event with no kind', 's', '', false],
  ];
  for (const [name, token, kind, want] of cases) {
    test(`matches ${name}: ${token} vs ${kind || '""'} is ${want}`, () => assert.equal(matchesKind(token, kind), want));
  }
});

describe('filterEvents', () => {
  const events = labEvents().map(normaliseEvent);
  const names = (filter: EventFilter): string[] => filterEvents(events, filter, NOW).map((e) => e.name);

  const cases: [string, EventFilter, string[]][] = [
    ['no criteria keeps everything in order', {}, ['build-1-started', 'build-1-weird', 'build-1-done', 'hungry.18a1b2c3d4e5f607']],
    ['--for pod/hungry keeps the scheduler event', { object: { kind: 'pod', name: 'hungry' } }, ['hungry.18a1b2c3d4e5f607']],
    ['--for po/hungry keeps it too (a short name)', { object: { kind: 'po', name: 'hungry' } }, ['hungry.18a1b2c3d4e5f607']],
    ['--for pipelines/build-1 keeps the operator events', { object: { kind: 'pipelines', name: 'build-1' } }, ['build-1-started', 'build-1-weird', 'build-1-done']],
    ['--for compares names exactly', { object: { kind: 'Pod', name: 'Hungry' } }, []],
    ['--types=Critical reaches the event kubectl cannot', { types: ['Critical'] }, ['build-1-weird']],
    ['--types compares case-insensitively like kubectl', { types: ['warning'] }, ['hungry.18a1b2c3d4e5f607']],
    ['--types=Warning does not show the Critical event', { types: ['Warning'] }, ['hungry.18a1b2c3d4e5f607']],
    ['an empty --types list keeps everything', { types: [] }, ['build-1-started', 'build-1-weird', 'build-1-done', 'hungry.18a1b2c3d4e5f607']],
    ['--reasons compares case-insensitively', { reasons: ['failedscheduling', 'StageUnknown'] }, ['build-1-weird', 'hungry.18a1b2c3d4e5f607']],
    ['--since 50s keeps events last seen in the window', { sinceMs: 50_000 }, ['build-1-started', 'hungry.18a1b2c3d4e5f607']],
    ['--since includes an event exactly at the edge', { sinceMs: 45_000 }, ['build-1-started', 'hungry.18a1b2c3d4e5f607']],
    ['criteria combine with AND', { types: ['Normal'], sinceMs: 10_000 }, ['build-1-started']],
  ];
  for (const [name, filter, want] of cases) {
    test(name, () => assert.deepEqual(names(filter), want));
  }

  test('--since leaves out an event with no time at all', () => {
    const raw = ev({ name: 'timeless' });
    raw.firstTimestamp = null;
    raw.lastTimestamp = null;
    delete (raw.metadata as Record<string, unknown>).creationTimestamp;
    assert.deepEqual(filterEvents([normaliseEvent(raw)], { sinceMs: 3_600_000 }, NOW), []);
  });

  test('--types matches an empty type only when asked for an empty string', () => {
    const blank = normaliseEvent(ev({ name: 'blank', type: '' }));
    assert.deepEqual(filterEvents([blank], { types: ['Normal'] }, NOW), []);
    assert.deepEqual(filterEvents([blank], { types: [''] }, NOW).map((e) => e.name), ['blank']);
  });
});

describe('matchesType offline (no discovery)', () => {
  const cases: [string, string, string, string, boolean][] = [
    ['a bare type matches any group', 'pipelines', 'Pipeline', 'ci.example.org/v1', true],
    ['resource.group matches its group', 'pipelines.ev.labhub.io', 'Pipeline', 'ev.labhub.io/v1', true],
    ['resource.group does not match another group', 'pipelines.ev.labhub.io', 'Pipeline', 'ci.example.org/v1', false],
    ['Kind.group matches in any case', 'PIPELINE.ev.labhub.io', 'Pipeline', 'ev.labhub.io/v1', true],
    ['resource.version.group matches that apiVersion', 'pipelines.v1.ev.labhub.io', 'Pipeline', 'ev.labhub.io/v1', true],
    ['resource.version.group does not match another version', 'pipelines.v2.ev.labhub.io', 'Pipeline', 'ev.labhub.io/v1', false],
    ['a short name with a group', 'deploy.apps', 'Deployment', 'apps/v1', true],
    ['a group-qualified core Kind never matches the core group', 'pods.apps', 'Pod', 'v1', false],
    ['resource.version. matches the core group at that version', 'Pod.v1.', 'Pod', 'v1', true],
  ];
  for (const [name, token, kind, apiVersion, want] of cases) {
    test(`${name}: ${token} vs ${kind} ${apiVersion}`, () => assert.equal(matchesType(token, kind, apiVersion), want));
  }
});

describe('filterEvents with a resolved --for (a group from discovery)', () => {
  const events = [
    ev({ name: 'ev-labhub', apiVersion: 'ev.labhub.io/v1', kind: 'Pipeline', objectName: 'build-1' }),
    ev({ name: 'ci-example', apiVersion: 'ci.example.org/v1beta1', kind: 'Pipeline', objectName: 'build-1' }),
  ].map(normaliseEvent);
  test('keeps only the events about that group\'s Kind', () => {
    const kept = filterEvents(events, { object: { kind: 'Pipeline', group: 'ci.example.org', name: 'build-1' } }, NOW);
    assert.deepEqual(kept.map((e) => e.name), ['ci-example']);
  });
  test('compares the resolved Kind exactly', () => {
    assert.deepEqual(filterEvents(events, { object: { kind: 'pipeline', group: 'ci.example.org', name: 'build-1' } }, NOW), []);
  });
});

describe('filterCounted: the selection flags, and what each hid', () => {
  const events = [
    ev({ name: 'a', type: 'Normal', reason: 'Pulled', message: 'Successfully pulled image "busybox:1.36"', first: 300 }),
    ev({ name: 'b', type: 'Warning', reason: 'BackOff', message: 'Back-off restarting failed container app', first: 200 }),
    ev({ name: 'c', type: 'Warning', reason: 'Unhealthy', message: 'Readiness probe failed: connection refused', first: 100 }),
    ev({ name: 'd', type: 'Critical', reason: 'StageUnknown', message: 'Stage x', first: 50 }),
  ].map(normaliseEvent);
  const run = (filter: EventFilter) => {
    const { events: kept, hidden } = filterCounted(events, filter, NOW);
    return { kept: kept.map((e) => e.name), hidden: hidden.map((h) => `${h.criterion}:${h.events}`) };
  };
  const cases: [string, EventFilter, string[], string[]][] = [
    ['--exclude-reason hides those reasons, any case', { excludeReasons: ['backoff', 'Pulled'] }, ['c', 'd'], ['excludeReasons:2']],
    ['--exclude-type hides that type', { excludeTypes: ['Normal'] }, ['b', 'c', 'd'], ['excludeTypes:1']],
    ['--message keeps matching messages', { message: /probe failed/ }, ['c'], ['message:3']],
    ['--exclude-message hides matching messages', { excludeMessage: /^Back-off/ }, ['a', 'c', 'd'], ['excludeMessage:1']],
    ['--field-selector applied to a saved file', { fields: [{ field: 'reason', op: '!=', value: 'BackOff' }] }, ['a', 'c', 'd'], ['fields:1']],
    ['--since-time keeps what was last seen since then', { sinceTime: NOW - 150_000 }, ['c', 'd'], ['sinceTime:2']],
    ['--until keeps what was first seen by then', { until: NOW - 150_000 }, ['a', 'b'], ['until:2']],
    [
      'each hidden event counted once, under the first criterion that hides it',
      { excludeTypes: ['Warning'], excludeReasons: ['BackOff', 'Pulled'] },
      ['d'],
      ['excludeTypes:2', 'excludeReasons:1'],
    ],
  ];
  for (const [name, filter, kept, hidden] of cases) {
    test(name, () => assert.deepEqual(run(filter), { kept, hidden }));
  }

  test('-l needs the labels of the object: an event whose object has none known is hidden', () => {
    const labelsOf = (e: { name: string }) => (e.name === 'a' ? { app: 'web' } : undefined);
    const { events: kept, hidden } = filterCounted(events, { labels: [{ key: 'app', op: '=', values: ['web'] }] }, NOW, { labelsOf });
    assert.deepEqual(kept.map((e) => e.name), ['a']);
    assert.deepEqual(hidden, [{ criterion: 'labels', events: 3 }]);
  });
});

describe('StartupProbeEvidence: a start-up probe Unhealthy below its threshold', () => {
  const unhealthy = (objectUid: string, container: string) =>
    ev({ kind: 'Pod', apiVersion: 'v1', objectUid, fieldPath: `spec.containers{${container}}`, type: 'Warning', reason: 'Unhealthy', message: 'Startup probe failed: Get "http://10.0.0.5:8080/": connection refused', count: 3 });
  const killing = (objectUid: string, container: string) =>
    ev({ kind: 'Pod', apiVersion: 'v1', objectUid, fieldPath: `spec.containers{${container}}`, reason: 'Killing', message: `Container ${container} failed startup probe, will be restarted` });
  const cases: [string, Record<string, unknown>[], boolean][] = [
    ['below, while no Killing says the container failed its start-up probe', [unhealthy('p1', 'app')], true],
    ['not below once the kubelet killed that container for it', [unhealthy('p1', 'app'), killing('p1', 'app')], false],
    ['below when the Killing was about another container of the Pod', [unhealthy('p1', 'app'), killing('p1', 'sidecar')], true],
    ['below when the Killing was about another Pod', [unhealthy('p1', 'app'), killing('p2', 'app')], true],
  ];
  for (const [name, raw, want] of cases) {
    test(name, () => {
      const all = raw.map(normaliseEvent);
      assert.equal(new StartupProbeEvidence().learn(all).belowThreshold(all[0] as Event), want);
    });
  }
  test('leaves a readiness or liveness probe failure alone', () => {
    const readiness = normaliseEvent(ev({ reason: 'Unhealthy', message: 'Readiness probe failed: HTTP probe failed with statuscode: 500' }));
    assert.equal(new StartupProbeEvidence().belowThreshold(readiness), false);
  });
  test('--exclude-startup-probes hides it and counts it', () => {
    const all = [unhealthy('p1', 'app'), unhealthy('p2', 'app'), killing('p2', 'app')].map(normaliseEvent);
    const evidence = new StartupProbeEvidence().learn(all);
    const { events: kept, hidden } = filterCounted(all, { hideStartupProbes: true }, NOW, { startupBelowThreshold: evidence.belowThreshold });
    assert.equal(kept.length, 2);
    assert.deepEqual(hidden, [{ criterion: 'startupProbes', events: 1 }]);
  });
});

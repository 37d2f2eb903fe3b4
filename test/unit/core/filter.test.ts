import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { normaliseEvent } from '../../../src/core/event.ts';
import { filterEvents, matchesKind, matchesType, parseObjectRef, type EventFilter } from '../../../src/core/filter.ts';
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
    it(`reads ${name}`, () => assert.deepEqual(parseObjectRef(text), want));
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
    it(`matches ${name}: ${token} vs ${kind || '""'} is ${want}`, () => assert.equal(matchesKind(token, kind), want));
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
    it(name, () => assert.deepEqual(names(filter), want));
  }

  it('--since leaves out an event with no time at all', () => {
    const raw = ev({ name: 'timeless' });
    raw.firstTimestamp = null;
    raw.lastTimestamp = null;
    delete (raw.metadata as Record<string, unknown>).creationTimestamp;
    assert.deepEqual(filterEvents([normaliseEvent(raw)], { sinceMs: 3_600_000 }, NOW), []);
  });

  it('--types matches an empty type only when asked for an empty string', () => {
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
    it(`${name}: ${token} vs ${kind} ${apiVersion}`, () => assert.equal(matchesType(token, kind, apiVersion), want));
  }
});

describe('filterEvents with a resolved --for (a group from discovery)', () => {
  const events = [
    ev({ name: 'ev-labhub', apiVersion: 'ev.labhub.io/v1', kind: 'Pipeline', objectName: 'build-1' }),
    ev({ name: 'ci-example', apiVersion: 'ci.example.org/v1beta1', kind: 'Pipeline', objectName: 'build-1' }),
  ].map(normaliseEvent);
  it('keeps only the events about that group\'s Kind', () => {
    const kept = filterEvents(events, { object: { kind: 'Pipeline', group: 'ci.example.org', name: 'build-1' } }, NOW);
    assert.deepEqual(kept.map((e) => e.name), ['ci-example']);
  });
  it('compares the resolved Kind exactly', () => {
    assert.deepEqual(filterEvents(events, { object: { kind: 'pipeline', group: 'ci.example.org', name: 'build-1' } }, NOW), []);
  });
});

// --for TYPE/NAME resolved as kubectl's REST mapper resolves it, against a fixed discovery.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveResource } from '../../../src/core/resources.ts';
import type { Resolution, ServedResource } from '../../../src/core/resources.ts';

const served = (group: string, version: string, resource: string, kind: string, shortNames: string[] = [], singular = kind.toLowerCase()): ServedResource => ({
  group,
  version,
  resource,
  singular,
  kind,
  shortNames,
  namespaced: true,
  verbs: ['get', 'list', 'watch'],
});

// Two CRDs share the Kind Pipeline; Event is served by the core group and by events.k8s.io.
const SERVED: ServedResource[] = [
  served('', 'v1', 'pods', 'Pod', ['po']),
  served('', 'v1', 'events', 'Event', ['ev']),
  served('', 'v1', 'endpoints', 'Endpoints', ['ep'], ''),
  served('apps', 'v1', 'deployments', 'Deployment', ['deploy']),
  served('events.k8s.io', 'v1', 'events', 'Event', ['ev']),
  served('networking.k8s.io', 'v1', 'networkpolicies', 'NetworkPolicy', ['netpol']),
  served('ci.example.org', 'v1', 'pipelines', 'Pipeline'),
  served('ci.example.org', 'v1beta1', 'pipelines', 'Pipeline'),
  served('ev.labhub.io', 'v1', 'pipelines', 'Pipeline', ['pl']),
  served('ev.labhub.io', 'v1', 'widgets', 'Widget', ['wd', 'wdg']),
];

const to = (group: string, kind: string, resource: string): Resolution => ({ outcome: 'resolved', target: { group, kind, resource } });

describe('resolveResource', () => {
  const cases: [string, string, Resolution][] = [
    ['a plural names its resource', 'pods', to('', 'Pod', 'pods')],
    ['a singular names its resource', 'pod', to('', 'Pod', 'pods')],
    ['the Kind in any case names its resource', 'POD', to('', 'Pod', 'pods')],
    ['a built-in short name names its resource', 'deploy', to('apps', 'Deployment', 'deployments')],
    ["a custom resource's short name names it (discovery, not a built-in list)", 'wdg', to('ev.labhub.io', 'Widget', 'widgets')],
    ['a short name of one CRD picks that group even when its Kind is shared', 'PL', to('ev.labhub.io', 'Pipeline', 'pipelines')],
    ['an empty singular falls back to the lower-cased Kind', 'endpoints', to('', 'Endpoints', 'endpoints')],
    ['resource.group names that group only', 'pipelines.ev.labhub.io', to('ev.labhub.io', 'Pipeline', 'pipelines')],
    ['Kind.group names that group only', 'Pipeline.ci.example.org', to('ci.example.org', 'Pipeline', 'pipelines')],
    ['resource.version.group names that group at that version', 'pipelines.v1beta1.ci.example.org', to('ci.example.org', 'Pipeline', 'pipelines')],
    ['a short name is group-qualified too', 'netpol.networking.k8s.io', to('networking.k8s.io', 'NetworkPolicy', 'networkpolicies')],
    ['resource.version. names the core group', 'Pod.v1.', to('', 'Pod', 'pods')],
    ['the core group wins over the API server’s other groups, as in kubectl', 'events', to('', 'Event', 'events')],
    [
      'a Kind two CRDs share is ambiguous, with both qualified choices',
      'Pipeline',
      { outcome: 'ambiguous', resource: 'pipeline', choices: ['pipelines.ci.example.org', 'pipelines.ev.labhub.io'] },
    ],
    ['a plural two CRDs share is ambiguous too', 'pipelines', { outcome: 'ambiguous', resource: 'pipelines', choices: ['pipelines.ci.example.org', 'pipelines.ev.labhub.io'] }],
    ['an unknown type is unknown', 'Nonsense', { outcome: 'unknown', resource: 'nonsense', group: '' }],
    ['an unknown group is unknown in that group', 'pipelines.nowhere.io', { outcome: 'unknown', resource: 'pipelines', group: 'nowhere.io' }],
    [
      'a version the group does not serve falls back to resource.group, as kubectl does',
      'pipelines.v2.ev.labhub.io',
      { outcome: 'unknown', resource: 'pipelines', group: 'v2.ev.labhub.io' },
    ],
    ['a Kind in a group that serves another Kind is unknown', 'pod.apps', { outcome: 'unknown', resource: 'pod', group: 'apps' }],
  ];
  for (const [name, text, want] of cases) {
    test(`${name}: ${text}`, () => assert.deepEqual(resolveResource(text, SERVED), want));
  }
});

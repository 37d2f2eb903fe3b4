// render/tree.ts: the OBJECT chain and the --tree notices.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TreeNode } from '../../../src/core/ownership.ts';
import { formatChain, renderNoOwnershipNotice, renderUnlistedNotice } from '../../../src/render/tree.ts';

const node = (apiVersion: string, kind: string, name: string, gone = false): TreeNode => ({ apiVersion, kind, name, namespace: 'ns', uid: '', gone });

describe('formatChain', () => {
  test('joins the chain root first, a gone member marked', () => {
    assert.equal(
      formatChain([node('apps/v1', 'Deployment', 'web'), node('apps/v1', 'ReplicaSet', 'web-5d4', true), node('v1', 'Pod', 'web-5d4-x2k', true)], new Set()),
      'Deployment/web > ReplicaSet/web-5d4 (gone) > Pod/web-5d4-x2k (gone)',
    );
  });
  test('qualifies a Kind two groups share, as the OBJECT column does', () => {
    assert.equal(formatChain([node('ev.labhub.io/v1', 'Pipeline', 'b'), node('v1', 'Pod', 'b-1')], new Set(['Pipeline'])), 'Pipeline.ev.labhub.io/b > Pod/b-1');
  });
});

describe('renderUnlistedNotice', () => {
  test('is nothing when every resource was listed', () => assert.equal(renderUnlistedNotice([]), ''));
  test('names the resources left out, by why, in one line', () => {
    assert.equal(
      renderUnlistedNotice([
        { group: '', resource: 'secrets', code: 403 },
        { group: 'rbac.authorization.k8s.io', resource: 'roles', code: 403 },
        { group: 'metrics.k8s.io', resource: 'pods', code: 404 },
      ]),
      'warning: --tree left out 3 resources (not allowed to list: roles.rbac.authorization.k8s.io, secrets; no longer served: pods.metrics.k8s.io): their objects are not in the tree\n',
    );
  });
  test('escapes a resource name a hostile aggregated API hands over', () => {
    assert.doesNotMatch(renderUnlistedNotice([{ group: 'x.io', resource: 'a\u001b[2Jb', code: 403 }]), /\u001b/);
  });
});

describe('renderNoOwnershipNotice', () => {
  test('says the file holds no ownership', () => assert.match(renderNoOwnershipNotice('the record'), /^warning: the record holds no ownership: the tree is only what the owners' events name/));
});

// The kubeconfig read as kubectl reads it (issue 28 L7): YAML 1.1 into clientcmd/api/v1's typed
// fields. The same hand-written file goes to kubectl and to the plugin (as kubectl's plugin
// mechanism runs it, test/harness/plugin.ts), against the real control plane: what kubectl accepts works, and what it refuses is
// refused with kubectl's own line.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sharedControlPlane } from '../harness/controlplane.ts';
import type { ControlPlane } from '../harness/controlplane.ts';
import { freshNamespace } from '../harness/namespace.ts';
import { evtimeline, kubectl } from '../harness/plugin.ts';
import { scratchDir } from '../support/tmp.ts';

const work = scratchDir('kubeconfig-yaml');
let cp: ControlPlane;
let ns: string;

before(async () => {
  cp = await sharedControlPlane();
  ns = await freshNamespace(cp.kubeconfig, 'kubeconfig-yaml');
});

/** A kubeconfig written by hand, as people write them: plain scalars, no CA (skip-verify says how). */
function handWritten(file: string, o: { insecure: string; context: string }): string {
  const path = join(work, file);
  writeFileSync(
    path,
    [
      'apiVersion: v1',
      'kind: Config',
      `current-context: "${o.context.replace(/"/g, '')}"`,
      'clusters:',
      '- name: lab',
      '  cluster:',
      `    server: ${cp.server}`,
      `    insecure-skip-tls-verify: ${o.insecure}`,
      'users:',
      '- name: admin',
      `  user: {token: "${cp.token}"}`,
      'contexts:',
      `- name: ${o.context}`,
      `  context: {cluster: lab, user: admin, namespace: ${ns}}`,
      '',
    ].join('\n'),
  );
  return path;
}

describe('a hand-written kubeconfig, beside kubectl', () => {
  for (const word of ['yes', 'on', 'y']) {
    it(`insecure-skip-tls-verify: ${word} talks to the server without its CA, as kubectl does`, async () => {
      const path = handWritten(`insecure-${word}.yaml`, { insecure: word, context: 'lab' });
      const theirs = await kubectl(['get', 'events', '-n', ns, '--kubeconfig', path], path);
      assert.equal(theirs.code, 0, theirs.stderr);
      const ours = await evtimeline(['--kubeconfig', path], path);
      assert.equal(ours.code, 0, ours.stderr);
      assert.equal(ours.stderr, `No events found in ${ns} namespace.\n`);
    });
  }

  it("a context named y (a YAML 1.1 bool) is refused with kubectl's line, exit 1", async () => {
    const path = handWritten('context-y.yaml', { insecure: 'yes', context: 'y' });
    const theirs = await kubectl(['get', 'events', '--kubeconfig', path], path);
    const ours = await evtimeline(['--kubeconfig', path], path);
    assert.equal(theirs.code, 1);
    assert.equal(ours.code, 1);
    const want = `error: error loading config file "${path}": json: cannot unmarshal bool into Go struct field NamedContext.contexts.name of type string\n`;
    assert.equal(theirs.stderr, want);
    assert.equal(ours.stderr, want);
  });
});

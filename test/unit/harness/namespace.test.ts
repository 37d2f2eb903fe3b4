// The label that lets the integration runner delete what a test file left on the shared cluster.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileLabelValue, uniqueNamespaceName } from '../../harness/namespace.ts';

test('a test file is named by its base name without .test.ts, whatever its folder', () => {
  assert.equal(fileLabelValue('/check/work/main/test/integration/why-real-node.test.ts'), 'why-real-node');
  assert.equal(fileLabelValue('test/integration/wait.test.ts'), 'wait');
  assert.equal(fileLabelValue('C:\\work\\test\\integration\\record.test.ts'), 'record');
});

test('what is not a test file gets no label (the demo, a script, nothing)', () => {
  assert.equal(fileLabelValue('/work/main/test/harness/demo.ts'), undefined);
  assert.equal(fileLabelValue('/usr/bin/node'), undefined);
  assert.equal(fileLabelValue(undefined), undefined);
});

test('a name a label value cannot hold is made one: at most 63 characters, alphanumeric at both ends', () => {
  const value = fileLabelValue(`/t/-${'x'.repeat(80)} ünï code.test.ts`) ?? '';
  assert.match(value, /^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$/);
  assert.ok(value.length <= 63, value);
  assert.equal(fileLabelValue('/t/a b+c.test.ts'), 'a-b-c');
});

test('namespace names stay DNS-1123 labels', () => {
  assert.match(uniqueNamespaceName('Wait Drop!'), /^wait-drop-[a-z0-9]+-[0-9a-f]{6}$/);
});

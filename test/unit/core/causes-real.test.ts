// The causes of objects and events a real kubelet and real controllers wrote: test/fixtures/why/*.json,
// captured from the real node (kubelet v1.36.3, containerd v2.4.2) by scripts/capture-why-fixtures.ts
// (`kubectl -n NS get pods,... -o json` and `kubectl -n NS get events -o json` of each incident).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findCauses } from '../../../src/core/causes.ts';
import { normaliseEvent } from '../../../src/core/event.ts';
import { factsOf } from '../../../src/core/facts.ts';
import type { ObjectFacts } from '../../../src/core/facts.ts';
import { causeLine } from '../../../src/render/causes-text.ts';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'why');

interface Captured {
  objects: { kind: string; metadata: { name: string } }[];
  events: unknown[];
}

function causesOf(name: string) {
  const doc = JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8')) as Captured;
  const objects = doc.objects.flatMap((o): ObjectFacts[] => {
    const facts = factsOf(o.kind, o as unknown as Record<string, unknown>);
    return facts === null ? [] : [facts];
  });
  const found = findCauses({ objects, gaps: [], readAt: null }, doc.events.map(normaliseEvent));
  return { doc, found, lines: found.causes.map(causeLine), pod: doc.objects.find((o) => o.kind === 'Pod')?.metadata.name ?? '' };
}

test('a real OOM kill: the status says OOMKilled, 137, the limit, the restarts; no event said it', () => {
  const { doc, lines, pod, found } = causesOf('oom-killed');
  assert.ok(!JSON.stringify(doc.events).includes('OOMKilled'));
  assert.deepEqual(lines, [`Pod/${pod}: container worker was killed for using more memory than its limit (OOMKilled, exit code 137, limits.memory 20Mi), restarted 2 times.`]);
  assert.ok((found.causes[0]?.events.length ?? 0) > 0, 'the kubelet BackOff events are linked');
});

test('a real crash loop: exit code 3 and the restarts', () => {
  assert.deepEqual(causesOf('exits').lines, ['Pod/crasher: container main keeps exiting with code 3 (Error), restarted 3 times.']);
});

test("a real pull failure: the image and the kubelet's message", () => {
  assert.deepEqual(causesOf('image-pull').lines, [
    'Pod/puller: container main cannot pull image "127.0.0.1:1/nothing:v1" (ImagePullBackOff): Failed to pull image "127.0.0.1:1/nothing:v1": failed to pull and unpack image "127.0.0.1:1/nothing:v1": failed to resolve image: failed to do request: Head "https://127.0.0.1:1/v2/nothing/manifests/v1": dial tcp 127.0.0.1:1: connect: connection refused.',
  ]);
});

test('a real missing ConfigMap key', () => {
  assert.deepEqual(causesOf('missing-key').lines, ['Pod/configured: container main cannot start: key "missing" is missing from ConfigMap "settings".']);
});

test('a real liveness kill: the probe is the cause of the restarts, with its threshold', () => {
  assert.deepEqual(causesOf('liveness').lines, ['Pod/prober: container main is restarted because its liveness probe fails (6 failures, threshold 2; restarted 2 times).']);
});

test("a real Job past its back-off limit, with its Pods' exit codes", () => {
  const { lines, doc } = causesOf('backoff-limit');
  const pods = doc.objects.filter((o) => o.kind === 'Pod').map((o) => o.metadata.name).sort();
  assert.equal(lines[0], `Job/migrate: gave up: Job has reached the specified backoff limit (backoffLimit 1, 2 failed Pods); exit codes: ${pods.map((p) => `${p} migrate exit 7 (Error)`).join(', ')}.`);
});

// The Protobuf Pod list (src/kube/pod-proto.ts) decodes only the fields its schema names; the facts
// (core/facts.ts podFacts) and the lookups (core/object-meta.ts objectMetaOf) read Pods from it as if
// they were the API server's JSON. If either starts reading a field the schema lacks, the Protobuf
// path silently lacks it (an empty string, a missing list) while the JSON path has it. This test
// watches both readers read real Pods (the why fixtures, captured from a real cluster) and requires
// every path they read to be one the schema decodes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { podJsonPaths } from '../../../src/kube/pod-proto.ts';
import { podFacts } from '../../../src/core/facts.ts';
import { objectMetaOf } from '../../../src/core/object-meta.ts';

type Reader = (pod: Record<string, unknown>) => unknown;
const POD_TYPE = { apiVersion: 'v1', kind: 'Pod' };
const readers: Reader[] = [(pod) => podFacts(pod), (pod) => objectMetaOf(pod.metadata, POD_TYPE)];

/** The paths read from `value` by `read`: `a.b` for a field, `a[]` for any item of a list. */
function pathsRead(value: unknown, read: (spied: any) => unknown): Set<string> {
  const seen = new Set<string>();
  const spy = (v: unknown, at: string): unknown => {
    if (v === null || typeof v !== 'object') return v;
    const list = Array.isArray(v);
    return new Proxy(v, {
      get(target, key, receiver) {
        const got = Reflect.get(target, key, receiver);
        if (typeof key !== 'string') return got;
        if (list && !/^\d+$/.test(key)) return got; // length, map, ...: the list itself, not a field
        const path = list ? `${at}[]` : at === '' ? key : `${at}.${key}`;
        seen.add(path);
        return spy(got, path);
      },
    });
  };
  read(spy(value, ''));
  return seen;
}

/** Whether the schema decodes `path`, or holds it inside a field it decodes (a map's key, an object on the way). */
function decoded(path: string, schema: string[]): boolean {
  return schema.some((p) => p === path || p.startsWith(`${path}.`) || p.startsWith(`${path}[]`) || (p.endsWith('.*') && path.startsWith(p.slice(0, -1))));
}

// The state reader reads ContainerStateTerminated's fields from whichever state is set; Waiting has
// only reason and message, Running only startedAt (k8s.io/api core/v1 types.go): what they lack is
// absent from the JSON as well, so reading it cannot tell the two paths apart.
const NOT_IN_THE_API = ['containerStatuses', 'initContainerStatuses', 'ephemeralContainerStatuses'].flatMap((list) =>
  ['state', 'lastState'].flatMap((which) => [
    ...['exitCode', 'signal', 'startedAt', 'finishedAt'].map((f) => `status.${list}[].${which}.waiting.${f}`),
    ...['reason', 'message', 'exitCode', 'signal', 'finishedAt'].map((f) => `status.${list}[].${which}.running.${f}`),
  ]),
);
const allowed = (path: string, schema: string[]) => decoded(path, schema) || NOT_IN_THE_API.includes(path);

const fixtures = join(import.meta.dirname, '../../fixtures/why');
const pods = readdirSync(fixtures)
  .filter((f) => f.endsWith('.json'))
  .flatMap((f) => (JSON.parse(readFileSync(join(fixtures, f), 'utf8')).objects as Record<string, unknown>[]).filter((o) => o.kind === 'Pod'));

test('the facts and the lookups read nothing from a Pod that its Protobuf decoding lacks', () => {
  assert.ok(pods.length >= 5, `${pods.length} Pods in the why fixtures`);
  const schema = podJsonPaths();
  const read = new Set(pods.flatMap((pod) => readers.flatMap((r) => [...pathsRead(pod, r)])));
  assert.deepEqual([...read].filter((path) => !allowed(path, schema)).sort(), []);
  // What the watch saw is the readers' real reads, not nothing: the paths every Why depends on.
  for (const path of ['metadata.uid', 'metadata.ownerReferences[]', 'status.containerStatuses[]', 'spec.containers[]', 'spec.nodeName']) assert.ok(read.has(path), path);
});

test('a read of a field the schema lacks is caught', () => {
  const schema = podJsonPaths();
  const read = pathsRead(pods[0], (pod) => [podFacts(pod), (pod.spec as { overhead?: unknown }).overhead, (pod.metadata as { annotations?: unknown }).annotations]);
  assert.deepEqual([...read].filter((path) => !allowed(path, schema)).sort(), ['metadata.annotations', 'spec.overhead']);
  assert.ok(decoded('metadata.labels.app', schema) && decoded('spec.containers[]', schema) && !decoded('spec.containers[].env', schema));
});

// A record's object lines (src/io/record-line.ts, src/app/record-owners.ts): the recorder writes
// each object's owner chain the first time it sees the object, through the port's lookups; the
// readers take ownership from them and everything else in a record reads as before.
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, test } from 'node:test';
import { runCli } from '../../../src/cli.ts';
import type { ObjectRef } from '../../../src/core/event.ts';
import type { ObjectLookup } from '../../../src/core/incarnation.ts';
import type { ObjectMeta } from '../../../src/core/ownership.ts';
import type { FollowStep } from '../../../src/core/source.ts';
import { formatObjectLine, parseRecordLine } from '../../../src/io/record-line.ts';
import { parseRecordSaved, parseRecordText } from '../../../src/io/record-replay.ts';
import { foldRecord, readLines } from '../../../src/io/record-stream.ts';
import { systemSources } from '../../../src/system.ts';
import { ev, NOW } from '../../support/builders.ts';
import { fakeDeps } from '../../support/deps.ts';
import { fromCluster, lookupsOf, memorySource, openSources } from '../../support/sources.ts';
import { scratchDir } from '../../support/tmp.ts';

const dir = scratchDir('record-owners');

function meta(o: Partial<ObjectMeta> & { kind: string; name: string; uid: string }): ObjectMeta {
  return { apiVersion: 'apps/v1', namespace: 'shop', owners: [], created: Date.parse('2026-11-30T11:00:00Z'), deleting: null, ...o };
}
const owner = (kind: string, name: string, uid: string) => ({ apiVersion: 'apps/v1', kind, name, uid, controller: true });
const deploy = meta({ kind: 'Deployment', name: 'web', uid: 'u-deploy' });
const rs = meta({ kind: 'ReplicaSet', name: 'web-5d4', uid: 'u-rs', owners: [owner('Deployment', 'web', 'u-deploy')] });
const pod = (name: string) => meta({ apiVersion: 'v1', kind: 'Pod', name, uid: `u-${name}`, owners: [owner('ReplicaSet', 'web-5d4', 'u-rs')] });
const [podA, podB, podC] = [pod('web-5d4-a'), pod('web-5d4-b'), pod('web-5d4-c')] as [ObjectMeta, ObjectMeta, ObjectMeta];

const ref = (m: ObjectMeta): ObjectRef => ({ apiVersion: m.apiVersion, kind: m.kind, name: m.name, namespace: m.namespace, uid: m.uid, fieldPath: '' });
const exists = (m: ObjectMeta): ObjectLookup => ({ state: 'exists', uid: m.uid, creationTimestamp: null, meta: m });
const about = (m: ObjectMeta, reason: string, resourceVersion: string): Record<string, unknown> & { metadata: Record<string, unknown> } => {
  const raw = ev({ namespace: 'shop', kind: m.kind, apiVersion: m.apiVersion, objectName: m.name, objectUid: m.uid, reason });
  return { ...raw, metadata: { ...(raw.metadata as object), resourceVersion } };
};

async function record(file: string, steps: FollowStep[], lookups: Map<string, ObjectLookup>) {
  const live = memorySource({ provenance: fromCluster({ namespace: 'shop' }), steps, lookups });
  const fake = fakeDeps({ openSource: openSources({ live }).open });
  const code = await runCli(['record', file], fake.deps);
  return { code, live, stderr: fake.stderr() };
}
const lines = (file: string) => readFileSync(file, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
const described = (file: string) =>
  lines(file).map((l) => {
    if (l.kind !== 'EvtimelineObject') return String(l.kind ?? l.type);
    const object = l.object as { kind: string; metadata: { name: string }; unknown?: { reason: string } };
    return `object ${object.kind}/${object.metadata.name}${object.unknown ? ` (${object.unknown.reason})` : ''}`;
  });
const open = systemSources({ env: {}, stdin: Readable.from([]), stderr: { write: () => {} } });

describe('record writes the owner chain of each object the first time it sees it', () => {
  const cluster = lookupsOf([
    [ref(podA), exists(podA)],
    [ref(podB), exists(podB)],
    [ref(podC), exists(podC)],
    [ref(rs), exists(rs)],
    [ref(deploy), exists(deploy)],
    [{ ...ref(podA), name: 'web-5d4-gone', uid: 'u-gone' }, { state: 'gone' }],
  ]);
  const gone = meta({ ...podA, name: 'web-5d4-gone', uid: 'u-gone' });

  test('two pods of one ReplicaSet, and a pod already deleted: each object once, its owners once, the gone pod as gone', async () => {
    const file = join(dir, 'first.jsonl');
    const pulled = about(podA, 'Pulled', '11');
    const steps: FollowStep[] = [
      { kind: 'list', items: [about(podA, 'Scheduled', '10'), pulled, about(gone, 'Killing', '12')], resourceVersion: '12', why: 'start' },
      { kind: 'change', type: 'ADDED', object: about(podB, 'Scheduled', '13') },
      { kind: 'change', type: 'MODIFIED', object: { ...pulled, count: 2, metadata: { ...pulled.metadata, resourceVersion: '14' } } },
    ];
    const { code, live, stderr } = await record(file, steps, cluster);
    assert.equal(code, 0, String(code));
    const written = described(file);
    assert.deepEqual(written.filter((l) => !l.startsWith('object')), ['EvtimelineRecord', 'ADDED', 'ADDED', 'ADDED', 'EvtimelineSeen', 'ADDED', 'MODIFIED']);
    assert.deepEqual(
      written.filter((l) => l.startsWith('object')).sort(),
      ['object Deployment/web', 'object Pod/web-5d4-a', 'object Pod/web-5d4-b', 'object Pod/web-5d4-gone (gone)', 'object ReplicaSet/web-5d4'],
    );
    // The ReplicaSet and Deployment were asked for once, though two batches of pods named them.
    const asked = live.looked.flat().map((r) => r.name);
    assert.equal(asked.filter((n) => n === 'web-5d4').length, 1);
    assert.equal(asked.filter((n) => n === 'web').length, 1);
    // The summary counts observations only, as before.
    assert.match(stderr, /recorded 5 lines \(4 added, 1 modified, 0 deleted\)/);
  });

  test('an object line no server could have written (a name with a slash, a uid another group\'s object claims) is refused and named, streamed or on stdin (issue 28, L4)', async () => {
    const file = join(dir, 'spoofed.jsonl');
    writeFileSync(file, readFileSync(join(dir, 'first.jsonl')));
    appendFileSync(file, formatObjectLine(NOW, { meta: meta({ apiVersion: 'batch/v1', kind: 'Job', name: 'thief', uid: podA.uid, owners: [owner('Deployment', 'web', 'u-deploy')] }) }));
    appendFileSync(file, formatObjectLine(NOW, { meta: meta({ kind: 'ReplicaSet', name: 'x > Pod/spoof', uid: 'u-spoof' }) }));
    const refused = [`ReplicaSet.apps "x > Pod/spoof" in shop: its name may not contain '/'`, `uid ${podA.uid} is claimed by Pod "${podA.name}" in shop and by Job.batch "thief" in shop: none of them is taken`];
    const streamed = await open({ kind: 'file', path: file, namespace: null });
    assert.deepEqual(streamed.provenance.refusedObjects, refused);
    assert.deepEqual((await streamed.ownership?.('shop'))?.map((m) => `${m.kind}/${m.name}`).sort(), ['Deployment/web', 'Pod/web-5d4-b', 'ReplicaSet/web-5d4']);
    const stdin = await systemSources({ env: {}, stdin: Readable.from([readFileSync(file)]), stderr: { write: () => {} } })({ kind: 'file', path: '-', namespace: null });
    assert.deepEqual(stdin.provenance.refusedObjects, refused);
  });

  test('--from the record tells ownership: the objects it saw and their owners; its events and versions are as before', async () => {
    const file = join(dir, 'first.jsonl');
    const source = await open({ kind: 'file', path: file, namespace: null });
    assert.equal(source.provenance.tells.ownership, true);
    const owned = await source.ownership?.('shop');
    assert.deepEqual(owned?.map((m) => `${m.kind}/${m.name}`).sort(), ['Deployment/web', 'Pod/web-5d4-a', 'Pod/web-5d4-b', 'ReplicaSet/web-5d4']);
    assert.deepEqual(owned?.find((m) => m.name === 'web-5d4-a'), podA);
    assert.equal((await source.read()).events.length, 4);
    assert.equal((await source.versions())?.length, 5, 'export sends observations, never object lines');
    // The whole-text reader (stdin) agrees.
    const whole = parseRecordSaved(readFileSync(file, 'utf8'));
    assert.ok(whole !== null && 'raw' in whole);
    assert.equal(whole.objects?.filter((o) => 'meta' in o).length, 4);
    assert.equal(whole.raw.core.length, 4);
  });

  test('capture --from the record carries its ownership into objects.json', async () => {
    const out = join(dir, 'captured-from-record');
    const fake = fakeDeps();
    assert.equal(await runCli(['capture', '--from', join(dir, 'first.jsonl'), out], fake.deps), 0, fake.stderr());
    const doc = JSON.parse(readFileSync(join(out, 'objects.json'), 'utf8')) as { items: { kind: string; metadata: { name: string } }[] };
    assert.deepEqual(doc.items.map((i) => `${i.kind}/${i.metadata.name}`), ['Deployment/web', 'Pod/web-5d4-a', 'Pod/web-5d4-b', 'ReplicaSet/web-5d4']);
    const source = await open({ kind: 'file', path: out, namespace: null });
    assert.equal((await source.ownership?.('shop'))?.length, 4);
  });

  test('a recorder continuing the record writes only objects it has not written: a new pod, not its known ReplicaSet', async () => {
    const file = join(dir, 'again.jsonl');
    await record(file, [{ kind: 'list', items: [about(podA, 'Scheduled', '10')], resourceVersion: '10', why: 'start' }], cluster);
    const before = described(file).filter((l) => l.startsWith('object')).length;
    const { live } = await record(
      file,
      [
        { kind: 'resume', from: '10', current: '12', verdict: 'resume' },
        { kind: 'change', type: 'MODIFIED', object: about(podA, 'Scheduled', '11') },
        { kind: 'change', type: 'ADDED', object: about(podC, 'Scheduled', '12') },
      ],
      cluster,
    );
    assert.equal(before, 3);
    assert.deepEqual(described(file).filter((l) => l.startsWith('object')).slice(before), ['object Pod/web-5d4-c']);
    assert.deepEqual(live.looked, [[ref(podC)]]);
  });

  test('a lookup that fails is written as not known, with why, and not tried again by a later session', async () => {
    const file = join(dir, 'forbidden.jsonl');
    const forbidden = lookupsOf([[ref(podA), { state: 'unknown', why: { reason: 'forbidden', step: 'get', target: 'pods' } }]]);
    const first = await record(file, [{ kind: 'list', items: [about(podA, 'Scheduled', '10')], resourceVersion: '10', why: 'start' }], forbidden);
    assert.equal(first.code, 0);
    const line = lines(file).find((l) => l.kind === 'EvtimelineObject');
    assert.deepEqual((line?.object as { unknown: unknown }).unknown, { reason: 'forbidden', step: 'get', target: 'pods' });
    const again = await record(file, [{ kind: 'change', type: 'MODIFIED', object: about(podA, 'Pulled', '11') }], cluster);
    assert.deepEqual(again.live.looked, []);
    // It tells ownership (the recorder wrote object lines), and knows no owner of that pod.
    const source = await open({ kind: 'file', path: file, namespace: null });
    assert.equal(source.provenance.tells.ownership, true);
    assert.deepEqual(await source.ownership?.('shop'), []);
  });

  test('events without an object uid are recorded, and nothing is looked up for them', async () => {
    const file = join(dir, 'no-uid.jsonl');
    const raw = about(podA, 'Scheduled', '10');
    const noUid = { ...raw, involvedObject: { ...(raw.involvedObject as object), uid: '' } };
    const { live } = await record(file, [{ kind: 'list', items: [noUid], resourceVersion: '10', why: 'start' }], cluster);
    assert.deepEqual(live.looked, []);
    assert.deepEqual(described(file), ['EvtimelineRecord', 'ADDED', 'EvtimelineSeen']);
  });

  test('a live source without lookups records events and no object lines', async () => {
    const file = join(dir, 'no-lookups.jsonl');
    const live = memorySource({ provenance: fromCluster({ namespace: 'shop' }), steps: [{ kind: 'list', items: [about(podA, 'Scheduled', '10')], resourceVersion: '10', why: 'start' }] });
    const fake = fakeDeps({ openSource: openSources({ live }).open });
    assert.equal(await runCli(['record', file], fake.deps), 0);
    assert.deepEqual(described(file), ['EvtimelineRecord', 'ADDED', 'EvtimelineSeen']);
    const source = await open({ kind: 'file', path: file, namespace: null });
    assert.equal(source.provenance.tells.ownership, false, 'a record without object lines (an older recorder) tells no ownership');
    assert.equal(source.ownership, undefined);
  });
});

describe('object lines as the readers take them', () => {
  const header = '{"kind":"EvtimelineRecord","version":1,"context":"lab","server":"https://127.0.0.1:6443","namespace":"shop","filter":{},"startedAt":"2026-11-30T12:00:00.000Z"}\n';
  const observation = `${JSON.stringify({ observedAt: '2026-11-30T12:00:01.000Z', type: 'ADDED', event: about(podA, 'Scheduled', '10') })}\n`;
  const objectLine = formatObjectLine(NOW, { meta: podA });

  test('an object line begins as an observation does (observedAt first), so an older reader skips it as a torn fragment', () => {
    assert.ok(objectLine.startsWith('{"observedAt":"2026-11-30T12:00:00.000Z","kind":"EvtimelineObject","object":{'));
    assert.deepEqual(parseRecordLine(objectLine.trimEnd()), { object: { meta: podA } });
  });

  test('an object line with hostile names round-trips as one line', () => {
    const nasty = '\n{"observedAt":"x"}\u001b[2J\u2028\r';
    const hostile = meta({ kind: nasty, name: nasty, uid: nasty, namespace: nasty, owners: [owner(nasty, nasty, nasty)] });
    const text = formatObjectLine(NOW, { meta: hostile });
    assert.equal(text.indexOf('\n'), text.length - 1);
    assert.deepEqual(parseRecordText(header + text)?.objects, [{ meta: hostile }]);
  });

  test('a torn object line at the end is ignored; torn in the middle, the whole line after it is kept', async () => {
    const torn = objectLine.slice(0, 60);
    const text = header + observation + objectLine + torn + observation + torn;
    const whole = parseRecordText(text);
    assert.equal(whole?.objects?.length, 1);
    assert.equal(whole?.observations.length, 2);
    assert.equal(whole?.tornLines, 1);
    const folded = await foldRecord(readLines(Readable.from([text])), null);
    assert.equal(folded?.objects?.length, 1);
    assert.equal(folded?.tornLines, 1);
  });

  test('an object line whose item cannot be read is skipped, and the record still reads', async () => {
    const bad = `${JSON.stringify({ observedAt: '2026-11-30T12:00:00.000Z', kind: 'EvtimelineObject', object: { kind: 'Pod', metadata: { name: 'no-uid' } } })}\n`;
    const text = header + bad + observation + objectLine;
    assert.deepEqual(parseRecordText(text)?.objects, [{ meta: podA }]);
    const folded = await foldRecord(readLines(Readable.from([text])), null);
    assert.deepEqual(folded?.objects, [{ meta: podA }]);
    assert.equal(folded?.events.length, 1);
  });

  test('a record file with object lines is appended to by a recorder, object lines kept', async () => {
    const file = join(dir, 'appended.jsonl');
    writeFileSync(file, header + observation);
    appendFileSync(file, objectLine);
    await record(file, [{ kind: 'resume', from: '10', current: '10', verdict: 'resume' }], lookupsOf([]));
    assert.deepEqual(described(file), ['EvtimelineRecord', 'ADDED', 'object Pod/web-5d4-a', 'EvtimelineRecord']);
  });
});

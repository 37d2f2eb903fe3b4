// objects.json and the saved object item (src/io/objects-file.ts), and a capture that writes it and
// is read back with --from: round trips, hostile names, files of another capture, older captures.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, test } from 'node:test';
import { runCli } from '../../../src/cli.ts';
import type { ObjectRef } from '../../../src/core/event.ts';
import type { ObjectLookup } from '../../../src/core/incarnation.ts';
import type { ObjectMeta } from '../../../src/core/ownership.ts';
import { formatObjectsFile, formatSavedObject, knownObjects, parseObjectsFile, parseSavedObject } from '../../../src/io/objects-file.ts';
import type { SavedObject } from '../../../src/core/object-meta.ts';
import { systemSources } from '../../../src/system.ts';
import { ev, NOW } from '../../support/builders.ts';
import { fakeDeps } from '../../support/deps.ts';
import { fromCluster, lookupsOf, memorySource, openSources } from '../../support/sources.ts';
import { scratchDir } from '../../support/tmp.ts';

const dir = scratchDir('objects-file');
const CAPTURED = '2026-11-30T12:00:00.000Z';

function meta(o: Partial<ObjectMeta> & { kind: string; name: string; uid: string }): ObjectMeta {
  return { apiVersion: 'apps/v1', namespace: 'shop', owners: [], created: Date.parse('2026-11-30T11:00:00Z'), deleting: null, ...o };
}
const owner = (kind: string, name: string, uid: string) => ({ apiVersion: 'apps/v1', kind, name, uid, controller: true });

const deploy = meta({ kind: 'Deployment', name: 'web', uid: 'u-deploy' });
const rs = meta({ kind: 'ReplicaSet', name: 'web-5d4', uid: 'u-rs', owners: [owner('Deployment', 'web', 'u-deploy')] });
const pod = meta({ apiVersion: 'v1', kind: 'Pod', name: 'web-5d4-x2k', uid: 'u-pod', owners: [owner('ReplicaSet', 'web-5d4', 'u-rs')], deleting: Date.parse('2026-11-30T11:59:59.250Z') });

describe('a saved object item', () => {
  test('is shaped as the API server PartialObjectMetadata, times to the second as Kubernetes writes them', () => {
    assert.deepEqual(formatSavedObject({ meta: rs }), {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        namespace: 'shop',
        name: 'web-5d4',
        uid: 'u-rs',
        creationTimestamp: '2026-11-30T11:00:00Z',
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'u-deploy', controller: true }],
      },
    });
  });

  const hostile = '"}\n{"observedAt":"x\u001b[31m\u202e\r\\';
  const cases: [string, SavedObject][] = [
    ['an object with owners and a deletionTimestamp (milliseconds kept)', { meta: pod }],
    ['a cluster-scoped object without times', { meta: meta({ apiVersion: 'v1', kind: 'Node', namespace: '', name: 'node-1', uid: 'u-node', created: null }) }],
    ['hostile text in every field', { meta: meta({ apiVersion: hostile, kind: hostile, namespace: hostile, name: hostile, uid: hostile, owners: [{ apiVersion: hostile, kind: hostile, name: hostile, uid: hostile, controller: false }] }) }],
    ['an object that was gone when looked up', { unknown: { ref: { apiVersion: 'v1', kind: 'Pod', namespace: 'shop', name: 'web-5d4-old', uid: 'u-old', fieldPath: '' }, why: { reason: 'gone' } } }],
    ['an object that could not be read, and why', { unknown: { ref: { apiVersion: 'apps/v1', kind: 'ReplicaSet', namespace: 'shop', name: hostile, uid: 'u', fieldPath: '' }, why: { reason: 'forbidden', step: 'get', target: 'replicasets' } } }],
  ];
  for (const [name, saved] of cases) {
    test(`round-trips through JSON: ${name}`, () => {
      assert.deepEqual(parseSavedObject(JSON.parse(JSON.stringify(formatSavedObject(saved)))), saved);
    });
  }

  const bad: [string, unknown][] = [
    ['not an object', [1]],
    ['no kind', { apiVersion: 'v1', metadata: { name: 'a', uid: 'u' } }],
    ['no uid', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a' } }],
    ['an unknown one without a name', { apiVersion: 'v1', kind: 'Pod', metadata: {}, unknown: { reason: 'gone' } }],
  ];
  for (const [name, item] of bad) test(`is not read when it has ${name}`, () => assert.equal(parseSavedObject(item), null));

  test('knownObjects leaves the unknown out and keeps the last of one uid', () => {
    const later = { ...rs, deleting: NOW };
    const gone = cases[3]?.[1] as SavedObject;
    assert.deepEqual(knownObjects([{ meta: rs }, gone, { meta: deploy }, { meta: later }]), [later, deploy]);
  });
});

describe('objects.json', () => {
  const text = formatObjectsFile(CAPTURED, [{ meta: deploy }, { meta: rs }, { meta: pod }]);

  test('reads back what was written, for the capture it belongs to', () => {
    assert.deepEqual(parseObjectsFile(text, Date.parse(CAPTURED)), [{ meta: deploy }, { meta: rs }, { meta: pod }]);
  });

  const refused: [string, string, number | null][] = [
    ['another capture (another capturedAt)', text, Date.parse(CAPTURED) + 1000],
    ['a capture whose events.json says no time', text, null],
    ['not JSON (a torn file)', text.slice(0, text.length / 2), Date.parse(CAPTURED)],
    ['another kind of document', JSON.stringify({ kind: 'EvtimelineCapture', capturedAt: CAPTURED, items: [] }), Date.parse(CAPTURED)],
    ['items that are not a list', JSON.stringify({ kind: 'EvtimelineObjects', capturedAt: CAPTURED, items: {} }), Date.parse(CAPTURED)],
  ];
  for (const [name, body, capturedAt] of refused) test(`is not taken from ${name}`, () => assert.equal(parseObjectsFile(body, capturedAt), null));

  test('skips the items it cannot read, one by one', () => {
    const doc = { kind: 'EvtimelineObjects', version: 1, capturedAt: CAPTURED, items: [7, { kind: 'Pod' }, formatSavedObject({ meta: deploy })] };
    assert.deepEqual(parseObjectsFile(JSON.stringify(doc), Date.parse(CAPTURED)), [{ meta: deploy }]);
  });
});

describe('a capture writes objects.json and --from reads the ownership back', () => {
  // The live cluster: two pods of one ReplicaSet of one Deployment, and a pod already deleted.
  const ref = (kind: string, name: string, uid: string, apiVersion = 'v1'): ObjectRef => ({ apiVersion, kind, name, namespace: 'shop', uid, fieldPath: '' });
  const pod2 = meta({ ...pod, name: 'web-5d4-q7w', uid: 'u-pod-2', deleting: null });
  const exists = (m: ObjectMeta): ObjectLookup => ({ state: 'exists', uid: m.uid, creationTimestamp: null, meta: m });
  const events = [
    ev({ namespace: 'shop', kind: 'Pod', apiVersion: 'v1', objectName: pod.name, objectUid: pod.uid, reason: 'BackOff', type: 'Warning' }),
    ev({ namespace: 'shop', kind: 'Pod', apiVersion: 'v1', objectName: pod2.name, objectUid: pod2.uid, reason: 'Pulled' }),
    ev({ namespace: 'shop', kind: 'Pod', apiVersion: 'v1', objectName: 'web-5d4-gone', objectUid: 'u-pod-gone', reason: 'Killing' }),
  ];
  const lookups = lookupsOf([
    [ref('Pod', pod.name, pod.uid), exists(pod)],
    [ref('Pod', pod2.name, pod2.uid), exists(pod2)],
    [ref('Pod', 'web-5d4-gone', 'u-pod-gone'), { state: 'gone' }],
    [ref('ReplicaSet', 'web-5d4', 'u-rs', 'apps/v1'), exists(rs)],
    [ref('Deployment', 'web', 'u-deploy', 'apps/v1'), exists(deploy)],
  ]);

  async function capture(out: string) {
    const live = memorySource({ provenance: fromCluster({ namespace: 'shop' }), raw: events, lookups });
    const fake = fakeDeps({ openSource: openSources({ live }).open });
    const code = await runCli(['capture', out], fake.deps);
    return { code, live, stdout: fake.stdout() };
  }
  const open = systemSources({ env: {}, stdin: Readable.from([]), stderr: { write: () => {} } });

  test('saves the pods, their ReplicaSet and Deployment (one lookup per level), and the deleted pod as gone', async () => {
    const out = join(dir, 'shop');
    const { code, live, stdout } = await capture(out);
    assert.equal(code, 0);
    assert.match(stdout, /\/objects\.json\n/);
    assert.deepEqual(live.looked.map((refs) => refs.map((r) => r.name)), [[pod.name, pod2.name, 'web-5d4-gone'], ['web-5d4'], ['web']]);
    const doc = JSON.parse(readFileSync(join(out, 'objects.json'), 'utf8')) as { kind: string; capturedAt: string; items: { kind: string; metadata: { name: string }; unknown?: unknown }[] };
    assert.equal(doc.kind, 'EvtimelineObjects');
    assert.equal(doc.capturedAt, JSON.parse(readFileSync(join(out, 'events.json'), 'utf8')).capturedAt);
    assert.deepEqual(
      doc.items.map((i) => `${i.kind}/${i.metadata.name}${i.unknown ? ' (unknown)' : ''}`),
      ['Deployment/web', 'Pod/web-5d4-q7w', 'Pod/web-5d4-x2k', 'ReplicaSet/web-5d4', 'Pod/web-5d4-gone (unknown)'],
    );
  });

  test('--from the folder, or its events.json, tells ownership: the known objects of the namespace', async () => {
    const out = join(dir, 'shop-read');
    await capture(out);
    for (const path of [out, join(out, 'events.json')]) {
      const source = await open({ kind: 'file', path, namespace: null });
      assert.equal(source.provenance.tells.ownership, true, path);
      const owned = await source.ownership?.('shop');
      assert.deepEqual(owned?.map((m) => `${m.kind}/${m.name}<${m.owners.map((o) => o.name).join(',')}`), ['Deployment/web<', 'Pod/web-5d4-q7w<web-5d4', 'Pod/web-5d4-x2k<web-5d4', 'ReplicaSet/web-5d4<web']);
      assert.deepEqual(await source.ownership?.('elsewhere'), []);
      assert.equal((await source.read()).events.length, 3);
    }
  });

  test('a capture without objects.json (an older one), or with one of another capture, reads as before and tells no ownership', async () => {
    const out = join(dir, 'shop-old');
    await capture(out);
    const other = join(dir, 'other');
    mkdirSync(other);
    writeFileSync(join(other, 'events.json'), readFileSync(join(out, 'events.json')));
    writeFileSync(join(other, 'objects.json'), formatObjectsFile('2026-11-29T00:00:00Z', [{ meta: deploy }]));
    const older = join(dir, 'older');
    mkdirSync(older);
    writeFileSync(join(older, 'events.json'), readFileSync(join(out, 'events.json')));
    for (const path of [older, other]) {
      const source = await open({ kind: 'file', path, namespace: null });
      assert.equal(source.provenance.tells.ownership, false, path);
      assert.equal(source.ownership, undefined);
      assert.equal((await source.read()).events.length, 3);
    }
    assert.deepEqual(readdirSync(older), ['events.json']);
  });

  test('an objects.json that is there but not taken (torn, not JSON, another kind, another capture, a folder, a device, a FIFO, past the cap) is one stderr line naming it and why, never silence or a stack', async () => {
    const out = join(dir, 'shop-bad');
    await capture(out);
    const good = readFileSync(join(out, 'objects.json'), 'utf8');
    const cases: [string, (file: string) => void, string][] = [
      ['torn', (file) => writeFileSync(file, good.slice(0, good.length / 2)), 'is not JSON'],
      ['text', (file) => writeFileSync(file, 'hello\n'), 'is not JSON'],
      ['list', (file) => writeFileSync(file, '[]'), 'is not an objects.json'],
      ['other', (file) => writeFileSync(file, formatObjectsFile('2026-11-29T00:00:00Z', [{ meta: deploy }])), 'belongs to another capture'],
      ['folder', (file) => mkdirSync(file), 'is a folder, not a file'],
      // H4: a shared capture's objects.json pointing at a device was read without end (23 GB), a FIFO waited for ever.
      ['device', (file) => symlinkSync('/dev/zero', file), 'is a device, not a file'],
      ['fifo', (file) => execFileSync('mkfifo', [file]), 'is a pipe (FIFO), not a file'],
      // Capped as events.json is (sparse: no disk used).
      ['huge', (file) => {
        writeFileSync(file, '');
        truncateSync(file, 513 * 1024 * 1024);
      }, 'is more than --from reads (512 MiB)'],
    ];
    for (const [name, make, why] of cases) {
      const folder = join(dir, `bad-${name}`);
      mkdirSync(folder);
      writeFileSync(join(folder, 'events.json'), readFileSync(join(out, 'events.json')));
      make(join(folder, 'objects.json'));
      let stderr = '';
      const source = await systemSources({ env: {}, stdin: Readable.from([]), stderr: { write: (text: string) => (stderr += text) } })({ kind: 'file', path: folder, namespace: null });
      assert.equal(stderr, `warning: ${join(folder, 'objects.json')} ${why}: the capture's ownership is not read\n`, name);
      assert.equal(source.ownership, undefined, name);
      assert.equal((await source.read()).events.length, 3, name);
    }
  });

  // A capture is made to be shared: by default objects.json keeps the trees of the objects the events
  // are about (their owners, siblings and children), not every Secret and RoleBinding of the namespace (issue 28, L9).
  test('with one namespace captured, the rest of the events\' trees is saved (a pod of the same ReplicaSet no event is about), the other objects only with --all-objects; a listing that fails leaves the chains', async () => {
    const config = meta({ apiVersion: 'v1', kind: 'ConfigMap', name: 'web-config', uid: 'u-cm' });
    const secret = meta({ apiVersion: 'v1', kind: 'Secret', name: 'db-password', uid: 'u-secret' });
    const binding = meta({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', name: 'ops-admin', uid: 'u-rb' });
    const sibling = meta({ ...pod, name: 'web-5d4-zzz', uid: 'u-pod-zzz', deleting: null });
    const orphanOfGone = meta({ apiVersion: 'v1', kind: 'ConfigMap', name: 'owned-by-gone', uid: 'u-og', owners: [owner('Pod', 'web-5d4-gone', 'u-pod-gone')] });
    const listing = [deploy, rs, pod, pod2, sibling, config, secret, binding, orphanOfGone];
    for (const [name, ownership, flags, want, note] of [
      ['trees', async () => listing, [], ['ConfigMap/owned-by-gone', 'Deployment/web', 'Pod/web-5d4-q7w', 'Pod/web-5d4-x2k', 'Pod/web-5d4-zzz', 'ReplicaSet/web-5d4', 'Pod/web-5d4-gone (unknown)'], 'objects.json keeps the trees of the objects the events are about; 3 other objects of namespace shop were left out (capture --all-objects saves them too)\n'],
      ['all', async () => listing, ['--all-objects'], ['ConfigMap/owned-by-gone', 'ConfigMap/web-config', 'Deployment/web', 'Pod/web-5d4-q7w', 'Pod/web-5d4-x2k', 'Pod/web-5d4-zzz', 'ReplicaSet/web-5d4', 'RoleBinding/ops-admin', 'Secret/db-password', 'Pod/web-5d4-gone (unknown)'], ''],
      ['refused', async () => Promise.reject(new Error('discovery refused')), [], ['Deployment/web', 'Pod/web-5d4-q7w', 'Pod/web-5d4-x2k', 'ReplicaSet/web-5d4', 'Pod/web-5d4-gone (unknown)'], ''],
    ] as const) {
      const out = join(dir, `shop-${name}`);
      const live = { ...memorySource({ provenance: fromCluster({ namespace: 'shop' }), raw: events, lookups }), ownership };
      const fake = fakeDeps({ openSource: openSources({ live }).open });
      assert.equal(await runCli(['capture', out, ...flags], fake.deps), 0, name);
      const doc = JSON.parse(readFileSync(join(out, 'objects.json'), 'utf8')) as { items: { kind: string; metadata: { name: string }; unknown?: unknown }[] };
      assert.deepEqual(doc.items.map((i) => `${i.kind}/${i.metadata.name}${i.unknown ? ' (unknown)' : ''}`), want, name);
      assert.equal(fake.stderr(), note, name);
    }
  });

  test('with -A only the chains are saved: listing every namespace is not asked for', async () => {
    const out = join(dir, 'all-namespaces');
    const asked: string[] = [];
    const live = { ...memorySource({ provenance: fromCluster({ namespace: null }), raw: events, lookups }), ownership: async (ns: string) => (asked.push(ns), []) };
    assert.equal(await runCli(['capture', '-A', out], fakeDeps({ openSource: openSources({ live }).open }).deps), 0);
    assert.deepEqual(asked, []);
    const doc = JSON.parse(readFileSync(join(out, 'objects.json'), 'utf8')) as { items: { kind: string }[] };
    assert.deepEqual(doc.items.map((i) => i.kind), ['Deployment', 'Pod', 'Pod', 'ReplicaSet', 'Pod']);
  });

  // Saved ownership is checked, not trusted as written (issue 28, L4): what no API server could have
  // written is refused, the rest is read, and stderr says what was refused.
  test('an object name no server allows (`web-5d4 > Deployment/spoof`), and every claim of a uid two objects share, are refused and named; the rest is read', async () => {
    const out = join(dir, 'shop-spoofed');
    await capture(out);
    const doc = JSON.parse(readFileSync(join(out, 'objects.json'), 'utf8')) as { items: { apiVersion: string; kind: string; metadata: { name: string; uid: string; namespace: string; ownerReferences?: { name: string }[] } }[] };
    const spoof = 'web-5d4 > Deployment/spoof';
    for (const item of doc.items) {
      if (item.kind === 'ReplicaSet') item.metadata.name = spoof;
      for (const o of item.metadata.ownerReferences ?? []) if (o.name === 'web-5d4') o.name = spoof;
    }
    writeFileSync(join(out, 'objects.json'), JSON.stringify(doc));
    const source = await open({ kind: 'file', path: out, namespace: null });
    assert.deepEqual((await source.ownership?.('shop'))?.map((m) => `${m.kind}/${m.name}`), ['Deployment/web']);
    assert.deepEqual(source.provenance.refusedObjects, [
      `Pod "web-5d4-q7w" in shop: the name of its owner ReplicaSet may not contain '/'`,
      `Pod "web-5d4-x2k" in shop: the name of its owner ReplicaSet may not contain '/'`,
      `ReplicaSet.apps "${spoof}" in shop: its name may not contain '/'`,
    ]);
    const fake = fakeDeps({ openSource: systemSources({ env: {}, stdin: Readable.from([]), stderr: { write: () => {} } }) });
    assert.equal(await runCli(['--from', out, '--for', `pod/${pod.name}`, '--tree'], fake.deps), 0, fake.stderr());
    assert.doesNotMatch(fake.stdout(), /spoof/);
    assert.equal(
      fake.stderr().split('\n').find((l) => l.includes('refused')),
      `warning: ${out}: refused 3 saved objects no API server could have written, read without them: Pod "web-5d4-q7w" in shop: the name of its owner ReplicaSet may not contain '/'; Pod "web-5d4-x2k" in shop: the name of its owner ReplicaSet may not contain '/'; ReplicaSet.apps "${spoof}" in shop: its name may not contain '/'`,
    );
  });

  test('two objects of different groups sharing a uid: neither is taken, and the refusal names both', async () => {
    const out = join(dir, 'shop-uid');
    await capture(out);
    const doc = JSON.parse(readFileSync(join(out, 'objects.json'), 'utf8')) as { items: unknown[] };
    doc.items.push({ apiVersion: 'batch/v1', kind: 'Job', metadata: { namespace: 'shop', name: 'thief', uid: pod2.uid, ownerReferences: [owner('Deployment', 'web', 'u-deploy')] } });
    writeFileSync(join(out, 'objects.json'), JSON.stringify(doc));
    const source = await open({ kind: 'file', path: out, namespace: null });
    assert.deepEqual((await source.ownership?.('shop'))?.map((m) => `${m.kind}/${m.name}`), ['Deployment/web', 'Pod/web-5d4-x2k', 'ReplicaSet/web-5d4']);
    assert.deepEqual(source.provenance.refusedObjects, [`uid ${pod2.uid} is claimed by Pod "${pod2.name}" in shop and by Job.batch "thief" in shop: none of them is taken`]);
    // The same object saved twice (a record's object lines over time, another version of its group) is no conflict.
    doc.items.pop();
    doc.items.push({ ...(doc.items.find((i) => (i as { kind: string }).kind === 'ReplicaSet') as object), apiVersion: 'apps/v1beta2' });
    writeFileSync(join(out, 'objects.json'), JSON.stringify(doc));
    assert.equal((await open({ kind: 'file', path: out, namespace: null })).provenance.refusedObjects, undefined);
  });

  test('a list or an event array tells no ownership', async () => {
    const list = join(dir, 'list.json');
    writeFileSync(list, JSON.stringify({ kind: 'EventList', apiVersion: 'v1', items: events }));
    const source = await open({ kind: 'file', path: list, namespace: null });
    assert.equal(source.provenance.tells.ownership, false);
  });
});

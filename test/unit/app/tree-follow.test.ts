// -w --for X --tree grows its tree as events come (src/app/tree-follow.ts), handed an in-memory
// source at its port: a ReplicaSet whose events name 300 new pods ("Created pod: ghost-N"), looked
// up as the live adapter would (answers after a round trip), then the pods' own events.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { followTree } from '../../../src/app/tree-follow.ts';
import { normaliseEvent } from '../../../src/core/event.ts';
import type { ObjectRef } from '../../../src/core/event.ts';
import type { ObjectLookup } from '../../../src/core/incarnation.ts';
import type { ObjectMeta } from '../../../src/core/ownership.ts';
import { ev } from '../../support/builders.ts';
import { fromCluster, lookupsOf, memorySource } from '../../support/sources.ts';

const ns = 'shop';
const rs: ObjectMeta = { apiVersion: 'apps/v1', kind: 'ReplicaSet', namespace: ns, name: 'web', uid: 'rs-web', owners: [], created: null, deleting: null };
const livePod: ObjectMeta = {
  apiVersion: 'v1',
  kind: 'Pod',
  namespace: ns,
  name: 'ghost-7',
  uid: 'pod-7',
  owners: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'rs-web', controller: true }],
  created: null,
  deleting: null,
};
const podRef = (name: string): ObjectRef => ({ apiVersion: 'v1', kind: 'Pod', namespace: ns, name, uid: '', fieldPath: '' });

const created = (n: number) =>
  normaliseEvent(ev({ namespace: ns, uid: `e-${n}`, reason: 'SuccessfulCreate', message: `Created pod: ghost-${n}`, apiVersion: 'apps/v1', kind: 'ReplicaSet', objectName: 'web', objectUid: 'rs-web' }));
const about = (name: string, uid: string) => normaliseEvent(ev({ namespace: ns, uid: `e-${name}`, reason: 'Scheduled', message: 'assigned', apiVersion: 'v1', kind: 'Pod', objectName: name, objectUid: uid }));
const chainText = (chain: readonly { kind: string; name: string; gone: boolean }[] | undefined) => chain?.map((n) => `${n.kind}/${n.name}${n.gone ? ' (gone)' : ''}`).join(' > ');

describe('-w --tree while an owner names children fast (issue 28 M5)', () => {
  it('300 "Created pod: X" events are in the tree at once; their children are asked in batches, not one lookup each, and join under their owner', async () => {
    const answers: [ObjectRef, ObjectLookup][] = [[podRef('ghost-7'), { state: 'exists', uid: 'pod-7', creationTimestamp: null, meta: livePod }]];
    for (let n = 0; n < 300; n += 1) if (n !== 7) answers.push([podRef(`ghost-${n}`), { state: 'gone' }]);
    const source = memorySource({ provenance: fromCluster({ namespace: ns }), ownership: [rs], lookups: lookupsOf(answers) });
    // A lookup takes a round trip, as the live adapter's does.
    const objects = source.objects as NonNullable<typeof source.objects>;
    const lookUp = objects.lookUp.bind(objects);
    objects.lookUp = async (refs, opts) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return lookUp(refs, opts);
    };
    let stderr = '';
    const tree = followTree(source, { kind: 'ReplicaSet', name: 'web', group: 'apps' }, { stderr: { write: (text: string) => void (stderr += text), isTTY: false } });
    await tree.listed([]);
    for (let n = 0; n < 300; n += 1) assert.equal(chainText(await tree.place(created(n))), 'ReplicaSet/web', `event ${n}`);
    // The pods' own events: one live pod of web, one gone (named by web's event, no longer there).
    assert.equal(chainText(await tree.place(about('ghost-7', 'pod-7'))), 'ReplicaSet/web > Pod/ghost-7');
    assert.equal(chainText(await tree.place(about('ghost-8', 'pod-8'))), 'ReplicaSet/web > Pod/ghost-8 (gone)');
    // A pod no event of web names, and that is not web's: not in the tree.
    assert.equal(await tree.place(about('stranger', 'pod-x')), undefined);
    // Every named pod asked once, in a few batches (it was one lookup per event: 300).
    const asked = source.looked.flat().map((r) => r.name);
    assert.equal(new Set(asked).size, asked.length, 'each object asked once');
    assert.ok(source.looked.length <= 4, `${source.looked.length} lookups for 300 named pods`);
    assert.equal(stderr, '');
  });
});

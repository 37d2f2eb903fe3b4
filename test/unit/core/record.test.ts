// src/core/record.ts: what a recorder knows of a record (RecordIndex): each version once, DELETED once, where to resume.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { RECENT_DELETIONS, RecordIndex } from '../../../src/core/record.ts';
import { rawIdentity } from '../../../src/core/versions.ts';
import { obs, started, version, weird } from '../../support/record-lines.ts';
import type { Json } from '../../support/record-lines.ts';

describe('what a recorder knows of a record', () => {
  test('a version is written once: uid + resourceVersion', () => {
    const index = new RecordIndex();
    assert.equal(index.admit('ADDED', version(started, '10')), true);
    assert.equal(index.admit('ADDED', version(started, '10')), false);
    assert.equal(index.admit('MODIFIED', version(started, '10')), false);
    assert.equal(index.admit('MODIFIED', version(started, '12')), true);
  });

  test('DELETED once per uid, and nothing about that uid after it', () => {
    const index = new RecordIndex();
    index.admit('ADDED', version(started, '10'));
    assert.equal(index.admit('DELETED', version(started, '10')), true);
    assert.equal(index.admit('DELETED', version(started, '15')), false);
    assert.equal(index.admit('MODIFIED', version(started, '16')), false);
    assert.equal(index.holds('uid-started'), false);
  });

  test('knows: the record holds some version of the event, DELETED or not, liveness forgotten or not', () => {
    const index = RecordIndex.from([obs('ADDED', version(started, '10')), obs('DELETED', version(weird, '12'))]);
    index.forgetLive();
    const other = { ...started, metadata: { ...(started.metadata as Json), uid: 'uid-other' } };
    assert.deepEqual([started, weird, other].map((event) => index.knows(rawIdentity(event))), [true, true, false]);
  });

  test('the resourceVersion to resume from is the newest written, not the last line', () => {
    const index = RecordIndex.from([obs('ADDED', version(started, '10')), obs('ADDED', version(weird, '30')), obs('DELETED', version(started, '10'))]);
    assert.equal(index.resourceVersion, '30');
  });

  test('an empty record has no resourceVersion to resume from', () => {
    assert.equal(new RecordIndex().resourceVersion, '');
  });

  test('live events are those without a DELETED; forgetLive drops them all', () => {
    const index = RecordIndex.from([obs('ADDED', version(started, '10')), obs('ADDED', version(weird, '11')), obs('DELETED', version(weird, '12'))]);
    assert.deepEqual([...index.liveEvents().keys()], [rawIdentity(started)]);
    index.forgetLive();
    assert.equal(index.liveEvents().size, 0);
    assert.equal(index.admit('ADDED', version(started, '10')), false, 'forgetting liveness keeps the versions');
  });

  // A recorder runs for days: at 50 events/s the TTL deletes as many events as are created, and
  // what it remembers must follow what the server holds, not the length of the record.
  test('a recorder remembers the events that exist and the last deletions, not every version it wrote', () => {
    const index = new RecordIndex();
    const total = RECENT_DELETIONS * 3;
    for (let i = 0; i < total; i += 1) {
      const e = { ...started, metadata: { ...(started.metadata as Json), name: `e${i}`, uid: `uid-${i}` } };
      assert.equal(index.admit('ADDED', version(e, String(3 * i + 1))), true);
      assert.equal(index.admit('MODIFIED', version(e, String(3 * i + 2), 2)), true);
      if (i < total - 100) assert.equal(index.admit('DELETED', version(e, String(3 * i + 3), 2)), true);
    }
    assert.equal(index.size, 100 + RECENT_DELETIONS);
    assert.equal(index.liveEvents().size, 100);
    // Still nothing written twice: the current version of a live event (a relist), a recent DELETED again.
    const live = { ...started, metadata: { ...(started.metadata as Json), name: `e${total - 1}`, uid: `uid-${total - 1}` } };
    assert.equal(index.admit('MODIFIED', version(live, String(3 * (total - 1) + 2), 2)), false);
    const gone = { ...started, metadata: { ...(started.metadata as Json), name: `e${total - 101}`, uid: `uid-${total - 101}` } };
    assert.equal(index.admit('DELETED', version(gone, String(3 * (total - 101) + 3), 2)), false);
    assert.equal(index.resourceVersion, String(3 * (total - 1) + 2));
  });
});

// src/core/record.ts: what a recorder knows of a record (RecordIndex): each version once, DELETED once, where to resume.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { RecordIndex } from '../../../src/core/record.ts';
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
});

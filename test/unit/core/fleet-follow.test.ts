// Several contexts followed as one stream (core/fleet-follow.ts): each step labelled with its
// context, a member's next step handed over only once the last was taken, one that stops said while
// the others go on, and every one stopping an error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { followMerged } from '../../../src/core/fleet-follow.ts';
import type { FollowedMember } from '../../../src/core/fleet-follow.ts';
import type { FollowOptions, FollowStep, Unanswered } from '../../../src/core/source.ts';
import type { WatchNotice } from '../../../src/core/notices.ts';

function member(context: string, steps: (FollowStep | Error)[], pulled: string[] = []): FollowedMember {
  return {
    context,
    server: `https://${context}.example`,
    namespace: 'shop',
    async *follow(opts: FollowOptions) {
      opts.notice({ kind: 'retrying', what: 'watch', error: 'ECONNRESET', delayMs: 500 });
      for (const step of steps) {
        pulled.push(context);
        if (step instanceof Error) throw step;
        yield step;
      }
    },
  };
}

const change = (name: string): FollowStep => ({ kind: 'change', type: 'ADDED', object: { metadata: { name } } });

test('each step carries its context; a member that stops is said, the others go on; notices name their context', async () => {
  const notices: WatchNotice[] = [];
  const stopped: Unanswered[] = [];
  const opts: FollowOptions = { resourceVersion: '', signal: new AbortController().signal, notice: (n) => notices.push(n) };
  const steps: FollowStep[] = [];
  const members = [member('east', [change('a'), change('b')]), member('west', [change('c'), new Error('gave up following events after 10 failures in a row: ECONNREFUSED\nmore')])];
  for await (const step of followMerged(members, opts, (m) => stopped.push(m))) steps.push(step);
  assert.deepEqual(steps.map((s) => `${s.cluster?.context} ${s.kind === 'change' ? (s.object as { metadata: { name: string } }).metadata.name : s.kind}`).sort(), ['east a', 'east b', 'west c']);
  assert.deepEqual(stopped, [{ context: 'west', server: 'https://west.example', reason: 'gave up following events after 10 failures in a row: ECONNREFUSED' }]);
  assert.deepEqual(notices.map((n) => n.context).sort(), ['east', 'west']);
});

test('a member hands over its next step only once the last was taken', async () => {
  const pulled: string[] = [];
  const opts: FollowOptions = { resourceVersion: '', signal: new AbortController().signal, notice: () => {} };
  const merged = followMerged([member('east', [change('a'), change('b'), change('c')], pulled)], opts, () => {});
  const first = await merged.next();
  assert.equal(first.done, false);
  await new Promise((resolve) => setTimeout(resolve, 20));
  // One step taken, the next asked for by nobody: the member has pulled one only.
  assert.deepEqual(pulled, ['east']);
  const rest: FollowStep[] = [];
  for await (const step of merged) rest.push(step);
  assert.equal(rest.length, 2);
});

test('every member stopping is the first one\'s error', async () => {
  const opts: FollowOptions = { resourceVersion: '', signal: new AbortController().signal, notice: () => {} };
  const stopped: Unanswered[] = [];
  const merged = followMerged([member('east', [new Error('refused east')]), member('west', [new Error('refused west')])], opts, (m) => stopped.push(m));
  await assert.rejects(async () => {
    for await (const _ of merged);
  }, /refused (east|west)/);
  assert.equal(stopped.length, 1);
});

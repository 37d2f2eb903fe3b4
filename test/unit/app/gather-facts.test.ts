// Issue 22: a live source's facts are "fetched with the events": the reads that do not depend on the
// events (the namespace's Pods, the Nodes) begin before the events are read, the rest after them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../../../src/cli.ts';
import { podFacts } from '../../../src/core/facts.ts';
import type { FactSet } from '../../../src/core/facts.ts';
import type { EventSource } from '../../../src/core/source.ts';
import { ev, NOW } from '../../support/builders.ts';
import { fakeDeps } from '../../support/deps.ts';
import { fromCluster, memorySource, openSources } from '../../support/sources.ts';
import { pod, terminated, waiting } from '../../support/status-objects.ts';

const backOff = ev({ namespace: 'shop', kind: 'Pod', apiVersion: 'v1', objectName: 'web-1', objectUid: 'uid-web-1', type: 'Warning', reason: 'BackOff', message: 'Back-off restarting failed container app in pod web-1_shop(uid-web-1)', component: 'kubelet', count: 4, first: 200, last: 30 });
const oomPod = podFacts(pod({ containers: [{ limits: { memory: '20Mi' }, restartCount: 5, lastState: terminated('OOMKilled', 137), state: waiting('CrashLoopBackOff', 'back-off 40s restarting failed container=app') }] }));

/** A live source that logs when its facts begin, its events are read and its facts are finished. */
function liveSource(log: string[]): EventSource {
  const base = memorySource({ provenance: fromCluster({ namespace: 'shop' }), raw: [backOff] });
  const set: FactSet = { objects: [oomPod], gaps: [], readAt: NOW };
  return {
    ...base,
    read: async (opts) => {
      log.push('events: read begins');
      const read = await base.read(opts);
      log.push('events: read ends');
      return read;
    },
    facts: async () => {
      log.push('facts: read after the events only');
      return set;
    },
    startFacts: () => {
      log.push('facts: begun');
      return {
        facts: async (events) => {
          log.push(`facts: finished with ${events.length} event(s)`);
          return set;
        },
      };
    },
  };
}

test('incident begins reading the facts before the events and finishes them with the events read', async () => {
  const log: string[] = [];
  const { open } = openSources({ live: liveSource(log) });
  const fake = fakeDeps({ now: NOW, openSource: open });
  const code = await runCli(['incident', '-n', 'shop'], fake.deps);
  assert.equal(code, 0, fake.stderr());
  assert.deepEqual(log, ['facts: begun', 'events: read begins', 'events: read ends', 'facts: finished with 1 event(s)']);
  assert.match(fake.stdout(), /killed for using more memory than its limit \(OOMKilled, exit code 137, limits\.memory 20Mi\), restarted 5 times\./);
});

test('--no-status begins no facts read', async () => {
  const log: string[] = [];
  const { open } = openSources({ live: liveSource(log) });
  const fake = fakeDeps({ now: NOW, openSource: open });
  assert.equal(await runCli(['incident', '-n', 'shop', '--no-status'], fake.deps), 0, fake.stderr());
  assert.deepEqual(log, ['events: read begins', 'events: read ends']);
});

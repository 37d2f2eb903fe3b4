// -w and record run for days: at a steady rate the server's --event-ttl deletes as many events as
// are created, so the server holds a steady number, and so must they. Each run here is fed through
// the EventSource port, lazily, 52,000 events each created and then deleted (the TTL), and the heap
// is read (after a full collection) while the verb is still following: after the first 12,000 and
// after all 52,000. What the verb keeps for events that are gone shows as growth between the two
// (before it let them go: 1.5 MiB for -w with everything hidden, 3.0 MiB for -w -o name, 4.3 MiB
// for record, per 20,000 events).
// `npm run bench:follow` measures the same on the real control plane, as RSS over 30 minutes.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { runCli } from '../../../src/cli.ts';
import { FactsRecorder } from '../../../src/app/record-facts.ts';
import { OwnerRecorder } from '../../../src/app/record-owners.ts';
import { StartupProbeEvidence } from '../../../src/core/startup-probes.ts';
import { normaliseEvent } from '../../../src/core/event.ts';
import type { ObjectFacts } from '../../../src/core/facts.ts';
import type { FollowStep } from '../../../src/core/source.ts';
import type { Json } from '../../../src/core/json.ts';
import { ev } from '../../support/builders.ts';
import { fakeDeps } from '../../support/deps.ts';
import { fromCluster, memorySource, openSources } from '../../support/sources.ts';
import { scratchDir } from '../../support/tmp.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const TOTAL = 52_000;
// Past record's RECENT_DELETIONS (10,000), which it keeps on purpose.
const FIRST = 12_000;

/**
 * Heap in use after a full collection, in MiB: the least of several readings over about a second,
 * so that what is only in flight at that moment (record's lines waiting for a slow disk sync on a
 * loaded machine: 1.75 MiB once in a full unit run) is not taken for what the verb keeps.
 */
async function heapMiB(): Promise<number> {
  let least = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 10; i += 1) {
    await sleep(100);
    gc();
    gc();
    least = Math.min(least, process.memoryUsage().heapUsed / 1024 / 1024);
  }
  return least;
}

/**
 * A list of nothing, then TOTAL events each ADDED and then DELETED; the heap read after FIRST and
 * after TOTAL. `objects`: each event about a Pod of its own (pods come and go for days), else all about one.
 */
async function* createdAndExpired(heap: number[], objects: 'one' | 'each' = 'one'): AsyncGenerator<FollowStep> {
  yield { kind: 'list', items: [], resourceVersion: '1', why: 'start' };
  for (let i = 0; i < TOTAL; i += 1) {
    const about = objects === 'each' ? { apiVersion: 'v1', kind: 'Pod', objectName: `web-7d9c5b8f4-${String(i).padStart(5, '0')}` } : {};
    const event = ev({ name: `web-${i}.18b0c0d3${i}`, uid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, reason: 'Pulled', message: `Successfully pulled image "web:${i}"`, ...about });
    (event.metadata as Record<string, unknown>).resourceVersion = String(2 * i + 2);
    yield { kind: 'change', type: 'ADDED', object: event };
    yield { kind: 'change', type: 'DELETED', object: { ...event, metadata: { ...(event.metadata as object), resourceVersion: String(2 * i + 3) } } };
    if (i + 1 === FIRST || i + 1 === TOTAL) heap.push(await heapMiB());
  }
}

/** What an apiserver adds to an event it stores: who wrote which fields (metadata.managedFields). */
const MANAGED_FIELDS = [
  {
    manager: 'kubelet',
    operation: 'Update',
    apiVersion: 'v1',
    time: '2026-12-02T13:00:00Z',
    fieldsType: 'FieldsV1',
    fieldsV1: { 'f:count': {}, 'f:firstTimestamp': {}, 'f:involvedObject': {}, 'f:lastTimestamp': {}, 'f:message': {}, 'f:reason': {}, 'f:reportingComponent': {}, 'f:source': { 'f:component': {}, 'f:host': {} }, 'f:type': {} },
  },
];

const HELD = 20_000;

/**
 * A list of nothing, then HELD events ADDED and never deleted (the events a server holds at a
 * steady rate under its --event-ttl); the heap read before the first and after the last, and the
 * average length of the events' JSON text in `text`.
 */
async function* createdAndHeld(heap: number[], text: number[]): AsyncGenerator<FollowStep> {
  yield { kind: 'list', items: [], resourceVersion: '1', why: 'start' };
  heap.push(await heapMiB());
  let chars = 0;
  for (let i = 0; i < HELD; i += 1) {
    const event = ev({ name: `web-${i}.18b0c0d3${i}`, uid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, reason: 'Pulled', message: `Successfully pulled image "web:${i}"`, host: 'node-1', objectName: `web-${i % 400}` });
    Object.assign(event.metadata as Record<string, unknown>, { resourceVersion: String(i + 2), managedFields: MANAGED_FIELDS });
    const line = JSON.stringify(event);
    chars += line.length;
    // Parsed from its own text, as each watch line is: nothing shared with another event.
    yield { kind: 'change', type: 'ADDED', object: JSON.parse(line) as Json };
  }
  heap.push(await heapMiB());
  text.push(chars / HELD);
}

/** The verb run; stdout is counted in lines, not kept (the test's own memory is not the verb's). */
async function run(argv: string[], steps: AsyncIterable<FollowStep>) {
  const fake = fakeDeps({ openSource: openSources({ live: memorySource({ provenance: fromCluster(), steps }) }).open });
  const names = new Set<string>();
  let lines = 0;
  fake.deps.stdout = {
    isTTY: false,
    write: (text: string) => {
      for (const line of text.split('\n').filter(Boolean)) {
        lines += 1;
        if (lines <= FIRST) names.add(line); // enough to see a name printed twice among the first
      }
    },
  };
  const code = await runCli(argv, fake.deps).catch((error: unknown) => error);
  return { code, lines, names, stderr: fake.stderr() };
}

describe('a follow that runs for days', () => {
  test('-w keeps nothing of the events the TTL deleted, and its footer still counts every event it hid', async () => {
    const heap: number[] = [];
    // --reason hides every event: each is judged (and counted for the footer), nothing is printed.
    const r = await run(['-w', '--reason', 'Killing'], createdAndExpired(heap));
    assert.equal(r.code, 0, String(r.code));
    assert.match(r.stderr, /Hidden: 52,?000 events by --reason/);
    const [afterFirst, afterAll] = heap as [number, number];
    assert.ok(afterAll - afterFirst < 1.5, `the heap grew by ${(afterAll - afterFirst).toFixed(2)} MiB over ${TOTAL - FIRST} events created and deleted (${afterFirst.toFixed(1)} -> ${afterAll.toFixed(1)} MiB)`);
  });

  test('-w -o name prints each event once and keeps nothing of the events the TTL deleted', async () => {
    const heap: number[] = [];
    const r = await run(['-w', '-o', 'name'], createdAndExpired(heap));
    assert.equal(r.code, 0, String(r.code));
    assert.equal(r.lines, TOTAL);
    assert.equal(r.names.size, FIRST);
    const [afterFirst, afterAll] = heap as [number, number];
    assert.ok(afterAll - afterFirst < 1.5, `the heap grew by ${(afterAll - afterFirst).toFixed(2)} MiB over ${TOTAL - FIRST} events created and deleted (${afterFirst.toFixed(1)} -> ${afterAll.toFixed(1)} MiB)`);
  });

  test('-w -o stable prints each line once and keeps nothing of the events the TTL deleted, each about a Pod of its own', async () => {
    const heap: number[] = [];
    const r = await run(['-w', '-o', 'stable'], createdAndExpired(heap, 'each'));
    assert.equal(r.code, 0, String(r.code));
    assert.equal(r.lines, TOTAL);
    assert.equal(r.names.size, FIRST);
    assert.ok(r.names.has('Normal Pulled Pod/web-7d9c5b8f4-00000'), [...r.names].slice(0, 3).join('\n'));
    const [afterFirst, afterAll] = heap as [number, number];
    assert.ok(afterAll - afterFirst < 1.5, `the heap grew by ${(afterAll - afterFirst).toFixed(2)} MiB over ${TOTAL - FIRST} events created and deleted (${afterFirst.toFixed(1)} -> ${afterAll.toFixed(1)} MiB)`);
  });

  test('record writes every observation once and keeps nothing of the events the TTL deleted', async () => {
    const file = join(scratchDir('long-runs'), 'days.jsonl');
    const heap: number[] = [];
    const r = await run(['record', file], createdAndExpired(heap));
    assert.equal(r.code, 0, String(r.code));
    assert.match(r.stderr, /recorded 104,?000 lines \(52,?000 added, 0 modified, 52,?000 deleted\)/);
    // The observations: the header and the list's version (an EvtimelineSeen line) left out.
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n').filter((l) => l.includes('"type":'));
    assert.equal(lines.length, 2 * TOTAL);
    assert.equal(new Set(lines).size, 2 * TOTAL);
    const [afterFirst, afterAll] = heap as [number, number];
    assert.ok(afterAll - afterFirst < 1.5, `the heap grew by ${(afterAll - afterFirst).toFixed(2)} MiB over ${TOTAL - FIRST} events created and deleted (${afterFirst.toFixed(1)} -> ${afterAll.toFixed(1)} MiB)`);
  });

  // A busy cluster's pods come and go for days: the recorder reads the status of the objects the
  // server still holds events about, and a pod created after 25,000 others expired is still read.
  test('record reads the status of the objects whose events the server holds, however many came and went', async () => {
    const asked: string[][] = [];
    const facts = new FactsRecorder({
      read: async (events) => (asked.push(events.map((e) => e.object.name)), { objects: [], gaps: [], readAt: null }),
      write: async () => {},
      now: () => 0,
      held: undefined,
      notice: () => {},
      everyMs: 1_000_000,
    });
    const about = (i: number) => ev({ uid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, reason: 'Pulled', apiVersion: 'v1', kind: 'Pod', objectName: `web-${i}` });
    for (let i = 0; i < 25_000; i += 1) {
      const event = about(i);
      facts.saw([event]);
      if (i >= 100) facts.forget([about(i - 100)]);
    }
    facts.saw([about(25_000)]);
    await facts.finish(1000);
    const read = asked.at(-1) ?? [];
    assert.equal(read.length, 101, `read ${read.length} objects`);
    assert.ok(read.includes('web-25000') && read.includes('web-24900') && !read.includes('web-24899'), read.slice(0, 3).join(', '));
  });

  // What record keeps of each event the server holds is the version it wrote last, read back only
  // for a DELETED a relist infers: kept as its JSON text, not as the parsed object (which takes
  // about twice the heap), so a recorder's heap under a steady TTL is about the server's events' text.
  test('record keeps each event the server holds in about the size of its text', async () => {
    const file = join(scratchDir('long-runs'), 'held.jsonl');
    const heap: number[] = [];
    const text: number[] = [];
    const r = await run(['record', file], createdAndHeld(heap, text));
    assert.equal(r.code, 0, String(r.code));
    assert.match(r.stderr, /recorded 20,?000 lines \(20,?000 added, 0 modified, 0 deleted\)/);
    const [before, after] = heap as [number, number];
    const perEvent = ((after - before) * 1024 * 1024) / HELD;
    const chars = text[0] as number;
    assert.ok(perEvent < 1.4 * chars, `${perEvent.toFixed(0)} bytes of heap per event held, for ${chars.toFixed(0)} characters of JSON each (${before.toFixed(1)} -> ${after.toFixed(1)} MiB)`);
  });

  // Each object remembered as written costs about 100 bytes: a recorder that ran for days kept every
  // one, and past 500,000 stopped writing owners. What it remembers follows the events the server holds.
  test('record writes the owners of objects that come after 600,000 others, remembering about what the server holds', async () => {
    const written: string[] = [];
    const notices: string[] = [];
    const owners = new OwnerRecorder({
      // Nothing readable: each object is written as not known, once, as a lookup it cannot answer.
      lookUp: async () => new Map(),
      write: async (saved) => void written.push(...saved.map((s) => ('meta' in s ? s.meta.uid : s.unknown.ref.uid))),
      held: [],
      notice: (text) => void notices.push(text),
    });
    const PODS = 600_000;
    const objectUid = (i: number) => `aaaaaaaa-0000-4000-8000-${String(i).padStart(12, '0')}`;
    const about = (i: number) => ev({ uid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, reason: 'Pulled', apiVersion: 'v1', kind: 'Pod', objectName: `web-${i}`, objectUid: objectUid(i) });
    let most = 0;
    for (let i = 0; i < PODS; i += 1) {
      owners.saw([about(i)]);
      if (i >= 100) owners.forget([about(i - 100)]);
      // The lookups run behind: let them catch up every so often, as a watch's pauses do.
      if (i % 1_000 === 999) {
        for (let spins = 0; written.length < i + 1 && spins < 1_000 && notices.length === 0; spins += 1) await sleep(0);
        most = Math.max(most, owners.remembered);
      }
    }
    await owners.finish(1_000);
    assert.deepEqual(notices, []);
    assert.equal(written.at(-1), objectUid(PODS - 1));
    assert.equal(written.length, PODS, 'each object written once');
    assert.ok(most <= 51_000, `${most} objects remembered while the server held events about 100`);
  });

  /**
   * A FactsRecorder reading as soon as the loop lets it (everyMs 0) while 25,000 events come, each
   * deleted 100 later: the most `remembered` said while the server held 100 of them.
   */
  async function factsChurn(read: ConstructorParameters<typeof FactsRecorder>[0]['read'], write: ConstructorParameters<typeof FactsRecorder>[0]['write'], about: (i: number) => Json, remembered: (facts: FactsRecorder) => number) {
    const facts = new FactsRecorder({ read, write, now: () => 0, held: undefined, notice: () => {}, everyMs: 0 });
    let most = 0;
    for (let i = 0; i < 25_000; i += 1) {
      facts.saw([about(i)]);
      if (i >= 100) facts.forget([about(i - 100)]);
      // A read while each object's events are held.
      if (i % 100 === 99) {
        await sleep(2);
        most = Math.max(most, remembered(facts));
      }
    }
    return { facts, most };
  }

  test('record remembers the written status of the objects whose events the server holds, however many came and went', async () => {
    let lines = 0;
    const { facts, most } = await factsChurn(
      async (events) => ({ objects: events.map((e) => ({ kind: 'Pod', namespace: e.object.namespace, name: e.object.name, phase: 'Running' }) as unknown as ObjectFacts), gaps: [], readAt: null }),
      async (_now, statuses) => void (lines += statuses.length),
      (i) => ev({ uid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, reason: 'Pulled', apiVersion: 'v1', kind: 'Pod', objectName: `web-${i}` }),
      (f) => f.remembered,
    );
    await facts.finish(1000);
    assert.equal(lines, 25_000, 'each object\'s status written once');
    assert.ok(most <= 1_000 && facts.remembered <= 1_000, `${most} objects' status remembered while the server held events about 100 (${facts.remembered} at the end)`);
  });

  // Namespaces come and go for days (a CI namespace per run): a gap (a list the recorder may not
  // read) is said once while the server holds events in its namespace, not remembered for every
  // namespace the record ever met.
  test('record remembers the gaps said of the namespaces whose events the server holds, however many came and went', async () => {
    const gaps: string[] = [];
    const about = (i: number) => ev({ uid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, reason: 'Pulled', apiVersion: 'v1', kind: 'Pod', namespace: `ci-${i}`, objectName: 'web' });
    const { facts, most } = await factsChurn(
      async (events) => ({ objects: [], gaps: [...new Set(events.map((e) => e.object.namespace))].map((namespace) => ({ what: 'list' as const, resource: 'pods', namespace, reason: 'forbidden' as const })), readAt: null }),
      async (_now, statuses) => void gaps.push(...statuses.flatMap((s) => ('missing' in s ? [s.missing.namespace] : []))),
      about,
      (f) => f.gapsRemembered,
    );
    // Namespace ci-7 again, after all its events were deleted: its gap is said again (once).
    facts.saw([about(7)]);
    await facts.finish(1000);
    assert.equal(gaps.length, 25_001, "each namespace's gap written once while its events were held, ci-7's again");
    assert.equal(gaps.filter((ns) => ns === 'ci-7').length, 2);
    assert.ok(most <= 1_000 && facts.gapsRemembered <= 1_000, `${most} gaps remembered while the server held events in 100 namespaces (${facts.gapsRemembered} at the end)`);
  });

  // --exclude-startup-probes under -w or record: a container the kubelet killed is remembered while
  // the server holds its Killing event, as a list would see it, not for every container ever killed.
  test('a follow remembers the containers killed for their start-up probe while the server holds the Killing', () => {
    const startup = new StartupProbeEvidence();
    const killing = (i: number) => normaliseEvent(ev({ uid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, reason: 'Killing', message: 'Container app failed startup probe, will be restarted', apiVersion: 'v1', kind: 'Pod', objectName: `web-${i}`, objectUid: `aaaaaaaa-0000-4000-8000-${String(i).padStart(12, '0')}`, fieldPath: 'spec.containers{app}' }));
    const unhealthy = (i: number) => normaliseEvent(ev({ reason: 'Unhealthy', message: 'Startup probe failed: HTTP probe failed with statuscode: 503', apiVersion: 'v1', kind: 'Pod', objectName: `web-${i}`, objectUid: `aaaaaaaa-0000-4000-8000-${String(i).padStart(12, '0')}`, fieldPath: 'spec.containers{app}' }));
    for (let i = 0; i < 100_000; i += 1) {
      startup.learn([killing(i)]);
      if (i >= 100) startup.forget([killing(i - 100)]);
    }
    assert.equal(startup.size, 100);
    assert.equal(startup.belowThreshold(unhealthy(99_999)), false, 'killed while its Killing is held');
    assert.equal(startup.belowThreshold(unhealthy(1)), true, 'its Killing deleted, as a list would no longer see it');
  });

  /** A container killed for its start-up probe, the Killing deleted by the TTL, then another Unhealthy about it. */
  function killedThenExpired(): AsyncGenerator<FollowStep> {
    const pod = { apiVersion: 'v1', kind: 'Pod', objectName: 'web-1', objectUid: 'aaaaaaaa-0000-4000-8000-000000000001', fieldPath: 'spec.containers{app}' };
    const killing = ev({ name: 'web-1.killing', reason: 'Killing', message: 'Container app failed startup probe, will be restarted', ...pod });
    const unhealthy = ev({ name: 'web-1.unhealthy', reason: 'Unhealthy', message: 'Startup probe failed: HTTP probe failed with statuscode: 503', ...pod });
    async function* steps(): AsyncGenerator<FollowStep> {
      yield { kind: 'list', items: [], resourceVersion: '1', why: 'start' };
      yield { kind: 'change', type: 'ADDED', object: killing };
      yield { kind: 'change', type: 'DELETED', object: killing };
      yield { kind: 'change', type: 'ADDED', object: unhealthy };
    }
    return steps();
  }

  test('-w --exclude-startup-probes judges an Unhealthy by the Killing events the server still holds', async () => {
    const r = await run(['-w', '--exclude-startup-probes', '-o', 'name'], killedThenExpired());
    assert.equal(r.code, 0, String(r.code));
    assert.deepEqual([...r.names], ['event/web-1.killing']);
    assert.match(r.stderr, /Hidden: 1 event by --exclude-startup-probes/);
  });

  test('record --exclude-startup-probes judges an Unhealthy by the Killing events the server still holds', async () => {
    const file = join(scratchDir('long-runs'), 'startup.jsonl');
    const r = await run(['record', file, '--exclude-startup-probes'], killedThenExpired());
    assert.equal(r.code, 0, String(r.code));
    const written = readFileSync(file, 'utf8');
    assert.match(written, /web-1\.killing/);
    assert.doesNotMatch(written, /web-1\.unhealthy/);
  });
});

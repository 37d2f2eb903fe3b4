// aggregate-patch in process through an in-memory EventStore at its port: planning, the 409 retry
// with a re-read, and the refusals. Agreement with the API server itself (what it stores, which
// fields events.k8s.io/v1 lets change) is test/integration/verbs.test.ts against the real control plane.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../../../src/cli.ts';
import { RuntimeError, UsageError } from '../../../src/errors.ts';
import type { EventStore, EventsApi, PatchOutcome } from '../../../src/core/event-store.ts';
import { applyMergePatch } from '../../../src/core/aggregate.ts';
import { ev } from '../../support/builders.ts';
import { fakeDeps } from '../../support/deps.ts';

/**
 * A store holding one event. `conflicts` other writers get in first: each bumps the event's
 * resourceVersion before our patch arrives, so a patch carrying the old one is refused, as the API
 * server refuses it.
 */
function memoryStore(event: Record<string, unknown>, o: { namespace?: string | null; conflicts?: number } = {}) {
  let stored = structuredClone(event) as Record<string, unknown> & { metadata: { name: string; resourceVersion: string } };
  let conflicts = o.conflicts ?? 0;
  const reads: string[] = [];
  const patches: { api: EventsApi; patch: unknown; dryRun: boolean }[] = [];
  const store: EventStore = {
    namespace: o.namespace === undefined ? 'op-events' : o.namespace,
    get: async (name) => {
      reads.push(name);
      return name === stored.metadata.name ? structuredClone(stored) : null;
    },
    mergePatch: async (api, name, patch, { dryRun }): Promise<PatchOutcome> => {
      patches.push({ api, patch, dryRun });
      assert.equal(name, stored.metadata.name);
      if (conflicts > 0) {
        conflicts -= 1;
        stored.metadata.resourceVersion = String(Number(stored.metadata.resourceVersion) + 1);
      }
      const sent = (patch as { metadata?: { resourceVersion?: string } }).metadata?.resourceVersion;
      if (sent !== stored.metadata.resourceVersion) return { kind: 'conflict' };
      const after = applyMergePatch(stored, patch) as typeof stored;
      after.metadata = { ...after.metadata, resourceVersion: String(Number(stored.metadata.resourceVersion) + 1) };
      if (!dryRun) stored = after;
      return { kind: 'patched', event: structuredClone(after) };
    },
  };
  return { store, reads, patches, stored: () => stored };
}

async function run(argv: string[], store: EventStore) {
  const fake = fakeDeps({ openEventStore: async () => store });
  const code = await runCli(['aggregate-patch', ...argv], fake.deps).catch((error: unknown) => error);
  return { code, stdout: fake.stdout(), stderr: fake.stderr() };
}

const pull = () => ev({ name: 'pull-1', reason: 'Pulling', count: 3, first: 600, last: 120 });

describe('aggregate-patch through its port', () => {
  test('adds one occurrence through core/v1, carrying the resourceVersion read', async () => {
    const m = memoryStore(pull());
    const rv = m.stored().metadata.resourceVersion;
    const r = await run(['pull-1', '-n', 'op-events'], m.store);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(m.patches.length, 1);
    assert.equal(m.patches[0]?.api, 'core');
    assert.deepEqual((m.patches[0]?.patch as { metadata: unknown }).metadata, { resourceVersion: rv });
    assert.equal(m.stored().count, 4);
    assert.match(r.stdout, /^event pull-1 in op-events: count 3 -> 4, patched count and lastTimestamp \(core\/v1\)\n/);
  });

  test('a conflict is re-read and re-planned: the count still goes up by exactly the request', async () => {
    const m = memoryStore(pull(), { conflicts: 2 });
    const r = await run(['pull-1', '-n', 'op-events', '--add', '2'], m.store);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(m.reads.length, 3, 'read again after each conflict');
    assert.equal(m.patches.length, 3);
    const sent = m.patches.map((p) => (p.patch as { metadata: { resourceVersion: string } }).metadata.resourceVersion);
    assert.equal(new Set(sent).size, 3, 'each retry carries the version it re-read');
    assert.equal(m.stored().count, 5);
  });

  test('an event that keeps changing: gives up after five attempts, nothing stored', async () => {
    const m = memoryStore(pull(), { conflicts: 99 });
    const r = await run(['pull-1', '-n', 'op-events'], m.store);
    assert.ok(r.code instanceof RuntimeError);
    assert.equal((r.code as Error).message, 'event "pull-1" kept changing under us: gave up after 5 attempts');
    assert.equal(m.patches.length, 5);
    assert.equal(m.stored().count, 3);
  });

  test('an event that is not there', async () => {
    const m = memoryStore(pull());
    const r = await run(['gone-1', '-n', 'op-events'], m.store);
    assert.ok(r.code instanceof RuntimeError);
    assert.equal((r.code as Error).message, 'event "gone-1" not found in namespace "op-events"');
    assert.deepEqual(m.patches, []);
  });

  test('refusals: past the int32 count, --at before the last occurrence, no namespace', async () => {
    const big = memoryStore({ ...pull(), count: 2_147_483_600 });
    const over = await run(['pull-1', '-n', 'op-events', '--add', '100'], big.store);
    assert.ok(over.code instanceof UsageError);
    assert.match((over.code as Error).message, /^--add 100 would take the count of event pull-1 from 2147483600 past 2147483647/);
    assert.deepEqual(big.patches, []);

    const early = memoryStore(pull());
    const back = await run(['pull-1', '-n', 'op-events', '--at', '2000-01-01T00:00:00Z'], early.store);
    assert.ok(back.code instanceof UsageError);
    assert.match((back.code as Error).message, /^--at is before the event's last occurrence/);
    assert.deepEqual(early.patches, []);

    const nowhere = await run(['pull-1'], memoryStore(pull(), { namespace: null }).store);
    assert.ok(nowhere.code instanceof UsageError);
    assert.equal((nowhere.code as Error).message, 'aggregate-patch needs a namespace');
  });

  test('--dry-run=client sends nothing; --dry-run=server sends a dry-run patch and stores nothing', async () => {
    const client = memoryStore(pull());
    const c = await run(['pull-1', '-n', 'op-events', '--dry-run=client'], client.store);
    assert.equal(c.code, 0, c.stderr);
    assert.deepEqual(client.patches, []);
    assert.match(c.stdout, /count 3 -> 4, .*\[dry run: client, nothing stored\]/);

    const server = memoryStore(pull());
    const s = await run(['pull-1', '-n', 'op-events', '--dry-run=server'], server.store);
    assert.equal(s.code, 0, s.stderr);
    assert.equal(server.patches[0]?.dryRun, true);
    assert.equal(server.stored().count, 3);
  });
});

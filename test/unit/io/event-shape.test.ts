import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { runCli } from '../../../src/cli.ts';
import { UsageError } from '../../../src/errors.ts';
import { firstNonEvent } from '../../../src/io/event-shape.ts';
import { ev, eventsV1 } from '../../support/builders.ts';
import { fakeDeps } from '../../support/deps.ts';
import { scratchDir } from '../../support/tmp.ts';

const dir = scratchDir('event-shape');
let serial = 0;

async function refusal(doc: unknown, verb: string[] = ['type-audit']): Promise<string> {
  serial += 1;
  const file = join(dir, `f-${serial}.json`);
  writeFileSync(file, typeof doc === 'string' ? doc : JSON.stringify(doc));
  const error = await runCli([...verb, '--from', file], fakeDeps().deps).then(
    (code) => assert.fail(`read as events, exit ${code}`),
    (e: unknown) => e,
  );
  assert.ok(error instanceof UsageError, String(error));
  return error.message.replace(file, 'FILE');
}

describe('firstNonEvent', () => {
  const cases: [string, unknown[], { position: number; what: string } | null][] = [
    ['core/v1 events from a list (no kind on items)', [{ involvedObject: {}, reason: 'A' }, ev()], null],
    ['events.k8s.io/v1 events', [eventsV1()], null],
    ['no items at all', [], null],
    ['numbers', [1, 2, 3], { position: 1, what: 'a number (1)' }],
    ['null after an event', [ev(), null], { position: 2, what: 'null' }],
    ['a ConfigMap', [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg' }, data: {} }], { position: 1, what: 'a ConfigMap "cfg"' }],
    ['a ConfigMap item without its kind', [{ metadata: { name: 'cfg' }, data: { a: '1' } }], { position: 1, what: 'an object "cfg" with no involvedObject, regarding, reason, message or note' }],
    ['an object of another group', [{ apiVersion: 'apps/v1', reason: 'x' }], { position: 1, what: 'an object of apps/v1' }],
    ['an array', [[ev()]], { position: 1, what: 'an array' }],
  ];
  for (const [name, items, want] of cases) test(name, () => assert.deepEqual(firstNonEvent(items), want));
});

describe('--from refuses what is not events, naming the first item that is not one', () => {
  const cases: [string, unknown, string][] = [
    ['[1,2,3]', [1, 2, 3], '--from FILE: item 1 is not an Event: a number (1)'],
    ['a ConfigMapList', { apiVersion: 'v1', kind: 'ConfigMapList', items: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kube-root-ca.crt' } }] }, '--from FILE: item 1 is not an Event: a ConfigMap "kube-root-ca.crt"'],
    ['{"items":[null,5]}', { items: [null, 5] }, '--from FILE: item 1 is not an Event: null'],
    ['a capture whose second event is a string', { kind: 'EvtimelineCapture', version: 1, core: [ev(), 'x'], eventsK8sIo: [] }, '--from FILE: item 2 is not an Event: a string ("x")'],
  ];
  for (const [name, doc, want] of cases) {
    test(`${name}: a usage error, not invented findings (type-audit used to exit 3)`, async () => assert.equal(await refusal(doc), want));
  }

  test('a record whose event is not one', async () => {
    const header = JSON.stringify({ kind: 'EvtimelineRecord', version: 1, context: 'c', server: 's', namespace: 'ns', filter: {}, startedAt: '2026-11-30T12:00:00Z' });
    const line = JSON.stringify({ observedAt: '2026-11-30T12:00:00Z', type: 'ADDED', event: { kind: 'Pod', metadata: { name: 'web', uid: 'u' } } });
    assert.equal(await refusal(`${header}\n${line}\n`, ['incident']), '--from FILE: item 1 is not an Event: a Pod "web"');
  });

  test('any list that mixes events with other JSON names the position of the first other item', async () => {
    const other = fc.oneof(fc.integer(), fc.string(), fc.constant(null), fc.array(fc.integer(), { maxLength: 2 }), fc.record({ kind: fc.constantFrom('Pod', 'ConfigMap'), data: fc.string() }));
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 4 }), other, async (events, item) => {
        const items = [...Array.from({ length: events }, (_, i) => ev({ name: `e-${i}` })), item, ev()];
        assert.match(await refusal({ items }), new RegExp(`^--from FILE: item ${events + 1} is not an Event: `));
      }),
      { numRuns: 50 },
    );
  });
});

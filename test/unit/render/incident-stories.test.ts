import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { normaliseEvent } from '../../../src/core/event.ts';
import { buildIncident } from '../../../src/core/incident.ts';
import type { IncidentContext } from '../../../src/core/incident.ts';
import { plainPalette } from '../../../src/render/color.ts';
import type { Palette } from '../../../src/render/color.ts';
import { familyBlock, familyBlockHeight } from '../../../src/render/incident-stories.ts';
import { ev, NOW } from '../../support/builders.ts';
import { fromCluster, fromStableTable } from '../../support/sources.ts';

// Colour wraps text but never breaks a line: the height must hold for a painted block too.
const painted: Palette = { ...plainPalette, bold: (t) => `\u001b[1m${t}\u001b[0m`, dim: (t) => `\u001b[2m${t}\u001b[0m` };

// Siblings (pod-N of one stem) or lone objects, each with a few reasons and messages; some text holds
// line breaks and controls, which the block escapes, so they never add a line.
const text = fc.constantFrom('Started container web', 'Back-off 5m0s restarting failed container web', 'line one\nline two', 'cr\rlf\u2028sep', '', 'OOM \u001b[31m 7');
const eventArb = fc.record({
  pod: fc.integer({ min: 0, max: 4 }),
  stem: fc.constantFrom('web', 'db', 'evil\nname'),
  reason: fc.constantFrom('BackOff', 'Pulled', 'Unhealthy', 'FailedMount', 'Scheduled', 'Odd\nReason', 'Started', 'Killing'),
  type: fc.constantFrom('Normal', 'Warning', 'Critical'),
  message: text,
  count: fc.integer({ min: 1, max: 4 }),
  first: fc.integer({ min: 1, max: 3000 }),
});

interface Spec {
  pod: number;
  stem: string;
  reason: string;
  type: string;
  message: string;
  count: number;
  first: number;
}

function incidentOf(specs: Spec[], ctx: IncidentContext) {
  const events = specs.map((s, i) =>
    normaliseEvent(
      ev({
        kind: 'Pod',
        apiVersion: 'v1',
        objectName: `${s.stem}-${s.pod}`,
        objectUid: `0b5e7a11-0000-4000-8000-${String(s.pod + (s.stem === 'web' ? 0 : s.stem === 'db' ? 10 : 20)).padStart(12, '0')}`,
        type: s.type,
        reason: s.reason,
        message: `${s.message} ${i % 3}`,
        count: s.count,
        first: s.first,
      }),
    ),
  );
  return buildIncident(events, ctx);
}

test('a family block is as many lines as its height says, whatever its lines, messages and text', () => {
  const contexts: IncidentContext[] = [
    { now: NOW, provenance: fromCluster(), eventTTLms: 3_600_000 },
    // A stable table carries no messages: each of a block's lines is one line.
    { now: NOW, provenance: fromStableTable(), eventTTLms: 3_600_000 },
  ];
  fc.assert(
    fc.property(fc.array(eventArb, { minLength: 1, maxLength: 60 }), fc.constantFrom(...contexts), fc.boolean(), (specs, ctx, absoluteTimes) => {
      const incident = { ...incidentOf(specs, ctx), absoluteTimes };
      for (const f of incident.families) {
        for (const palette of [plainPalette, painted]) {
          assert.equal(familyBlockHeight(f, incident), familyBlock(f, incident, palette).split('\n').length, familyBlock(f, incident, palette));
        }
      }
    }),
    { numRuns: 300 },
  );
});

test('a lone object with many reasons: its block shows six lines and says how many more, and its height counts that line', () => {
  const reasons = ['BackOff', 'Pulled', 'Unhealthy', 'FailedMount', 'Scheduled', 'Started', 'Killing', 'Created'];
  const specs = reasons.map((reason, i) => ({ pod: 0, stem: 'web', reason, type: 'Normal', message: 'Started container web', count: 1, first: 100 + i }));
  const incident = incidentOf(specs, { now: NOW, provenance: fromCluster(), eventTTLms: 3_600_000 });
  const f = incident.families[0];
  assert.ok(f !== undefined);
  const block = familyBlock(f, incident, plainPalette);
  assert.match(block, /and 2 more reasons like this\.$/);
  assert.equal(familyBlockHeight(f, incident), block.split('\n').length);
});

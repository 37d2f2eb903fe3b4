// bench:why's verdict is the median of the rounds' paired wall ratios (scripts/bench-measure.ts
// pairedOverhead), so one slow run of either side moves one ratio, not the verdict.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pairedOverhead, processCpuSeconds, type Measured, type Result } from '../../../scripts/bench-measure.ts';

const result = (walls: number[], cpus: number[] = walls.map(() => 0.1)): Result => {
  const runs: Measured[] = walls.map((w, i) => ({ wallSeconds: w, cpuSeconds: cpus[i] ?? 0, maxRssMiB: 100 }));
  return { name: 'x', wallSeconds: 0, cpuSeconds: 0, maxRssMiB: 0, wallRange: [0, 0], runs };
};

test('the median of the per-round ratios, its quartiles, and the rounds over the target', () => {
  const o = pairedOverhead(result([1.1, 2.4, 1.15, 1.05, 3.0], [0.3, 0.35, 0.3, 0.32, 0.4]), result([1.0, 2.0, 1.0, 1.0, 1.0], [0.25, 0.3, 0.25, 0.26, 0.3]), 0.2);
  assert.equal(o.rounds, 5);
  assert.ok(Math.abs(o.median - 0.15) < 1e-9, String(o.median));
  assert.ok(Math.abs(o.q1 - 0.1) < 1e-9 && Math.abs(o.q3 - 0.2) < 1e-9, `${o.q1} ${o.q3}`);
  assert.equal(o.over, 1, 'only the 3.0 s round is over 20% (2.4/2.0 is exactly 20%)');
  assert.ok(Math.abs(o.cpuSeconds - 0.05) < 1e-9, String(o.cpuSeconds));
});

test('one slow run moves one ratio, not the verdict, where the ratio of medians would cross the target', () => {
  // The second side's fast runs land on the first side's slow ones: medians 1.3 against 1.0 (+30%),
  // but every round but one is +10%.
  const a = result([1.1, 1.1, 1.3, 1.32, 1.35]);
  const b = result([1.0, 1.0, 1.18, 1.2, 0.6]);
  const o = pairedOverhead(a, b, 0.2);
  assert.ok(o.median <= 0.2, String(o.median));
  assert.equal(o.over, 1);
});

test('no rounds is an error, not a verdict', () => {
  assert.throws(() => pairedOverhead(result([]), result([]), 0.2), /no rounds/);
});

test('a process\'s CPU seconds are its utime and stime in ticks of 100 a second, counted after its name however odd', () => {
  const rest = 'S 1 2 3 0 -1 4194560 100 0 0 0 1234 56 0 0 20 0 12 0 500 1000 200';
  assert.equal(processCpuSeconds(`4242 (kube-apiserver) ${rest}`), 12.9);
  assert.equal(processCpuSeconds(`4242 (a (b) c) ${rest}\n`), 12.9);
  assert.throws(() => processCpuSeconds('4242 (short) S 1'), /not a \/proc\/PID\/stat line/);
});

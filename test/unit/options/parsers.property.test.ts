// Property tests of the parsers a user or a file feeds: durations and flags. Whatever the input,
// a parser answers with a value or a usage error, never a crash, never a value outside its range.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { runCli } from '../../../src/cli.ts';
import { MAX_DURATION_MS, parseDuration } from '../../../src/core/duration.ts';
import { RuntimeError, UsageError } from '../../../src/errors.ts';
import { labEvents } from '../../support/builders.ts';
import { fakeDeps } from '../../support/deps.ts';
import { scratchDir } from '../../support/tmp.ts';

const UNITS: [string, number][] = [
  ['ns', 1e-6],
  ['us', 1e-3],
  ['ms', 1],
  ['s', 1000],
  ['m', 60_000],
  ['h', 3_600_000],
  ['d', 86_400_000],
];

describe('parseDuration, for any text', () => {
  test('adds up any sequence of whole-number parts, as Go does', () => {
    const part = fc.tuple(fc.integer({ min: 0, max: 10_000 }), fc.constantFrom(...UNITS));
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 5 }), (parts) => {
        const text = parts.map(([n, [unit]]) => `${n}${unit}`).join('');
        const want = Math.round(parts.reduce((sum, [n, [, ms]]) => sum + n * ms, 0));
        return parseDuration(text) === want;
      }),
    );
  });

  test('answers null or a whole number of milliseconds within Go\'s range, and never throws', () => {
    const text = fc.oneof(fc.string(), fc.stringMatching(/^[0-9.]{0,25}(ns|us|ms|s|m|h|d|x)?([0-9.]{0,25}(s|m|h))?$/));
    fc.assert(
      fc.property(text, (t) => {
        const ms = parseDuration(t);
        return ms === null || (Number.isSafeInteger(ms) && ms >= 0 && ms <= MAX_DURATION_MS);
      }),
    );
  });
});

describe('flags, for any value', () => {
  const dir = scratchDir('flag-props');
  const lab = join(dir, 'lab.json');
  writeFileSync(lab, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: labEvents() }));

  const flags = ['--since', '--types', '--reason', '--for', '-n', '--request-timeout', '--color', '-o'];
  const verbs = [[], ['incident'], ['type-audit']];
  const value = fc.oneof(fc.string({ maxLength: 30 }), fc.stringMatching(/^[A-Za-z0-9./%-]{0,12}$/), fc.constantFrom('..', '.', 'a/b', '1000000000h', '-1s', 'Pod/', '/x', ''));

  test('a read verb over a saved file ends normally or with a usage error, never a crash', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...verbs), fc.constantFrom(...flags), value, async (verb, flag, v) => {
        const fake = fakeDeps();
        try {
          const code = await runCli([...verb, '--from', lab, `${flag}=${v}`], fake.deps);
          assert.ok([0, 3].includes(code), `exit ${code}`);
        } catch (error) {
          assert.ok(error instanceof UsageError, `${flag}=${JSON.stringify(v)}: ${String(error)}`);
        }
      }),
      { numRuns: 300 },
    );
  });

  test('aggregate-patch refuses any name or count the API could not hold before any request (no kubeconfig is ever read)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 20 }), fc.oneof(fc.string({ maxLength: 12 }), fc.bigInt({ min: -10n, max: 10n ** 12n }).map(String)), async (name, count) => {
        const fake = fakeDeps();
        // The name after `--` and the count joined to its flag: a generated "-h" is then a name to refuse, not a flag (help, exit 0).
        const error = await runCli(['aggregate-patch', '-n', 'ns', `--count=${count}`, '--', name], fake.deps).then(
          () => null,
          (e: unknown) => e,
        );
        // Either refused as usage, or valid enough to go looking for a kubeconfig (there is none here).
        assert.ok(error instanceof UsageError || (error instanceof RuntimeError && /no kubeconfig found/.test(error.message)), String(error));
        if (error instanceof RuntimeError) {
          assert.match(name, /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/);
          assert.ok(/^\d+$/.test(count) && Number(count) >= 1 && Number(count) <= 2147483647);
        }
      }),
      { numRuns: 300 },
    );
  });
});

// What start-up compiles (src/chunk.ts verbsModule): the built main script alone, copied without the
// verbs chunk, answers --version, --help, a verb's --help, completion of flags and commander's usage
// errors; only running a verb needs dist/verbs.cjs. With it beside, a verb's errors keep their
// exit codes: the chunk throws the main script's own error classes (scripts/shared-modules.mjs).
// Needs a prior `npm run build` (the bundle beside the executable in dist/).
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ev } from '../support/builders.ts';
import { scratchDir } from '../support/tmp.ts';

const DIST = join(import.meta.dirname, '..', '..', 'dist');
const dir = scratchDir('startup-chunks');
const alone = join(dir, 'alone');
const whole = join(dir, 'whole');
const events = join(dir, 'events.json');


/** The bundle (and, for `whole`, every chunk) copied into `to`, as `node` runs it from dist/. */
async function copyBuild(to: string, files: string[]): Promise<void> {
  await mkdir(to);
  for (const file of ['kubectl-evtimeline.cjs', 'package.json', ...files]) await copyFile(join(DIST, file), join(to, file));
}

before(async () => {
  await copyBuild(alone, []);
  await copyBuild(whole, ['verbs.cjs', 'yaml.cjs', 'client-node.cjs', 'otlp-transformer.cjs']);
  await writeFile(events, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [ev({ kind: 'Deployment', apiVersion: 'apps/v1', objectName: 'web', reason: 'ScalingReplicaSet', message: 'Scaled up replica set web-765889b7b5 from 0 to 1' })] }));
});

function run(folder: string, args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(folder, 'kubectl-evtimeline.cjs'), ...args], { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: dir, KUBECONFIG: join(dir, 'none') } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

for (const [name, args, code] of [
  ['--version', ['--version'], 0],
  ['--help', ['--help'], 0],
  ["a verb's --help", ['record', '--help'], 0],
  ['completion of flags', ['__complete', 'incident', '--no-'], 0],
  ['an unknown flag', ['--no-such-flag'], 2],
  ['a flag without its value', ['wait', '-n'], 2],
] as const) {
  test(`${name} runs without the verbs chunk, as with it`, () => {
    const without = run(alone, [...args]);
    assert.equal(without.code, code, without.stderr);
    assert.deepEqual(without, run(whole, [...args]));
  });
}

test('running a verb is what compiles the verbs chunk', () => {
  const without = run(alone, ['--from', events]);
  assert.equal(without.code, 1);
  assert.match(without.stderr, /verbs\.cjs/);
  const withIt = run(whole, ['--from', events]);
  assert.equal(withIt.code, 0, withIt.stderr);
  assert.match(withIt.stdout, /ScalingReplicaSet/);
});

test("a verb's usage error and a cluster error keep their exit codes: the chunk throws the main script's classes", () => {
  const usage = run(whole, ['--from', events, '-o', 'bogus']);
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /^error: -o "bogus": want one of /);
  const unknownVerb = run(whole, ['bogus-verb']);
  assert.equal(unknownVerb.code, 2);
  assert.match(unknownVerb.stderr, /^error: unknown verb "bogus-verb"/);
  const noKubeconfig = run(whole, ['incident']);
  assert.equal(noKubeconfig.code, 1);
  assert.equal(noKubeconfig.stderr, `error: no kubeconfig found: set KUBECONFIG, pass --kubeconfig, or create ~/.kube/config\n`);
});

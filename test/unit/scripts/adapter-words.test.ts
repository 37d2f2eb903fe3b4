// scripts/adapter-words.sh on a scratch repository: a sentence, a flag name or a UsageError raised
// under the adapters or the pure rooms fails it (exit 1, the line named); a typed error, a line
// marked as kubectl's wording and the same sentence under src/options pass (exit 0).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync, execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { scratchDir } from '../../support/tmp.ts';

const SCRIPT = resolve('scripts/adapter-words.sh');
const dir = scratchDir('adapter-words');

function check(files: Record<string, string>): { code: number | null; out: string } {
  const repo = join(dir, String(Math.random()).slice(2));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(repo, path, '..'), { recursive: true });
    writeFileSync(join(repo, path), text);
  }
  execFileSync('git', ['init', '-q', repo]);
  execFileSync('git', ['-C', repo, 'add', '.']);
  const run = spawnSync(SCRIPT, [repo], { encoding: 'utf8' });
  return { code: run.status, out: `${run.stdout}${run.stderr}` };
}

const TYPED = "throw new ClusterError({ kind: 'timed-out', server, ms });\n";

const PLANTED: [string, string, string][] = [
  ['an English sentence raised in kube', 'src/kube/http.ts', 'throw new RuntimeError(`request to ${server} timed out after ${ms} ms`);\n'],
  ['a flag name raised in io', 'src/io/file.ts', "throw new SavedFileError('pass --force');\n"],
  ['a UsageError in core', 'src/core/x.ts', "throw new UsageError('bad');\n"],
  ['a sentence raised in otlp', 'src/otlp/ship.ts', "throw new ShipError('the endpoint said no');\n"],
  ['a sentence raised in stores', 'src/stores/vl.ts', "throw new RuntimeError('the answer broke off');\n"],
  ['a sentence raised in render', 'src/render/x.ts', "throw new JsonPathError('this is wrong');\n"],
];

for (const [name, path, line] of PLANTED) {
  test(`fails on ${name}: exit 1, the file and line named`, () => {
    const r = check({ [path]: `${TYPED}${line}` });
    assert.equal(r.code, 1, r.out);
    assert.ok(r.out.startsWith(`${path}:2:`), r.out);
  });
}

test('passes a typed error, a line marked as kubectl\'s wording, a comment, and sentences where words belong (options, commands)', () => {
  const r = check({
    'src/kube/http.ts': `${TYPED}throw new JsonPathError('step must be > 0'); // kubectl's wording (client-go util/jsonpath/jsonpath.go:335)\n// throw new RuntimeError('a comment says it');\n`,
    'src/options/user-errors.ts': "throw new UsageError('--from x: no such file');\n",
    'src/commands/record.ts': "throw new RuntimeError('record never reached the server');\n",
  });
  assert.equal(r.code, 0, r.out);
});

test('passes on this repository', () => {
  const run = spawnSync(SCRIPT, [], { encoding: 'utf8' });
  assert.equal(run.status, 0, `${run.stdout}${run.stderr}`);
});

// The bundle's built-in modules load when first used (scripts/lazy-builtins.mjs): bundled with the
// plugin, a script that imports node:os and node:fs/promises (named, default and namespace imports)
// has loaded neither before it uses them, and then sees the real modules' values.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { EAGER_BUILTINS, lazyBuiltins } from '../../../scripts/lazy-builtins.mjs';

const ENTRY = `import { homedir, constants } from 'node:os';
import os from 'node:os';
import * as fsp from 'node:fs/promises';
import { join } from 'node:path';
const loaded = () => process.moduleLoadList.filter((m) => m === 'NativeModule os' || m === 'NativeModule fs/promises');
const before = loaded();
const real = process.getBuiltinModule('node:os');
const out = {
  before,
  homedir: homedir() === real.homedir(),
  sigint: constants.signals.SIGINT,
  defaultImport: os.EOL === real.EOL && os.platform() === real.platform(),
  namespaceImport: fsp.readFile === process.getBuiltinModule('node:fs/promises').readFile,
  join: join('a', 'b'),
  after: loaded().sort(),
};
process.stdout.write(JSON.stringify(out));
`;

test('node:os and node:fs/promises load on first use in the bundle, with the real values; node:path stays a plain require', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'evtimeline-lazy-'));
  try {
    await writeFile(join(dir, 'entry.mjs'), ENTRY);
    const outfile = join(dir, 'bundle.cjs');
    await build({ entryPoints: [join(dir, 'entry.mjs')], bundle: true, platform: 'node', format: 'cjs', outfile, logLevel: 'silent', plugins: [lazyBuiltins] });
    const text = await readFile(outfile, 'utf8');
    assert.doesNotMatch(text, /require\("node:os"\)/);
    assert.doesNotMatch(text, /require\("node:fs\/promises"\)/);
    assert.match(text, /require\("node:path"\)/);
    const out = JSON.parse(execFileSync(process.execPath, [outfile], { encoding: 'utf8' }));
    assert.deepEqual(out, {
      before: [],
      homedir: true,
      sigint: 2,
      defaultImport: true,
      namespaceImport: true,
      join: join('a', 'b'),
      after: ['NativeModule fs/promises', 'NativeModule os'],
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('the eager built-ins are ones Node has loaded by the time a script has printed a line', () => {
  const script = `process.stdout.write(JSON.stringify(process.moduleLoadList))`;
  const loaded = new Set(JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as string[]);
  // node:process is the process object itself, which no module loading creates.
  for (const name of [...EAGER_BUILTINS].filter((n) => n !== 'node:process')) {
    assert.ok(loaded.has(`NativeModule ${name.replace(/^node:/, '')}`), `${name} is not loaded by then`);
  }
});

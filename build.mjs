// Bundles src/ into one CommonJS file that `node dist/kubectl-evtimeline.cjs` runs.
// CommonJS because commander's bundled ESM output hits "Dynamic require of node:events".
import { build } from 'esbuild';
import { mkdir, writeFile, readFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';

const pkg = JSON.parse(await readFile(new URL('./package.json', import.meta.url), 'utf8'));

function gitCommit() {
  try {
    return execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
}

await mkdir('dist', { recursive: true });
// An extensionless or .js file under a "type": "module" package.json would load as ESM.
await writeFile('dist/package.json', '{ "type": "commonjs" }\n');
await build({
  entryPoints: ['src/main.ts'],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node24',
  outfile: 'dist/kubectl-evtimeline.cjs',
  legalComments: 'none',
  logLevel: 'warning',
  define: {
    __EVTIMELINE_VERSION__: JSON.stringify(pkg.version),
    __EVTIMELINE_COMMIT__: JSON.stringify(gitCommit()),
  },
});
console.log('built dist/kubectl-evtimeline.cjs');

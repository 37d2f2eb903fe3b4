// Bundles src/ into one CommonJS file that `node dist/kubectl-evtimeline.cjs` runs, then turns it into
// dist/kubectl-evtimeline, a single executable on the pinned Node runtime (see scripts/sea.mjs), with
// kubectl's completion helper dist/kubectl_complete-evtimeline beside it.
// CommonJS because commander's bundled ESM output hits "Dynamic require of node:events".
// `node build.mjs --bundle-only` stops after the bundle.
import { build, buildSync } from 'esbuild';
import { chmod, copyFile, mkdir, mkdtemp, rm, writeFile, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { execFileSync } from 'node:child_process';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lazyBuiltins } from './scripts/lazy-builtins.mjs';
import { bundlePageScript } from './src/render/page/script-bundle.ts';
import { CLIENT_NODE_CHUNK, OTLP_CHUNK, SEA_EXEC_ARGV, VERBS_CHUNK, YAML_CHUNK, buildSea, chunkAssets, pinnedNodeBinary } from './scripts/sea.mjs';
import { SHARED_PREFIX, bundledFiles, shareModules, writeSharedModules } from './scripts/shared-modules.mjs';

const pkg = JSON.parse(await readFile(new URL('./package.json', import.meta.url), 'utf8'));
const BUNDLE = 'dist/kubectl-evtimeline.cjs';
const EXECUTABLE = 'dist/kubectl-evtimeline';
const COMPLETION = 'dist/kubectl_complete-evtimeline';

// Modules that libraries require() inside try/catch and live without (ws: bufferutil,
// utf-8-validate; debug: supports-color). Left alone, esbuild keeps them as run-time require()
// calls, which a SEA cannot serve: its require() loads built-in modules only. Each becomes a
// module that throws, as those libraries expect. (client-node 1.x also had node-fetch's encoding.)
const OPTIONAL_MODULES = ['bufferutil', 'utf-8-validate', 'supports-color'];

const stubOptionalModules = {
  name: 'stub-optional-modules',
  setup(b) {
    const filter = new RegExp(`^(${OPTIONAL_MODULES.join('|')})$`);
    b.onResolve({ filter }, (args) => ({ path: args.path, namespace: 'optional-stub' }));
    b.onLoad({ filter: /.*/, namespace: 'optional-stub' }, (args) => ({
      loader: 'js',
      contents: `const e = new Error(${JSON.stringify(`optional module '${args.path}' is not part of kubectl-evtimeline`)});
e.code = 'MODULE_NOT_FOUND';
throw e;`,
    }));
  },
};

// client-node's config module imports undici (1.3 MiB) for its fetch-based API clients alone
// (KubeConfig.createDispatcher); we read kubeconfig and authenticate with it, and send requests
// with node:https. In the client-node script undici is a stub whose classes throw if ever used, so
// a cluster verb does not compile and initialise it.
const stubUndici = {
  name: 'stub-undici',
  setup(b) {
    b.onResolve({ filter: /^undici$/ }, () => ({ path: 'undici', namespace: 'undici-stub' }));
    b.onLoad({ filter: /.*/, namespace: 'undici-stub' }, () => ({
      loader: 'js',
      contents: `const unused = (name) => class { constructor() { throw new Error('undici ' + name + ' is not part of kubectl-evtimeline'); } };
export const Agent = unused('Agent');
export const ProxyAgent = unused('ProxyAgent');
export const fetch = () => { throw new Error('undici fetch is not part of kubectl-evtimeline'); };`,
    }));
  },
};

function gitCommit() {
  try {
    return execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
}

/**
 * The single executable can load nothing but built-in modules, and its code cache rules out
 * import(): fail the build, naming the module, if the bundle still reaches for anything else.
 */
function checkRuntimeImports(metafile, nodeBinary, file, shared = new Set()) {
  const builtins = new Set(JSON.parse(execFileSync(nodeBinary, ['-p', 'JSON.stringify(require("node:module").builtinModules)'], { encoding: 'utf8' })));
  const isBuiltin = (path) => builtins.has(path.replace(/^node:/, '')) || builtins.has(path);
  const problems = [];
  for (const output of Object.values(metafile.outputs)) {
    for (const { path, kind, external } of output.imports) {
      if (!external) continue;
      if (shared.has(path)) continue;
      if (kind === 'dynamic-import') problems.push(`import("${path}") (a SEA with a code cache cannot run import())`);
      else if (!isBuiltin(path)) problems.push(`require("${path}") of a module that is not built in: bundle it or add it to OPTIONAL_MODULES in build.mjs`);
    }
  }
  if (problems.length > 0) throw new Error(`${file} cannot run in a single executable:\n  ${problems.join('\n  ')}`);
}

/**
 * V8's code cache for a chunk, made by the pinned Node with the executable's V8 flags (V8 refuses a
 * cache made under other flags): compiled and run once, so the functions its start-up runs are in it.
 * `shared`: a CommonJS bundle of the main script's modules the chunk asks for (scripts/shared-modules.mjs).
 */
function writeCodeCache(chunk, nodeBinary, shared) {
  const make = `const fs = require('node:fs'), vm = require('node:vm');
const shared = ${shared ? `require(${JSON.stringify(resolve(shared))}).__EVTIMELINE_SHARED_MODULES__` : '{}'};
const load = (id) => (Object.hasOwn(shared, id) ? shared[id] : require(id));
const script = new vm.Script(fs.readFileSync(${JSON.stringify(chunk)}, 'utf8'), { filename: ${JSON.stringify(basename(chunk))} });
script.runInThisContext()({}, load, { exports: {} });
fs.writeFileSync(${JSON.stringify(`${chunk}.cache`)}, script.createCachedData());`;
  execFileSync(nodeBinary, [...SEA_EXEC_ARGV, '-e', make], { stdio: ['ignore', 'inherit', 'inherit'] });
}

const megabytes = async (path) => `${((await stat(path)).size / 1024 / 1024).toFixed(1)} MiB`;
const seconds = (since) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

let started = performance.now();
await mkdir('dist', { recursive: true });
// An extensionless or .js file under a "type": "module" package.json would load as ESM.
await writeFile('dist/package.json', '{ "type": "commonjs" }\n');
const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node26',
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
  plugins: [stubOptionalModules, lazyBuiltins],
};
// The -o html page's script, bundled from its modules and carried in the bundle as a string.
const pageScript = bundlePageScript({ buildSync }, fileURLToPath(new URL('.', import.meta.url)));
// Scripts only some runs need, each compiled on first use (src/chunk.ts): the constant names the
// file for the bundle (esbuild define).
const CHUNKS = [
  { file: CLIENT_NODE_CHUNK, entry: 'node_modules/@kubernetes/client-node/dist/config.js', constant: '__EVTIMELINE_CLIENT_NODE_CHUNK__', plugins: [stubOptionalModules, stubUndici] },
  { file: YAML_CHUNK, entry: 'node_modules/yaml/dist/index.js', constant: '__EVTIMELINE_YAML_CHUNK__', plugins: [stubOptionalModules] },
  // The OTLP logs serializers (src/otlp/transformer.ts), compiled only by export and record --otlp.
  { file: OTLP_CHUNK, entry: 'src/otlp/transformer.ts', constant: '__EVTIMELINE_OTLP_CHUNK__', plugins: [stubOptionalModules] },
  // The verbs and their adapters (src/verbs.ts): everything but the wiring --version, --help,
  // completion and a usage error need. It shares the main script's modules (scripts/shared-modules.mjs).
  { file: VERBS_CHUNK, entry: 'src/verbs.ts', constant: '__EVTIMELINE_VERBS_CHUNK__', shares: true },
];
const define = {
  __EVTIMELINE_VERSION__: JSON.stringify(pkg.version),
  __EVTIMELINE_COMMIT__: JSON.stringify(gitCommit()),
  __EVTIMELINE_PAGE_SCRIPT__: JSON.stringify(pageScript),
  ...Object.fromEntries(CHUNKS.map((c) => [c.constant, JSON.stringify(c.file)])),
  // Only src/chunk.ts's from-source path reads it, which the constants above make dead code here.
  'import.meta.url': JSON.stringify('file:///not-in-the-bundle'),
};
const work = await mkdtemp(join(tmpdir(), 'evtimeline-build-'));
const sharedModules = join(work, 'shared-modules.mjs');
const main = { ...common, entryPoints: ['src/main.ts'], outfile: BUNDLE, define, inject: [sharedModules] };
// Which files the main script holds, before it hands any to the verbs chunk.
await writeSharedModules(sharedModules, []);
const mainFiles = bundledFiles((await build({ ...main, write: false })).metafile);
const shared = new Set();
const chunks = [];
for (const c of CHUNKS) {
  const path = `dist/${c.file}`;
  const result = await build({
    ...common,
    entryPoints: [c.entry],
    ...(c.shares ? { plugins: [shareModules(mainFiles, shared), ...common.plugins], define } : { plugins: c.plugins }),
    // src/chunk.ts compiles the file as one function expression, the way Node wraps a module.
    banner: { js: '(function (exports, require, module) {' },
    footer: { js: '})' },
    outfile: path,
  });
  chunks.push({ ...c, path, metafile: result.metafile });
}
await writeSharedModules(sharedModules, shared);
const { metafile } = await build(main);
const sizes = await Promise.all([BUNDLE, ...chunks.map((c) => c.path)].map(async (p) => `${p} (${await megabytes(p)})`));
console.log(`built ${sizes.join(', ')} (the -o html page's script: ${(pageScript.length / 1024).toFixed(1)} KiB) in ${seconds(started)}`);

if (!process.argv.includes('--bundle-only')) {
  started = performance.now();
  const node = pinnedNodeBinary();
  checkRuntimeImports(metafile, node.binary, BUNDLE);
  // The shared modules on their own, for the verbs chunk's code cache to run it.
  const sharedBundle = join(work, 'shared-modules.cjs');
  await build({ ...common, entryPoints: [sharedModules], outfile: sharedBundle, define });
  const sharedIds = new Set([...shared].map((path) => `${SHARED_PREFIX}${path}`));
  for (const c of chunks) {
    checkRuntimeImports(c.metafile, node.binary, c.path, c.shares ? sharedIds : undefined);
    writeCodeCache(c.path, node.binary, c.shares ? sharedBundle : undefined);
  }
  const assets = chunkAssets('dist', { codeCache: true });
  await buildSea({ bundle: BUNDLE, assets, output: EXECUTABLE, nodeBinary: node.binary });
  await copyFile('scripts/kubectl_complete-evtimeline', COMPLETION);
  await chmod(COMPLETION, 0o755);
  console.log(`built ${EXECUTABLE} (node ${node.version}, ${await megabytes(EXECUTABLE)}, ${seconds(started)}) and ${COMPLETION}`);
}
await rm(work, { recursive: true, force: true });

// Counts the import graph of src/: rooms, arrows between rooms, the longest chain of files, file
// circles, and imports against the layering (the rooms each room may import, as the README's Layout
// section writes them). Exit 1 when there is a circle or an import against the layering.
// Usage: node scripts/layers.mjs [--list] (--list: every arrow between rooms, and the longest chain)
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { dirname, join, normalize, relative } from 'node:path';

const files = execFileSync('git', ['ls-files', 'src/*.ts', 'src/**/*.ts'], { encoding: 'utf8' }).split('\n').filter(Boolean);
const known = new Set(files);
/** The room a file lives in: its folder under src/, or its own name for a file at the top. */
const room = (f) => {
  const parts = relative('src', f).split('/');
  return parts.length > 1 ? parts[0] : parts[0].replace(/\.ts$/, '.ts');
};

const edges = new Map();
for (const f of files) {
  const text = readFileSync(f, 'utf8');
  const targets = new Set();
  for (const m of text.matchAll(/(?:from\s+|import\(\s*)'(\.{1,2}\/[^']+)'/g)) {
    const target = normalize(join(dirname(f), m[1]));
    if (known.has(target)) targets.add(target);
  }
  edges.set(f, [...targets]);
}

// Tarjan's strongly connected components: a component of more than one file is a circle.
let index = 0;
const stack = [];
const meta = new Map();
const components = [];
function connect(v) {
  meta.set(v, { index, low: index, on: true });
  index++;
  stack.push(v);
  for (const w of edges.get(v)) {
    if (!meta.has(w)) { connect(w); meta.get(v).low = Math.min(meta.get(v).low, meta.get(w).low); }
    else if (meta.get(w).on) meta.get(v).low = Math.min(meta.get(v).low, meta.get(w).index);
  }
  if (meta.get(v).low === meta.get(v).index) {
    const c = [];
    let w;
    do { w = stack.pop(); meta.get(w).on = false; c.push(w); } while (w !== v);
    components.push(c);
  }
}
for (const f of files) if (!meta.has(f)) connect(f);
const circles = components.filter((c) => c.length > 1 || edges.get(c[0]).includes(c[0]));

// Longest chain of files (in the graph with each circle taken as one node).
const compOf = new Map();
components.forEach((c, i) => c.forEach((f) => compOf.set(f, i)));
const memo = new Map();
function longest(i) {
  if (memo.has(i)) return memo.get(i);
  memo.set(i, [components[i][0]]);
  let best = [];
  for (const f of components[i]) for (const w of edges.get(f)) {
    const j = compOf.get(w);
    if (j !== i) { const p = longest(j); if (p.length > best.length) best = p; }
  }
  const path = [components[i][0], ...best];
  memo.set(i, path);
  return path;
}
let chain = [];
components.forEach((_, i) => { const p = longest(i); if (p.length > chain.length) chain = p; });

const arrows = new Map();
for (const [f, ts] of edges) for (const t of ts) {
  const a = room(f), b = room(t);
  if (a !== b) arrows.set(`${a} -> ${b}`, (arrows.get(`${a} -> ${b}`) ?? 0) + 1);
}

// The rooms each room may import (besides itself), as the README's Layout section writes them.
// errors.ts, version.ts and chunk.ts are the kernel every room but core may use.
const KERNEL = ['errors.ts', 'version.ts', 'chunk.ts'];
const ALLOWED = {
  core: [],
  render: ['core', ...KERNEL],
  io: ['core', ...KERNEL],
  kube: ['core', 'io', 'render', ...KERNEL],
  otlp: ['core', 'io', ...KERNEL],
  stores: ['core', 'io', 'otlp', ...KERNEL],
  options: ['core', 'render', 'io', 'kube', 'otlp', 'stores', ...KERNEL],
  'deps.ts': ['core', 'options'],
  app: ['core', 'render', 'options', 'deps.ts', ...KERNEL],
  commands: ['app', 'options', 'core', 'render', 'io', 'otlp', 'deps.ts', ...KERNEL],
  'system.ts': ['core', 'render', 'io', 'kube', 'otlp', 'stores', 'options', 'deps.ts', ...KERNEL],
  'verbs.ts': ['commands', 'options', 'kube', 'system.ts', 'deps.ts', ...KERNEL],
  'verbs-chunk.ts': ['verbs.ts', ...KERNEL],
  'cli.ts': ['commands', 'options', 'deps.ts', 'verbs-chunk.ts', ...KERNEL],
  'process-deps.ts': ['core', 'io', 'deps.ts', 'verbs-chunk.ts', ...KERNEL],
  'main.ts': ['cli.ts', 'process-deps.ts', 'render', 'io', ...KERNEL],
  'errors.ts': [],
  'version.ts': [],
  'chunk.ts': [],
};
// Files of a room another may import only those of (kube raises errors in render's words, nothing else of render).
const ONLY = { 'kube -> render': ['src/render/cluster-words.ts'] };
const against = [];
for (const [f, ts] of edges) for (const t of ts) {
  const a = room(f), b = room(t);
  const only = ONLY[`${a} -> ${b}`];
  if (a !== b && (!(ALLOWED[a] ?? []).includes(b) || (only !== undefined && !only.includes(t)))) against.push(`${f} -> ${t}`);
}
const unknownRooms = [...new Set(files.map(room))].filter((r) => !(r in ALLOWED));

const rooms = new Set(files.map(room));
console.log(`files ${files.length}, rooms ${rooms.size} (${[...rooms].sort().join(' ')}), arrows ${arrows.size}, longest chain ${chain.length} files, circles ${circles.length}, imports against the layering ${against.length}`);
if (process.argv.includes('--list')) {
  for (const [a, n] of [...arrows].sort()) console.log(`  ${a} (${n})`);
  console.log(`  chain: ${chain.join(' -> ')}`);
}
for (const c of circles) console.log(`circle: ${c.join(' <-> ')}`);
for (const a of against) console.log(`against the layering: ${a}`);
for (const r of unknownRooms) console.log(`a room the layering does not name: ${r}`);
if (circles.length > 0 || against.length > 0 || unknownRooms.length > 0) process.exit(1);

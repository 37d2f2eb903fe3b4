// The esbuild plugin that makes the bundle's built-in modules load when first used, not when it
// starts: node:fs/promises alone loaded readline's interface and the REPL history, and commander's
// node:child_process (for executable subcommands, which this program has none of) brought node:net
// and more, for --version, --help, --from and completion, which use none of them.
//
// Every `node:` import but those Node has loaded by the time a script has printed its first line
// (EAGER_BUILTINS: the bootstrap's, and the streams behind process.stdout) becomes an
// object that loads the module on first use (process.getBuiltinModule), so a run pays for what it
// uses and a new import cannot slow every start-up down. esbuild hands a CommonJS module to an ESM
// import through __toESM, which copies every property name the module lists: the object lists the
// module's names (read here, from the Node that builds: the pinned one, the executable's) and reads
// a property from the module only when the property is used; named imports are read where used.
// require() calls are left alone (a CommonJS library destructures what it requires at once anyway).

export const EAGER_BUILTINS = new Set(['node:buffer', 'node:events', 'node:fs', 'node:path', 'node:process', 'node:stream',
  'node:string_decoder', 'node:timers', 'node:url', 'node:util']);

/** The module an import of the built-in `name` becomes. */
function lazyModule(name) {
  return `let loaded;
const load = () => (loaded ??= process.getBuiltinModule(${JSON.stringify(name)}));
const names = ${JSON.stringify(Object.keys(process.getBuiltinModule(name)))};
module.exports = new Proxy({}, {
  get: (_, key) => load()[key],
  has: (_, key) => key in load(),
  ownKeys: () => [...names],
  getOwnPropertyDescriptor: (_, key) =>
    names.includes(key) ? { value: undefined, writable: true, enumerable: true, configurable: true } : undefined,
});`;
}

export const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(build) {
    build.onResolve({ filter: /^node:/ }, (args) =>
      EAGER_BUILTINS.has(args.path) || args.kind === 'require-call' || !process.getBuiltinModule(args.path)
        ? undefined
        : { path: args.path, namespace: 'lazy-builtin' });
    build.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => ({ loader: 'js', contents: lazyModule(args.path) }));
  },
};

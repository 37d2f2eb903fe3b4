// Flags anywhere (src/options/argv.ts): pflag's readings, the verb found by name, values never verbs.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { commanderArgv, flagTable, scanArgv } from '../../../src/options/argv.ts';
import { ALL_FLAGS } from '../../../src/options/flags.ts';
import { VERBS } from '../../../src/options/verbs.ts';

const table = flagTable(ALL_FLAGS);
const scan = (argv: string[]) => scanArgv(argv, VERBS, table);

describe('scanArgv', () => {
  const cases: [string, string[], { verb: string | null; flags: string[]; args: string[] }][] = [
    ['a verb after its own flags', ['-n', 'ns', '--for', 'deploy/web', '--tree', 'incident'], { verb: 'incident', flags: ['--namespace=ns', '--for=deploy/web', '--tree'], args: [] }],
    ['a value that names a verb, as --for incident/x', ['--for', 'incident/x'], { verb: null, flags: ['--for=incident/x'], args: [] }],
    ['-n incident: a namespace called incident', ['-n', 'incident', 'timeline'], { verb: 'timeline', flags: ['--namespace=incident'], args: [] }],
    ['-n=ns and -nns as pflag reads them', ['-n=a', '-nb'], { verb: null, flags: ['--namespace=a', '--namespace=b'], args: [] }],
    ['switches in one word', ['-Aw'], { verb: null, flags: ['--all-namespaces', '--watch'], args: [] }],
    ['switches then a value flag in one word', ['-Ao', 'json'], { verb: null, flags: ['--all-namespaces', '--output=json'], args: [] }],
    ['a boolean flag never takes the next word', ['--insecure-skip-tls-verify', 'incident'], { verb: 'incident', flags: ['--insecure-skip-tls-verify'], args: [] }],
    ['a boolean flag with =false', ['--allow-missing-template-keys=false'], { verb: null, flags: ['--allow-missing-template-keys=false'], args: [] }],
    ["a verb's argument before the verb", ['build-1-started', '--count', '5', 'aggregate-patch'], { verb: 'aggregate-patch', flags: ['--count=5'], args: ['build-1-started'] }],
    ['the first verb named wins; a later one is an argument', ['aggregate-patch', 'incident'], { verb: 'aggregate-patch', flags: [], args: ['incident'] }],
    ['words after -- are arguments, never verbs or flags', ['capture', '--', '-odd', 'incident'], { verb: 'capture', flags: [], args: ['-odd', 'incident'] }],
    ['a value flag at the end with no value', ['--for'], { verb: null, flags: ['--for'], args: [] }],
    ['an unknown flag kept as written for commander to name', ['--bogus', 'x'], { verb: null, flags: ['--bogus'], args: ['x'] }],
  ];
  for (const [name, argv, want] of cases) {
    test(`reads ${name}: ${argv.join(' ')}`, () => {
      const s = scan(argv);
      assert.deepEqual({ verb: s.verb, flags: s.flags, args: s.args }, want);
    });
  }

  test('reads help VERB and -h as help', () => {
    assert.deepEqual([scan(['help', 'record']).help, scan(['help', 'record']).verb], [true, 'record']);
    assert.deepEqual([scan(['capture', '-h']).help, scan(['capture', '-h']).verb], [true, 'capture']);
    assert.equal(scan(['--for', 'help/x']).help, false);
  });

  test('gives commander the verb, the flags, then -- and the arguments', () => {
    assert.deepEqual(commanderArgv(scan(['x', '-n', 'ns', 'capture']), 'timeline'), ['capture', '--namespace=ns', '--', 'x']);
    assert.deepEqual(commanderArgv(scan(['-A']), 'timeline'), ['timeline', '--all-namespaces']);
  });

  test('knows every flag name once across verbs, with one arity', () => {
    const seen = new Map<string, boolean>();
    for (const f of ALL_FLAGS) {
      for (const name of [f.long, f.short].filter((n): n is string => n !== undefined)) {
        const takes = f.value !== undefined && f.bool !== true;
        assert.equal(seen.get(name) ?? takes, takes, name);
        seen.set(name, takes);
      }
    }
  });
});

// A unit is a flag with its value as the user may write it (one word or two), or the verb, or an argument.
const valueFlags = ALL_FLAGS.filter((f) => f.value !== undefined && f.bool !== true);
const switches = ALL_FLAGS.filter((f) => f.value === undefined);
const word = fc.oneof(fc.constantFrom(...VERBS, 'help', 'x/y', '-', '--'), fc.stringMatching(/^[a-z][a-z0-9./-]{0,12}$/));

const unit = fc.oneof(
  fc.record({ f: fc.constantFrom(...valueFlags), v: word, form: fc.constantFrom('two', 'eq', 'short') }).map(({ f, v, form }) => {
    const name = form === 'short' && f.short ? f.short : f.long;
    return { words: form === 'eq' ? [`${name}=${v}`] : [name, v], flag: `${f.long}=${v}` };
  }),
  fc.constantFrom(...switches).map((f) => ({ words: [f.short ?? f.long], flag: f.long })),
);

describe('flags anywhere: a property over permutations', () => {
  test('finds the same verb and the same flags whatever the order of flags and verb', () => {
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 6 }), fc.constantFrom(...VERBS), fc.nat(), fc.nat(), (units, verb, at, seed) => {
        const place = at % (units.length + 1);
        const shuffled = [...units].sort((a, b) => ((a.flag.length * 31 + seed) % 7) - ((b.flag.length * 31 + seed) % 7));
        const first = [...units.slice(0, place).flatMap((u) => u.words), verb, ...units.slice(place).flatMap((u) => u.words)];
        const second = [verb, ...shuffled.flatMap((u) => u.words)];
        const a = scan(first);
        const b = scan(second);
        assert.equal(a.verb, verb);
        assert.equal(b.verb, verb);
        // a value that is a verb's name, or `help`, never became the verb or asked for help
        assert.equal(a.help, false);
        assert.deepEqual([...a.flags].sort(), units.map((u) => u.flag).sort());
        assert.deepEqual([...a.flags].sort(), [...b.flags].sort());
        assert.deepEqual(a.args, []);
      }),
      { numRuns: 500 },
    );
  });
});

// Commander wiring: declares the verbs and flags, turns raw options into typed ones, and runs the verb.
// Program-level flags are recognised before and after the verb, because kubectl hands a plugin
// everything after its name: `kubectl evtimeline -n ns incident` and `... incident -n ns` both work.
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import type { Deps } from './deps.ts';
import { EXIT, UsageError } from './errors.ts';
import type { CommandResult } from './errors.ts';
import { runComplete } from './commands/complete.ts';
import { verbsModule } from './verbs-chunk.ts';
import { VERBS } from './options/verbs.ts';
import type { Verb } from './options/verbs.ts';
import { ALL_FLAGS, commanderFlags, GLOBAL_FLAGS, VERB_FLAGS } from './options/flags.ts';
import { commanderArgv, flagTable, scanArgv } from './options/argv.ts';
import { programHelpText, VERB_HELP, verbHelpText } from './options/help.ts';
import type { FlagSpec } from './options/flags.ts';
import type { RawOptions } from './options/raw.ts';
import { versionText } from './version.ts';

/** A declared flag (src/options/flags.ts) as a commander Option. */
function toOption(f: FlagSpec): Option {
  const option = new Option(commanderFlags(f), f.description);
  if (f.choices) option.choices(f.choices);
  if (f.default !== undefined) option.default(f.default);
  if (f.repeatable) option.argParser(collect);
  if (f.bool) option.argParser(parseBool);
  return option;
}

/** kubectl's boolean flags: --flag, --flag=true, --flag=false. */
function parseBool(value: string | undefined): boolean {
  if (value === undefined || value === 'true') return true;
  if (value === 'false') return false;
  throw new InvalidArgumentError('want true or false');
}

/** The verb's declared flags, in declaration order. */
function addFlags(command: Command, flags: readonly FlagSpec[]): Command {
  for (const f of flags) command.addOption(toOption(f));
  return command;
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** A verb as the program declares it: its argument, if it takes one. Running it is src/verbs.ts's. */
interface VerbEntry {
  argument?: { name: string; description: string };
}

/** Every verb, in the order commander declares them; timeline is the default. */
const VERB_TABLE: { [V in Verb]: VerbEntry } = {
  timeline: {},
  incident: {},
  'type-audit': {},
  'aggregate-patch': { argument: { name: '<name>', description: 'the event name' } },
  capture: { argument: { name: '<dir>', description: 'the folder to create' } },
  export: {},
  wait: { argument: { name: '<type/name>', description: 'the object to wait for, e.g. deployment/web' } },
  record: { argument: { name: '<file>', description: 'the record to append to (resumed if it exists)' } },
};

/** Runs a parsed verb: the verbs' code is compiled now, not before the first line of --help. */
async function runVerb(verb: Verb, words: string[], raw: RawOptions, deps: Deps): Promise<CommandResult> {
  // A word that is not a verb lands in timeline: reported as an unknown verb, not as "too many arguments".
  const [word] = words;
  if (verb === 'timeline' && word !== undefined) throw new UsageError(`unknown verb "${word}": want one of ${VERBS.join(', ')} (see --help)`);
  return (await verbsModule()).runVerb(verb, word ?? '', raw, deps);
}

/** Builds the program from the verb table; each action stores its verb's result for runCli to return. */
function buildProgram(deps: Deps, done: (result: Promise<CommandResult>) => void): Command {
  // Named as users type it: kubectl runs kubectl-evtimeline for `kubectl evtimeline`.
  const program = new Command('kubectl evtimeline');
  program
    .usage('[verb] [flags]')
    .configureHelp({ showGlobalOptions: true })
    .description('Kubernetes Events as a timeline, an incident account, a type audit, and a record that outlives the TTL.')
    .version(versionText(), '--version', 'print the version, git commit and Node.js runtime')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => deps.stdout.write(text),
      writeErr: (text) => deps.stderr.write(text),
      // main.ts prints the one-line error.
      outputError: () => {},
    });
  addFlags(program, GLOBAL_FLAGS);
  for (const [name, entry] of Object.entries(VERB_TABLE) as [Verb, VerbEntry][]) {
    const command = addFlags(program.command(name, { isDefault: name === 'timeline' }), VERB_FLAGS[name]).description(VERB_HELP[name]?.short ?? '');
    if (entry.argument) command.argument(entry.argument.name, entry.argument.description);
    else if (name === 'timeline') command.allowExcessArguments(true);
    command.action((...args: unknown[]) => {
      const cmd = args.at(-1) as Command;
      done(runVerb(name, cmd.args, cmd.optsWithGlobals(), deps));
    });
  }
  return program;
}

/** Parses argv and runs one verb. Commander's usage errors become UsageError (exit 2). */
export async function runCli(argv: string[], deps: Deps): Promise<number> {
  // kubectl completes a plugin's arguments by running kubectl_complete-evtimeline with the words
  // typed so far, which calls this. The words are not parsed as flags: they are what to complete.
  if (argv[0] === '__complete') return (await runComplete(argv.slice(1), deps)).exitCode;
  // `--version` alone prints what commander would print, without building the program first: its
  // seven verbs and their flags are most of what the plugin does before its first line.
  if (argv.length === 1 && argv[0] === '--version') {
    deps.stdout.write(`${versionText()}\n`);
    return EXIT.ok;
  }
  // Flags anywhere, as kubectl takes them: the verb found by name, never in a flag's value.
  const scanned = scanArgv(argv, VERBS, flagTable(ALL_FLAGS));
  if (scanned.flags.includes('--version')) {
    deps.stdout.write(`${versionText()}\n`);
    return EXIT.ok;
  }
  if (scanned.help) {
    const verb = scanned.verb as Verb | null;
    deps.stdout.write(verb === null ? programHelpText(VERBS, GLOBAL_FLAGS) : verbHelpText(verb, GLOBAL_FLAGS, VERB_FLAGS[verb]));
    return EXIT.ok;
  }
  let result: Promise<CommandResult> | undefined;
  const program = buildProgram(deps, (r) => (result = r));
  try {
    await program.parseAsync(commanderArgv(scanned, 'timeline'), { from: 'user' });
    return result ? (await result).exitCode : EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return EXIT.ok; // --help, --version
      throw new UsageError(error.message.replace(/^error: /, ''));
    }
    throw error;
  }
}

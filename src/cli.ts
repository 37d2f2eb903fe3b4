// Commander wiring: declares the verbs and flags, turns raw options into typed ones, and runs the verb.
// Program-level flags are recognised before and after the verb, because kubectl hands a plugin
// everything after its name: `kubectl evtimeline -n ns incident` and `... incident -n ns` both work.
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import type { Deps } from './deps.ts';
import { EXIT, UsageError } from './errors.ts';
import type { CommandResult } from './errors.ts';
import { parseAggregateOptions, runAggregatePatch } from './commands/aggregate-patch.ts';
import { parseCaptureOptions, runCapture } from './commands/capture.ts';
import { parseExportOptions, runExport } from './commands/export.ts';
import { runComplete } from './commands/complete.ts';
import { parseIncidentOptions, runIncident } from './commands/incident.ts';
import { parseRecordOptions, runRecord } from './commands/record.ts';
import { parseTimelineOptions, runTimeline } from './commands/timeline.ts';
import { parseTypeAuditOptions, runTypeAudit } from './commands/type-audit.ts';
import { parseWaitOptions, runWait } from './commands/wait.ts';
import { inUserWords } from './options/user-errors.ts';
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

/** A verb as the program runs it: its argument, if it takes one, and parse then run. */
interface VerbEntry {
  argument?: { name: string; description: string };
  run(words: string[], raw: RawOptions, deps: Deps): Promise<CommandResult>;
}

/** Every verb, in the order commander declares them; timeline is the default. */
const VERB_TABLE: { [V in Verb]: VerbEntry } = {
  timeline: {
    run: ([word], raw, deps) => {
      // A word that is not a verb lands here: reported as an unknown verb, not as "too many arguments".
      if (word !== undefined) throw new UsageError(`unknown verb "${word}": want one of ${VERBS.join(', ')} (see --help)`);
      return runTimeline(parseTimelineOptions(raw), deps);
    },
  },
  incident: { run: (_words, raw, deps) => runIncident(parseIncidentOptions(raw), deps) },
  'type-audit': { run: (_words, raw, deps) => runTypeAudit(parseTypeAuditOptions(raw), deps) },
  'aggregate-patch': {
    argument: { name: '<name>', description: 'the event name' },
    run: ([name], raw, deps) => runAggregatePatch(parseAggregateOptions(name ?? '', raw), deps),
  },
  capture: {
    argument: { name: '<dir>', description: 'the folder to create' },
    run: ([dir], raw, deps) => runCapture(parseCaptureOptions(dir ?? '', raw), deps),
  },
  export: { run: (_words, raw, deps) => runExport(parseExportOptions(raw), deps) },
  wait: {
    argument: { name: '<type/name>', description: 'the object to wait for, e.g. deployment/web' },
    run: ([object], raw, deps) => runWait(parseWaitOptions(object ?? '', raw), deps),
  },
  record: {
    argument: { name: '<file>', description: 'the record to append to (resumed if it exists)' },
    run: ([file], raw, deps) => runRecord(parseRecordOptions(file ?? '', raw), deps),
  },
};

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
      done(entry.run(cmd.args, cmd.optsWithGlobals(), deps));
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
    throw inUserWords(error);
  }
}

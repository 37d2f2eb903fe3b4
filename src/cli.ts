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
import { inUserWords } from './options/user-errors.ts';
import { VERBS } from './options/verbs.ts';
import type { Verb } from './options/verbs.ts';
import { ALL_FLAGS, commanderFlags, GLOBAL_FLAGS, VERB_FLAGS } from './options/flags.ts';
import { commanderArgv, flagTable, scanArgv } from './options/argv.ts';
import { programHelpText, VERB_HELP, verbHelpText } from './options/help.ts';
import type { FlagSpec } from './options/flags.ts';
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

function verb(program: Command, name: Verb, opts?: { isDefault: boolean }): Command {
  return program.command(name, opts);
}

/** Builds the program; each action stores its verb's result for runCli to return. */
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

  addFlags(verb(program, 'timeline', { isDefault: true }), VERB_FLAGS.timeline)
    .description(VERB_HELP['timeline']?.short ?? '')
    // A word that is not a verb lands here: reported as an unknown verb, not as "too many arguments".
    .allowExcessArguments(true)
    .action((_o, cmd: Command) => {
      const [word] = cmd.args;
      if (word !== undefined) throw new UsageError(`unknown verb "${word}": want one of ${VERBS.join(', ')} (see --help)`);
      done(runTimeline(parseTimelineOptions(cmd.optsWithGlobals()), deps));
    });

  addFlags(verb(program, 'incident'), VERB_FLAGS.incident)
    .description(VERB_HELP['incident']?.short ?? '')
    .action((_o, cmd: Command) => done(runIncident(parseIncidentOptions(cmd.optsWithGlobals()), deps)));

  addFlags(verb(program, 'type-audit'), VERB_FLAGS['type-audit'])
    .description(VERB_HELP['type-audit']?.short ?? '')
    .action((_o, cmd: Command) => done(runTypeAudit(parseTypeAuditOptions(cmd.optsWithGlobals()), deps)));

  addFlags(verb(program, 'aggregate-patch'), VERB_FLAGS['aggregate-patch'])
    .description(VERB_HELP['aggregate-patch']?.short ?? '')
    .argument('<name>', 'the event name')
    .action((name: string, _o, cmd: Command) =>
      done(runAggregatePatch(parseAggregateOptions(name, cmd.optsWithGlobals()), deps)),
    );

  addFlags(verb(program, 'capture'), VERB_FLAGS.capture)
    .description(VERB_HELP['capture']?.short ?? '')
    .argument('<dir>', 'the folder to create')
    .action((dir: string, _o, cmd: Command) => done(runCapture(parseCaptureOptions(dir, cmd.optsWithGlobals()), deps)));

  addFlags(verb(program, 'export'), VERB_FLAGS.export)
    .description(VERB_HELP['export']?.short ?? '')
    .action((_o, cmd: Command) => done(runExport(parseExportOptions(cmd.optsWithGlobals()), deps)));

  addFlags(verb(program, 'record'), VERB_FLAGS.record)
    .description(VERB_HELP['record']?.short ?? '')
    .argument('<file>', 'the record to append to (resumed if it exists)')
    .action((file: string, _o, cmd: Command) => done(runRecord(parseRecordOptions(file, cmd.optsWithGlobals()), deps)));

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

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
import { commanderFlags, GLOBAL_FLAGS, VERB_FLAGS } from './options/flags.ts';
import type { FlagSpec } from './options/flags.ts';
import { versionText } from './version.ts';

function examples(lines: string[]): string {
  return `\nExamples:\n${lines.map((line) => `  ${line}`).join('\n')}\n`;
}

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
    .description('the story of a namespace in time order (the default verb)')
    // A word that is not a verb lands here: reported as an unknown verb, not as "too many arguments".
    .allowExcessArguments(true)
    .addHelpText('after', examples([
      'kubectl evtimeline -n op-events',
      'kubectl evtimeline -n op-events -o stable > timeline.txt',
      'kubectl evtimeline -n op-events -o html --output-file timeline.html',
      'kubectl evtimeline -A --types=Critical,Warning --since 30m -o wide',
    ]))
    .action((_o, cmd: Command) => {
      const [word] = cmd.args;
      if (word !== undefined && (VERBS as readonly string[]).includes(word)) {
        // `--event-ttl 2h incident`: a verb's flag before the verb made the default verb take the words.
        throw new UsageError(`"${word}" is a verb: put it before its flags (kubectl evtimeline ${word} [flags])`);
      }
      if (word !== undefined) throw new UsageError(`unknown verb "${word}": want one of ${VERBS.join(', ')} (see --help)`);
      done(runTimeline(parseTimelineOptions(cmd.optsWithGlobals()), deps));
    });

  addFlags(verb(program, 'incident'), VERB_FLAGS.incident)
    .description('a written account of what happened, from events alone')
    .addHelpText('after', examples([
      'kubectl evtimeline incident -n op-events',
      'kubectl evtimeline incident --from timeline.txt',
      'kubectl evtimeline incident -n op-events --from events.jsonl --compare',
    ]))
    .action((_o, cmd: Command) => done(runIncident(parseIncidentOptions(cmd.optsWithGlobals()), deps)));

  addFlags(verb(program, 'type-audit'), VERB_FLAGS['type-audit'])
    .description('events whose type is not Normal or Warning, reasons that defeat aggregation, events with no object uid (exit 3 on findings)')
    .addHelpText('after', examples([
      'kubectl evtimeline type-audit -n op-events',
      'kubectl evtimeline type-audit -A -o json',
      'kubectl evtimeline type-audit --from capture/events.json || echo "unconventional events found"',
    ]))
    .action((_o, cmd: Command) => done(runTypeAudit(parseTypeAuditOptions(cmd.optsWithGlobals()), deps)));

  addFlags(verb(program, 'aggregate-patch'), VERB_FLAGS['aggregate-patch'])
    .description('record that an event happened again, as the event recorder does (the only verb that writes)')
    .argument('<name>', 'the event name')
    .addHelpText('after', examples([
      'kubectl evtimeline aggregate-patch build-1-started -n op-events --count 5',
      'kubectl evtimeline aggregate-patch build-1-done -n op-events --add 2',
      'kubectl evtimeline aggregate-patch build-1-started -n op-events --add 1 --dry-run=server',
    ]))
    .action((name: string, _o, cmd: Command) =>
      done(runAggregatePatch(parseAggregateOptions(name, cmd.optsWithGlobals()), deps)),
    );

  addFlags(verb(program, 'capture'), VERB_FLAGS.capture)
    .description("write the lab's reports and a replayable events.json into a new folder, atomically")
    .argument('<dir>', 'the folder to create')
    .addHelpText('after', examples([
      'kubectl evtimeline capture -n op-events ./incident-2026-11-30',
      'kubectl evtimeline capture -n op-events ./out --force',
      'kubectl evtimeline timeline --from ./out/events.json',
    ]))
    .action((dir: string, _o, cmd: Command) => done(runCapture(parseCaptureOptions(dir, cmd.optsWithGlobals()), deps)));

  addFlags(verb(program, 'export'), VERB_FLAGS.export)
    .description('send the events in scope (live, or --from any saved file) to an OpenTelemetry Collector as OTLP logs')
    .addHelpText('after', examples([
      'kubectl evtimeline export -n op-events --otlp http://localhost:4318/v1/logs',
      'kubectl evtimeline export --from events.jsonl --otlp https://otel.example.com/v1/logs --otlp-header Authorization="Bearer $TOKEN"',
      'kubectl evtimeline timeline --from collector-logs.jsonl',
    ]))
    .action((_o, cmd: Command) => done(runExport(parseExportOptions(cmd.optsWithGlobals()), deps)));

  addFlags(verb(program, 'record'), VERB_FLAGS.record)
    .description('watch events and append every version to a JSON Lines file that outlives the TTL')
    .argument('<file>', 'the record to append to (resumed if it exists)')
    .addHelpText('after', examples([
      'kubectl evtimeline record -n op-events events.jsonl',
      'kubectl evtimeline record -A all-events.jsonl --duration 8h',
      'kubectl evtimeline incident --from events.jsonl',
      'kubectl evtimeline record -n op-events events.jsonl --otlp http://localhost:4318/v1/logs',
    ]))
    .action((file: string, _o, cmd: Command) => done(runRecord(parseRecordOptions(file, cmd.optsWithGlobals()), deps)));

  return program;
}

/**
 * pflag (kubectl) reads `-o=json`, `-n=ns` and `-v=6` as the flag and its value; commander would hand
 * over `=json`. Words after `--` are left alone.
 */
function splitShortFlagValues(argv: string[]): string[] {
  const end = argv.indexOf('--');
  const head = end < 0 ? argv : argv.slice(0, end);
  const tail = end < 0 ? [] : argv.slice(end);
  return [...head.flatMap((word) => (/^-[A-Za-z]=/.test(word) ? [word.slice(0, 2), word.slice(3)] : [word])), ...tail];
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
  let result: Promise<CommandResult> | undefined;
  const program = buildProgram(deps, (r) => (result = r));
  try {
    await program.parseAsync(splitShortFlagValues(argv), { from: 'user' });
    return result ? (await result).exitCode : EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return EXIT.ok; // --help, --version
      throw new UsageError(error.message.replace(/^error: /, ''));
    }
    throw inUserWords(error);
  }
}

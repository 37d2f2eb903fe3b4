// Commander wiring: declares the verbs and flags, turns raw options into typed ones, and runs the verb.
// Program-level flags are recognised before and after the verb, because kubectl hands a plugin
// everything after its name: `kubectl evtimeline -n ns incident` and `... incident -n ns` both work.
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import type { Deps } from './deps.ts';
import { EXIT, UsageError } from './errors.ts';
import type { CommandResult } from './errors.ts';
import { parseAggregateOptions, runAggregatePatch } from './commands/aggregate-patch.ts';
import { parseCaptureOptions, runCapture } from './commands/capture.ts';
import { runComplete } from './commands/complete.ts';
import { parseIncidentOptions, runIncident } from './commands/incident.ts';
import { parseRecordOptions, runRecord } from './commands/record.ts';
import { parseTimelineOptions, runTimeline } from './commands/timeline.ts';
import { parseTypeAuditOptions, runTypeAudit } from './commands/type-audit.ts';
import { VERBS } from './commands/verbs.ts';
import { versionText } from './version.ts';


function examples(lines: string[]): string {
  return `\nExamples:\n${lines.map((line) => `  ${line}`).join('\n')}\n`;
}

function addGlobalOptions(program: Command): void {
  program
    .option('-n, --namespace <name>', "namespace to read (default: the context's namespace, else default)")
    .option('-A, --all-namespaces', 'read every namespace')
    .option('--context <name>', 'kubeconfig context to use')
    .option('--kubeconfig <path>', 'kubeconfig file to use (default: $KUBECONFIG, else ~/.kube/config)')
    .option('--request-timeout <duration>', 'give up on a request after this long, e.g. 30s (0: never)', '0')
    .option('--from <file>', 'read a saved capture, event list, record or stable table instead of the cluster (- for stdin)')
    .option('--for <kind/name>', 'only events about this object, e.g. Pod/hungry or po/hungry (kind, plural or short name, any case)')
    .option('--types <types>', 'only these types, comma-separated; any value, e.g. Critical (repeatable)', collect)
    .option('--reason <reasons>', 'only these reasons, comma-separated (repeatable)', collect)
    .option('--since <duration>', 'only events last seen within this long, e.g. 15m')
    .addOption(new Option('--color <when>', 'colour output').choices(['auto', 'always', 'never']).default('auto'))
    .option('--template <string>', 'template string or path to template file to use when -o=jsonpath, -o=jsonpath-file (kubectl jsonpath: http://kubernetes.io/docs/user-guide/jsonpath)')
    .option('--allow-missing-template-keys [bool]', 'if true, ignore any errors in templates when a field or map key is missing in the template (default true)', parseBool, true);
}

/** kubectl's boolean flags: --flag, --flag=true, --flag=false. */
function parseBool(value: string | undefined): boolean {
  if (value === undefined || value === 'true') return true;
  if (value === 'false') return false;
  throw new InvalidArgumentError('want true or false');
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** Builds the program; each action stores its verb's result for runCli to return. */
export function buildProgram(deps: Deps, done: (result: Promise<CommandResult>) => void): Command {
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
  addGlobalOptions(program);

  program
    .command('timeline', { isDefault: true })
    .description('the story of a namespace in time order (the default verb)')
    // A word that is not a verb lands here: reported as an unknown verb, not as "too many arguments".
    .allowExcessArguments(true)
    .addOption(new Option('-o, --output <format>', 'table, wide, stable, json, yaml, name, jsonpath=TEMPLATE, jsonpath-file=FILE or jsonpath-as-json=TEMPLATE').default('table'))
    .option('--no-headers', 'omit the header row')
    .option('--compare', 'with --from: also read the live cluster and mark the events it no longer has')
    .addHelpText('after', examples([
      'kubectl evtimeline -n op-events',
      'kubectl evtimeline -n op-events -o stable > timeline.txt',
      'kubectl evtimeline -A --types=Critical,Warning --since 30m -o wide',
    ]))
    .action((_o, cmd: Command) => {
      if (cmd.args.length > 0) {
        throw new UsageError(`unknown verb "${cmd.args[0]}": want one of ${VERBS.join(', ')} (see --help)`);
      }
      done(runTimeline(parseTimelineOptions(cmd.optsWithGlobals()), deps));
    });

  program
    .command('incident')
    .description('a written account of what happened, from events alone')
    .addOption(new Option('-o, --output <format>', 'text, json, yaml, jsonpath=TEMPLATE, jsonpath-file=FILE or jsonpath-as-json=TEMPLATE').default('text'))
    .option('--event-ttl <duration>', "the API server's --event-ttl, when it is not the default 1h")
    .option('--compare', 'with --from: also read the live cluster and say which events it no longer has')
    .addHelpText('after', examples([
      'kubectl evtimeline incident -n op-events',
      'kubectl evtimeline incident --from timeline.txt',
      'kubectl evtimeline incident -n op-events --from events.jsonl --compare',
    ]))
    .action((_o, cmd: Command) => done(runIncident(parseIncidentOptions(cmd.optsWithGlobals()), deps)));

  program
    .command('type-audit')
    .description('events whose type is not Normal or Warning, reasons that defeat aggregation, events with no object uid (exit 3 on findings)')
    .addOption(new Option('-o, --output <format>', 'text, json, yaml, name, jsonpath=TEMPLATE, jsonpath-file=FILE or jsonpath-as-json=TEMPLATE').default('text'))
    .addHelpText('after', examples([
      'kubectl evtimeline type-audit -n op-events',
      'kubectl evtimeline type-audit -A -o json',
      'kubectl evtimeline type-audit --from capture/events.json || echo "unconventional events found"',
    ]))
    .action((_o, cmd: Command) => done(runTypeAudit(parseTypeAuditOptions(cmd.optsWithGlobals()), deps)));

  program
    .command('aggregate-patch')
    .description('record that an event happened again, as the event recorder does (the only verb that writes)')
    .argument('<name>', 'the event name')
    .option('--add <n>', 'occurrences to add (default 1)')
    .option('--count <n>', 'set the total count instead')
    .option('--at <time>', 'when the last occurrence was, RFC 3339 (default now)')
    .addOption(new Option('--dry-run <mode>', 'none, server or client').default('none'))
    .addHelpText('after', examples([
      'kubectl evtimeline aggregate-patch build-1-started -n op-events --count 5',
      'kubectl evtimeline aggregate-patch build-1-done -n op-events --add 2',
      'kubectl evtimeline aggregate-patch build-1-started -n op-events --add 1 --dry-run=server',
    ]))
    .action((name: string, _o, cmd: Command) =>
      done(runAggregatePatch(parseAggregateOptions(name, cmd.optsWithGlobals()), deps)),
    );

  program
    .command('capture')
    .description("write the lab's reports and a replayable events.json into a new folder, atomically")
    .argument('<dir>', 'the folder to create')
    .option('--force', 'replace a folder that is not empty')
    .option('--event-ttl <duration>', "the API server's --event-ttl, when it is not the default 1h")
    .addHelpText('after', examples([
      'kubectl evtimeline capture -n op-events ./incident-2026-11-30',
      'kubectl evtimeline capture -n op-events ./out --force',
      'kubectl evtimeline timeline --from ./out/events.json',
    ]))
    .action((dir: string, _o, cmd: Command) => done(runCapture(parseCaptureOptions(dir, cmd.optsWithGlobals()), deps)));

  program
    .command('record')
    .description('watch events and append every version to a JSON Lines file that outlives the TTL')
    .argument('<file>', 'the record to append to (resumed if it exists)')
    .option('--duration <duration>', 'stop after this long (default: until Ctrl-C)')
    .addHelpText('after', examples([
      'kubectl evtimeline record -n op-events events.jsonl',
      'kubectl evtimeline record -A all-events.jsonl --duration 8h',
      'kubectl evtimeline incident --from events.jsonl',
    ]))
    .action((file: string, _o, cmd: Command) => done(runRecord(parseRecordOptions(file, cmd.optsWithGlobals()), deps)));

  return program;
}

/** Parses argv and runs one verb. Commander's usage errors become UsageError (exit 2). */
export async function runCli(argv: string[], deps: Deps): Promise<number> {
  // kubectl completes a plugin's arguments by running kubectl_complete-evtimeline with the words
  // typed so far, which calls this. The words are not parsed as flags: they are what to complete.
  if (argv[0] === '__complete') return (await runComplete(argv.slice(1), deps)).exitCode;
  let result: Promise<CommandResult> | undefined;
  const program = buildProgram(deps, (r) => (result = r));
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return EXIT.ok; // --help, --version
      throw new UsageError(error.message.replace(/^error: /, ''));
    }
    throw error;
  }
  return result ? (await result).exitCode : EXIT.ok;
}

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
    .option('--from <file>', 'read a saved capture, event list, record, stable table or collector file (OTLP JSON lines) instead of the cluster (- for stdin)')
    .option('--for <kind/name>', 'only events about this object, e.g. Pod/hungry or po/hungry (kind, plural or short name, any case)')
    .option('--types <types>', 'only these types, comma-separated; any value, e.g. Critical (repeatable)', collect)
    .option('--reason <reasons>', 'only these reasons, comma-separated (repeatable)', collect)
    .option('--since <duration>', 'only events last seen within this long, e.g. 15m')
    .addOption(new Option('--color <when>', 'colour output').choices(['auto', 'always', 'never']).default('auto'))
    .option('-s, --server <address>', 'the address and port of the Kubernetes API server')
    .option('--token <string>', 'bearer token for authentication to the API server')
    .option('--user <string>', 'the name of the kubeconfig user to use')
    .option('--cluster <string>', 'the name of the kubeconfig cluster to use')
    .option('--certificate-authority <path>', 'path to a cert file for the certificate authority')
    .option('--client-certificate <path>', 'path to a client certificate file for TLS')
    .option('--client-key <path>', 'path to a client key file for TLS')
    .option('--insecure-skip-tls-verify [bool]', "if true, the server's certificate will not be checked for validity. This will make your HTTPS connections insecure", parseBool)
    .option('--tls-server-name <string>', 'server name to use for server certificate validation. If it is not provided, the hostname used to contact the server is used')
    .option('--as <string>', 'username to impersonate for the operation. User could be a regular user or a service account in a namespace')
    .option('--as-group <string>', 'group to impersonate for the operation, this flag can be repeated to specify multiple groups', collect)
    .option('--as-uid <string>', 'UID to impersonate for the operation')
    .option('-v, --v <level>', 'number for the log level verbosity (6: each request and its status)')
    .option('--template <string>', 'template string or path to template file to use when -o=jsonpath, -o=jsonpath-file (kubectl jsonpath: http://kubernetes.io/docs/user-guide/jsonpath)')
    .option('--allow-missing-template-keys [bool]', 'if true, ignore any errors in templates when a field or map key is missing in the template (default true)', parseBool, true);
}

/** kubectl's boolean flags: --flag, --flag=true, --flag=false. */
function parseBool(value: string | undefined): boolean {
  if (value === undefined || value === 'true') return true;
  if (value === 'false') return false;
  throw new InvalidArgumentError('want true or false');
}

/** --otlp and its companions, for export and record. */
function addOtlpOptions(command: Command, urlHelp: string): void {
  command
    .option('--otlp <url>', urlHelp)
    .option('--otlp-json', 'send OTLP JSON instead of protobuf')
    .option('--otlp-header <name=value>', 'an HTTP header for every request, e.g. Authorization=Bearer... (repeatable)', collect)
    .option('--otlp-ca <file>', 'PEM file of the CAs to trust for an https endpoint')
    .option('--otlp-timeout <duration>', 'give up on one request after this long (default 30s)')
    .option('--otlp-batch <n>', 'log records per request (default 1000)');
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
    .addOption(new Option('-o, --output <format>', 'table, wide, stable, html (a self-contained page), json, yaml, name, jsonpath=TEMPLATE, jsonpath-file=FILE or jsonpath-as-json=TEMPLATE').default('table'))
    .option('--no-headers', 'omit the header row')
    .option('--absolute-times', 'print RFC 3339 times instead of ages (table and wide)')
    .option('-w, --watch', 'after listing the requested events, watch for more: each new occurrence once')
    .option('--watch-only', 'watch for new occurrences without listing the events there are now')
    .option('--compare', 'with --from: also read the live cluster and mark the events it no longer has')
    .option('--event-ttl <duration>', "-o html: the API server's --event-ttl, when it is not the default 1h")
    .option('--output-file <file>', 'write the output to this file (whole or not at all) instead of stdout')
    .addHelpText('after', examples([
      'kubectl evtimeline -n op-events',
      'kubectl evtimeline -n op-events -o stable > timeline.txt',
      'kubectl evtimeline -n op-events -o html --output-file timeline.html',
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
    .option('--absolute-times', 'print RFC 3339 times instead of ages')
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

  const exportCommand = program
    .command('export')
    .description('send the events in scope (live, or --from any saved file) to an OpenTelemetry Collector as OTLP logs')
    .addHelpText('after', examples([
      'kubectl evtimeline export -n op-events --otlp http://localhost:4318/v1/logs',
      'kubectl evtimeline export --from events.jsonl --otlp https://otel.example.com/v1/logs --otlp-header Authorization="Bearer $TOKEN"',
      'kubectl evtimeline timeline --from collector-logs.jsonl',
    ]))
    .action((_o, cmd: Command) => done(runExport(parseExportOptions(cmd.optsWithGlobals()), deps)));
  addOtlpOptions(exportCommand, "the collector's OTLP/HTTP logs endpoint, e.g. http://localhost:4318/v1/logs");

  const recordCommand = program
    .command('record')
    .description('watch events and append every version to a JSON Lines file that outlives the TTL')
    .argument('<file>', 'the record to append to (resumed if it exists)')
    .option('--duration <duration>', 'stop after this long (default: until Ctrl-C)')
    .addHelpText('after', examples([
      'kubectl evtimeline record -n op-events events.jsonl',
      'kubectl evtimeline record -A all-events.jsonl --duration 8h',
      'kubectl evtimeline incident --from events.jsonl',
      'kubectl evtimeline record -n op-events events.jsonl --otlp http://localhost:4318/v1/logs',
    ]))
    .action((file: string, _o, cmd: Command) => done(runRecord(parseRecordOptions(file, cmd.optsWithGlobals()), deps)));
  addOtlpOptions(recordCommand, 'also ship each observation, as it is recorded, to this OTLP/HTTP logs endpoint (the file stays the source of truth)');

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

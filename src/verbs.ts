// What running a verb needs beyond the wiring of src/cli.ts: the verbs themselves, the real
// adapters (src/system.ts), completion's cluster lookups, and the wording of domain errors. The
// build makes this module a chunk of its own (src/chunk.ts verbsModule), compiled only when a verb
// runs, so `--version`, `--help`, completion of flags and a usage error never compile it.
import type { Deps } from './deps.ts';
import type { CommandResult } from './errors.ts';
import { parseAggregateOptions, runAggregatePatch } from './commands/aggregate-patch.ts';
import { parseCaptureOptions, runCapture } from './commands/capture.ts';
import { parseExportOptions, runExport } from './commands/export.ts';
import { parseIncidentOptions, runIncident } from './commands/incident.ts';
import { parseRecordOptions, runRecord } from './commands/record.ts';
import { parseTimelineOptions, runTimeline } from './commands/timeline.ts';
import { parseTypeAuditOptions, runTypeAudit } from './commands/type-audit.ts';
import { parseWaitOptions, runWait } from './commands/wait.ts';
import { inUserWords } from './options/user-errors.ts';
import type { RawOptions } from './options/raw.ts';
import type { Verb } from './options/verbs.ts';

export { systemEventStores, systemSources } from './system.ts';
export { clusterNameLookups } from './kube/completion-names.ts';

/** Each verb's options parsed, then the verb run; `argument` is its one word (src/cli.ts declares which). */
const RUNS: { [V in Verb]: (argument: string, raw: RawOptions, deps: Deps) => Promise<CommandResult> } = {
  timeline: (_argument, raw, deps) => runTimeline(parseTimelineOptions(raw), deps),
  incident: (_argument, raw, deps) => runIncident(parseIncidentOptions(raw), deps),
  'type-audit': (_argument, raw, deps) => runTypeAudit(parseTypeAuditOptions(raw), deps),
  'aggregate-patch': (name, raw, deps) => runAggregatePatch(parseAggregateOptions(name, raw), deps),
  capture: (dir, raw, deps) => runCapture(parseCaptureOptions(dir, raw), deps),
  export: (_argument, raw, deps) => runExport(parseExportOptions(raw), deps),
  wait: (object, raw, deps) => runWait(parseWaitOptions(object, raw), deps),
  record: (file, raw, deps) => runRecord(parseRecordOptions(file, raw), deps),
};

/** Runs one verb; a domain error comes back in the user's words (src/options/user-errors.ts). */
export async function runVerb(verb: Verb, argument: string, raw: RawOptions, deps: Deps): Promise<CommandResult> {
  try {
    return await RUNS[verb](argument, raw, deps);
  } catch (error) {
    throw inUserWords(error);
  }
}

// `kubectl evtimeline wait TYPE/NAME`: a rollout gate. It waits as `kubectl rollout status` (or
// `kubectl wait --for=condition=`) waits, prints each event of this rollout as it comes, and on a
// failure tells the incident account of this rollout alone (owner first, with its Why), then exits
// with a code of its own (core/wait.ts WAIT_EXIT). The follows are app/wait-follow.ts.
import type { Deps } from '../deps.ts';
import { RuntimeError, UsageError } from '../errors.ts';
import type { CommandResult } from '../errors.ts';
import { buildIncident } from '../core/incident.ts';
import { DEFAULT_EVENT_TTL_MS } from '../core/event-ttl.ts';
import type { Incident } from '../core/incident.ts';
import { parseDuration } from '../core/duration.ts';
import { filterEvents, parseObjectRef } from '../core/filter.ts';
import type { EventFilter } from '../core/filter.ts';
import { StartupProbeEvidence } from '../core/startup-probes.ts';
import { rolloutTarget } from '../core/rollout-status.ts';
import type { WaitTarget } from '../core/rollout-status.ts';
import { ofThisRollout, WAIT_EXIT } from '../core/wait.ts';
import type { Event } from '../core/event.ts';
import type { EventSource } from '../core/source.ts';
import { choosePalette } from '../render/color.ts';
import { escapeTerminal } from '../render/escape.ts';
import { renderIncidentText } from '../render/incident-text.ts';
import { watchNoticeText } from '../render/adapter-notices.ts';
import { renderFailureHeadline, renderSuccess, renderWaitEvent, renderWaitStatus } from '../render/wait-text.ts';
import { renderWaitMarkdown, toWaitJson } from '../render/wait-report.ts';
import type { WaitReport } from '../render/wait-report.ts';
import { escapeJsonUnsafe } from '../render/json.ts';
import { oneContext, parseCommonOptions, parseOutputFile } from '../options/common.ts';
import type { CommonOptions } from '../options/common.ts';
import type { RawOptions } from '../options/raw.ts';
import { resolveFilter } from '../app/for-object.ts';
import { gather } from '../app/gather.ts';
import { statusLine } from '../app/status-line.ts';
import { followWait } from '../app/wait-follow.ts';
import type { WaitEnd } from '../app/wait-follow.ts';
import { writeFileAtomic } from '../io/atomic.ts';
import { appendText } from '../io/append.ts';

interface WaitOptions {
  common: CommonOptions;
  /** the selection flags wait applies: which events are printed as they come and which Warnings fail --settle */
  selection: EventFilter;
  /** 0: wait for ever */
  timeoutMs: number;
  settleMs: number;
  condition: { type: string; status: string } | null;
  quiet: boolean;
  json: boolean;
  outputFile: string | null;
  waitForCreate: boolean;
}

const DEFAULT_TIMEOUT_MS = 5 * 60_000;

function durationFlag(raw: RawOptions, key: string, flag: string, fallback: number): number {
  const text = raw[key];
  if (typeof text !== 'string') return fallback;
  const ms = /^\d+$/.test(text) ? Number(text) * 1000 : parseDuration(text);
  if (ms === null || ms < 0) throw new UsageError(`${flag} ${JSON.stringify(text)}: want a duration such as 90s or 5m (0: ${flag === '--timeout' ? 'no timeout' : 'none'})`);
  return ms;
}

/** `--for-condition Ready` or `Ready=False`, as kubectl wait's `--for=condition=Ready[=False]`. */
function parseCondition(raw: RawOptions): WaitOptions['condition'] {
  const text = raw.forCondition;
  if (typeof text !== 'string') return null;
  const [type = '', status = 'True', ...rest] = text.split('=');
  if (type.trim() === '' || status === '' || rest.length > 0) throw new UsageError(`--for-condition ${JSON.stringify(text)}: want a condition type, e.g. Ready or Ready=False`);
  return { type, status };
}

export function parseWaitOptions(object: string, raw: RawOptions): WaitOptions {
  if (object === '' || parseObjectRef(object) === null) throw new UsageError(`wait ${JSON.stringify(object)}: want TYPE/NAME, e.g. deployment/web`);
  if (typeof raw.for === 'string') throw new UsageError('wait names its object as an argument (wait TYPE/NAME): --for does not apply');
  const common = oneContext(parseCommonOptions({ ...raw, for: object, tree: true }), 'wait');
  if (common.from !== null) throw new UsageError('wait follows the live cluster: --from does not apply');
  if (common.scope.allNamespaces) throw new UsageError('wait follows one object: -A does not apply (name its namespace with -n)');
  const output = raw.output;
  if (output !== undefined && output !== 'text' && output !== 'json') throw new UsageError(`-o ${JSON.stringify(output)}: want text or json`);
  // kubectl wait prints the object through --template when -o is not given (cli-runtime
  // genericclioptions/print_flags.go:102-107: a Go template); this wait prints its own account of
  // the rollout, never the object, so a template would be dropped without a word.
  // --allow-missing-template-keys only tunes a template: accepted and unused, as in kubectl wait without one.
  if (typeof raw.template === 'string' && raw.template !== '') throw new UsageError('wait prints its own account of the rollout (-o text or json), not the object: --template does not apply');
  const settleMs = durationFlag(raw, 'settle', '--settle', 0);
  return {
    common,
    selection: waitSelection(common.filter, settleMs),
    timeoutMs: durationFlag(raw, 'timeout', '--timeout', DEFAULT_TIMEOUT_MS),
    settleMs,
    condition: parseCondition(raw),
    quiet: raw.quiet === true,
    json: output === 'json',
    outputFile: parseOutputFile(raw),
    waitForCreate: raw.waitForCreate === true,
  };
}

/**
 * The selection flags in a gate. Those that choose events by what they say (--types, --exclude-type,
 * --reason, --exclude-reason, --message, --exclude-message, --field-selector, --exclude-startup-probes)
 * choose the lines printed as they come and the Warnings that fail --settle; the verdict, the account
 * of a failure and the JSON's events stay whole. Those that choose a window or other objects (the
 * rollout is the window, the object's tree the objects) are refused.
 */
function waitSelection(filter: EventFilter, settleMs: number): EventFilter {
  const refused: [unknown, string, string][] = [
    [filter.sinceMs, '--since', 'the events of this rollout are those since it began'],
    [filter.sinceTime, '--since-time', 'the events of this rollout are those since it began'],
    [filter.until, '--until', 'the events of this rollout are those since it began'],
    [filter.labels, '-l', 'it follows the tree of the object it waits for (name it as TYPE/NAME)'],
  ];
  for (const [value, flag, why] of refused) if (value !== undefined) throw new UsageError(`wait does not take ${flag}: ${why}`);
  const { object: _object, ...selection } = filter;
  if (settleMs > 0) {
    const types = selection.types ?? [];
    const hidden = (types.length > 0 && !types.some((t) => t.toLowerCase() === 'warning')) || (selection.excludeTypes ?? []).some((t) => t.toLowerCase() === 'warning');
    if (hidden) throw new UsageError(`--settle fails on a Warning, and ${types.length > 0 ? `--types ${types.join(',')}` : '--exclude-type'} hides every one: drop one of them`);
  }
  return selection;
}

export async function runWait(opts: WaitOptions, deps: Deps): Promise<CommandResult> {
  const source = await deps.openSource({ kind: 'cluster', scope: opts.common.scope });
  const resolved = await resolveFilter(source, opts.common.filter);
  const selector = resolved.object;
  const served = (await source.discovery?.served())?.find((r) => r.group === selector?.group && r.kind === selector.kind && !r.resource.includes('/'));
  if (selector === undefined || served === undefined) throw new RuntimeError('wait follows the live cluster: the object\'s resource is not served');
  const target: WaitTarget | null = opts.condition === null ? rolloutTarget(served.group, served.kind) : { kind: 'condition', ...opts.condition };
  if (target === null) throw new UsageError(`no rollout status for ${escapeTerminal(served.kind)}: name the condition to wait for, e.g. --for-condition Ready`);
  const namespace = source.provenance.namespace ?? 'default';
  const what = `${served.kind.toLowerCase()} ${JSON.stringify(selector.name)}`;
  const watched = { group: served.group, version: served.version, resource: served.resource, kind: served.kind, namespaced: served.namespaced, namespace, name: selector.name };
  const live = !opts.quiet;
  const status = statusLine(deps);
  const events = opts.json ? deps.stderr : deps.stdout;
  let latest: Parameters<typeof renderWaitStatus>[0] = null;
  const startedAt = deps.now();
  const redraw = () => status.show(renderWaitStatus(latest, `Waiting for ${what} to be created...`, deps.now() - startedAt));
  const ticker = live ? setInterval(redraw, 1000) : undefined;
  // A start-up probe's Unhealthy is hidden while no Killing for it has arrived (--exclude-startup-probes).
  const startup = new StartupProbeEvidence();
  const select = (evs: Event[]): Event[] => filterEvents(evs, opts.selection, deps.now(), { startupBelowThreshold: startup.learn(evs).belowThreshold });
  let end: WaitEnd;
  try {
    end = await followWait(
      source,
      {
        watched,
        selector,
        target,
        what,
        timeoutMs: opts.timeoutMs,
        settleMs: opts.settleMs,
        waitForCreate: opts.waitForCreate,
        select,
        onEvent: (ev, began) => {
          if (!live) return;
          status.clear();
          events.write(renderWaitEvent(ev, began));
          redraw();
        },
        forget: (ev) => startup.forget([ev]),
        onStatus: (s) => {
          latest = s;
          if (live) redraw();
        },
        onNotice: (n) => status.notice(watchNoticeText(n)),
      },
      deps,
    );
  } finally {
    clearInterval(ticker);
    status.clear();
  }
  const exitCode = WAIT_EXIT[end.outcome];
  const report = await reportOf(end, { source, opts, selector, namespace, exitCode }, deps);
  await writeReport(report, opts, deps);
  return { exitCode: exitCode as CommandResult['exitCode'] };
}

/** The result, with the account of this rollout read now (unless it succeeded): its events and facts, its tree owner first. */
async function reportOf(end: WaitEnd, ctx: { source: EventSource; opts: WaitOptions; selector: { kind: string; group?: string; name: string }; namespace: string; exitCode: number }, deps: Deps): Promise<WaitReport> {
  const { opts, selector } = ctx;
  let events: Event[] = end.events;
  let incident: Incident | undefined;
  if (end.outcome !== 'succeeded' && end.began !== null) {
    try {
      const read = await gather({ common: { ...opts.common, filter: { object: selector } }, compare: false, lookups: true, facts: true }, deps);
      events = ofThisRollout(read.events, end.began);
      incident = buildIncident(events, {
        now: read.now,
        provenance: read.provenance,
        eventTTLms: DEFAULT_EVENT_TTL_MS,
        ...(read.live === undefined ? {} : { live: read.live }),
        ...(read.tree === undefined ? {} : { tree: read.tree }),
        ...(read.facts === undefined ? {} : { facts: read.facts }),
      });
    } catch (error) {
      // The gate's verdict stands; the account is what could not be read.
      deps.stderr.write(`warning: the account of this rollout could not be read: ${escapeTerminal(error instanceof Error ? error.message : String(error))}\n`);
    }
  }
  return {
    object: { group: selector.group ?? '', kind: selector.kind, name: selector.name, namespace: ctx.namespace, uid: end.first?.uid ?? '' },
    outcome: end.outcome,
    exitCode: ctx.exitCode,
    message: end.outcome === 'timed-out' && end.status !== null ? `${end.message}: ${end.status.message}` : end.message,
    status: end.status,
    startedAt: end.startedAt,
    rolloutBegan: end.began,
    finishedAt: end.endedAt,
    settleMs: end.succeededAt === null ? 0 : end.endedAt - end.succeededAt,
    events: [...events].sort((a, b) => (a.lastSeen ?? 0) - (b.lastSeen ?? 0)),
    ...(incident === undefined ? {} : { incident }),
  };
}

async function writeReport(report: WaitReport, opts: WaitOptions, deps: Deps): Promise<void> {
  const json = `${escapeJsonUnsafe(JSON.stringify(toWaitJson(report), null, 2))}\n`;
  const took = report.finishedAt - (report.rolloutBegan ?? report.startedAt);
  if (opts.json) deps.stdout.write(json);
  else if (report.outcome === 'succeeded') deps.stdout.write(renderSuccess(report.message, report.status ?? undefined, took, report.settleMs));
  else {
    deps.stdout.write(renderFailureHeadline(report.outcome, report.message, took, report.exitCode));
    if (report.incident !== undefined) {
      const palette = choosePalette({ flag: opts.common.color, isTTY: deps.stdout.isTTY, env: deps.env });
      deps.stdout.write(`\n${renderIncidentText({ ...report.incident, absoluteTimes: false, detail: false }, palette)}`);
    }
  }
  if (opts.outputFile !== null) await writeFileAtomic(opts.outputFile, json);
  const summary = deps.env.GITHUB_STEP_SUMMARY;
  if (summary !== undefined && summary !== '') await appendText(summary, renderWaitMarkdown(report));
}

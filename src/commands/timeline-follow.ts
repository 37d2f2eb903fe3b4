// `kubectl evtimeline -w` / `--watch-only`: the timeline, then each new occurrence as it happens,
// from one watch on core/v1 (events written through events.k8s.io/v1 arrive there too: one store)
// started at the list's resourceVersion. The list, watch, resume and relist-on-410 loop is the
// record verb's (EventSource.follow: kube/watch.ts followEvents); what counts as new is core/follow.ts. Unlike
// `kubectl events -w` (kubernetes#116974, kubectl#704) an update that is no new occurrence prints
// nothing, and a relist prints only what was not shown.
import type { Deps } from '../deps.ts';
import { RuntimeError, readResult } from '../errors.ts';
import type { Unanswered } from '../core/source.ts';
import { renderStoppedFollowing } from '../render/fleet.ts';
import type { CommandResult } from '../errors.ts';
import { normaliseEvent } from '../core/event.ts';
import type { Event } from '../core/event.ts';
import { filterCounted, filterEvents, selectEvents } from '../core/filter.ts';
import { renderHiddenFooter } from '../render/hidden.ts';
import { criterionFlag } from '../options/selection.ts';
import { StartupProbeEvidence } from '../core/startup-probes.ts';
import { followedLabels } from '../app/labels.ts';
import { resolveFilter } from '../app/for-object.ts';
import { FollowVerdicts, ShownLines, ShownOccurrences } from '../core/follow.ts';
import { dedupeByUid } from '../core/timeline.ts';
import { choosePalette } from '../render/color.ts';
import { renderDocument } from '../render/document.ts';
import { escapeTerminal } from '../render/escape.ts';
import { watchNoticeText } from '../render/adapter-notices.ts';
import { escapeJsonUnsafe, toJsonEvent } from '../render/json.ts';
import { renderTimelineTable } from '../render/timeline-table.ts';
import { noEventsMessage } from '../render/notices.ts';
import type { CommonOptions } from '../options/common.ts';
import type { OutputChoice } from '../options/output.ts';
import { followTree } from '../app/tree-follow.ts';
import type { FollowedTree } from '../app/tree-follow.ts';

/** Prints batches of new occurrences in the chosen format; the first batch carries the table's header. */
/** What -w reads of the timeline's options (src/commands/timeline.ts TimelineOptions). */
export interface FollowOptions {
  common: CommonOptions;
  output: OutputChoice<string>;
  noHeaders: boolean;
  absoluteTimes: boolean;
}

function printer(opts: FollowOptions, deps: Deps, allNamespaces: boolean, tree: FollowedTree | null, contexts: boolean, stable: ShownLines): (events: Event[]) => void {
  const stdout = deps.stdout;
  const palette = choosePalette({ flag: opts.common.color, isTTY: stdout.isTTY, env: deps.env });
  let headerShown = opts.noHeaders;
  return (events) => {
    if (events.length === 0) return;
    const output = opts.output;
    if (output.kind === 'document') {
      for (const ev of events) {
        const doc = toJsonEvent(ev, {}, tree?.chainOf(ev));
        // One JSON object per line, so a reader can parse each as it comes.
        if (output.printer.kind === 'json') stdout.write(`${escapeJsonUnsafe(JSON.stringify(doc))}\n`);
        else if (output.printer.kind === 'yaml') stdout.write(`---\n${renderDocument(doc, [], output.printer, stdout.isTTY)}`);
        else stdout.write(renderDocument(doc, [ev.name], output.printer, stdout.isTTY));
      }
      return;
    }
    if (output.format === 'stable') {
      // Each line once while the server holds an event that says it (core/follow.ts ShownLines).
      for (const line of stable.takeNew(events)) stdout.write(`${line}\n`);
      return;
    }
    stdout.write(
      renderTimelineTable(events, {
        now: deps.now(),
        wide: output.format === 'wide',
        allNamespaces,
        ...(contexts ? { contexts } : {}),
        noHeaders: headerShown,
        palette,
        absoluteTimes: opts.absoluteTimes,
        ...(tree === null ? {} : { chainOf: (ev: Event) => tree.chainOf(ev) }),
      }),
    );
    headerShown = true;
  };
}

/** Stops on Ctrl-C, SIGTERM, or once stdout can take no more (`| head`, a full disk). */
function stopSignal(deps: Deps): AbortSignal {
  const controller = new AbortController();
  void deps.interrupted().then(() => controller.abort());
  void deps.stdoutClosed?.().then(() => controller.abort());
  return controller.signal;
}

export async function runFollow(opts: FollowOptions, watchOnly: boolean, deps: Deps): Promise<CommandResult> {
  const source = await deps.openSource({ kind: 'cluster', scope: opts.common.scope });
  if (source.follow === undefined) throw new RuntimeError('--watch needs a source that can be followed');
  const resolved = await resolveFilter(source, opts.common.filter);
  const { namespace } = source.provenance;
  // --tree: the members' events; the tree grows as new objects join it (app/tree-follow.ts).
  const tree = opts.common.tree === true && resolved.object !== undefined ? followTree(source, resolved.object, deps) : null;
  // --field-selector goes to the server with the list and every watch, as kubectl get events -w sends it;
  // with --tree it is applied here, the tree being grown from every event.
  const sent = tree === null && opts.common.fieldSelector !== undefined;
  const filter = { ...resolved, ...(tree === null ? {} : { object: undefined }), ...(sent ? { fields: undefined } : {}) };
  // A start-up probe's Unhealthy is hidden while no Killing for it has arrived: below its threshold when shown.
  const startup = new StartupProbeEvidence();
  const labels = (resolved.labels?.length ?? 0) > 0 ? followedLabels(source, deps.now) : null;
  const ctx = { startupBelowThreshold: startup.belowThreshold, ...(labels === null ? {} : { labelsOf: labels.labelsOf }) };
  // Several contexts: one stream, each row labelled with its context (core/fleet-follow.ts).
  const fleet = source.provenance.kind === 'cluster' && source.provenance.clusters !== undefined;
  const stable = new ShownLines(escapeTerminal);
  const print = printer(opts, deps, namespace === null, tree, fleet, stable);
  const gaveUp: Unanswered[] = [];
  // What the selection hid, each event under its latest verdict: said once following ends.
  const verdicts = new FollowVerdicts();
  const judge = (candidates: Event[]): void => {
    for (const ev of candidates) verdicts.judge(ev, filterCounted([ev], filter, deps.now(), ctx).hidden[0]?.criterion ?? null);
  };
  const shown = new ShownOccurrences();
  // Each context's first list is what exists now (--watch-only shows none of it).
  const listed = new Set<string>();
  const steps = source.follow({
    resourceVersion: '',
    signal: stopSignal(deps),
    ...(sent ? { fieldSelector: opts.common.fieldSelector } : {}),
    notice: (notice) => deps.stderr.write(`${escapeTerminal(watchNoticeText(notice))}\n`),
    gaveUp: (member) => {
      gaveUp.push(member);
      deps.stderr.write(renderStoppedFollowing(member));
    },
  });
  for await (const step of steps) {
    let events: Event[];
    const cluster = step.cluster;
    const labelled = (ev: Event): Event => (cluster === undefined ? ev : Object.assign(ev, { cluster }));
    if (step.kind === 'list') {
      const listed = step.items.map((item) => labelled(normaliseEvent(item)));
      await tree?.listed(dedupeByUid(listed));
      startup.learn(listed);
      await labels?.learn(listed);
      judge(dedupeByUid(listed).filter((ev) => tree === null || tree.chainOf(ev) !== undefined));
      events = selectEvents(listed, filter, deps.now(), false, ctx).filter((ev) => tree === null || tree.chainOf(ev) !== undefined);
    } else if (step.kind === 'change' && step.type !== 'DELETED') {
      const ev = labelled(normaliseEvent(step.object));
      // Placed whatever --types says: its message may name a child whose events come next.
      const inTree = tree === null || (await tree.place(ev)) !== undefined;
      startup.learn([ev]);
      await labels?.learn([ev]);
      if (inTree) judge([ev]);
      events = inTree ? filterEvents([ev], filter, deps.now(), ctx) : [];
    } else if (step.kind === 'change') {
      // A deletion (the TTL) is no occurrence; what was kept of the event is let go (core/follow.ts).
      const ev = normaliseEvent(step.object);
      shown.forget(ev);
      stable.forget(ev);
      startup.forget([ev]);
      verdicts.settle(ev);
      continue;
    } else {
      continue; // resume steps carry no events
    }
    const fresh = shown.takeNew(events);
    const from = cluster?.context ?? '';
    if (!listed.has(from)) {
      listed.add(from);
      // --watch-only: what exists now counts as shown, and only what comes next prints.
      if (watchOnly) continue;
      if (fresh.length === 0 && opts.output.kind === 'verb' && !fleet) deps.stderr.write(noEventsMessage(namespace));
    }
    print(fresh);
  }
  deps.stderr.write(renderHiddenFooter(verdicts.hidden(), criterionFlag));
  return readResult(gaveUp);
}

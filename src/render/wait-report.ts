// The wait's result for CI: one JSON object (-o json, --output-file) and the Markdown summary a
// GitHub Actions step appends to $GITHUB_STEP_SUMMARY (the outcome, the Why, the events as a table).
import type { Event } from '../core/event.ts';
import type { Incident } from '../core/incident.ts';
import type { RolloutStatus } from '../core/rollout-status.ts';
import type { WaitOutcome } from '../core/wait.ts';
import { toWhyJson } from './causes-json.ts';
import type { WhyJson } from './causes-json.ts';
import { humanDuration } from './duration.ts';
import { escapeTerminal } from './escape.ts';
import { toJsonEvent } from './json.ts';
import type { JsonEvent } from './json.ts';
import { isoOrNull } from './time.ts';
import { outcomeWords } from './wait-text.ts';

export interface WaitReport {
  object: { group: string; kind: string; name: string; namespace: string; uid: string };
  outcome: WaitOutcome;
  exitCode: number;
  message: string;
  /** kubectl's last status line; null: the object was never seen */
  status: RolloutStatus | null;
  startedAt: number;
  /** null: the object was never seen */
  rolloutBegan: number | null;
  finishedAt: number;
  settleMs: number;
  /** the events of this rollout, in time order */
  events: Event[];
  /** the account of a failure (absent on success, or when it could not be read) */
  incident?: Incident;
}

interface WaitJson {
  kind: 'WaitResult';
  object: WaitReport['object'];
  outcome: WaitOutcome;
  exitCode: number;
  message: string;
  status: string | null;
  replicas: RolloutStatus['replicas'] | null;
  startedAt: string | null;
  rolloutBeganAt: string | null;
  finishedAt: string | null;
  durations: { waitSeconds: number; rolloutSeconds: number | null; settleSeconds: number };
  causes: WhyJson['causes'];
  events: JsonEvent[];
}

const seconds = (ms: number): number => Math.round(ms) / 1000;

export function toWaitJson(r: WaitReport): WaitJson {
  return {
    kind: 'WaitResult',
    object: r.object,
    outcome: r.outcome,
    exitCode: r.exitCode,
    message: r.message,
    status: r.status?.message ?? null,
    replicas: r.status?.replicas ?? null,
    startedAt: isoOrNull(r.startedAt),
    rolloutBeganAt: isoOrNull(r.rolloutBegan),
    finishedAt: isoOrNull(r.finishedAt),
    durations: { waitSeconds: seconds(r.finishedAt - r.startedAt), rolloutSeconds: r.rolloutBegan === null ? null : seconds(r.finishedAt - r.rolloutBegan), settleSeconds: seconds(r.settleMs) },
    causes: r.incident?.why === undefined ? [] : toWhyJson(r.incident.why).causes,
    events: r.events.map((ev) => toJsonEvent(ev)),
  };
}

/** Text in a Markdown table cell or line: terminal controls (newlines too) shown as the escaper shows them, then what Markdown or HTML would read. */
export function markdownText(text: string): string {
  return escapeTerminal(text)
    .replace(/[\\`*_[\]|#]/g, (c) => `\\${c}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

export function renderWaitMarkdown(r: WaitReport): string {
  const { object } = r;
  const mark = r.outcome === 'succeeded' ? '✅' : '❌';
  const took = humanDuration(r.finishedAt - (r.rolloutBegan ?? r.startedAt));
  const lines = [`### ${mark} ${markdownText(`${object.kind}/${object.name}`)} in ${markdownText(object.namespace)}: ${outcomeWords(r.outcome)}`, '', `${markdownText(r.message)} (after ${took}, exit ${r.exitCode})`, ''];
  const causes = r.incident?.why === undefined ? [] : toWhyJson(r.incident.why).causes.filter((c) => !c.expected);
  if (causes.length > 0) lines.push('**Why**', '', ...causes.map((c) => `- ${markdownText(c.sentence)}`), '');
  if (r.events.length > 0) {
    lines.push(`**Events of this rollout** (${r.events.length})`, '', '| Last seen | Type | Reason | Object | Message |', '| --- | --- | --- | --- | --- |');
    for (const ev of r.events) {
      const at = isoOrNull(ev.lastSeen) ?? '';
      lines.push(`| ${at} | ${markdownText(ev.type)} | ${markdownText(ev.reason)} | ${markdownText(`${ev.object.kind}/${ev.object.name}`)} | ${markdownText(ev.message)}${ev.count > 1 ? ` (x${ev.count})` : ''} |`);
    }
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}
